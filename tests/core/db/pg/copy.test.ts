import BetterSqlite3 from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { copyToPostgres, type CopyProgress, type CopyResult } from '../../../../src/core/db/copy';
import { MIGRATIONS } from '../../../../src/core/db/migrations';
import { migratePgAt } from '../../../../src/core/db/pg/migrate';
import { TABLES, type TableName } from '../../../../src/core/db/schema';
import {
  CopyCountMismatchError,
  CopyFailedError,
  CopyNulTextError,
  CopyTargetNotEmptyError,
  DatabaseUnavailableError,
  DatabaseUnreachableError,
} from '../../../../src/core/errors';
import { acquireDataLock } from '../../../../src/core/instanceLock';
import { copyToPostgresCommand } from '../../../../src/headless/copyCommand';
import { childScript } from '../../../helpers/children';
import { freePort, pgAvailable, testDatabase } from '../../../helpers/postgres';
import { tempDir } from '../../../helpers/tmp';
import { dumpDataFile, readPgTable, type TableDump } from '../../../fixtures/datafile/dump';
import { connect } from './pgSchema';

// Copying a desktop data folder into a team's PostgreSQL database (src/core/db/copy.ts, docs/architecture.md "Two
// engines: copying a desktop folder") on the run's real test cluster, from copies of a buyer's real schema-150 file
// (tests/fixtures/datafile): every row read back equal, the sequences going on from the copied ids, and every way it
// can fail leaving the target as it was.

const FIXTURE = 'tests/fixtures/datafile/lotwatch-v150.sqlite';
const NAMES = Object.keys(TABLES) as TableName[];

const dirs: { cleanup(): void }[] = [];
const clients: pg.Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.end();
});
afterAll(() => {
  for (const d of dirs) d.cleanup();
});

/** A data folder holding a copy of the fixture (the committed file is never opened); returns the folder and file. */
function folderWithFixture(): { dir: string; path: string } {
  const t = tempDir();
  dirs.push(t);
  const path = join(t.dir, 'lotwatch.sqlite');
  copyFileSync(FIXTURE, path);
  return { dir: t.dir, path };
}

/** A new empty database on the test cluster, and a client on it with BIGINT read as numbers. */
async function emptyTarget(): Promise<{ url: string; c: pg.Client }> {
  const url = (await testDatabase('copy'))!;
  const c = await connect(url);
  clients.push(c);
  return { url, c };
}

/** Runs `fn` on the data file at `path` opened without Lotwatch's checks, and closes it. */
function withFile<T>(path: string, fn: (db: BetterSqlite3.Database) => T): T {
  const db = new BetterSqlite3(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Every row of every Lotwatch table in the target, shaped as the file's dump (`shapes`). */
async function pgTables(c: pg.Client, shapes: readonly TableDump[]): Promise<TableDump[]> {
  const out: TableDump[] = [];
  for (const s of shapes) out.push(await readPgTable(c, s));
  return out;
}

/** The rows of every Lotwatch table that exists in the target (0 for a table not there). */
async function pgCounts(c: pg.Client): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of NAMES) {
    const { rows } = await c.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [
      t,
    ]);
    out[t] = rows[0]!.present
      ? (await c.query<{ n: number }>(`SELECT count(*)::bigint AS n FROM ${t}`)).rows[0]!.n
      : 0;
  }
  return out;
}

/** The tables, views, sequences and functions of the target's public schema: none in a database as createdb made it. */
async function pgObjects(c: pg.Client): Promise<string[]> {
  const { rows } = await c.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace
     UNION ALL SELECT proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1`,
  );
  return rows.map((r) => r.name);
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Tables only a team server writes (docs/team.md): empty in any desktop file. */
const TEAM_ONLY = new Set([
  'users',
  'user_sessions',
  'sign_in_throttle',
  'alert_reads',
  'user_prefs',
  'lot_user_prefs',
]);

describe.skipIf(!pgAvailable())('copyToPostgres', () => {
  let fixture: { dir: string; path: string };
  let target: { url: string; c: pg.Client };
  let result: CopyResult;
  const progress: CopyProgress[] = [];

  beforeAll(async () => {
    fixture = folderWithFixture();
    const url = (await testDatabase('copy'))!;
    result = await copyToPostgres({
      sqlitePath: fixture.path,
      url,
      onProgress: (p) => progress.push(p),
      batchRows: 10,
    });
    target = { url, c: await connect(url) };
  }, 60_000);
  afterAll(async () => {
    await target?.c.end();
  });

  it('copies every row of every table of a buyer’s file with every value it had', async () => {
    const file = withFile(fixture.path, dumpDataFile);
    // Every table of the store is in the file (the full-text index aside) and was copied.
    expect(file.tables.map((t) => t.name)).toEqual(NAMES);
    expect(result.tables).toEqual(file.tables.map((t) => ({ name: t.name, rows: t.rows.length })));
    // A desktop file has no team: a team's members, sessions and per-member state are empty in it.
    expect(result.tables.filter((t) => !TEAM_ONLY.has(t.name)).every((t) => t.rows > 0)).toBe(true);
    expect(result.ms).toBeGreaterThanOrEqual(0);
    const copied = await pgTables(target.c, file.tables);
    for (const [i, t] of file.tables.entries()) expect(copied[i], t.name).toEqual(t);
    // The lots keep their rowids, which lot_facets rows point at.
    const rowids = withFile(fixture.path, (db) =>
      db.prepare('SELECT rowid, lot_key FROM lots ORDER BY rowid').all(),
    );
    const { rows } = await target.c.query('SELECT rowid, lot_key FROM lots ORDER BY rowid');
    expect(rows).toEqual(rowids);
    // The facts trigger, off while the rows went in, is on again.
    const trigger = await target.c.query("SELECT tgenabled FROM pg_trigger WHERE tgname = 'lot_facets_ai'");
    expect(trigger.rows).toEqual([{ tgenabled: 'O' }]);
  });

  it('leaves lot_facets as PostgreSQL’s own trigger makes it from the copied lots', async () => {
    const file = withFile(fixture.path, (db) => dumpDataFile(db)).tables.find(
      (t) => t.name === 'lot_facets',
    )!;
    // The trigger runs again over every lot (its UPDATE OF normalized), in a transaction rolled back afterwards.
    await target.c.query('BEGIN');
    try {
      await target.c.query('UPDATE lots SET normalized = normalized');
      expect(await readPgTable(target.c, file)).toEqual(file);
    } finally {
      await target.c.query('ROLLBACK');
    }
  });

  it('reports progress through each table, batch by batch, up to its total', () => {
    for (const name of NAMES) {
      const mine = progress.filter((p) => p.table === name);
      const total = result.tables.find((t) => t.name === name)!.rows;
      expect(mine[0]).toEqual({ table: name, done: 0, total });
      expect(mine.at(-1)).toEqual({ table: name, done: total, total });
      const done = mine.map((p) => p.done);
      expect(done).toEqual([...done].sort((a, b) => a - b));
    }
    // 61 lots in batches of 10.
    expect(progress.filter((p) => p.table === 'lots').map((p) => p.done)).toEqual([
      0, 10, 20, 30, 40, 50, 60, 61,
    ]);
  });

  it('sets every sequence after the copied ids: a row inserted without an id gets the next one', async () => {
    const c = target.c;
    const max = async (table: string, col: string) =>
      (await c.query<{ m: number }>(`SELECT max(${col}) AS m FROM ${table}`)).rows[0]!.m;
    // Real inserts without ids: a logged request, and a lot (its rowid; the trigger makes its facts row).
    const maxReq = await max('request_log', 'id');
    const maxLot = await max('lots', 'rowid');
    await c.query('BEGIN');
    try {
      const req = await c.query<{ id: number }>(
        "INSERT INTO request_log (at, endpoint, status, duration_ms, bytes, attempt) VALUES (1, '/lots', 200, 5, 10, 1) RETURNING id",
      );
      expect(req.rows[0]!.id).toBe(maxReq + 1);
      const lot = await c.query<{ rowid: number }>(
        `INSERT INTO lots (lot_key, platform, lot_number, normalized, raw, raw_hash, first_seen_at, last_observed_at)
         VALUES ('copart:new', 'copart', 'new', '{}', '{}', 'h', 1, 1) RETURNING rowid`,
      );
      expect(lot.rows[0]!.rowid).toBe(maxLot + 1);
      const facets = await c.query('SELECT 1 FROM lot_facets WHERE lot_rowid = $1', [maxLot + 1]);
      expect(facets.rowCount).toBe(1);
    } finally {
      await c.query('ROLLBACK');
    }
    // Every other identity column's sequence hands out the id after its table's largest (nextval is not rolled
    // back, so each is asked once).
    for (const [table, cols] of Object.entries(TABLES)) {
      const ids = Object.entries(cols)
        .filter(([col, spec]) => spec === 'id' && `${table}.${col}` !== 'request_log.id')
        .map(([col]) => col);
      for (const col of ids) {
        const next = (
          await c.query<{ n: number }>('SELECT nextval(pg_get_serial_sequence($1, $2)) AS n', [table, col])
        ).rows[0]!.n;
        expect(next, `${table}.${col}`).toBe((await max(table, col)) + 1);
      }
    }
  });

  it('refuses a second copy into the same database and changes nothing in it', async () => {
    const again = folderWithFixture();
    const shapes = withFile(again.path, dumpDataFile).tables;
    const before = await pgTables(target.c, shapes);
    const err = await copyToPostgres({ sqlitePath: again.path, url: target.url }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CopyTargetNotEmptyError);
    expect((err as CopyTargetNotEmptyError).table).toBe('alerts');
    expect((err as Error).message).toContain('its table alerts has rows');
    expect((err as Error).message).toContain('Copy into an empty database');
    expect(await pgTables(target.c, shapes)).toEqual(before);
  });
});

describe.skipIf(!pgAvailable())('copyToPostgres when it cannot finish', () => {
  it('says in one line that the target does not answer, and leaves the data file byte for byte', async () => {
    const { path } = folderWithFixture();
    const before = sha(path);
    const port = await freePort();
    const err = await copyToPostgres({
      sqlitePath: path,
      url: `postgres://dealer:s3cret@127.0.0.1:${port}/lotwatch`,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseUnreachableError);
    const msg = (err as Error).message;
    expect(msg).toContain(`postgres://dealer:***@127.0.0.1:${port}/lotwatch`);
    expect(msg).not.toContain('s3cret');
    expect(msg).not.toContain('\n');
    // The target is reached before the file is opened: not even the upgrade has written to it.
    expect(sha(path)).toBe(before);
  });

  it('refuses a data file that is not there, without creating one or touching the target', async () => {
    const t = tempDir();
    dirs.push(t);
    const { url, c } = await emptyTarget();
    const err = await copyToPostgres({ sqlitePath: join(t.dir, 'lotwatch.sqlite'), url }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DatabaseUnavailableError);
    expect((err as Error).message).toContain('nothing to copy');
    expect(await pgObjects(c)).toEqual([]);
  });

  it('rolls everything back when PostgreSQL refuses a row mid-copy (a delivery of an alert the file lacks)', async () => {
    const { path } = folderWithFixture();
    // SQLite enforces foreign keys per connection: a file written without them can hold such a row.
    withFile(path, (db) => {
      db.pragma('foreign_keys = OFF');
      db.prepare(
        "INSERT INTO deliveries (alert_id, channel_id, status, not_before, created_at) VALUES (999999, 1, 'pending', 0, 0)",
      ).run();
    });
    const { url, c } = await emptyTarget();
    const err = await copyToPostgres({ sqlitePath: path, url }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CopyFailedError);
    expect((err as CopyFailedError).table).toBe('deliveries');
    expect((err as Error).message).toMatch(/foreign key/);
    expect((err as Error).message).toContain('the PostgreSQL database is as it was');
    // The database is as it was: no tables (the schema was made in the same transaction), so no rows either.
    expect(await pgObjects(c)).toEqual([]);
    // The target can take the copy once the file is right.
    withFile(path, (db) => db.prepare('DELETE FROM deliveries WHERE alert_id = 999999').run());
    const ok = await copyToPostgres({ sqlitePath: path, url });
    expect(ok.tables.find((t) => t.name === 'deliveries')!.rows).toBe(26);
  });

  it('stops at a text holding a NUL character, naming the table, row and column, and writes nothing', async () => {
    const { path } = folderWithFixture();
    const lotKey = withFile(path, (db) => {
      const key = db.prepare<[], { k: string }>('SELECT max(lot_key) AS k FROM lots').get()!.k;
      db.prepare("UPDATE lots SET notes = 'dent' || char(0) || 'left door' WHERE lot_key = ?").run(key);
      return key;
    });
    const { url, c } = await emptyTarget();
    const err = await copyToPostgres({ sqlitePath: path, url }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CopyNulTextError);
    expect(err).toMatchObject({ table: 'lots', row: `lot_key=${JSON.stringify(lotKey)}`, column: 'notes' });
    expect((err as Error).message).toContain('NUL character');
    expect(await pgObjects(c)).toEqual([]);
  });

  it('undoes the copy when a table’s counts differ afterwards, naming the table and both counts', async () => {
    const { path } = folderWithFixture();
    // A file whose lot lost its facts row: PostgreSQL's trigger makes one for every copied lot, so the counts differ.
    withFile(path, (db) =>
      db.prepare('DELETE FROM lot_facets WHERE lot_rowid = (SELECT max(rowid) FROM lots)').run(),
    );
    const { url, c } = await emptyTarget();
    const err = await copyToPostgres({ sqlitePath: path, url }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CopyCountMismatchError);
    expect(err).toMatchObject({ table: 'lot_facets', sqliteRows: 60, postgresRows: 61 });
    expect((err as Error).message).toContain('60 rows in the data file and 61 in the PostgreSQL database');
    expect(await pgObjects(c)).toEqual([]);
  });

  it('undoes the copy when the caller’s progress callback throws', async () => {
    const { path } = folderWithFixture();
    const { url, c } = await emptyTarget();
    const stop = new Error('stopped by the caller');
    const err = await copyToPostgres({
      sqlitePath: path,
      url,
      onProgress: (p) => {
        if (p.table === 'observations' && p.done > 0) throw stop;
      },
    }).catch((e: unknown) => e);
    expect(err).toBe(stop);
    expect(await pgObjects(c)).toEqual([]);
  });
});

describe.skipIf(!pgAvailable())('copyToPostgres into a database a team server has already set up', () => {
  it('copies into a migrated, empty database', async () => {
    const { path } = folderWithFixture();
    const { url, c } = await emptyTarget();
    expect(await migratePgAt(url)).toEqual(MIGRATIONS.map((m) => m.version));
    const result = await copyToPostgres({ sqlitePath: path, url });
    expect(result.tables.find((t) => t.name === 'lots')!.rows).toBe(61);
    expect((await pgCounts(c))['lots']).toBe(61);
  });
});

describe.skipIf(!pgAvailable())('copyToPostgres values at the edges', () => {
  it('copies integers beyond 2^53 exactly, and REALs and BLOBs bit for bit', async () => {
    const { path } = folderWithFixture();
    const blob = Buffer.from([0, 255, 1, 254, 0, 0, 128]);
    const ids = withFile(path, (db) => {
      const req = db.prepare<[], { id: number }>('SELECT min(id) AS id FROM request_log').get()!.id;
      const lot = db.prepare<[], { k: string }>('SELECT min(lot_key) AS k FROM lots').get()!.k;
      db.prepare('UPDATE request_log SET bytes = 9007199254740993 WHERE id = ?').run(req);
      db.prepare('UPDATE lots SET current_bid_usd = 0.1 + 0.2, raw_z = ? WHERE lot_key = ?').run(blob, lot);
      return { req, lot };
    });
    const { url, c } = await emptyTarget();
    await copyToPostgres({ sqlitePath: path, url });
    const big = await c.query('SELECT bytes::text AS b FROM request_log WHERE id = $1', [ids.req]);
    expect(big.rows).toEqual([{ b: '9007199254740993' }]);
    const lot = await c.query<{ bid: number; raw_z: Buffer }>(
      'SELECT current_bid_usd AS bid, raw_z FROM lots WHERE lot_key = $1',
      [ids.lot],
    );
    expect(lot.rows[0]!.bid).toBe(0.1 + 0.2);
    expect(lot.rows[0]!.raw_z.equals(blob)).toBe(true);
  });
});

describe.skipIf(!pgAvailable())('copyToPostgres as a role that does not own the tables', () => {
  it('leaves PostgreSQL’s facts trigger on, and ends with the same rows', async () => {
    const { path } = folderWithFixture();
    const { url, c } = await emptyTarget();
    // The team server's own role (the cluster's superuser here) made the tables; the dealer's role may write them.
    await migratePgAt(url);
    const role = `dealer_${process.pid}_${Date.now()}`;
    await c.query(`CREATE ROLE ${role} LOGIN`);
    await c.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`);
    await c.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
    const asDealer = new URL(url);
    asDealer.username = role;
    const result = await copyToPostgres({ sqlitePath: path, url: asDealer.toString() });
    expect(result.tables.find((t) => t.name === 'lot_facets')!.rows).toBe(61);
    const file = withFile(path, dumpDataFile);
    const copied = await pgTables(c, file.tables);
    for (const [i, t] of file.tables.entries()) expect(copied[i], t.name).toEqual(t);
    const trigger = await c.query<{ tgenabled: string }>(
      "SELECT tgenabled FROM pg_trigger WHERE tgname = 'lot_facets_ai'",
    );
    expect(trigger.rows).toEqual([{ tgenabled: 'O' }]);
  });
});

describe.skipIf(!pgAvailable())('copyToPostgresCommand on a large folder', () => {
  it('says how far it is every tenth of a table of 10,000 rows or more', async () => {
    const { dir, path } = folderWithFixture();
    // 200 more copies of each of the file's 61 lots under new keys (12,261 lots; the triggers make their facts).
    const cols = Object.keys(TABLES.lots).filter((col) => col !== 'lot_key');
    withFile(path, (db) =>
      db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
        INSERT INTO lots (lot_key, ${cols.join(', ')})
        SELECT 'bulk' || i || ':' || lot_key, ${cols.join(', ')} FROM lots, n`),
    );
    const { url } = await emptyTarget();
    const lines: string[] = [];
    const errors: string[] = [];
    const code = await copyToPostgresCommand(['--data-dir', dir, '--to', url], {
      log: (l) => lines.push(l),
      error: (l) => errors.push(l),
    });
    expect(errors).toEqual([]);
    expect(code).toBe(0);
    const steps = lines.filter((l) => /^ {2}lots: [\d,]+ of 12,261 rows$/.test(l));
    expect(steps.length).toBeGreaterThanOrEqual(5);
    const done = steps.map((l) => Number(/lots: ([\d,]+) of/.exec(l)![1]!.replace(/,/g, '')));
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(lines).toContain('  lots: 12,261 rows');
    expect(lines).toContainEqual(expect.stringMatching(/^lot_facets +12,261$/));
    expect(lines.at(-1)).toMatch(/^copied [\d,]+ rows in \d+\.\d s; counts match$/);
  }, 120_000);
});

/** Runs the bundled command line with `args`; resolves with its exit code and output. */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript('cli'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(!pgAvailable())('node out/main/headless.js copy-to-postgres', () => {
  it('copies a data folder, prints every table’s rows and that the counts match; a second run is refused', async () => {
    const { dir } = folderWithFixture();
    const { url, c } = await emptyTarget();
    const withPassword = url.replace('postgres://lotwatch@', 'postgres://lotwatch:unused@');
    const first = await runCli(['copy-to-postgres', '--data-dir', dir, '--to', withPassword]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).not.toContain('unused');
    expect(first.stdout).toContain('lotwatch:***@');
    expect(first.stdout).toMatch(/^ {2}lots: 61 rows$/m);
    expect(first.stdout).toMatch(/^request_log\s+132$/m);
    const total = Object.values(await pgCounts(c)).reduce((a, b) => a + b, 0);
    expect(first.stdout).toMatch(
      new RegExp(`^copied ${total.toLocaleString('en-US')} rows in \\d+\\.\\d s; counts match$`, 'm'),
    );

    const second = await runCli(['copy-to-postgres', '--data-dir', dir, '--to', withPassword]);
    expect(second.code).toBe(1);
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    expect(second.stderr).toContain('already holds Lotwatch data');
    expect(second.stderr).not.toContain('unused');
  }, 60_000);

  it('refuses a data folder Lotwatch is running on, and copies nothing', async () => {
    const { dir } = folderWithFixture();
    const { url, c } = await emptyTarget();
    const lock = acquireDataLock(dir, { shell: 'headless', now: Date.now() });
    try {
      const errors: string[] = [];
      const code = await copyToPostgresCommand(['--data-dir', dir, '--to', url], {
        log: () => {},
        error: (l) => errors.push(l),
      });
      expect(code).toBe(1);
      expect(errors).toEqual([
        expect.stringMatching(/^lotwatch: Lotwatch is already running on the data folder /),
      ]);
    } finally {
      lock.release();
    }
    expect(await pgObjects(c)).toEqual([]);
  });

  it('exits 2 without --to, and 1 in one line without a stack for a target that does not answer', async () => {
    const { dir, path } = folderWithFixture();
    const usage = await runCli(['copy-to-postgres', '--data-dir', dir]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('needs --to');
    const before = sha(path);
    const port = await freePort();
    const down = await runCli([
      'copy-to-postgres',
      '--data-dir',
      dir,
      '--to',
      `postgres://dealer:s3cret@127.0.0.1:${port}/lotwatch`,
    ]);
    expect(down.code).toBe(1);
    expect(down.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^lotwatch: Lotwatch could not connect to the PostgreSQL database at postgres:\/\/dealer:\*\*\*@/,
      ),
    ]);
    expect(down.stderr).not.toContain('s3cret');
    expect(down.stderr).not.toMatch(/\bat .+:\d+:\d+\)/);
    expect(sha(path)).toBe(before);
  }, 60_000);
});
