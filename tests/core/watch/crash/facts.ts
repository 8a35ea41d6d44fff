import BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { openPostgres } from '../../../../src/core/db/pg/open';
import { sqliteKysely } from '../../../../src/core/db/kyselySqlite';
import type { DB } from '../../../../src/core/db/schema';

// What the crash scenario reads of a killed child's database and writes before the cycles (scenario.ts, journal.ts),
// said once over Kysely for both engines: the desktop's SQLite file (opened while the child is dead, read-only for
// the checks) and a team's PostgreSQL database (the child's, on the run's test cluster). Only each engine's own
// soundness check differs: SQLite's integrity and foreign key checks, PostgreSQL's amcheck.

/** An alert row as the audit reads it. */
export interface AuditAlert {
  id: number;
  dedup_key: string;
  kind: string;
  lot_key: string | null;
  source: string;
  title: string;
  body: string;
  status: string;
  delivery: string;
  created_at: number;
  deliver_after: number | null;
  delivered_at: number | null;
  read_at: number | null;
}

/** A poll_runs row as the audit reads it (finished_at null while a run is unfinished or was interrupted). */
export interface AuditRun {
  target: string;
  finished_at: number | null;
  status: string;
  requests: number;
  changes: number;
}

/** The scenario's database, on either engine. Every method throws the driver's error when the database does not answer. */
export interface CrashFacts {
  readonly engine: 'sqlite' | 'postgres';
  /**
   * The engine's own check that the stored data is structurally sound after a kill, as problem lines (empty when
   * sound): SQLite's `integrity_check` and `foreign_key_check` of the file; on PostgreSQL amcheck's heap check of
   * every table and btree check of every index (the server enforces foreign keys itself, so there is no row to find).
   */
  soundness(): Promise<string[]>;
  /** Every alert, by id. */
  alerts(): Promise<AuditAlert[]>;
  /** Every poll run, by id. */
  pollRuns(): Promise<AuditRun[]>;
  /** The first observation time (ms, market time) of each of `lotKeys` observed at least once. */
  firstSeen(lotKeys: readonly string[]): Promise<Map<string, number>>;
  /**
   * Adds a lot watch for each of `lotKeys` and the saved search `search` (its schedule a cron line), all with the
   * watch rules `rules` (JSON), as a buyer would set them up. Needs facts opened for writing.
   */
  setUp(
    lotKeys: readonly string[],
    rules: string,
    search: { name: string; params: string; schedule: string; maxPages: number },
  ): Promise<void>;
  /** Closes the connection (idempotent). */
  close(): Promise<void>;
}

/** The reads and writes of CrashFacts over `db`, with the engine's soundness check and closing given. */
function kyselyFacts(
  db: Kysely<DB>,
  engine: CrashFacts['engine'],
  soundness: () => Promise<string[]>,
  close: () => Promise<void>,
): CrashFacts {
  let closed: Promise<void> | null = null;
  return {
    engine,
    soundness,
    alerts: () =>
      db
        .selectFrom('alerts')
        .select([
          'id',
          'dedup_key',
          'kind',
          'lot_key',
          'source',
          'title',
          'body',
          'status',
          'delivery',
          'created_at',
          'deliver_after',
          'delivered_at',
          'read_at',
        ])
        .orderBy('id')
        .execute(),
    pollRuns: () =>
      db
        .selectFrom('poll_runs')
        .select(['target', 'finished_at', 'status', 'requests', 'changes'])
        .orderBy('id')
        .execute(),
    async firstSeen(lotKeys) {
      if (lotKeys.length === 0) return new Map();
      const rows = await db
        .selectFrom('observations')
        .select((eb) => ['lot_key', eb.fn.min('observed_at').as('t')])
        .where('lot_key', 'in', lotKeys)
        .groupBy('lot_key')
        .execute();
      return new Map(rows.map((r) => [r.lot_key, r.t]));
    },
    async setUp(lotKeys, rules, search) {
      await db.transaction().execute(async (t) => {
        await t
          .insertInto('watches')
          .values(
            lotKeys.map((k) => ({
              kind: 'lot',
              vin: null,
              lot_key: k,
              label: '',
              rules,
              is_example: 0,
              created_at: 0,
              updated_at: 0,
            })),
          )
          .execute();
        await t
          .insertInto('saved_searches')
          .values({
            name: search.name,
            params: search.params,
            schedule: search.schedule,
            rules,
            max_pages: search.maxPages,
            created_at: 0,
            updated_at: 0,
          })
          .execute();
      });
    },
    close: () => (closed ??= close()),
  };
}

/**
 * The SQLite data file at `file` (the child dead, or not yet stepped): read-only unless `write` (the set-up, while
 * the first child waits). @throws better-sqlite3's error when the file cannot be opened.
 */
export function sqliteFacts(file: string, opts: { write?: boolean } = {}): CrashFacts {
  const conn = new BetterSqlite3(file, { readonly: !opts.write });
  const db = sqliteKysely(conn);
  return kyselyFacts(
    db,
    'sqlite',
    async () => {
      const problems: string[] = [];
      const integrity = conn.pragma('integrity_check', { simple: true });
      if (integrity !== 'ok') problems.push(`integrity_check: ${String(integrity)}`);
      const fk = conn.pragma('foreign_key_check') as unknown[];
      if (fk.length) problems.push(`foreign_key_check: ${JSON.stringify(fk.slice(0, 5))}`);
      return problems;
    },
    async () => {
      await db.destroy();
      conn.close();
    },
  );
}

/**
 * The PostgreSQL database at `url` (the child's), over a pool of its own. The soundness check installs amcheck (a
 * contrib module Debian's package ships; the test cluster's user is a superuser) in that database at first use.
 * @throws DatabaseUnreachableError when the server does not answer.
 */
export async function postgresFacts(url: string): Promise<CrashFacts> {
  const h = await openPostgres(url, { max: 2 });
  const { db } = h;
  return kyselyFacts(
    db,
    'postgres',
    async () => {
      const problems: string[] = [];
      await sql`CREATE EXTENSION IF NOT EXISTS amcheck`.execute(db);
      // Every table of the schema the store lives in: a heap row the server cannot read is a problem line.
      const heap = await sql<{ relname: string; blkno: number; offnum: number; msg: string }>`
        SELECT c.relname, v.blkno, v.offnum, v.msg
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace,
          LATERAL verify_heapam(c.oid::regclass) v
        WHERE c.relkind = 'r' AND n.nspname = current_schema()`.execute(db);
      for (const r of heap.rows.slice(0, 5))
        problems.push(`verify_heapam ${r.relname} block ${r.blkno}/${r.offnum}: ${r.msg}`);
      // Every btree index, with every heap row found in it; bt_index_check raises on the first inconsistency.
      const indexes = await sql<{ relname: string }>`
        SELECT c.relname FROM pg_index i
        JOIN pg_class c ON c.oid = i.indexrelid
        JOIN pg_am a ON a.oid = c.relam
        JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE a.amname = 'btree' AND n.nspname = current_schema() AND i.indisvalid`.execute(db);
      for (const { relname } of indexes.rows) {
        try {
          await sql`SELECT bt_index_check(${relname}::regclass, true)`.execute(db);
        } catch (e) {
          problems.push(`bt_index_check ${relname}: ${(e as Error).message}`);
        }
      }
      return problems;
    },
    () => h.close(),
  );
}
