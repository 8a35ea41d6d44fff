import type { Database } from 'better-sqlite3';
import { existsSync } from 'node:fs';
import type pg from 'pg';
import {
  CopyCountMismatchError,
  CopyFailedError,
  CopyNulTextError,
  CopyTargetNotEmptyError,
  DatabaseUnavailableError,
} from '../errors';
import { closeDatabase, openDatabase } from './connection';
import { MIGRATIONS } from './migrations';
import { migratePgWithin } from './pg/migrate';
import { openPostgres } from './pg/open';
import { TABLES, type TableName } from './schema';
import { parsePostgresUrl, redactedUrl } from './target';

/*
 * Copying a desktop data folder's SQLite file into a team's PostgreSQL database (docs/architecture.md "Two engines:
 * copying a desktop folder"): a dealer who started on the desktop keeps their history when the team moves to a
 * server. Every table of TABLES is copied with its ids, in one PostgreSQL transaction, and checked by its row count
 * before it commits: the target ends with all of it or none of it.
 */

/** How far the copy of one table is: `done` of `total` rows written (total counted before the table starts). */
export interface CopyProgress {
  table: TableName;
  done: number;
  total: number;
}

export interface CopyToPostgresOptions {
  /** The desktop data file (`lotwatch.sqlite` of a data folder). It must exist: a copy never creates one. */
  sqlitePath: string;
  /** The target's address (`postgres://…`); shown only through `redactedUrl`. */
  url: string;
  /**
   * Called when a table starts (`done` 0) and after each batch written. An error it throws stops the copy, and the
   * target is left as it was.
   */
  onProgress?: (p: CopyProgress) => void;
  /** Rows per multi-row INSERT at most (default 1,000; fewer for a table with many columns or large values). */
  batchRows?: number;
}

/** What a copy wrote: every table with its rows (equal on both sides), in name order, and how long it took (ms). */
export interface CopyResult {
  tables: { name: TableName; rows: number }[];
  ms: number;
}

/** PostgreSQL takes at most 65,535 bound values per statement; a batch stays well under it. */
const MAX_VALUES = 30_000;
/** A batch is written once its values reach about this many bytes (lots' records are tens of kB each). */
const MAX_BATCH_BYTES = 4_000_000;
/** The table a trigger fills from `lots` on PostgreSQL (the 120 PostgreSQL form, `lot_facets_keep`). */
const DERIVED: TableName = 'lot_facets';

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const TABLE_NAMES = Object.keys(TABLES) as TableName[];

/**
 * Copies the Lotwatch data file at `sqlitePath` into the empty PostgreSQL database at `url`, then checks it:
 * 1. opens the target (`openPostgres`) and refuses it when any Lotwatch table there already holds rows, before
 *    anything is written to it;
 * 2. opens the file with `openDatabase` (which upgrades it in place as the app does; nothing else is written to it);
 * 3. in ONE PostgreSQL transaction, and from one read snapshot of the file: migrates the target to the same version
 *    (`migratePgWithin`, its advisory lock held to the end, so two copies at once queue and the second is refused),
 *    looks again for rows, copies every table of TABLES in
 *    foreign-key order, in multi-row INSERTs with their ids (`lots` keeps its rowid in `lots.rowid`; the generated
 *    `lots.fts` is PostgreSQL's own), values as they are (INTEGER to BIGINT exactly, REAL to DOUBLE PRECISION, TEXT
 *    unchanged, BLOB to BYTEA); `lot_facets` is copied from the file, so the Library's facts are the ones the buyer
 *    had: PostgreSQL's insert trigger that would make them again is off for the copy when this role owns `lots`,
 *    else it makes them and the file's rows are written over them; a lot without its facts row in the file gets
 *    the trigger's (and the counts then differ); sets every identity
 *    sequence to its table's largest id, so the next insert gets the next id; and compares every table's row count
 *    on both sides before it commits.
 * Returns the row count of every table and the time it took (ms).
 * @throws DatabaseAddressError for an address that is not PostgreSQL's; DatabaseUnreachableError when the target
 *   cannot be reached (the file was not opened).
 * @throws CopyTargetNotEmptyError naming the first table with rows (nothing written to the target).
 * @throws DatabaseUnavailableError when the file is missing (nothing created) or cannot be opened; what
 *   openDatabase throws (DatabaseFromFutureError…).
 * @throws DatabaseFromFutureError when the target's schema is newer than this Lotwatch's.
 * @throws CopyNulTextError for a text holding a NUL character (PostgreSQL's text cannot hold it: the copy stops
 *   rather than alter or drop the value); CopyFailedError when PostgreSQL refuses a write or the connection fails;
 *   CopyCountMismatchError when a table's counts differ after the copy. In all three the transaction is rolled back
 *   and the target is as it was (no table made, no row written).
 */
export async function copyToPostgres(opts: CopyToPostgresOptions): Promise<CopyResult> {
  const started = Date.now();
  const address = redactedUrl(opts.url);
  // A missing file would be created empty by openDatabase, and an empty copy would look like a success.
  if (!existsSync(opts.sqlitePath))
    throw new DatabaseUnavailableError(
      `There is no Lotwatch data file at ${opts.sqlitePath}, so there is nothing to copy. Check the data folder.`,
    );
  const target = await openPostgres(opts.url, { max: 1 });
  const { password } = parsePostgresUrl(opts.url);
  let client: pg.PoolClient | undefined;
  let db: Database | undefined;
  try {
    client = await target.pool.connect().catch((e: unknown) => {
      throw new CopyFailedError(address, null, oneLine(e, password), e);
    });
    // A connection the server drops mid-copy fails the query that is running; without a listener it ends the process.
    client.on('error', () => {});
    const c = client;
    const run = async <R extends Record<string, unknown>>(
      table: string | null,
      text: string,
      values?: unknown[],
    ) => {
      try {
        return await c.query<R>(text, values);
      } catch (e) {
        throw new CopyFailedError(address, table, oneLine(e, password), e);
      }
    };
    await refuseNonEmpty(run, address);
    db = openDatabase(opts.sqlitePath);
    return await copyAll(db, c, run, address, opts, started);
  } finally {
    if (db) {
      if (db.inTransaction) db.exec('ROLLBACK');
      closeDatabase(db);
    }
    client?.release();
    await target.close();
  }
}

/** A query on the copy's connection, its driver errors made CopyFailedError naming `table`. */
type Run = <R extends Record<string, unknown>>(
  table: string | null,
  text: string,
  values?: unknown[],
) => Promise<pg.QueryResult<R>>;

/** The copy itself, in one PostgreSQL transaction over one SQLite read snapshot (see copyToPostgres). */
async function copyAll(
  db: Database,
  client: pg.PoolClient,
  run: Run,
  address: string,
  opts: CopyToPostgresOptions,
  started: number,
): Promise<CopyResult> {
  // One read snapshot of the file for every table and count (WAL: a writer elsewhere does not move it).
  db.exec('BEGIN');
  await run(null, 'BEGIN');
  try {
    // The schema in the same transaction: a failed copy leaves the database as it was, without empty tables.
    await migratePgWithin(client, MIGRATIONS, address);
    // Checked again inside the transaction, under the migrations' lock: another copy may have run since the first look.
    await refuseNonEmpty(run, address);
    // The file's lot_facets rows are copied as they are; PostgreSQL's insert trigger, which would make each one again
    // from its lot (most of the time a copy of lots takes), is off for the copy when this role may turn it off.
    const triggerOff = await pauseFacetsTrigger(run);
    const counts = new Map<TableName, number>();
    for (const table of copyOrder(db)) {
      counts.set(table, await copyTable(db, run, table, opts, !triggerOff));
    }
    if (triggerOff) {
      await run(DERIVED, 'ALTER TABLE lots ENABLE TRIGGER lot_facets_ai');
      // A lot the file holds without its facts row gets the one the trigger would have made, as it does when the
      // trigger stayed on: the counts below then differ, and the copy stops rather than leave a lot out of the
      // Library's filters.
      await run(
        DERIVED,
        'UPDATE lots SET normalized = normalized WHERE NOT EXISTS (SELECT 1 FROM lot_facets f WHERE f.lot_rowid = lots.rowid)',
      );
    }
    await resetSequences(run);
    for (const table of TABLE_NAMES) {
      const { rows } = await run<{ n: number }>(table, `SELECT count(*)::bigint AS n FROM ${quote(table)}`);
      const there = Number(rows[0]!.n);
      const here = counts.get(table)!;
      if (there !== here) throw new CopyCountMismatchError(table, here, there);
    }
    await run(null, 'COMMIT');
    return {
      tables: TABLE_NAMES.map((name) => ({ name, rows: counts.get(name)! })),
      ms: Date.now() - started,
    };
  } catch (e) {
    await run(null, 'ROLLBACK').catch(() => {
      // The connection itself failed: the server rolls the transaction back when it goes.
    });
    throw e;
  } finally {
    db.exec('ROLLBACK');
  }
}

/**
 * Throws CopyTargetNotEmptyError for the first table of TABLES (name order) that exists in the target and holds a
 * row. Reads only.
 */
async function refuseNonEmpty(run: Run, address: string): Promise<void> {
  for (const table of TABLE_NAMES) {
    const { rows } = await run<{ present: boolean }>(
      table,
      'SELECT to_regclass($1::text) IS NOT NULL AS present',
      [table],
    );
    if (!rows[0]?.present) continue;
    const any = await run<{ any: boolean }>(table, `SELECT EXISTS (SELECT 1 FROM ${quote(table)}) AS any`);
    if (any.rows[0]?.any) throw new CopyTargetNotEmptyError(address, table);
  }
}

/**
 * The tables of TABLES in an order every foreign key allows (a table after the tables it points at, read from the
 * file's own foreign keys), `lot_facets` after `lots` (its rows are keyed by the lots' rowids), else by name.
 */
function copyOrder(db: Database): TableName[] {
  const fk = db.prepare<[string], { parent: string }>(
    'SELECT "table" AS parent FROM pragma_foreign_key_list(?)',
  );
  const parents = new Map<TableName, Set<string>>(
    TABLE_NAMES.map((t) => [t, new Set(fk.all(t).map((r) => r.parent))]),
  );
  parents.get(DERIVED)!.add('lots');
  const order: TableName[] = [];
  const placed = new Set<string>();
  while (order.length < TABLE_NAMES.length) {
    const next = TABLE_NAMES.find(
      (t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p) || p === t || !(p in TABLES)),
    );
    if (!next) throw new Error('the tables’ foreign keys form a cycle: no copy order satisfies them');
    order.push(next);
    placed.add(next);
  }
  return order;
}

/** The columns copied for `table`: TABLES' columns, and `lots`' rowid first (PostgreSQL's `lots.rowid`). */
function columnsOf(table: TableName): string[] {
  const cols = Object.keys(TABLES[table]);
  return table === 'lots' ? ['rowid', ...cols] : cols;
}

/** The file's primary key columns of `table` (for messages naming a row), its rowid when it declares none. */
function primaryKeyOf(db: Database, table: TableName): string[] {
  const pk = db
    .prepare<[string], { name: string; pk: number }>('SELECT name, pk FROM pragma_table_info(?) WHERE pk > 0')
    .all(table)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => c.name);
  return pk.length ? pk : ['rowid'];
}

/**
 * Turns PostgreSQL's `lot_facets_ai` trigger off for the rest of the transaction (it is on again at ROLLBACK, and
 * the copy turns it on before COMMIT); returns false, with nothing changed, when this role may not (it does not own
 * `lots`: a database a team server's own role migrated), and the trigger then stays on.
 * @throws CopyFailedError for any other failure.
 */
async function pauseFacetsTrigger(run: Run): Promise<boolean> {
  await run('lots', 'SAVEPOINT lotwatch_facets_trigger');
  try {
    await run('lots', 'ALTER TABLE lots DISABLE TRIGGER lot_facets_ai');
    await run('lots', 'RELEASE SAVEPOINT lotwatch_facets_trigger');
    return true;
  } catch (e) {
    // 42501: insufficient privilege (only the table's owner may turn its triggers off).
    if ((e as { cause?: { code?: unknown } }).cause?.code !== '42501') throw e;
    await run('lots', 'ROLLBACK TO SAVEPOINT lotwatch_facets_trigger');
    return false;
  }
}

/**
 * Copies every row of `table` from the file to the target in batches; returns the rows the file holds. The rows are
 * read in primary-key order with integers as BigInt (none rounded) and written as text for PostgreSQL to read into
 * BIGINT. With `facetsMade` (the insert trigger stayed on) the file's `lot_facets` rows replace the ones the trigger
 * made.
 */
async function copyTable(
  db: Database,
  run: Run,
  table: TableName,
  opts: CopyToPostgresOptions,
  facetsMade: boolean,
): Promise<number> {
  const cols = columnsOf(table);
  const pk = primaryKeyOf(db, table);
  const total = db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${quote(table)}`).get()!.n;
  opts.onProgress?.({ table, done: 0, total });
  const rowsPerBatch = Math.max(1, Math.min(opts.batchRows ?? 1000, Math.floor(MAX_VALUES / cols.length)));
  const onConflict =
    table === DERIVED && facetsMade
      ? ` ON CONFLICT (lot_rowid) DO UPDATE SET ${cols
          .filter((c) => c !== 'lot_rowid')
          .map((c) => `${quote(c)} = EXCLUDED.${quote(c)}`)
          .join(', ')}`
      : '';
  const insert = (n: number) =>
    `INSERT INTO ${quote(table)} (${cols.map(quote).join(', ')}) VALUES ` +
    Array.from(
      { length: n },
      (_, r) => `(${cols.map((_c, i) => `$${r * cols.length + i + 1}`).join(', ')})`,
    ).join(', ') +
    onConflict;
  const select = db
    .prepare(`SELECT ${cols.map(quote).join(', ')} FROM ${quote(table)} ORDER BY ${pk.map(quote).join(', ')}`)
    .safeIntegers(true)
    .raw(true);
  let values: unknown[] = [];
  let rows = 0;
  let bytes = 0;
  let done = 0;
  const flush = async () => {
    if (rows === 0) return;
    await run(table, insert(rows), values);
    done += rows;
    values = [];
    rows = 0;
    bytes = 0;
    opts.onProgress?.({ table, done, total });
  };
  const pkAt = pk.map((k) => cols.indexOf(k));
  for (const row of select.iterate() as IterableIterator<unknown[]>) {
    for (let i = 0; i < row.length; i++) {
      const v = row[i];
      if (typeof v === 'string') {
        if (v.includes('\u0000')) throw new CopyNulTextError(table, rowKey(pk, pkAt, row), cols[i]!);
        bytes += v.length;
        values.push(v);
      } else if (typeof v === 'bigint') {
        values.push(v.toString());
      } else {
        if (Buffer.isBuffer(v)) bytes += v.length;
        values.push(v);
      }
    }
    rows++;
    if (rows >= rowsPerBatch || bytes >= MAX_BATCH_BYTES) await flush();
  }
  await flush();
  return total;
}

/** A row's primary key as text for a message: `id=5`, `search_id=1, lot_key="copart:1"`. */
function rowKey(pk: readonly string[], at: readonly number[], row: readonly unknown[]): string {
  return pk
    .map((k, i) => {
      const v = at[i]! >= 0 ? row[at[i]!] : undefined;
      return `${k}=${typeof v === 'string' ? JSON.stringify(v) : String(v)}`;
    })
    .join(', ');
}

/**
 * Sets the sequence of every identity column (TABLES' `id` columns and `lots.rowid`) to its table's largest value,
 * so the next row inserted without an id gets the one after; a table with no rows keeps its sequence.
 */
async function resetSequences(run: Run): Promise<void> {
  const identities: [string, string][] = [['lots', 'rowid']];
  for (const table of TABLE_NAMES)
    for (const [col, spec] of Object.entries(TABLES[table]) as [string, string][])
      if (spec === 'id') identities.push([table, col]);
  for (const [table, col] of identities)
    await run(
      table,
      `SELECT setval(pg_get_serial_sequence($1, $2), m) FROM (SELECT max(${quote(col)}) AS m FROM ${quote(table)}) s ` +
        'WHERE m IS NOT NULL',
      [table, col],
    );
}

/** An error's message on one line for a CopyFailedError, the address's `password` (if any) shown as ***. */
function oneLine(e: unknown, password: string): string {
  let text = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').trim();
  if (password) text = text.split(password).join('***');
  return text.replace(/[.\s]+$/, '') || 'the query failed';
}
