import type { Database } from 'better-sqlite3';
import { DatabaseFromFutureError } from '../errors';

/** One numbered schema step. `up` runs inside the migration transaction: it must not await. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
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
