import BetterSqlite3, { type Database } from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { LotwatchError } from '../errors';
import { freeBytesOf, quickCheck, sizeOf } from './backup';
import {
  closedCleanly,
  damagedFileError,
  diskFullError,
  emptyFileError,
  forgetCleanClose,
  MIN_FREE_BYTES,
  openFailure,
  probeWrite,
  recordCleanClose,
} from './integrity';
import { assertNotFromFuture, migrate, type Migration } from './migrate';
import { MIGRATIONS } from './migrations';
import { applyStagedRestore } from './restore';

export interface OpenDatabaseOptions {
  /**
   * Path of the better-sqlite3 native module to load instead of the default one. The Electron shell passes
   * its Electron-ABI build here; plain Node (tests, headless) leaves it unset.
   */
  nativeBinding?: string;
  /** Migrations to apply (default: all of Lotwatch's). */
  migrations?: readonly Migration[];
  /** Free bytes on the disk of a folder (default: statfs); tests pass a full disk. */
  freeBytes?: (dir: string) => number;
}

/** Connections whose session met a database error: their close is not recorded as clean, so the next open checks. */
const suspects = new WeakSet<Database>();
/** The native module each connection was opened with, for the backup's own connections. */
const bindings = new WeakMap<Database, string>();

/**
 * Opens (creating if needed) the Lotwatch SQLite file at `path` (docs/architecture.md "Data safety"), in this order,
 * so that nothing is written to a file that fails a check:
 * 1. swaps in a restore staged by `stageRestore` (the old file is kept as `<path>.replaced-<time>`);
 * 2. refuses an existing file of 0 bytes, and a disk with less than MIN_FREE_BYTES free;
 * 3. on a read-only connection: refuses a file from a newer version, and runs quick_check unless the last run closed
 *    the file cleanly (see `closedCleanly`);
 * 4. refuses a file a transaction cannot write (a rolled-back write probe);
 * 5. then (a new file: incremental auto-vacuum) switches to WAL and applies pending migrations.
 * `:memory:` is accepted for tests (no checks).
 * @throws DatabaseFromFutureError when the file's schema is newer than this build (file left untouched).
 * @throws DatabaseUnavailableError (`problem` empty, damaged, readonly, full, io or unopenable) with what to do and
 *   the newest backup; the file left untouched.
 */
export function openDatabase(path: string, opts: OpenDatabaseOptions = {}): Database {
  const migrations = opts.migrations ?? MIGRATIONS;
  const binding = opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {};
  const file = path !== ':memory:';
  let existed = false;
  if (file) {
    // The data is the buyer's own (bids they considered, their key's traces): a folder Lotwatch creates is theirs
    // alone (0700); an existing folder the buyer chose is left as it is.
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    try {
      applyStagedRestore(path, Date.now());
    } catch (e) {
      throw openFailure(path, e);
    }
    existed = existsSync(path);
    // SQLite takes an empty file for a new database: the buyer's data would be silently replaced by an empty one.
    if (existed && sizeOf(path) === 0 && sizeOf(`${path}-wal`) === 0) throw emptyFileError(path);
    const free = (opts.freeBytes ?? freeBytesOf)(dirname(path));
    if (free < MIN_FREE_BYTES) throw diskFullError(path, free);
  }
  if (existed) checkReadOnly(path, migrations, binding);
  let db: Database;
  try {
    db = new BetterSqlite3(path, binding);
  } catch (cause) {
    throw openFailure(path, cause);
  }
  try {
    if (existed) probeWrite(db);
    // From here on the file is written: a stop before closeDatabase leaves no clean-close record.
    if (file) forgetCleanClose(path);
    // A new file frees the pages the retention pass empties in small steps (incremental_vacuum); it must be set
    // before the first table. A file made before schema 90 is switched once by the retention pass (retention.ts).
    if (!existed) db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, path, migrations);
    if (file) ownerOnly(path);
    if (opts.nativeBinding) bindings.set(db, opts.nativeBinding);
    return db;
  } catch (e) {
    db.close();
    if (e instanceof LotwatchError) throw e;
    throw openFailure(path, e);
  }
}

/**
 * The checks that only read, on a read-only connection: a read-only connection never checkpoints a left-over WAL
 * into the main file when it closes, so a file that fails here is left exactly as it was.
 */
function checkReadOnly(
  path: string,
  migrations: readonly Migration[],
  binding: { nativeBinding?: string },
): void {
  let ro: Database | undefined;
  try {
    ro = new BetterSqlite3(path, { readonly: true, fileMustExist: true, ...binding });
    assertNotFromFuture(ro, path, migrations);
    if (!closedCleanly(path)) {
      const problem = quickCheck(ro);
      if (problem) throw damagedFileError(path, `SQLite's integrity check failed: ${problem}`);
    }
  } catch (e) {
    if (e instanceof LotwatchError) throw e;
    throw openFailure(path, e);
  } finally {
    ro?.close();
  }
}

/**
 * Closes a connection opened by `openDatabase` and, when its session met no database error, records the clean close
 * so the next open can skip quick_check. Idempotent; throws nothing a caller could act on.
 */
export function closeDatabase(db: Database): void {
  if (!db.open) return;
  const path = db.name;
  const clean = !db.memory && !suspects.has(db);
  db.close();
  if (clean) recordCleanClose(path);
}

/**
 * Notes that a database error (full disk, read-only, I/O, damage) happened on this connection: its close is then not
 * recorded as clean, so the next open runs quick_check.
 */
export function markSuspect(db: Database): void {
  suspects.add(db);
}

/** The native module path the connection was opened with (Electron), or undefined for the default. */
export function nativeBindingOf(db: Database): string | undefined {
  return bindings.get(db);
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
