import type BetterSqlite3 from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { normalizeVehicle } from '../../../../src/core/api/parse';
import { migrate } from '../../../../src/core/db/migrate';
import { packRecord } from '../../../../src/core/db/lotsRepo';
import { migratePg, pgSchemaVersion } from '../../../../src/core/db/pg/migrate';
import { AlertRulesSchema } from '../../../../src/shared/watch';
import { pgAvailable } from '../../../helpers/postgres';
import { realFinishedRecord } from '../../api/fixtures/realRecords';
import {
  insertBoth,
  pgMigrationDbs,
  pgRows,
  seedBoth,
  sqliteColumns,
  sqliteRows,
  sqliteTables,
  upTo,
  type Row,
  type Rows,
} from './pgSchema';

// Every migration's upgrade on PostgreSQL (docs/architecture.md "Two engines: migrations"): a database at the
// version before it, with rows in every table, migrated one step. Every row stays, the columns it had keep their
// values (but those the step's data step rewrites), and the rows come out the same as SQLite's from the same
// start. Where the SQLite upgrade test checks a data transformation, the same rows are checked here.

const dbs = pgMigrationDbs();

/** Columns a step's data step rewrites on purpose (`table.column`), by version. */
const REWRITES: Readonly<Record<number, readonly string[]>> = {
  40: ['changes.kind', 'alerts.kind', 'watches.rules', 'saved_searches.rules'],
  60: ['saved_searches.baseline_done'],
  110: ['lots.normalized', 'lots.content_hash'],
};

/** Both engines at `version`. */
async function bothAt(version: number): Promise<{ db: BetterSqlite3.Database; c: pg.Client }> {
  return { db: dbs.sqliteAt(version), c: await dbs.pgAt(version) };
}

/** Applies the migrations up to `version` on both engines; checks PostgreSQL applied exactly `version`. */
async function migrateBoth(db: BetterSqlite3.Database, c: pg.Client, version: number): Promise<void> {
  expect(await migratePg(c, upTo(version))).toEqual([version]);
  migrate(db, ':memory:', upTo(version));
  expect(await pgSchemaVersion(c)).toBe(version);
}

/** Every SQLite table's rows on both engines, which must be equal; returns them. */
async function sameRows(db: BetterSqlite3.Database, c: pg.Client): Promise<Rows> {
  const tables = sqliteTables(db);
  const rows = await pgRows(c, tables);
  expect(rows).toEqual(sqliteRows(db, tables));
  return rows;
}

/** Rows with only `cols`, sorted, for comparing before and after. */
const project = (rows: Row[], cols: string[]) =>
  rows.map((r) => JSON.stringify(cols.map((k) => r[k]))).sort();

/**
 * The upgrade from `previous` to `version` with the fixture rows in every table (pgSchema.ts seedBoth): counts
 * kept, pre-existing columns kept but REWRITES, each rewrite done, and the same rows as SQLite's after the step.
 */
async function upgradeFrom(
  previous: number,
  version: number,
): Promise<{ db: BetterSqlite3.Database; c: pg.Client }> {
  const { db, c } = await bothAt(previous);
  await seedBoth(db, c);
  const tables = sqliteTables(db);
  const columns = Object.fromEntries(tables.map((t) => [t, sqliteColumns(db, t).map((col) => col.name)]));
  const before = await sameRows(db, c);
  await migrateBoth(db, c, version);
  const after = await sameRows(db, c);
  const rewrites = REWRITES[version] ?? [];
  for (const t of tables) {
    expect(after[t]!.length, `rows of ${t}`).toBe(before[t]!.length);
    expect(after[t]!.length, `rows of ${t}`).toBeGreaterThan(0);
    const kept = columns[t]!.filter((col) => !rewrites.includes(`${t}.${col}`));
    expect(project(after[t]!, kept), `values of ${t}`).toEqual(project(before[t]!, kept));
  }
  for (const r of rewrites) {
    const [t, col] = r.split('.') as [string, string];
    expect(project(after[t]!, [col]), `${r} rewritten`).not.toEqual(project(before[t]!, [col]));
  }
  return { db, c };
}

/** The lot keys whose full-text column matches `q` (a tsquery under `config`). */
async function found(c: pg.Client, q: string, config = 'simple'): Promise<string[]> {
  const { rows } = await c.query<{ lot_key: string }>(
    `SELECT lot_key FROM lots WHERE fts @@ to_tsquery($1::regconfig, $2) ORDER BY lot_key`,
    [config, q],
  );
  return rows.map((r) => r.lot_key);
}

/** A lot row with the required columns (as SQLite's upgrade tests write them). */
const lot = (key: string, extra: Row = {}): Row => {
  const [platform, lotNumber] = key.split(':') as [string, string];
  return {
    lot_key: key,
    platform,
    lot_number: lotNumber,
    normalized: '{}',
    raw: '{}',
    raw_hash: 'h',
    first_seen_at: 0,
    last_observed_at: 0,
    ...extra,
  };
};

describe.skipIf(!pgAvailable())('PostgreSQL upgrades', () => {
  describe('migration 10: the settings table', () => {
    it('turns an empty database at version 0 into version 10 with a settings table', async () => {
      const { c } = await upgradeFrom(0, 10);
      await c.query(
        "INSERT INTO settings (key, value, updated_at) VALUES ('theme', '\"dark\"', 1790000000000)",
      );
      expect((await c.query('SELECT updated_at FROM settings')).rows).toEqual([
        { updated_at: 1_790_000_000_000 },
      ]);
    });
  });

  describe('migration 20: the watch store', () => {
    it('keeps the settings, and the full-text column follows the lots table: insert, update and delete', async () => {
      const { db, c } = await upgradeFrom(10, 20);
      await insertBoth(
        db,
        c,
        'lots',
        lot('copart:7', { title: '2003 HONDA ACCORD EX', vin: '1HGCM82633A004352' }),
      );
      expect(await found(c, 'accord')).toEqual(['copart:7']);
      expect(await found(c, '1hgcm82633a004352')).toEqual(['copart:7']);
      await c.query("UPDATE lots SET notes = 'hail on the roof' WHERE lot_key = 'copart:7'");
      expect(await found(c, 'hail')).toEqual(['copart:7']);
      await c.query("DELETE FROM lots WHERE lot_key = 'copart:7'");
      expect(await found(c, 'accord')).toEqual([]);
    });
  });

  describe('migration 30: the cache', () => {
    it('adds the cache and keeps every row of version 20', async () => {
      await upgradeFrom(20, 30);
    });
  });

  describe('migration 40: sale results', () => {
    it('rewrites old sold changes, alerts and rules as SQLite does', async () => {
      await upgradeFrom(30, 40);
      const { db, c } = await bothAt(30);
      // tests/core/db/saleResultMigration.test.ts's file at version 30.
      const lots: [string, string, number | null][] = [
        ['copart:1', 'sold', 12300],
        ['copart:2', 'unsold', null],
        ['copart:3', 'approval', 6600],
      ];
      for (const [key, state, price] of lots)
        await insertBoth(db, c, 'lots', lot(key, { state, lot_sub_status: 'Ended', sale_price_usd: price }));
      const changes: [string, string, string][] = [
        ['copart:1', 'sold', '12300'],
        ['copart:2', 'sold', 'null'],
        ['copart:3', 'sold', '6600'],
        ['copart:1', 'bid_changed', '12300'],
      ];
      for (const [id, [key, kind, after]] of changes.entries())
        await insertBoth(db, c, 'changes', {
          id: id + 1,
          lot_key: key,
          kind,
          field: 'sale_price_usd',
          before: 'null',
          after,
          observed_at: 1,
        });
      await insertBoth(db, c, 'alerts', {
        id: 1,
        dedup_key: 'change:1',
        kind: 'sold',
        lot_key: 'copart:1',
        change_id: 1,
        title: 't',
        body: 'b',
        created_at: 1,
        delivery: 'now',
        status: 'delivered',
      });
      const rules = JSON.stringify({ kinds: ['new_match', 'sold'], snooze_until_event: 'sold' });
      await insertBoth(db, c, 'watches', {
        id: 1,
        kind: 'lot',
        lot_key: 'copart:1',
        rules,
        created_at: 0,
        updated_at: 0,
      });
      const search = (id: number, name: string, r: string) => ({
        id,
        name,
        params: '{}',
        schedule: '*/30 * * * *',
        rules: r,
        created_at: 0,
        updated_at: 0,
      });
      await insertBoth(db, c, 'saved_searches', search(1, 's', rules));
      await insertBoth(db, c, 'saved_searches', search(2, 'broken', '{oops'));
      await migrateBoth(db, c, 40);
      await sameRows(db, c);
      const read = async (sql: string) => (await c.query(sql)).rows;
      expect(await read('SELECT lot_key, kind, outcome FROM changes ORDER BY id')).toEqual([
        { lot_key: 'copart:1', kind: 'sale_result', outcome: 'sold' },
        { lot_key: 'copart:2', kind: 'sale_result', outcome: 'ended_unsold' },
        { lot_key: 'copart:3', kind: 'sale_result', outcome: 'sold_on_approval' },
        { lot_key: 'copart:1', kind: 'bid_changed', outcome: null },
      ]);
      expect(await read('SELECT kind FROM alerts')).toEqual([{ kind: 'sale_result' }]);
      for (const table of ['watches', 'saved_searches']) {
        const [row] = (await read(`SELECT rules FROM ${table} ORDER BY id LIMIT 1`)) as { rules: string }[];
        const parsed = AlertRulesSchema.parse(JSON.parse(row!.rules));
        expect(parsed.kinds).toEqual(['new_match', 'sale_result']);
        expect(parsed.snooze_until_event).toBe('sale_result');
      }
      expect(await read("SELECT rules FROM saved_searches WHERE name = 'broken'")).toEqual([
        { rules: '{oops' },
      ]);
      await expect(
        c.query(
          "INSERT INTO changes (lot_key, kind, observed_at, outcome) VALUES ('x', 'sale_result', 1, 'maybe')",
        ),
      ).rejects.toThrow(/check constraint/);
    });

    it('reads a price from text as SQLite does, and a text that is not one as no price', async () => {
      const { db, c } = await bothAt(30);
      await insertBoth(db, c, 'lots', lot('copart:1', { state: 'unsold' }));
      const afters = ['12300', ' 1.5e3 USD', 'about 500', '0', '-3', '.5', '1e400', ''];
      for (const [i, after] of afters.entries())
        await insertBoth(db, c, 'changes', {
          id: i + 1,
          lot_key: 'copart:1',
          kind: 'sold',
          after,
          observed_at: 1,
        });
      await migrateBoth(db, c, 40);
      const rows = await sameRows(db, c);
      expect(rows['changes']!.map((r) => [r['after'], r['outcome']])).toEqual(
        expect.arrayContaining([
          ['12300', 'sold'],
          [' 1.5e3 USD', 'sold'],
          ['about 500', 'ended_unsold'],
          ['.5', 'sold'],
          ['1e400', 'sold'],
        ]),
      );
    });
  });

  describe('migration 50: the library order index', () => {
    it('adds the index and keeps every row of version 40', async () => {
      await upgradeFrom(40, 50);
    });
  });

  describe('migration 60: search coverage', () => {
    it('restarts the baseline of searches that never had a complete run, as SQLite does', async () => {
      await upgradeFrom(50, 60);
      const { db, c } = await bothAt(50);
      // tests/core/db/searchCoverageMigration.test.ts's searches and runs.
      const search = (id: number, name: string, done: number) => ({
        id,
        name,
        params: '{}',
        schedule: '0 * * * *',
        rules: '{}',
        baseline_done: done,
        created_at: 0,
        updated_at: 0,
      });
      const run = (target: string, complete: number) => ({ target, started_at: 1, status: 'ok', complete });
      await insertBoth(db, c, 'saved_searches', search(1, 'complete once', 1));
      await insertBoth(db, c, 'poll_runs', run('search:1', 0));
      await insertBoth(db, c, 'poll_runs', run('search:1', 1));
      await insertBoth(db, c, 'saved_searches', search(2, 'only cut short', 1));
      await insertBoth(db, c, 'poll_runs', run('search:2', 0));
      await insertBoth(db, c, 'saved_searches', search(3, 'never run', 0));
      await migrateBoth(db, c, 60);
      await sameRows(db, c);
      const { rows } = await c.query(
        'SELECT id, baseline_done, covered_until, sweep_from FROM saved_searches ORDER BY id',
      );
      expect(rows).toEqual([
        { id: 1, baseline_done: 1, covered_until: null, sweep_from: null },
        { id: 2, baseline_done: 0, covered_until: null, sweep_from: null },
        { id: 3, baseline_done: 0, covered_until: null, sweep_from: null },
      ]);
    });
  });

  describe("migration 70: the buyer's desk", () => {
    it('makes the full-text column again: every old lot is found by its title, VIN and notes, then by its tags', async () => {
      await upgradeFrom(60, 70);
      const { db, c } = await bothAt(60);
      // tests/core/db/buyersDeskMigration.test.ts's lots at version 60.
      await insertBoth(
        db,
        c,
        'lots',
        lot('copart:1', { vin: '1HGCM82633A004352', title: '2003 HONDA ACCORD EX' }),
      );
      await insertBoth(
        db,
        c,
        'lots',
        lot('copart:2', { vin: '5YJ3E1EA7KF317000', title: '2019 TESLA MODEL 3' }),
      );
      await insertBoth(
        db,
        c,
        'lots',
        lot('copart:3', { vin: '1HGCM82633A004399', title: '2004 HONDA ACCORD LX' }),
      );
      await c.query("UPDATE lots SET notes = 'hail damage on the roof' WHERE lot_key = 'copart:3'");
      db.prepare("UPDATE lots SET notes = 'hail damage on the roof' WHERE lot_key = 'copart:3'").run();
      await migrateBoth(db, c, 70);
      await sameRows(db, c);
      expect(await found(c, 'accord')).toEqual(['copart:1', 'copart:3']);
      expect(await found(c, 'tesla')).toEqual(['copart:2']);
      expect(await found(c, '5yj3e1ea7kf317000')).toEqual(['copart:2']);
      expect(await found(c, 'hail')).toEqual(['copart:3']);
      await c.query("UPDATE lots SET tags = 'export,project' WHERE lot_key = 'copart:1'");
      expect(await found(c, 'export')).toEqual(['copart:1']);
      // Comparable sales compare make and model without case, on the lower() index SQLite's NOCASE stands for.
      await c.query('SET enable_seqscan = off');
      const plan = await c.query<{ 'QUERY PLAN': string }>(
        "EXPLAIN SELECT lot_key FROM lots WHERE lower(make) = lower('honda') AND lower(model) = lower('accord')",
      );
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/lots_make_model/);
    });
  });

  describe('migration 80: alert channels', () => {
    it('adds channels and deliveries; an old alert removed takes its deliveries with it', async () => {
      const { c } = await upgradeFrom(70, 80);
      expect((await c.query('SELECT count(*)::int AS n FROM deliveries')).rows).toEqual([{ n: 0 }]);
      await c.query(
        "INSERT INTO channels (id, type, settings, created_at, updated_at) VALUES (5, 'email', '{}', 1, 1)",
      );
      await c.query(
        "INSERT INTO deliveries (alert_id, channel_id, status, not_before, created_at) VALUES (1, 5, 'held', 1, 1)",
      );
      await c.query('DELETE FROM alerts WHERE id = 1');
      expect((await c.query('SELECT count(*)::int AS n FROM deliveries')).rows).toEqual([{ n: 0 }]);
    });
  });

  describe('migration 90: storage retention', () => {
    it('adds the retention columns without losing a row; old observations count as seen once', async () => {
      const { c } = await upgradeFrom(80, 90);
      const { rows } = await c.query('SELECT seen, last_seen_at, raw_z FROM observations');
      expect(rows).toEqual([
        { seen: 1, last_seen_at: null, raw_z: null },
        { seen: 1, last_seen_at: null, raw_z: null },
      ]);
    });
  });

  describe('migration 100: market comparables', () => {
    it('adds market_comps and keeps every row of version 90', async () => {
      await upgradeFrom(90, 100);
    });
  });

  describe('migration 110: the estimates in stored records', () => {
    it('fills an IAAI record from its raw copy, a Copart one with nulls, as SQLite does', async () => {
      await upgradeFrom(100, 110);
      const { db, c } = await bothAt(100);
      // tests/core/db/recordEstimatesMigration.test.ts's records.
      const oldNormalized = (rec: Record<string, unknown>) => {
        const { raw: _raw, ...v } = normalizeVehicle(rec, []);
        const { acv_usd: _a, est_repair_usd: _r, repair_to_value: _t, ...pricing } = v.pricing;
        return JSON.stringify({ ...v, pricing });
      };
      const iaai = realFinishedRecord();
      const copart: Record<string, unknown> = {
        ...realFinishedRecord(),
        platform: 'copart',
        lot_number: '50314744',
      };
      delete copart['details'];
      const stored = (key: string, rec: Record<string, unknown> | null, normalized: string) =>
        lot(key, {
          normalized,
          raw: '',
          raw_z: packRecord(JSON.stringify(rec ?? {})),
          content_hash: 'old',
        });
      await insertBoth(db, c, 'lots', stored('iaai:45139005', iaai, oldNormalized(iaai)));
      await insertBoth(db, c, 'lots', stored('copart:50314744', copart, oldNormalized(copart)));
      await insertBoth(db, c, 'lots', stored('iaai:1', null, '{}'));
      await insertBoth(db, c, 'lots', stored('iaai:2', null, 'not json'));
      await migrateBoth(db, c, 110);
      await sameRows(db, c);
      const row = async (key: string) =>
        (
          await c.query<{ normalized: string; content_hash: string }>(
            'SELECT normalized, content_hash FROM lots WHERE lot_key = $1',
            [key],
          )
        ).rows[0]!;
      const i = await row('iaai:45139005');
      const pricing = (JSON.parse(i.normalized) as { pricing: Record<string, unknown> }).pricing;
      expect(pricing).toMatchObject({ acv_usd: 18_349, est_repair_usd: 20_821 });
      expect(pricing['repair_to_value']).toBeCloseTo(1.1347, 4);
      expect(i.content_hash).toBe(createHash('sha256').update(i.normalized).digest('hex'));
      const { raw: _raw, ...fresh } = normalizeVehicle(iaai, []);
      expect(i.normalized).toBe(JSON.stringify(fresh));
      const cp = JSON.parse((await row('copart:50314744')).normalized) as {
        pricing: Record<string, unknown>;
      };
      expect(cp.pricing).toMatchObject({ acv_usd: null, est_repair_usd: null, repair_to_value: null });
      expect(await row('iaai:1')).toEqual({ normalized: '{}', content_hash: 'old' });
      expect(await row('iaai:2')).toEqual({ normalized: 'not json', content_hash: 'old' });
    });
  });

  describe('migration 120: the full-text index and facets of the lots already stored', () => {
    /** A normalised record (the real finished IAAI record's) with the given facts. */
    const record = (
      damage: string,
      secondary: string | null,
      doc: string,
      runLabel: string,
      key: boolean | null,
    ) => {
      const { raw: _raw, ...v } = normalizeVehicle(realFinishedRecord(), []);
      return JSON.stringify({
        ...v,
        damage,
        secondary_damage: secondary,
        run_condition_label: runLabel,
        run_condition: null,
        has_key: key,
        title_document: { ...v.title_document, name: doc, brand: null, export: key },
        seller: { name: 'Seller Co', type: 'insurance' },
        auction: { ...v.auction, last_sold_status: key ? 'Sold' : null, last_sold_day: '2026-07-31' },
      });
    };

    it("fills lot_facets and the full-text column for a database's lots stored at version 110, as SQLite does", async () => {
      await upgradeFrom(110, 120);
      const { db, c } = await bothAt(110);
      // Lots like tests/core/db/libraryFacetsMigration.test.ts's.
      const lots: [string, string][] = [
        ['copart:101', record('Hail', null, 'CLEAN TITLE', 'Run and Drive', true)],
        ['iaai:102', record('Front end', 'Hail', 'SALVAGE - REPAIRABLE-COLLISION', 'Runs and drives', false)],
        ['iaai:103', record('Flood', 'Undercarriage', 'SALVAGE', 'Stationary / no information', true)],
        ['copart:104', record('Rear end', null, 'REBUILT', 'Starts', null)],
        ['iaai:999', 'not json'],
      ];
      for (const [key, normalized] of lots)
        await insertBoth(
          db,
          c,
          'lots',
          lot(key, { title: '2019 AUDI S5', make: 'AUDI', model: 'S5', normalized }),
        );
      await migrateBoth(db, c, 120);
      const rows = await sameRows(db, c);
      expect(rows['lot_facets']).toHaveLength(5);
      const facets = await c.query(
        `SELECT l.lot_key, f.f_damage, f.f_keys, f.f_export, f.f_sale_month FROM lot_facets f
         JOIN lots l ON l.rowid = f.lot_rowid ORDER BY l.lot_key`,
      );
      expect(facets.rows).toEqual([
        { lot_key: 'copart:101', f_damage: 'Hail', f_keys: 'yes', f_export: 'yes', f_sale_month: '2026-07' },
        {
          lot_key: 'copart:104',
          f_damage: 'Rear end',
          f_keys: null,
          f_export: null,
          f_sale_month: '2026-07',
        },
        { lot_key: 'iaai:102', f_damage: 'Front end', f_keys: 'no', f_export: 'no', f_sale_month: '2026-07' },
        { lot_key: 'iaai:103', f_damage: 'Flood', f_keys: 'yes', f_export: 'yes', f_sale_month: '2026-07' },
        { lot_key: 'iaai:999', f_damage: null, f_keys: null, f_export: null, f_sale_month: null },
      ]);
      const en = (q: string) => found(c, q, 'english');
      expect(await en('hail')).toEqual(['copart:101', 'iaai:102']);
      expect(await en('salvage')).toEqual(['iaai:102', 'iaai:103']);
      // Stemmed, as SQLite's porter tokenizer: "runs and drives" finds "Run and Drive".
      expect(await en("'runs' & 'drives'")).toEqual(['copart:101', 'iaai:102']);
      expect(await en('audi & s5')).toHaveLength(5);
      expect(await en('salv:*')).toEqual(['iaai:102', 'iaai:103']);
      // The view SQLite's index reads from answers the same on both engines.
      const view = 'SELECT lot_rowid, title, damage, run_condition FROM lots_facets ORDER BY lot_rowid';
      expect((await c.query(view)).rows).toEqual(db.prepare(view).all());
    });

    it('keeps lot_facets and the full-text column in step when a record changes or a lot is removed', async () => {
      const { db, c } = await bothAt(120);
      await insertBoth(
        db,
        c,
        'lots',
        lot('copart:1', { normalized: record('Hail', null, 'SALVAGE', 'Starts', true) }),
      );
      await insertBoth(
        db,
        c,
        'lots',
        lot('copart:2', { normalized: record('Flood', null, 'SALVAGE', 'Starts', true) }),
      );
      const changed = record('Hail', null, 'REBUILT', 'Starts', false);
      await c.query('UPDATE lots SET normalized = $1 WHERE lot_key = $2', [changed, 'copart:2']);
      db.prepare('UPDATE lots SET normalized = ? WHERE lot_key = ?').run(changed, 'copart:2');
      const remove = "DELETE FROM lots WHERE lot_key = 'copart:1'";
      await c.query(remove);
      db.exec(remove);
      const rows = await sameRows(db, c);
      expect(rows['lot_facets']!.map((r) => [r['f_damage'], r['f_keys']])).toEqual([['Hail', 'no']]);
      expect(await found(c, 'hail', 'english')).toEqual(['copart:2']);
      expect(await found(c, 'flood', 'english')).toEqual([]);
    });
  });

  describe('migration 130: paused watches', () => {
    it('keeps every watch of version 120 active', async () => {
      const { c } = await upgradeFrom(120, 130);
      expect((await c.query('SELECT DISTINCT paused FROM watches')).rows).toEqual([{ paused: 0 }]);
    });
  });

  describe('migration 140: whose quota each request spent', () => {
    it("keeps version 130's requests, charged to no key", async () => {
      const { c } = await upgradeFrom(130, 140);
      expect((await c.query('SELECT DISTINCT quota_id FROM request_log')).rows).toEqual([{ quota_id: null }]);
    });
  });

  describe('migration 150: call watches and the link an alert carries', () => {
    it("keeps version 140's alerts without a link, and a call watch's answers go with it", async () => {
      const { c } = await upgradeFrom(140, 150);
      expect((await c.query('SELECT DISTINCT url FROM alerts')).rows).toEqual([{ url: null }]);
      const w = await c.query<{ id: number }>(
        `INSERT INTO call_watches (name, endpoint, config, schedule, rules, created_at, updated_at)
         VALUES ('v', 'videos', '{}', '0 * * * *', '{}', 1, 1) RETURNING id`,
      );
      await c.query(
        "INSERT INTO call_answers (watch_id, at, status, extract, good) VALUES ($1, 1, 200, '{}', 1)",
        [w.rows[0]!.id],
      );
      await c.query('DELETE FROM call_watches WHERE id = $1', [w.rows[0]!.id]);
      expect((await c.query('SELECT count(*)::int AS n FROM call_answers')).rows).toEqual([{ n: 0 }]);
    });
  });
});
