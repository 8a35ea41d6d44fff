import BetterSqlite3, { type Database } from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseUnavailableError, LotwatchError } from '../errors';
import { assertNotFromFuture, migrate, type Migration } from './migrate';
import { MIGRATIONS } from './migrations';

export interface OpenDatabaseOptions {
  /**
   * Path of the better-sqlite3 native module to load instead of the default one. The Electron shell passes
   * its Electron-ABI build here; plain Node (tests, headless) leaves it unset.
   */
  nativeBinding?: string;
  /** Migrations to apply (default: all of Lotwatch's). */
  migrations?: readonly Migration[];
}

/**
 * Opens (creating if needed) the Lotwatch SQLite file at `path`, refuses a file from a newer version before
 * writing anything, then switches to WAL and applies pending migrations.
 * `:memory:` is accepted for tests.
 * @throws DatabaseFromFutureError when the file's schema is newer than this build (file left untouched).
 * @throws DatabaseUnavailableError when the native module or the file cannot be opened.
 */
export function openDatabase(path: string, opts: OpenDatabaseOptions = {}): Database {
  const migrations = opts.migrations ?? MIGRATIONS;
  // The data is the buyer's own (bids they considered, their key's traces): a folder Lotwatch creates is theirs
  // alone (0700); an existing folder the buyer chose is left as it is.
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let db: Database;
  try {
    db = new BetterSqlite3(path, opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {});
  } catch (cause) {
    throw new DatabaseUnavailableError(
      `Lotwatch could not open its data file ${path}: ${(cause as Error).message}`,
      cause,
    );
  }
  try {
    // Check before any pragma that writes (journal_mode=WAL rewrites the header).
    assertNotFromFuture(db, path, migrations);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, path, migrations);
    if (path !== ':memory:') ownerOnly(path);
    return db;
  } catch (e) {
    db.close();
    if (e instanceof LotwatchError) throw e;
    throw new DatabaseUnavailableError(`Lotwatch could not read its data file ${path}: ${(e as Error).message}`, e);
  }
}

/** Makes the data file and its WAL companions readable and writable by their user only (0600). Best effort. */
function ownerOnly(path: string): void {
  if (process.platform === 'win32') return;
  for (const f of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      if (existsSync(f)) chmodSync(f, 0o600);
    } catch {
      // A file we cannot chmod (another owner) is still usable; the folder's mode protects it.
    }
  }
}

/** The version of the SQLite library the connection runs on (e.g. `3.50.2`), for About and bug reports. */
export function sqliteVersion(db: Database): string {
  return db.prepare<[], { v: string }>('SELECT sqlite_version() AS v').get()!.v;
}
