import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { normalizeVehicle } from '../../../src/core/api/parse';
import { openDatabase, closeDatabase } from '../../../src/core/db/connection';
import { packRecord } from '../../../src/core/db/lotsRepo';
import { SqliteStore } from '../../../src/core/db/store';
import { realFinishedRecord } from '../api/fixtures/realRecords';
import { migrationFiles } from './migrationFile';

// Migration 110: records stored before the estimates were fields of the normalised record get them from their own
// raw copy, so the Library's filters, the CSV, the lot page and the rule see an old lot like a new one.

const files = migrationFiles();
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** A record as the normaliser stores it, without the three fields (as a Lotwatch before them wrote it). */
function oldNormalized(rec: Record<string, unknown>): string {
  const { raw: _raw, ...v } = normalizeVehicle(rec, []);
  const { acv_usd: _a, est_repair_usd: _r, repair_to_value: _t, ...pricing } = v.pricing;
  return JSON.stringify({ ...v, pricing });
}

describe('migration 110: the estimates in stored records', () => {
  it('fills an IAAI record from its raw copy, a Copart one with nulls, and the content hash follows', () => {
    const iaai = realFinishedRecord();
    const copart: Record<string, unknown> = {
      ...realFinishedRecord(),
      platform: 'copart',
      lot_number: '50314744',
    };
    delete copart['details'];
    const file = files.at(100, (db) => {
      const ins =
        db.prepare(`INSERT INTO lots (lot_key, platform, lot_number, normalized, raw, raw_z, raw_hash,
        content_hash, first_seen_at, last_observed_at) VALUES (?, ?, ?, ?, '', ?, 'h', 'old', 0, 0)`);
      ins.run('iaai:45139005', 'iaai', '45139005', oldNormalized(iaai), packRecord(JSON.stringify(iaai)));
      ins.run(
        'copart:50314744',
        'copart',
        '50314744',
        oldNormalized(copart),
        packRecord(JSON.stringify(copart)),
      );
      // Not a record Lotwatch can read: left as it is.
      ins.run('iaai:1', 'iaai', '1', '{}', packRecord('{}'));
    });
    const db = openDatabase(file);
    try {
      const row = (key: string) =>
        db.prepare('SELECT normalized, content_hash FROM lots WHERE lot_key = ?').get(key) as {
          normalized: string;
          content_hash: string;
        };
      const i = row('iaai:45139005');
      const pricing = (JSON.parse(i.normalized) as { pricing: Record<string, unknown> }).pricing;
      expect(pricing).toMatchObject({ acv_usd: 18_349, est_repair_usd: 20_821 });
      expect(pricing['repair_to_value']).toBeCloseTo(1.1347, 4);
      expect(i.content_hash).toBe(sha(i.normalized));
      // The rewritten record is the one a fresh normalisation stores: the next poll of the same lot is no new content.
      const { raw: _raw, ...fresh } = normalizeVehicle(iaai, []);
      expect(i.normalized).toBe(JSON.stringify(fresh));
      const c = JSON.parse(row('copart:50314744').normalized) as { pricing: Record<string, unknown> };
      expect(c.pricing).toMatchObject({ acv_usd: null, est_repair_usd: null, repair_to_value: null });
      expect(row('iaai:1')).toMatchObject({ normalized: '{}', content_hash: 'old' });
      // And the Library's filter finds the old IAAI lot.
      const found = new SqliteStore(db).sync.library.filtered(
        '',
        { repairToValueMax: 2, hasAcv: true },
        10,
        0,
      );
      expect(found.rows.map((r) => r.lot_key)).toEqual(['iaai:45139005']);
    } finally {
      closeDatabase(db);
    }
  });
});
