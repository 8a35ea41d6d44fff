import type { Database } from 'better-sqlite3';
import { DatabaseFromFutureError } from '../errors';

/**
 * The part of a PostgreSQL connection a migration step uses (docs/architecture.md "Two engines: migrations"): one
 * query at a time on the connection that holds the migration transaction. A `pg.Client` or a pool's `PoolClient`
 * fits. Without values the text may hold several statements; with values it is one statement, bound as $1, $2…
 * BIGINT columns may come back as strings (the client's own type parsers decide): a step passes ids back as values
 * rather than doing arithmetic on them.
 */
export interface PgClient {
  query<R extends Record<string, unknown> = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>;
}

/**
 * The PostgreSQL form of a step: SQL text (run as one multi-statement query), or a function over the client for a
 * data step written in TypeScript. Both run inside migratePg's transaction (src/core/db/pg/migrate.ts).
 */
export type PgStep = string | ((c: PgClient) => Promise<void>);

/**
 * One numbered schema step. `up` is the SQLite form: it runs inside the migration transaction and must not await.
 * `pg` is the PostgreSQL form of the same step, leaving the same tables, columns, indexes and rows; Lotwatch's list
 * (migrations/index.ts) requires it (TwoEngineMigration), a SQLite-only list may leave it out.
 */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
  pg?: PgStep;
}

/** A step in both forms: every entry of Lotwatch's MIGRATIONS. */
export interface TwoEngineMigration extends Migration {
  pg: PgStep;
}

/** Reads PRAGMA user_version: the schema version of the file. */
export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Refuses a database written by a newer version, without writing to it.
 * @throws DatabaseFromFutureError when user_version is above the newest migration.
 */
export function assertNotFromFuture(db: Database, path: string, migrations: readonly Migration[]): void {
  const latest = migrations.at(-1)?.version ?? 0;
  const current = schemaVersion(db);
  if (current > latest) throw new DatabaseFromFutureError(path, current, latest);
}

/**
 * Applies every migration above the file's user_version, all in one transaction, and sets user_version
 * to the last one applied. Returns the versions applied (empty when the file was current).
 * @throws DatabaseFromFutureError (see assertNotFromFuture); any migration error rolls the whole set back.
 */
export function migrate(db: Database, path: string, migrations: readonly Migration[]): number[] {
  assertNotFromFuture(db, path, migrations);
  const current = schemaVersion(db);
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return [];
  db.transaction(() => {
    for (const m of pending) {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    }
  })();
  return pending.map((m) => m.version);
}
