import { describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../../src/core/db/connection';
import { schemaVersion } from '../../../src/core/db/migrate';
import { MIGRATIONS } from '../../../src/core/db/migrations';
import { prune, RETENTION_DEFAULTS } from '../../../src/core/db/retention';
import { SqliteStore } from '../../../src/core/db/store';
import { vehicle } from '../watch/storeFixtures';
import { migrationFiles } from './migrationFile';

// A data file from the version before (schema 80), with observations stored the old way (a new copy of the raw
// record on every poll whose bytes differed), opened by this version: migrated to 90 with nothing lost, read as
// before, and from then on storing only what changed; the first retention pass prunes what the old code kept.

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

const files = migrationFiles();

/** A schema-80 file with one lot observed three times (bids 500, 500 with other bytes, 700) and a request log. */
function fileAtVersion80(): string {
  return files.at(80, (db) => {
    expect(schemaVersion(db)).toBe(80);
    const v = vehicle();
    const { raw: _r, ...normalized } = v;
    const raw = (bid: number, countdown: number) =>
      JSON.stringify({ ...(v.raw as object), pricing: { current_bid_usd: bid }, countdown });
    const obs = db.prepare(
      'INSERT INTO observations (lot_key, observed_at, source, raw_hash, raw) VALUES (?, ?, ?, ?, ?)',
    );
    obs.run('copart:50000001', NOW - 50 * DAY, 'watch:1', 'h1', raw(500, 3));
    obs.run('copart:50000001', NOW - 50 * DAY + 60_000, 'watch:1', 'h2', raw(500, 2));
    obs.run('copart:50000001', NOW - 50 * DAY + 120_000, 'watch:1', 'h3', raw(700, 1));
    db.prepare(
      `INSERT INTO lots (lot_key, platform, lot_number, vin, title, year, make, model, location, current_bid_usd,
      buy_now_usd, sale_price_usd, state, lot_status, lot_sub_status, auction_at, normalized, raw, raw_hash,
      first_seen_at, last_observed_at)
    VALUES ('copart:50000001', 'copart', '50000001', ?, ?, 2003, 'HONDA', 'ACCORD', 'Dallas (TX)', 700, NULL, NULL, 'open',
      'Timed', 'Open', ?, ?, ?, 'h3', ?, ?)`,
    ).run(
      v.vin,
      v.title,
      NOW - 49 * DAY,
      JSON.stringify({ ...normalized, pricing: { ...normalized.pricing, current_bid_usd: 700 } }),
      raw(700, 1),
      NOW - 50 * DAY,
      NOW - 50 * DAY + 120_000,
    );
    db.prepare(
      `INSERT INTO changes (lot_key, kind, field, before, after, vin, observed_at)
    VALUES ('copart:50000001', 'bid_changed', 'current_bid_usd', '500', '700', ?, ?)`,
    ).run(v.vin, NOW - 50 * DAY + 120_000);
    const log = db.prepare(
      "INSERT INTO request_log (at, endpoint, status, duration_ms, bytes, attempt) VALUES (?, '/vehicles', 200, 1, 1, 1)",
    );
    log.run(NOW - 40 * DAY);
    log.run(NOW - DAY);
  });
}

describe('migration 90: storage retention', () => {
  it('upgrades a version-80 file without losing a row, reads it as before, then stores only what changed', () => {
    const path = fileAtVersion80();
    const db = openDatabase(path);
    try {
      // Opened as the app opens it: every migration from 90 on has run too.
      expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)!.version);
      const cols = (t: string) => (db.pragma(`table_info(${t})`) as { name: string }[]).map((c) => c.name);
      expect(cols('lots')).toEqual(expect.arrayContaining(['content_hash', 'pruned_at', 'raw_z']));
      expect(cols('observations')).toEqual(expect.arrayContaining(['last_seen_at', 'seen', 'raw_z']));
      // Nothing removed or rewritten by the migration itself.
      expect(
        db.prepare('SELECT count(*) AS n FROM observations WHERE raw IS NOT NULL AND seen = 1').get(),
      ).toEqual({ n: 3 });
      expect(db.prepare('SELECT count(*) AS n FROM request_log').get()).toEqual({ n: 2 });
      expect(db.prepare('SELECT content_hash, pruned_at, raw_z FROM lots').get()).toEqual({
        content_hash: null,
        pruned_at: null,
        raw_z: null,
      });

      const s = new SqliteStore(db).sync;
      expect(s.lots.getLotRecord('copart:50000001')?.raw).toMatchObject({
        pricing: { current_bid_usd: 700 },
      });
      expect(s.lots.bids('copart:50000001').map(([, b]) => b)).toEqual([500, 500, 700]);
      expect(s.lots.observationCount('copart:50000001')).toBe(3);

      // The first poll after the upgrade stores the lot once more (no content hash yet); the next ones add nothing.
      const at = NOW - 49 * DAY - 3_600_000;
      s.lots.observe(vehicle({ bid: 700 }), at, 'watch:1');
      s.lots.observe(vehicle({ bid: 700 }), at + 60_000, 'watch:1');
      s.lots.observe(vehicle({ bid: 700 }), at + 120_000, 'watch:1');
      expect(db.prepare('SELECT count(*) AS n FROM observations').get()).toEqual({ n: 4 });
      expect(s.lots.observationCount('copart:50000001')).toBe(6);
      expect(db.prepare('SELECT raw, raw_z IS NOT NULL AS packed FROM lots').get()).toEqual({
        raw: '',
        packed: 1,
      });
      expect(s.lots.getLotRecord('copart:50000001')?.raw).toMatchObject({
        extra_field_the_spec_does_not_list: 1,
      });
    } finally {
      closeDatabase(db);
    }
  });

  it('lets the first retention pass prune what the old version kept, keeping the timeline', async () => {
    const path = fileAtVersion80();
    const db = openDatabase(path);
    try {
      const r = await prune(db, NOW, RETENTION_DEFAULTS);
      expect(r).toMatchObject({ observations: 3, requestLog: 1, slimmedLots: 1 });
      expect(db.prepare('SELECT count(*) AS n FROM observations').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT count(*) AS n FROM request_log').get()).toEqual({ n: 1 });
      const s = new SqliteStore(db).sync;
      expect(s.lots.timeline('copart:50000001').map((c) => [c.kind, c.after])).toEqual([
        ['bid_changed', '700'],
      ]);
      expect(s.lots.bids('copart:50000001')).toEqual([[NOW - 50 * DAY + 120_000, 700]]);
      expect(s.lots.getLotRecord('copart:50000001')).toMatchObject({
        make: 'HONDA',
        model: 'ACCORD',
        raw: null,
      });
    } finally {
      closeDatabase(db);
    }
  });
});
