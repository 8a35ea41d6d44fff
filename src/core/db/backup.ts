import BetterSqlite3, { type Database } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  createReadStream,
  createWriteStream,
  linkSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statfsSync,
  statSync,
} from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { join } from 'node:path';
import { addDays, format, startOfDay } from 'date-fns';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import { DailyJob } from './dailyJob';
import { MIGRATIONS } from './migrations';

/** The newest schema version this build understands: a copy above it is no backup of this file. */
export const LATEST_SCHEMA = MIGRATIONS.at(-1)?.version ?? 0;

/** The folder of the daily copies, inside the data folder. */
export const BACKUPS_DIR = 'backups';
/** How many daily copies are kept (the newest ones). */
export const KEEP_BACKUPS = 7;
/** The first backup of a run waits this long (ms) after start, so it never competes with the first page. */
export const FIRST_BACKUP_DELAY_MS = 60_000;
/** A backup is skipped when the disk would keep less than this much free after it (bytes). */
const BACKUP_MARGIN_BYTES = 32 * 1024 * 1024;
/** A daily copy's name: gzip-compressed (`.sqlite.gz`), or a plain file as versions before schema 90 made them. */
const NAME = /^lotwatch-(\d{4}-\d{2}-\d{2})\.sqlite(\.gz)?$/;

/** One daily copy of the database, as Settings lists it. */
export interface BackupInfo {
  /** File name, e.g. `lotwatch-2026-11-23.sqlite.gz` (gzip), or `lotwatch-2026-11-23.sqlite` from older versions. */
  name: string;
  path: string;
  /** The local day it was taken, `YYYY-MM-DD`. */
  date: string;
  /** Size on disk in bytes (compressed). */
  size: number;
  /** When the file was written (ms since the epoch). */
  createdAt: number;
}

/** The backups folder of a data folder. */
export function backupsDir(dataDir: string): string {
  return join(dataDir, BACKUPS_DIR);
}

/** The file name of the backup taken on the local day of `t` (ms): `lotwatch-YYYY-MM-DD.sqlite.gz`. */
export function backupName(t: number): string {
  return `lotwatch-${format(t, 'yyyy-MM-dd')}.sqlite.gz`;
}

/** Whether a backup file is gzip-compressed (by its name). */
export const isCompressed = (path: string): boolean => path.endsWith('.gz');

/**
 * Writes the SQLite file a backup holds to `dest` (0600): gunzipped from a `.gz` backup, copied from a plain one.
 * Streams (the event loop stays free).
 * @throws fs or zlib errors (a truncated or damaged gzip file); `dest` may then be partly written.
 */
export async function expandBackup(path: string, dest: string): Promise<void> {
  const out = createWriteStream(dest, { mode: 0o600 });
  await (isCompressed(path)
    ? pipeline(createReadStream(path), createGunzip(), out)
    : pipeline(createReadStream(path), out));
}

/** The daily copies in `<dataDir>/backups`, newest first. Throws nothing (no folder: none). */
export function listBackups(dataDir: string): BackupInfo[] {
  const dir = backupsDir(dataDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: BackupInfo[] = [];
  for (const name of names) {
    const m = NAME.exec(name);
    if (!m) continue;
    try {
      const st = statSync(join(dir, name));
      if (st.isFile())
        out.push({
          name,
          path: join(dir, name),
          date: m[1]!,
          size: st.size,
          createdAt: Math.round(st.mtimeMs),
        });
    } catch {
      // Removed while listing.
    }
  }
  // Newest day first; on one day (an upgrade that day) the compressed copy first.
  return out.sort((a, b) => b.date.localeCompare(a.date) || b.name.localeCompare(a.name));
}

/** Free bytes for this user on the disk that holds `dir`; Infinity when the platform cannot say. */
export function freeBytesOf(dir: string): number {
  try {
    const s = statfsSync(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return Infinity;
  }
}

/** Size of a file in bytes, 0 when it does not exist. */
export function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Removes a SQLite file and its journal companions, if present. Throws nothing. */
export function removeDatabaseFiles(path: string): void {
  for (const f of [path, `${path}-journal`, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
}

/**
 * Runs SQLite's `PRAGMA quick_check` (the b-tree and page structure, without the slower index-content cross-check of
 * integrity_check) and returns its first complaint, or null when the file is sound. Reads only.
 * @throws SqliteError when the file cannot be read at all (SQLITE_NOTADB, an I/O error).
 */
export function quickCheck(db: Database): string | null {
  const rows = db.pragma('quick_check(1)') as { quick_check: string }[];
  const first = rows[0]?.quick_check ?? 'no answer';
  // One line for a message: "*** in database main ***\nTree 2 page 2: ..." says which page in its second line.
  return first === 'ok'
    ? null
    : first
        .replace(/\*\*\* in database \w+ \*\*\*/g, '')
        .replace(/\s+/g, ' ')
        .trim();
}

/**
 * Makes a copy of a database a self-contained file and checks it: switches it from WAL to a rollback journal (so
 * opening it read-only later creates no companion files), runs quick_check and reads its schema version. Returns the
 * problem in words, or null when the copy is sound and at most `maxVersion`.
 */
export function checkCopy(
  path: string,
  maxVersion = LATEST_SCHEMA,
  opts: { nativeBinding?: string } = {},
): string | null {
  let db: Database | undefined;
  try {
    db = new BetterSqlite3(path, {
      fileMustExist: true,
      ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}),
    });
    const problem = quickCheck(db);
    if (problem) return `SQLite's integrity check failed (${problem})`;
    db.pragma('journal_mode = DELETE');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version < 1) return 'it is not a Lotwatch data file';
    if (version > maxVersion) return 'it was written by a newer version of Lotwatch';
    return null;
  } catch (e) {
    return `it cannot be read (${(e as Error).message})`;
  } finally {
    db?.close();
  }
}

/**
 * The sha256 (hex) of a SQLite file's content (a `.gz` backup's once gunzipped): its bytes with the header's change counter (bytes 24-27) and the
 * "version valid for" number and SQLite version (92-99) read as zeros, so two copies of the same data taken at
 * different times hash the same. Reads the file in chunks (the event loop stays free).
 * @throws fs errors when the file cannot be read.
 */
export async function contentHashOf(path: string): Promise<string> {
  const h = createHash('sha256');
  let offset = 0;
  const bytes = isCompressed(path) ? createReadStream(path).pipe(createGunzip()) : createReadStream(path);
  for await (const chunk of bytes as AsyncIterable<Buffer>) {
    if (offset < 100) {
      const c = Buffer.from(chunk);
      for (const [from, to] of [
        [24, 28],
        [92, 100],
      ] as const) {
        if (to > offset && from < offset + c.length)
          c.fill(0, Math.max(0, from - offset), Math.min(c.length, to - offset));
      }
      h.update(c);
    } else {
      h.update(chunk);
    }
    offset += chunk.length;
  }
  return h.digest('hex');
}

/**
 * Whether two SQLite files (either may be a `.gz` backup) hold the same content (sizes first when both are plain,
 * then contentHashOf). Throws nothing: a file that cannot be read is not the same.
 */
async function sameContent(a: string, b: string): Promise<boolean> {
  if (!isCompressed(a) && !isCompressed(b) && sizeOf(a) !== sizeOf(b)) return false;
  try {
    return (await contentHashOf(a)) === (await contentHashOf(b));
  } catch {
    return false;
  }
}

/** What one backup attempt did. */
export type BackupOutcome =
  | { status: 'made'; backup: BackupInfo; linked: boolean }
  | { status: 'exists'; backup: BackupInfo }
  | { status: 'skipped'; reason: string }
  | { status: 'damaged'; problem: string };

/** What the daily backup needs; the clock and the free-space probe are injected for tests. */
export interface BackupDeps {
  db: Database;
  dataDir: string;
  clock: Clock;
  log: Logger;
  /** The newest schema version this build understands (default LATEST_SCHEMA). */
  maxVersion?: number;
  nativeBinding?: string;
  /** Free bytes on the disk of a folder (default: statfs). */
  freeBytes?: (dir: string) => number;
  /** Called when the copy failed its integrity check: the live file is damaged too. */
  onDamaged?: (problem: string) => void;
}

/**
 * Takes today's backup of the open database if it is missing (docs/architecture.md "Data safety"): SQLite's online
 * backup into `backups/.lotwatch-YYYY-MM-DD.sqlite.partial` in steps that yield to the event loop, 0600, made
 * self-contained and checked with quick_check, then gzip-compressed (streamed) into
 * `lotwatch-YYYY-MM-DD.sqlite.gz`; the oldest beyond KEEP_BACKUPS are removed
 * only after a sound copy was added. A copy that fails the check is deleted, so a damaged file never pushes a good
 * backup out. A copy whose content equals the newest backup's (nothing changed since: a paused or idle Lotwatch) is
 * not kept twice: today's name becomes a hard link to that file (`linked`), so seven days of an unchanged file take
 * the space of one; where links are not possible the copy is kept. Skipped when the disk would keep less than 32 MB
 * free.
 * @throws SqliteError or fs errors when the copy cannot be written (the partial file is removed).
 */
export async function makeBackup(d: BackupDeps): Promise<BackupOutcome> {
  const dir = backupsDir(d.dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = backupName(d.clock.now());
  const date = format(d.clock.now(), 'yyyy-MM-dd');
  const existing = listBackups(d.dataDir).find((b) => b.date === date);
  if (existing) return { status: 'exists', backup: existing };
  const need = sizeOf(d.db.name) + sizeOf(`${d.db.name}-wal`) + BACKUP_MARGIN_BYTES;
  const free = (d.freeBytes ?? freeBytesOf)(dir);
  if (free < need) {
    return { status: 'skipped', reason: `only ${Math.floor(free / 1048576)} MB free on the disk of ${dir}` };
  }
  const partial = join(dir, `.lotwatch-${date}.sqlite.partial`);
  const packed = join(dir, `.${name}.partial`);
  removeDatabaseFiles(partial);
  rmSync(packed, { force: true });
  let linked = false;
  try {
    await d.db.backup(partial);
    if (process.platform !== 'win32') chmodSync(partial, 0o600);
    const problem = checkCopy(
      partial,
      d.maxVersion,
      d.nativeBinding ? { nativeBinding: d.nativeBinding } : {},
    );
    if (problem) {
      removeDatabaseFiles(partial);
      return { status: 'damaged', problem };
    }
    const newest = listBackups(d.dataDir)[0];
    if (newest && (await sameContent(partial, newest.path))) {
      try {
        linkSync(newest.path, join(dir, `lotwatch-${date}.sqlite${isCompressed(newest.path) ? '.gz' : ''}`));
        linked = true;
      } catch {
        // No hard links on this file system: keep a copy of its own.
      }
    }
    if (!linked) {
      await pipeline(createReadStream(partial), createGzip(), createWriteStream(packed, { mode: 0o600 }));
      renameSync(packed, join(dir, name));
    }
    removeDatabaseFiles(partial);
  } catch (e) {
    removeDatabaseFiles(partial);
    rmSync(packed, { force: true });
    throw e;
  }
  for (const old of listBackups(d.dataDir).slice(KEEP_BACKUPS)) rmSync(old.path, { force: true });
  return { status: 'made', backup: listBackups(d.dataDir).find((b) => b.date === date)!, linked };
}

/**
 * The daily backup on the injected clock: the first FIRST_BACKUP_DELAY_MS after start (today's copy if it is
 * missing), then a few minutes after each local midnight; a failed attempt is tried again an hour later. One attempt
 * at a time; dispose waits for the one in flight. Logs one line per attempt that did something or failed.
 */
export class BackupScheduler {
  private readonly job: DailyJob<BackupOutcome>;

  constructor(private readonly d: BackupDeps) {
    this.job = new DailyJob({
      clock: d.clock,
      run: () => this.attempt(),
      // A few minutes after the next local midnight; a failed or skipped attempt again within the hour.
      next: (r, now) => {
        const nextDay = startOfDay(addDays(now, 1)).getTime() + 5 * 60_000;
        return r && r.status !== 'skipped' ? nextDay - now : Math.min(nextDay - now, 3_600_000);
      },
    });
  }

  /** Plans the first backup of this run. Idempotent. */
  start(): void {
    this.job.start(FIRST_BACKUP_DELAY_MS);
  }

  /** Takes today's backup now unless it exists; resolves with the outcome, or null when it failed (logged). */
  runNow(): Promise<BackupOutcome | null> {
    return this.job.runNow();
  }

  /** Cancels the plan and waits for the backup in flight. Idempotent. */
  dispose(): Promise<void> {
    return this.job.dispose();
  }

  private async attempt(): Promise<BackupOutcome | null> {
    if (this.job.stopped || !this.d.db.open) return null;
    try {
      const r = await makeBackup(this.d);
      if (r.status === 'made')
        this.d.log.info(r.linked ? 'backup: unchanged since the last one, linked to it' : 'backup: saved', {
          file: r.backup.path,
          bytes: r.backup.size,
        });
      if (r.status === 'skipped') this.d.log.warn('backup: skipped', { reason: r.reason });
      if (r.status === 'damaged') {
        this.d.log.error(
          'backup: the data file failed its integrity check; no backup was made and the older ones are kept',
          {
            problem: r.problem,
          },
        );
        this.d.onDamaged?.(r.problem);
      }
      return r;
    } catch (e) {
      this.d.log.warn('backup: failed', { error: (e as Error).message });
      return null;
    }
  }
}
