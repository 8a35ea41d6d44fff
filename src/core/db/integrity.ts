import type { Database } from 'better-sqlite3';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseUnavailableError, problemOfSqliteCode, sqliteCodeOf } from '../errors';
import { backupsDir, listBackups, sizeOf } from './backup';

/**
 * The checks at open (docs/architecture.md "Data safety"): an empty file, a full disk, a read-only file, and, after
 * a stop that was not clean, SQLite's quick_check. Each refusal is a DatabaseUnavailableError that says what
 * happened, that the file was not changed, and where the newest backup is.
 */

/** Lotwatch refuses to start with less free disk space than this (bytes): its next writes would fail. */
export const MIN_FREE_BYTES = 20 * 1024 * 1024;

/** The record of a clean close, beside the data file. */
export function closedMarkerPath(dbPath: string): string {
  return `${dbPath}.closed`;
}

/**
 * Records that the data file was closed cleanly: its size and modification time right after the close, 0600.
 * Best effort (a read-only folder only costs a quick_check at the next start).
 */
export function recordCleanClose(dbPath: string): void {
  try {
    const st = statSync(dbPath);
    writeFileSync(closedMarkerPath(dbPath), JSON.stringify({ size: st.size, mtimeMs: st.mtimeMs }), {
      mode: 0o600,
    });
  } catch {
    // Nothing recorded: the next start checks the file.
  }
}

/**
 * Whether the last run closed the file cleanly and nothing touched it since: the clean-close record matches the
 * file's size and modification time, and no -wal with content is left. Otherwise (a crash, a power cut, a disk or
 * sync tool that rewrote it, the first start of this version) the file is checked at open.
 */
export function closedCleanly(dbPath: string): boolean {
  try {
    const rec = JSON.parse(readFileSync(closedMarkerPath(dbPath), 'utf8')) as {
      size?: unknown;
      mtimeMs?: unknown;
    };
    const st = statSync(dbPath);
    // Within a millisecond: setting a time back through utimes rounds it (a double of seconds), so exact equality
    // would call an untouched file touched now and then.
    return (
      rec.size === st.size &&
      typeof rec.mtimeMs === 'number' &&
      Math.abs(rec.mtimeMs - st.mtimeMs) < 1 &&
      sizeOf(`${dbPath}-wal`) === 0
    );
  } catch {
    return false;
  }
}

/**
 * Removes the clean-close record once the file is open for writing, so a stop that is not clean leaves none.
 * @throws fs errors other than "not there" (a folder Lotwatch cannot write).
 */
export function forgetCleanClose(dbPath: string): void {
  rmSync(closedMarkerPath(dbPath), { force: true });
}

/**
 * Refuses the open when a transaction cannot write: BEGIN IMMEDIATE, then a write of user_version to its own value,
 * rolled back. SQLite opens a file it may not write read-only without saying so (and BEGIN IMMEDIATE alone still
 * succeeds), so only a real write attempt tells. Nothing reaches the file.
 * @throws SqliteError (SQLITE_READONLY, SQLITE_FULL, SQLITE_IOERR…) from the attempt.
 */
export function probeWrite(db: Database): void {
  const v = db.pragma('user_version', { simple: true }) as number;
  db.exec('BEGIN IMMEDIATE');
  try {
    db.pragma(`user_version = ${v}`);
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
  }
}

/** Where the newest backup is, in a sentence, and its path (null when there is none). */
function backupSentence(dataDir: string): { text: string; latest: string | null } {
  const newest = listBackups(dataDir)[0];
  return newest
    ? {
        text: `The newest backup is ${newest.path} (${newest.date}); restoring it keeps the current file beside it.`,
        latest: newest.path,
      }
    : { text: `There is no backup in ${backupsDir(dataDir)} yet.`, latest: null };
}

/** The data file exists but holds 0 bytes (a disk or sync tool lost it); nothing is written to it. */
export function emptyFileError(path: string): DatabaseUnavailableError {
  const b = backupSentence(dirname(path));
  return new DatabaseUnavailableError(
    `The data file ${path} is empty (0 bytes): its contents were probably lost by a disk or sync tool. Lotwatch did not ` +
      `change it. ${b.text} To start fresh instead, move the empty file away.`,
    undefined,
    { problem: 'empty', latestBackup: b.latest },
  );
}

/** The file failed SQLite's integrity check or is not a database; nothing is written to it. */
export function damagedFileError(path: string, problem: string, cause?: unknown): DatabaseUnavailableError {
  const b = backupSentence(dirname(path));
  return new DatabaseUnavailableError(
    `The data file ${path} is damaged (${problem}). Lotwatch did not change it. ${b.text} To start fresh instead, ` +
      'move the damaged file away.',
    cause,
    { problem: 'damaged', latestBackup: b.latest },
  );
}

/** The disk is (nearly) full: `free` bytes left. */
export function diskFullError(path: string, free: number | null, cause?: unknown): DatabaseUnavailableError {
  const dir = dirname(path);
  const left = free === null ? '' : ` (${Math.floor(free / 1048576)} MB free)`;
  return new DatabaseUnavailableError(
    `The disk that holds ${dir} is full${left}: Lotwatch could not save anything. Free disk space, then start ` +
      `Lotwatch again. Nothing was changed; the backups are in ${backupsDir(dir)}.`,
    cause,
    { problem: 'full' },
  );
}

/**
 * Maps what went wrong while opening or checking the file to the message for the buyer: read-only, full, damaged,
 * a disk error, or (anything else) "could not open", each with the path and where the backups are.
 */
export function openFailure(path: string, e: unknown): DatabaseUnavailableError {
  if (e instanceof DatabaseUnavailableError) return e;
  // fs errors of the checks themselves (the clean-close record in a read-only folder) say the same things.
  const errno = (e as NodeJS.ErrnoException | null)?.code;
  const fromFs =
    errno === 'EACCES' || errno === 'EPERM' || errno === 'EROFS'
      ? 'SQLITE_READONLY'
      : errno === 'ENOSPC'
        ? 'SQLITE_FULL'
        : null;
  const code = sqliteCodeOf(e) ?? fromFs;
  const problem = code ? problemOfSqliteCode(code) : null;
  const dir = dirname(path);
  const message = (e as Error)?.message ?? String(e);
  if (problem === 'readonly') {
    return new DatabaseUnavailableError(
      `Lotwatch cannot write to its data file ${path}: the file or its folder is read-only (${message}). Fix the ` +
        `permissions of ${path} and of ${dir} so your user can write them, then start Lotwatch again. Nothing was ` +
        `changed; the backups are in ${backupsDir(dir)}.`,
      e,
      { problem: 'readonly' },
    );
  }
  if (problem === 'full') return diskFullError(path, null, e);
  if (problem === 'damaged') return damagedFileError(path, message, e);
  if (problem === 'io') {
    const b = backupSentence(dir);
    return new DatabaseUnavailableError(
      `Lotwatch could not read its data file ${path}: the disk reported an error (${message}). Check the disk, then ` +
        `start Lotwatch again. ${b.text}`,
      e,
      { problem: 'io', latestBackup: b.latest },
    );
  }
  return new DatabaseUnavailableError(`Lotwatch could not open its data file ${path}: ${message}`, e);
}
