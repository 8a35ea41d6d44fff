import BetterSqlite3, { type Database } from 'better-sqlite3';
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { format } from 'date-fns';
import { DatabaseUnavailableError, sqliteCodeOf } from '../errors';
import {
  backupsDir,
  checkCopy,
  expandBackup,
  isCompressed,
  listBackups,
  removeDatabaseFiles,
} from './backup';
import { closedMarkerPath } from './integrity';

/**
 * A restore is staged, checked and then swapped in before the database is next opened (docs/architecture.md "Data
 * safety"): core holds the open connection, so the live file cannot be replaced under it.
 */

/** The staged copy that replaces `<dbPath>` at the next open. */
export function stagedPath(dbPath: string): string {
  return `${dbPath}.restoring`;
}

function notePath(dbPath: string): string {
  return `${dbPath}.restoring.json`;
}

/** A restore waiting for the next start: which backup (its file name or path) and when it was chosen (ms). */
export interface PendingRestore {
  source: string;
  requestedAt: number;
}

/** The restore staged for the next start, or null. Throws nothing. */
export function pendingRestore(dbPath: string): PendingRestore | null {
  if (!existsSync(stagedPath(dbPath))) return null;
  try {
    const v = JSON.parse(readFileSync(notePath(dbPath), 'utf8')) as Partial<PendingRestore>;
    return { source: String(v.source ?? 'a backup'), requestedAt: Number(v.requestedAt ?? 0) };
  } catch {
    return { source: 'a backup', requestedAt: 0 };
  }
}

/**
 * Stages a backup to replace the data file at the next open: `latest` (the newest daily copy), a backup's file name
 * from `<dataDir>/backups`, or (`allowPath`, the command line only) the path of any Lotwatch data file. The source is
 * read through SQLite's backup API (so a WAL file's committed pages come along), or gunzipped from a daily `.gz` copy,
 * into `<dbPath>.restoring.partial`,
 * which is then made self-contained and checked with quick_check; only a sound copy becomes `<dbPath>.restoring`.
 * The live file is not touched here. Returns the source's path.
 * @throws DatabaseUnavailableError when there is no such backup or it fails the check (nothing is staged).
 */
export async function stageRestore(
  dbPath: string,
  source: string,
  opts: { now: number; maxVersion?: number; allowPath?: boolean; nativeBinding?: string },
): Promise<string> {
  const dataDir = dirname(dbPath);
  const backups = listBackups(dataDir);
  const chosen =
    source === 'latest'
      ? backups[0]?.path
      : (backups.find((b) => b.name === source)?.path ??
        (opts.allowPath && existsSync(source) ? resolve(source) : undefined));
  if (!chosen) {
    throw new DatabaseUnavailableError(
      source === 'latest'
        ? `There is no backup in ${backupsDir(dataDir)} to restore. Nothing was changed.`
        : `There is no backup named ${source} in ${backupsDir(dataDir)}. Nothing was changed.`,
      undefined,
      { problem: 'unopenable' },
    );
  }
  const partial = `${stagedPath(dbPath)}.partial`;
  removeDatabaseFiles(partial);
  const binding = opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {};
  let src: Database | undefined;
  try {
    if (isCompressed(chosen)) {
      await expandBackup(chosen, partial);
    } else {
      src = new BetterSqlite3(chosen, { readonly: true, fileMustExist: true, ...binding });
      await src.backup(partial);
    }
    if (process.platform !== 'win32') chmodSync(partial, 0o600);
  } catch (e) {
    removeDatabaseFiles(partial);
    throw new DatabaseUnavailableError(
      `The backup ${chosen} could not be copied into ${dataDir} (${(e as Error).message}). Nothing was changed. ` +
        'Check the free disk space, or choose another backup.',
      e,
      { problem: sqliteCodeOf(e) ? 'damaged' : 'unopenable' },
    );
  } finally {
    src?.close();
  }
  const problem = checkCopy(partial, opts.maxVersion, binding);
  if (problem) {
    removeDatabaseFiles(partial);
    throw new DatabaseUnavailableError(
      `The backup ${chosen} cannot be restored: ${problem}. Nothing was changed; choose an older backup.`,
      undefined,
      { problem: 'damaged' },
    );
  }
  writeFileSync(notePath(dbPath), JSON.stringify({ source: basename(chosen), requestedAt: opts.now }), {
    mode: 0o600,
  });
  renameSync(partial, stagedPath(dbPath));
  return chosen;
}

/**
 * Swaps a staged restore in, before the database is opened (the data folder's lock is held): the current file and
 * its -wal/-shm/-journal companions are renamed to `<dbPath>.replaced-<local time>` (never deleted: they may hold what
 * the buyer needs), then the staged copy is renamed to `<dbPath>`. Safe to repeat after a crash half-way: a missing
 * current file is simply not renamed. Returns the name the old file was kept under (null when there was none, or
 * nothing was staged).
 * @throws fs errors when a rename fails (the staged copy stays staged for the next start).
 */
export function applyStagedRestore(dbPath: string, now: number): { replaced: string | null } | null {
  const staged = stagedPath(dbPath);
  if (!existsSync(staged)) return null;
  const kept = `${dbPath}.replaced-${format(now, 'yyyy-MM-dd-HHmmss')}`;
  let replaced: string | null = null;
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    if (!existsSync(dbPath + suffix)) continue;
    renameSync(dbPath + suffix, kept + suffix);
    if (suffix === '') replaced = kept;
  }
  renameSync(staged, dbPath);
  rmSync(notePath(dbPath), { force: true });
  // The clean-close record described the replaced file: the restored one is checked at this open.
  rmSync(closedMarkerPath(dbPath), { force: true });
  return { replaced };
}
