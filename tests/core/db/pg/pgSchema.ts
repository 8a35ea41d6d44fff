import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterEach } from 'vitest';
import { migrate } from '../../../../src/core/db/migrate';
import { MIGRATIONS } from '../../../../src/core/db/migrations';
import { migratePg } from '../../../../src/core/db/pg/migrate';
import { testDatabase } from '../../../helpers/postgres';

/*
 * Both engines side by side for the PostgreSQL migration tests: a PostgreSQL database and an in-memory SQLite file
 * at the same version, the same rows written to both, their schemas and rows read back in one shape.
 */

/** Columns PostgreSQL has and SQLite does not, each the counterpart of something SQLite keeps elsewhere. */
export const PG_ONLY_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  // SQLite's implicit rowid made a column, and the full-text column that stands for the FTS5 table lots_fts.
  lots: ['rowid', 'fts'],
};

/**
 * Indexes PostgreSQL has and SQLite does not: the full-text column's GIN index (SQLite's lots_fts), the rowid
 * column's UNIQUE, and the one-row guard of the version table.
 */
export const PG_ONLY_INDEXES: readonly string[] = ['lots_fts', 'lots_rowid_key', 'lotwatch_schema_one_row'];

/** SQLite objects with no PostgreSQL table: the FTS5 table (its shadow tables start with its name). */
export const FTS_TABLE = 'lots_fts';
/** SQLite triggers that only keep lots_fts in step: PostgreSQL computes `lots.fts` itself. */
export const FTS_TRIGGERS = ['lots_ai', 'lots_ad', 'lots_au'];

/** A pg client with BIGINT read as numbers, as the app opens them. */
export async function connect(url: string): Promise<pg.Client> {
  const types = new pg.TypeOverrides();
  types.setTypeParser(20, Number);
  const c = new pg.Client({ connectionString: url, types });
  await c.connect();
  return c;
}

/** The migrations up to and including `version`. */
export const upTo = (version: number) => MIGRATIONS.filter((m) => m.version <= version);

/** Opened clients and SQLite files, closed after each test of the calling file. */
export function pgMigrationDbs(): {
  /** A new PostgreSQL database migrated to `version` (0: empty), connected. */
  pgAt(version: number): Promise<pg.Client>;
  /** A new in-memory SQLite database migrated to `version`. */
  sqliteAt(version: number): BetterSqlite3.Database;
  /** A new empty PostgreSQL database's address. */
  url(): Promise<string>;
  /** A client on `url`, closed after the test. */
  connect(url: string): Promise<pg.Client>;
} {
  const open: { close(): Promise<void> | void }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });
  const url = async () => (await testDatabase('mig'))!;
  const conn = async (u: string) => {
    const c = await connect(u);
    open.push({ close: () => c.end() });
    return c;
  };
  return {
    url,
    connect: conn,
    async pgAt(version) {
      const c = await conn(await url());
      await migratePg(c, upTo(version));
      return c;
    },
    sqliteAt(version) {
      const db = new BetterSqlite3(':memory:');
      open.push({ close: () => void db.close() });
      migrate(db, ':memory:', upTo(version));
      return db;
    },
  };
}

export type Family = 'integer' | 'real' | 'text' | 'blob';

export interface Column {
  name: string;
  family: Family;
  notNull: boolean;
  /** Part of the primary key (SQLite only). */
  pk?: boolean;
}

/** SQLite's declared type (STRICT or not) as a family. */
function sqliteFamily(type: string): Family {
  const t = type.toUpperCase();
  if (t.includes('INT')) return 'integer';
  if (t.includes('REAL') || t.includes('DOUB') || t.includes('FLOA')) return 'real';
  if (t.includes('BLOB')) return 'blob';
  return 'text';
}

/** PostgreSQL's data_type as a family (tsvector and others as themselves). */
function pgFamily(type: string): Family | string {
  if (type === 'bigint' || type === 'integer' || type === 'smallint') return 'integer';
  if (type === 'double precision' || type === 'real') return 'real';
  if (type === 'text') return 'text';
  if (type === 'bytea') return 'blob';
  return type;
}

/** SQLite's tables (not the FTS5 table nor its shadow tables), by name. */
export function sqliteTables(db: BetterSqlite3.Database): string[] {
  return (
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all() as { name: string }[]
  )
    .map((r) => r.name)
    .filter((n) => !n.startsWith(FTS_TABLE));
}

/** A SQLite table's (or view's) columns; a primary key column counts as NOT NULL, as PostgreSQL makes it. */
export function sqliteColumns(db: BetterSqlite3.Database, table: string): Column[] {
  return (
    db.prepare(`PRAGMA table_info(${table})`).all() as {
      name: string;
      type: string;
      notnull: number;
      pk: number;
    }[]
  ).map((c) => ({
    name: c.name,
    family: sqliteFamily(c.type),
    notNull: c.notnull === 1 || c.pk > 0,
    pk: c.pk > 0,
  }));
}

/** PostgreSQL's tables of the current schema, by name. */
export async function pgTables(c: pg.Client): Promise<string[]> {
  const { rows } = await c.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return rows.map((r) => r.table_name);
}

/** A PostgreSQL table's (or view's) columns, in order. */
export async function pgColumns(
  c: pg.Client,
  table: string,
): Promise<(Omit<Column, 'family'> & { family: string })[]> {
  const { rows } = await c.query<{ column_name: string; data_type: string; is_nullable: string }>(
    `SELECT column_name, data_type, is_nullable FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((r) => ({
    name: r.column_name,
    family: pgFamily(r.data_type),
    notNull: r.is_nullable === 'NO',
  }));
}

/** Every row of every SQLite table, SQLite's columns only, sorted, for comparing engines. */
export type Rows = Record<string, Record<string, unknown>[]>;

const sortRows = (rows: Record<string, unknown>[]) =>
  rows.sort((a, b) => {
    const ka = JSON.stringify(a);
    const kb = JSON.stringify(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });

/** Buffers as their hex and the columns in name order, so rows compare and sort by value on both engines. */
const plain = (r: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(r)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => [k, Buffer.isBuffer(v) ? `x'${v.toString('hex')}'` : v]),
  );

/** The rows of the SQLite tables `tables` (default every table). */
export function sqliteRows(db: BetterSqlite3.Database, tables = sqliteTables(db)): Rows {
  return Object.fromEntries(
    tables.map((t) => [
      t,
      sortRows((db.prepare(`SELECT * FROM ${t}`).all() as Record<string, unknown>[]).map(plain)),
    ]),
  );
}

/** The rows of PostgreSQL's `tables`, without PG_ONLY_COLUMNS. */
export async function pgRows(c: pg.Client, tables: string[]): Promise<Rows> {
  const out: Rows = {};
  for (const t of tables) {
    const { rows } = await c.query<Record<string, unknown>>(`SELECT * FROM ${t}`);
    const skip = PG_ONLY_COLUMNS[t] ?? [];
    out[t] = sortRows(
      rows.map((r) => plain(Object.fromEntries(Object.entries(r).filter(([k]) => !skip.includes(k))))),
    );
  }
  return out;
}

/** One row to write: column name to value (numbers, text, Buffers, null). */
export type Row = Record<string, unknown>;

/** Writes `row` to SQLite's `table`. */
export function sqliteInsert(db: BetterSqlite3.Database, table: string, row: Row): void {
  const cols = Object.keys(row);
  db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(
    ...Object.values(row),
  );
}

/** Writes `row` to PostgreSQL's `table`. */
export async function pgInsert(c: pg.Client, table: string, row: Row): Promise<void> {
  const cols = Object.keys(row);
  await c.query(
    `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
    Object.values(row),
  );
}

/** Tables triggers fill from `lots`: never written by a test. */
export const DERIVED_TABLES = ['lot_facets'];
/** Tables whose rows point at another table's (foreign keys): written after every other. */
const CHILD_TABLES = ['search_members', 'deliveries', 'call_answers', 'user_sessions'];

/** Old rules naming `sold` (migration 40 renames it). */
const SOLD_RULES = JSON.stringify({ kinds: ['new_match', 'sold'], snooze_until_event: 'sold' });
/** A normalised record with facts of every kind a facet reads: text, a number, a boolean, nested parts. */
const RECORD = JSON.stringify({
  damage: 'Hail',
  secondary_damage: true,
  run_condition: 3,
  has_key: false,
  title_document: { name: 'SALVAGE', brand: null, export: true },
  seller: { name: 'Seller Co', type: 'insurance' },
  auction: { last_sold_status: 'Sold', last_sold_day: '2026-07-31' },
  pricing: { current_bid_usd: 1200 },
});

/**
 * What the generated values would get wrong: the CHECK constraints' words, the foreign keys' ids, and rows that give
 * each data step something to do (a `sold` change, alert and rule set; a search whose baseline is done without a
 * complete run; a record without the estimates; one that is not JSON).
 */
const OVERRIDES: Readonly<Record<string, (i: number) => Row>> = {
  watches: (i) => ({ kind: i === 1 ? 'vin' : 'lot', rules: i === 1 ? SOLD_RULES : '{oops' }),
  saved_searches: (i) => ({ rules: i === 1 ? SOLD_RULES : '{}', baseline_done: 1 }),
  poll_runs: (i) => ({ target: 'search:2', complete: i === 1 ? 1 : 0 }),
  alerts: (i) => ({ delivery: 'now', kind: i === 1 ? 'sold' : 'new_match' }),
  changes: (i) => ({
    kind: i === 1 ? 'sold' : 'bid_changed',
    after: '12300',
    lot_key: 'lot:2',
    outcome: 'open',
  }),
  lots: (i) => ({
    lot_key: `lot:${i}`,
    platform: i === 1 ? 'copart' : 'iaai',
    state: 'sold',
    normalized: i === 1 ? 'not json' : RECORD,
    raw: '{}',
    raw_z: null,
  }),
  channels: () => ({ type: 'email' }),
  deliveries: (i) => ({ status: 'pending', alert_id: i, channel_id: i }),
  call_watches: () => ({ paused_reason: 'buyer' }),
  call_answers: (i) => ({ watch_id: i }),
  search_members: (i) => ({ search_id: i }),
  quota: () => ({ id: 1 }),
  users: (i) => ({ role: i === 1 ? 'admin' : 'viewer' }),
  user_sessions: (i) => ({ user_id: i }),
};

/** How many rows each table gets (quota holds one). */
const rowsOf = (table: string) => (table === 'quota' ? 1 : 2);

/**
 * Row `i` (from 1) of `table` for the columns it has at this version (`columns`, SQLite's): a value made from each
 * column's type (an id is `i`, another integer a time in ms past 2^31, so BIGINT is needed), then OVERRIDES.
 */
export function fixtureRow(table: string, columns: readonly Column[], i: number): Row {
  const over = OVERRIDES[table]?.(i) ?? {};
  const row: Row = {};
  for (const c of columns) {
    if (c.name in over) row[c.name] = over[c.name];
    else if (c.family === 'integer') row[c.name] = c.name === 'id' ? i : 1_790_000_000_000 + i;
    else if (c.family === 'real') row[c.name] = 1000.25 * i;
    else if (c.family === 'blob') row[c.name] = Buffer.from([0, 255, i]);
    else row[c.name] = `${table}.${c.name}.${i}`;
  }
  return row;
}

/**
 * Writes the same fixture rows to every table SQLite has at its version (DERIVED_TABLES excepted), parents first,
 * on both engines; returns the tables written.
 */
export async function seedBoth(db: BetterSqlite3.Database, c: pg.Client): Promise<string[]> {
  const tables = sqliteTables(db).filter((t) => !DERIVED_TABLES.includes(t));
  const ordered = [
    ...tables.filter((t) => !CHILD_TABLES.includes(t)),
    ...tables.filter((t) => CHILD_TABLES.includes(t)),
  ];
  for (const t of ordered) {
    const cols = sqliteColumns(db, t);
    for (let i = 1; i <= rowsOf(t); i++) {
      const row = fixtureRow(t, cols, i);
      sqliteInsert(db, t, row);
      await pgInsert(c, t, row);
    }
  }
  return tables;
}

/** Writes `row` to `table` on both engines. */
export async function insertBoth(
  db: BetterSqlite3.Database,
  c: pg.Client,
  table: string,
  row: Row,
): Promise<void> {
  sqliteInsert(db, table, row);
  await pgInsert(c, table, row);
}
