import type BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeDatabase, openDatabase } from '../../../src/core/db/connection';
import {
  FIRST_PRUNE_DELAY_MS,
  prune,
  PRUNE_BATCH,
  RETENTION_DEFAULTS,
  RetentionScheduler,
} from '../../../src/core/db/retention';
import { SqliteStore } from '../../../src/core/db/store';
import { findComps } from '../../../src/core/db/comps';
import { silentLogger } from '../../../src/core/log';
import { AlertRulesSchema, type Change } from '../../../src/shared/watch';
import { FakeClock } from '../../helpers/fakeClock';
import { tempDir } from '../../helpers/tmp';
import { vehicle } from '../watch/storeFixtures';
import { migrationFiles } from './migrationFile';

// The retention pass (docs/architecture.md "Retention"): old observations collapse to the timeline, the request log
// and poll runs keep 30 days, read alerts 180, ended lots nobody follows keep their sale result for comparable
// sales; all in small batches on the injected clock, and the space goes back to the disk.

const DAY = 86_400_000;
const MIN = 60_000;
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

const files = migrationFiles();
/** The lot whose comparable sales are read before and after a pass: they must come out the same. */
const COMPS_SUBJECT = {
  lot_key: 'copart:9',
  vin: null,
  make: 'HONDA',
  model: 'ACCORD',
  year: 2003,
  odometer: 180000,
  damage: 'Front End',
};

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function store() {
  const t = tempDir();
  const db = openDatabase(join(t.dir, 'lotwatch.sqlite'));
  cleanups.push(
    () => t.cleanup(),
    () => closeDatabase(db),
  );
  const store = new SqliteStore(db);
  return { db, s: store.sync, store, path: join(t.dir, 'lotwatch.sqlite') };
}

const iso = (t: number) => new Date(t).toISOString().replace('.000Z', '+00:00');

/** A lot auctioned at `saleAt`, observed every 10 minutes over the day before with its bid rising, then sold. */
function lotHistory(
  s: SqliteStore['sync'],
  lotNumber: string,
  saleAt: number,
  over: { vin: string; make?: string; model?: string },
) {
  const open = {
    state: 'open',
    auction_at: iso(saleAt),
    lot_status: 'Timed',
    lot_sub_status: 'Open',
    last_sold_status: null,
    last_sold_day: null,
    is_buy_now: null,
  };
  let prev = null;
  for (let i = 0; i < 12; i++) {
    const at = saleAt - DAY + i * 10 * MIN;
    const o = s.lots.observe(
      vehicle({ lot_number: lotNumber, ...over, bid: 500 + Math.floor(i / 3) * 100, auction: open }),
      at,
      'watch:1',
    )!;
    if (prev !== null && o.prev?.current_bid_usd !== o.next.current_bid_usd) {
      const c: Change = {
        lot_key: `copart:${lotNumber}`,
        kind: 'bid_changed',
        field: 'current_bid_usd',
        before: o.prev!.current_bid_usd,
        after: o.next.current_bid_usd,
        related_lot_key: null,
        vin: over.vin,
        observed_at: at,
        outcome: null,
      };
      s.lots.insertChange(c, null);
    }
    prev = o;
  }
  const sold = {
    ...open,
    state: 'sold',
    lot_sub_status: 'Ended',
    last_sold_status: 'Sold',
    last_sold_day: iso(saleAt).slice(0, 10),
  };
  const v = vehicle({ lot_number: lotNumber, ...over, bid: 800, auction: sold });
  v.pricing.sale_price_usd = 800;
  s.lots.observe(v, saleAt + 30 * MIN, 'watch:1');
  s.lots.insertChange(
    {
      lot_key: `copart:${lotNumber}`,
      kind: 'sale_result',
      field: 'state',
      before: 'open',
      after: 'sold',
      related_lot_key: null,
      vin: over.vin,
      observed_at: saleAt + 30 * MIN,
      outcome: 'sold',
    },
    null,
  );
}

const count = (db: BetterSqlite3.Database, sql: string, ...p: unknown[]) =>
  (db.prepare(sql).get(...p) as { n: number }).n;

describe('the retention pass', () => {
  it('collapses old observations to the timeline, slims old lots nobody follows to their sale result, keeps comparables', async () => {
    const { db, s, store: st } = store();
    const old = NOW - 40 * DAY;
    lotHistory(s, '1', old, { vin: 'WATCHED0000000001' });
    lotHistory(s, '2', old, { vin: 'NOBODY00000000002' });
    lotHistory(s, '3', old, { vin: 'NOTED000000000003' });
    lotHistory(s, '4', NOW - 5 * DAY, { vin: 'RECENT00000000004' });
    s.watches.insertWatch(
      {
        kind: 'lot',
        vin: null,
        lot_key: 'copart:1',
        label: '',
        rules: AlertRulesSchema.parse({}),
        is_example: false,
      },
      old,
    );
    db.prepare("UPDATE lots SET notes = 'check the frame' WHERE lot_key = 'copart:3'").run();
    const timeline = (k: string) => s.lots.timeline(k).map((c) => [c.kind, c.after, c.observed_at]);
    const before = {
      t1: timeline('copart:1'),
      t2: timeline('copart:2'),
      bids2: s.lots.bids('copart:2'),
      rec2: s.lots.getLotRecord('copart:2'),
    };
    expect(before.t2).toHaveLength(4);
    expect(count(db, "SELECT count(*) AS n FROM observations WHERE lot_key = 'copart:2'")).toBe(5);
    const compsBefore = await findComps(st.comps, COMPS_SUBJECT);
    expect(compsBefore.comps.map((c) => c.lot_key).sort()).toEqual([
      'copart:1',
      'copart:2',
      'copart:3',
      'copart:4',
    ]);

    const r = await prune(db, NOW, RETENTION_DEFAULTS);

    // Every lot's timeline is whole.
    for (const k of ['copart:1', 'copart:2'])
      expect(timeline(k)).toEqual(before[k === 'copart:1' ? 't1' : 't2']);
    // Old lots keep one observation (no record copy) that still counts every sight.
    for (const k of ['copart:1', 'copart:2', 'copart:3']) {
      expect(db.prepare('SELECT id FROM observations WHERE lot_key = ?').all(k).length).toBeLessThanOrEqual(
        1,
      );
      expect(
        count(
          db,
          'SELECT count(*) AS n FROM observations WHERE lot_key = ? AND (raw IS NOT NULL OR raw_z IS NOT NULL)',
          k,
        ),
      ).toBe(0);
    }
    expect(s.lots.observationCount('copart:1')).toBe(13);
    // The recent lot is untouched.
    // (five records: four in its observations, the newest in the lot's row)
    expect(
      count(
        db,
        "SELECT count(*) AS n FROM observations WHERE lot_key = 'copart:4' AND (raw IS NOT NULL OR raw_z IS NOT NULL)",
      ),
    ).toBe(4);
    // The bid history of a collapsed lot comes from its timeline.
    expect(s.lots.bids('copart:2').map(([, b]) => b)).toEqual([600, 700, 800]);
    // Lot 2 (ended long ago, nobody follows it) is slimmed; watched lot 1 and noted lot 3 keep their raw record.
    const pruned = db
      .prepare("SELECT lot_key, raw = 'null' AND raw_z IS NULL AS slim, pruned_at FROM lots ORDER BY lot_key")
      .all();
    expect(pruned).toEqual([
      { lot_key: 'copart:1', slim: 0, pruned_at: null },
      { lot_key: 'copart:2', slim: 1, pruned_at: NOW },
      { lot_key: 'copart:3', slim: 0, pruned_at: null },
      { lot_key: 'copart:4', slim: 0, pruned_at: null },
    ]);
    // Its record and sale result are still there (its photo addresses gone, their count kept), and it is still a
    // comparable sale at the same price.
    const rec2 = s.lots.getLotRecord('copart:2')!;
    const { raw: _a, media: mediaNow, ...recNow } = rec2;
    const { raw: _b, media: mediaThen, ...recThen } = before.rec2!;
    expect(recNow).toEqual(recThen);
    expect(mediaThen.photos).toHaveLength(1);
    expect(mediaNow).toEqual({ ...mediaThen, photos: [], photos_count: 1 });
    expect(s.lots.getLotRecord('copart:1')!.media).toEqual(mediaThen);
    const compsAfter = await findComps(st.comps, COMPS_SUBJECT);
    expect(compsAfter).toEqual(compsBefore);
    expect(r).toMatchObject({ slimmedLots: 1 });
    expect(r.observations).toBeGreaterThanOrEqual(3 * 4);
  });

  it('keeps the request log and poll runs 30 days and read alerts 180 days, their deliveries going with them', async () => {
    const { db, s } = store();
    const log = (at: number) =>
      s.requests.logRequest({
        at,
        endpoint: '/vehicles',
        status: 200,
        durationMs: 50,
        bytes: 1000,
        attempt: 1,
        errorCode: null,
      });
    // More than one batch of old rows, so the pass has to come back for the rest.
    for (let i = 0; i < PRUNE_BATCH * 2 + 7; i++) log(NOW - 31 * DAY - i * MIN);
    for (let i = 0; i < 5; i++) log(NOW - 29 * DAY + i);
    const run = (at: number) =>
      s.searches.finishRun(s.searches.startRun({ kind: 'watch', id: 1 }, at), at + 1000, {
        status: 'ok',
        requests: 1,
        records: 1,
        changes: 0,
        complete: null,
        error_code: null,
        error_message: null,
      });
    run(NOW - 31 * DAY);
    run(NOW - 29 * DAY);
    // A run still going (a watch check in flight over midnight) is never removed.
    s.searches.startRun({ kind: 'watch', id: 1 }, NOW - 40 * DAY);
    const alert = (key: string, createdAt: number, readAt: number | null) => {
      const id = s.alerts.insertAlert(
        {
          dedup_key: key,
          kind: 'bid_changed',
          lot_key: 'copart:1',
          change_id: null,
          source: 'watch:1',
          title: key,
          body: '',
          reason: null,
          delivery: 'now',
          deliver_after: null,
        },
        createdAt,
      )!;
      s.alerts.markDelivered(id, createdAt + 1000);
      if (readAt !== null) db.prepare('UPDATE alerts SET read_at = ? WHERE id = ?').run(readAt, id);
      return id;
    };
    const oldRead = alert('old read', NOW - 200 * DAY, NOW - 190 * DAY);
    alert('old unread', NOW - 200 * DAY, null);
    alert('recent read', NOW - 200 * DAY, NOW - 100 * DAY);
    const channel = db
      .prepare("INSERT INTO channels (type, settings, created_at, updated_at) VALUES ('ntfy', '{}', 0, 0)")
      .run().lastInsertRowid;
    db.prepare(
      "INSERT INTO deliveries (alert_id, channel_id, status, not_before, created_at) VALUES (?, ?, 'sent', 0, 0)",
    ).run(oldRead, channel);

    const r = await prune(db, NOW, RETENTION_DEFAULTS);

    expect(r).toMatchObject({ requestLog: PRUNE_BATCH * 2 + 7, pollRuns: 1, alerts: 1 });
    expect(count(db, 'SELECT count(*) AS n FROM request_log')).toBe(5);
    expect(db.prepare('SELECT started_at, status FROM poll_runs ORDER BY started_at').all()).toEqual([
      { started_at: NOW - 40 * DAY, status: 'running' },
      { started_at: NOW - 29 * DAY, status: 'ok' },
    ]);
    expect(db.prepare('SELECT title FROM alerts ORDER BY id').all()).toEqual([
      { title: 'old unread' },
      { title: 'recent read' },
    ]);
    expect(count(db, 'SELECT count(*) AS n FROM deliveries')).toBe(0);
  });

  it('gives the freed space back to the disk: a new file in steps, a file from before version 90 once', async () => {
    const fill = (db: BetterSqlite3.Database) => {
      const s = new SqliteStore(db);
      const big = 'x'.repeat(4000);
      const ins = db.prepare(
        'INSERT INTO request_log (at, endpoint, status, duration_ms, bytes, attempt, error_code) VALUES (?, ?, 200, 1, 1, 1, NULL)',
      );
      s.db.transaction(() => {
        for (let i = 0; i < 6000; i++) ins.run(NOW - 60 * DAY, big);
      })();
    };
    const pages = (db: BetterSqlite3.Database) => db.pragma('page_count', { simple: true }) as number;

    const fresh = store();
    expect(fresh.db.pragma('auto_vacuum', { simple: true })).toBe(2);
    fill(fresh.db);
    const full = pages(fresh.db);
    const r = await prune(fresh.db, NOW, RETENTION_DEFAULTS);
    expect(r).toMatchObject({ requestLog: 6000, vacuumed: false });
    expect(r.freedBytes).toBeGreaterThan(20 * 1024 * 1024);
    expect(pages(fresh.db)).toBeLessThan(full / 10);

    // A file made by an older Lotwatch (auto_vacuum off) is switched by one VACUUM when a pass frees much.
    const db = openDatabase(files.at(80));
    cleanups.push(() => closeDatabase(db));
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(0);
    fill(db);
    const before = pages(db);
    const r2 = await prune(db, NOW, RETENTION_DEFAULTS);
    expect(r2).toMatchObject({ requestLog: 6000, vacuumed: true });
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
    expect(pages(db)).toBeLessThan(before / 10);
    // The next pass has nothing to give back and needs no VACUUM.
    expect(await prune(db, NOW, RETENTION_DEFAULTS)).toMatchObject({ vacuumed: false, freedBytes: 0 });
  });

  it('runs on the injected clock: first after start, then daily, with the setting read at each pass', async () => {
    const { db, s } = store();
    const clock = new FakeClock(NOW);
    let days = 30;
    const r = new RetentionScheduler({ db, clock, log: silentLogger, fullRecordDays: () => days });
    cleanups.push(() => r.dispose());
    const log = (at: number) =>
      s.requests.logRequest({
        at,
        endpoint: '/vehicles',
        status: 200,
        durationMs: 1,
        bytes: 1,
        attempt: 1,
        errorCode: null,
      });
    log(NOW - 31 * DAY);
    lotHistory(s, '5', NOW - 20 * DAY, { vin: 'TWENTYDAYS0000005' });
    r.start();
    clock.advance(FIRST_PRUNE_DELAY_MS - 1);
    expect(count(db, 'SELECT count(*) AS n FROM request_log')).toBe(1);
    clock.advance(1);
    await vi.waitFor(() => expect(count(db, 'SELECT count(*) AS n FROM request_log')).toBe(0));
    expect(
      count(db, 'SELECT count(*) AS n FROM observations WHERE (raw IS NOT NULL OR raw_z IS NOT NULL)'),
    ).toBe(4);
    // The pass has ended and planned the next one a day later.
    await vi.waitFor(() => expect(clock.nextTimerAt()).toBe(NOW + FIRST_PRUNE_DELAY_MS + DAY));
    // The buyer keeps 14 days from now on: the next daily pass collapses the 20-day-old lot.
    days = 14;
    clock.advance(DAY - 1);
    expect(
      count(db, 'SELECT count(*) AS n FROM observations WHERE (raw IS NOT NULL OR raw_z IS NOT NULL)'),
    ).toBe(4);
    clock.advance(1);
    await vi.waitFor(() =>
      expect(
        count(db, 'SELECT count(*) AS n FROM observations WHERE (raw IS NOT NULL OR raw_z IS NOT NULL)'),
      ).toBe(0),
    );
  });
});
