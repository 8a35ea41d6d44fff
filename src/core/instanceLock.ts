import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { LotwatchError } from './errors';
import { utcDate } from './alerts/format';

/** The lock file's name inside the data folder. */
export const LOCK_FILE = 'lotwatch.lock';

/** Who holds a data folder: written as JSON into the lock file, read by the next Lotwatch that starts. */
export interface LockHolder {
  pid: number;
  /** `electron` (the desktop app) or `headless` (the browser shell). */
  shell: 'electron' | 'headless';
  /** ms since the epoch. */
  started_at: number;
  host: string;
  /** The browser shell's address without its token (the token stays with the process that printed it); else null. */
  url: string | null;
  /**
   * When the holding process started, in the system's own terms (processStartOf), or null where the system does not
   * tell (or an older Lotwatch wrote the lock). It tells a Lotwatch from another program given the same process id.
   */
  proc_start: string | null;
}

/**
 * Another Lotwatch already runs on this data folder. Two running on one folder would both poll (spending the
 * quota twice) and both notify; so the second one says where the first one is and stops before touching the data.
 */
export class AlreadyRunningError extends LotwatchError {
  /**
   * @param undecided true when Lotwatch could not tell whether the holder still runs as the Lotwatch that took the
   *   lock; the message then names the lock file and says when it is safe to delete it.
   */
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
    readonly undecided = false,
  ) {
    const who = holder.shell === 'electron' ? 'the desktop app' : 'the browser shell (npm run serve)';
    const where = holder.url ? ` at ${holder.url} (open the address it printed, with its token)` : '';
    // A date as a date (docs/writing-guide.md): "Nov 22, 2026 at 09:30" (UTC, said after it).
    const since = `${utcDate(holder.started_at)} at ${new Date(holder.started_at).toISOString().slice(11, 16)}`;
    const lockFile = join(dataDir, LOCK_FILE);
    // Where Lotwatch could not tell whether that process is still the Lotwatch that took the lock (another
    // computer's lock on a shared folder, a system that does not say when a process started, a lock written by an
    // older Lotwatch), the buyer can: the message names the file and when deleting it is safe.
    const unsure = undecided
      ? ` If process ${holder.pid} is not Lotwatch (${holder.host && holder.host !== hostname() ? `check on ${holder.host}` : 'check your task manager or `ps -p ' + holder.pid + '`'}), ` +
        `delete the file ${lockFile} and start again; never while that Lotwatch runs.`
      : '';
    super(
      'already_running',
      `Lotwatch is already running on the data folder ${dataDir}: ${who}, process ${holder.pid}, started ${since} UTC${where}. ` +
        `Use that one, or quit it first. Nothing was changed.${unsure}`,
    );
  }
}

/** A held data-folder lock. */
export interface DataLock {
  readonly path: string;
  /** Records the browser shell's address once it listens, so a second start can point to it. Throws nothing. */
  setUrl(url: string): void;
  /** Removes the lock file if it is still ours. Idempotent; throws nothing. */
  release(): void;
}

/** Folders this process holds: a second shell in the same process (tests, an embedding) is refused as well. */
const heldHere = new Map<string, LockHolder>();

/** True when a process with this id runs on this machine (EPERM: it runs, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When a process started, as a text that is equal for the same process and different for a later one given the same
 * id: on Linux `linux:<boot id>:<start time>`, the boot's id (/proc/sys/kernel/random/boot_id, else the boot time
 * from /proc/stat) and field 22 of /proc/<pid>/stat (clock ticks from boot to the process's start). A process id
 * recorded before a reboot or a crash can belong to another program now; its start differs.
 * @returns the text, or null where it cannot be read (another system, no /proc, the process is gone). Throws nothing.
 */
export function processStartOf(pid: number): string | null {
  if (process.platform !== 'linux' || !Number.isInteger(pid) || pid <= 0) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces and ')': fields are counted after the last one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = fields[22 - 3];
    if (!ticks || !/^\d+$/.test(ticks)) return null;
    return `linux:${bootId()}:${ticks}`;
  } catch {
    return null;
  }
}

/** This boot's id (Linux): the kernel's random boot id, else the boot time in seconds from /proc/stat, else ''. */
function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    try {
      return /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1] ?? '';
    } catch {
      return '';
    }
  }
}

function readHolder(path: string): LockHolder | null {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    if (typeof v.pid !== 'number' || (v.shell !== 'electron' && v.shell !== 'headless')) return null;
    return {
      pid: v.pid,
      shell: v.shell,
      started_at: typeof v.started_at === 'number' ? v.started_at : 0,
      host: typeof v.host === 'string' ? v.host : '',
      url: typeof v.url === 'string' ? v.url : null,
      proc_start: typeof v.proc_start === 'string' ? v.proc_start : null,
    };
  } catch {
    return null;
  }
}

/**
 * Takes the data folder for this process: creates `<dataDir>/lotwatch.lock` exclusively (O_EXCL), holding this
 * process's id, shell, start time and the system's record of when the process started (processStartOf). A lock is
 * stale and taken over when the process it names no longer runs on this machine (a crash, a power cut), or runs but
 * started at another time than the lock records (its id was given to another program after a reboot or a crash:
 * otherwise Lotwatch would never start again until that program ends); an unreadable lock file is treated as stale
 * too, since a half-written lock can only come from a crash while writing it. A lock Lotwatch cannot judge (another
 * computer's, or no start time on either side) is honoured, and the error names the file and how to remove it.
 *
 * @param dataDir the data folder (created when missing).
 * @param who the shell starting, and the clock (ms) for started_at.
 * @returns the held lock; release it on quit.
 * @throws AlreadyRunningError when a running Lotwatch holds the folder (or may: `undecided`); fs errors (no
 *   permission) as they are.
 */
export function acquireDataLock(dataDir: string, who: { shell: LockHolder['shell']; now: number }): DataLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, LOCK_FILE);
  const mine = heldHere.get(path);
  if (mine) throw new AlreadyRunningError(dataDir, mine);
  const me: LockHolder = {
    pid: process.pid,
    shell: who.shell,
    started_at: who.now,
    host: hostname(),
    url: null,
    proc_start: processStartOf(process.pid),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, JSON.stringify(me));
      } finally {
        closeSync(fd);
      }
      heldHere.set(path, me);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) {
        const holder = readHolder(path);
        if (holder && (e as NodeJS.ErrnoException).code === 'EEXIST')
          throw new AlreadyRunningError(dataDir, holder);
        throw e;
      }
      const holder = readHolder(path);
      if (holder && holder.host === me.host && holder.pid !== me.pid && alive(holder.pid)) {
        const now = processStartOf(holder.pid);
        // Same id, another start: a program that got the id after the Lotwatch that wrote the lock ended.
        if (!(now !== null && holder.proc_start !== null && now !== holder.proc_start)) {
          throw new AlreadyRunningError(dataDir, holder, now === null || holder.proc_start === null);
        }
      } else if (holder && holder.host !== me.host && holder.host !== '') {
        // Another computer's lock on a shared folder: its process cannot be checked from here, so it is honoured.
        throw new AlreadyRunningError(dataDir, holder, true);
      }
      try {
        unlinkSync(path);
      } catch {
        // Gone already: another starter took it over first; the next attempt sees its lock.
      }
    }
  }
  let released = false;
  return {
    path,
    setUrl(url) {
      if (released) return;
      heldHere.set(path, { ...me, url });
      try {
        writeFileSync(path, JSON.stringify({ ...me, url }), { mode: 0o600 });
      } catch {
        // The address is a courtesy for a second start; the lock itself stands.
      }
    },
    release() {
      if (released) return;
      released = true;
      heldHere.delete(path);
      try {
        if (readHolder(path)?.pid === me.pid) unlinkSync(path);
      } catch {
        // Already gone.
      }
    },
  };
}
