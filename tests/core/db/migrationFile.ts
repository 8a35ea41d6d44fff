import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { migrate } from '../../../src/core/db/migrate';
import { MIGRATIONS } from '../../../src/core/db/migrations';
import { tempDir } from '../../helpers/tmp';

/**
 * Runs the migrations up to and including `version` on `db` (the file at `path`, named in errors) and returns the
 * versions applied, in order. An upgrade test builds a file as an older Lotwatch left it this way, then applies
 * the next migration and reads what came out. Throws what `migrate` throws (a file from a newer version).
 */
export function migrateTo(db: BetterSqlite3.Database, path: string, version: number): number[] {
  return migrate(
    db,
    path,
    MIGRATIONS.filter((m) => m.version <= version),
  );
}

/** Fresh data files for upgrade tests; each lives in its own temporary folder, removed after the test. */
export interface MigrationFiles {
  /** The path of a new, not yet created `lotwatch.sqlite`. */
  path(): string;
  /**
   * A new file migrated to `version`, then given the rows an older version would have written by `seed` (run on
   * a plain connection, no later migration), closed; returns its path, ready for `openDatabase` or a raw open.
   */
  at(version: number, seed?: (db: BetterSqlite3.Database) => void): string;
}

/**
 * Registers the cleanup (an `afterEach` in the calling test file) and returns the file maker. Call once at the top
 * level of a test file; every migration's upgrade test starts from a file made here.
 */
export function migrationFiles(): MigrationFiles {
  const dirs: { cleanup(): void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));
  const path = (): string => {
    const t = tempDir();
    dirs.push(t);
    return join(t.dir, 'lotwatch.sqlite');
  };
  return {
    path,
    at(version, seed) {
      const file = path();
      const db = new BetterSqlite3(file);
      try {
        migrateTo(db, file, version);
        seed?.(db);
      } finally {
        db.close();
      }
      return file;
    },
  };
}
