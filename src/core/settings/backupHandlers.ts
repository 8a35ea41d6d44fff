import { backupsDir, listBackups } from '../db/backup';
import { pendingRestore, stageRestore } from '../db/restore';
import { BadInputError, DatabaseUnavailableError } from '../errors';
import type { Clock } from '../clock';
import type { HandlerGroup } from '../handlerGroups';

/** What the backup handlers need: where the data lives, the clock, and the native binding of the open database. */
export interface BackupHandlerDeps {
  dataDir: string;
  dbPath: string;
  clock: Clock;
  /** The better-sqlite3 binding the open database uses (a restore checks the copy with the same one), if known. */
  nativeBinding: string | undefined;
  /** The engine holding the data: a team's PostgreSQL database is restored from the server's own backups. */
  engine?: 'sqlite' | 'postgres';
}

/** A staged restore as the contract says it. */
function pendingView(dbPath: string): { source: string; requested_at: number } | null {
  const p = pendingRestore(dbPath);
  return p ? { source: p.source, requested_at: p.requestedAt } : null;
}

/**
 * backups.list and backups.restore (docs/architecture.md "Data safety"): the daily copies in `<dataDir>/backups`,
 * newest first, and the restore of one of them at the next start. Restore takes only a listed backup's name, never a
 * path from the page.
 * @throws BadInputError when the chosen backup is not there or fails its check, or the data is on PostgreSQL
 *   (nothing is staged).
 */
export function backupHandlers(c: BackupHandlerDeps): HandlerGroup<'backups.list' | 'backups.restore'> {
  return {
    'backups.list': () => ({
      folder: backupsDir(c.dataDir),
      backups: listBackups(c.dataDir).map((b) => ({
        name: b.name,
        date: b.date,
        size: b.size,
        path: b.path,
        created_at: b.createdAt,
      })),
      pending: pendingView(c.dbPath),
    }),
    'backups.restore': async ({ name }) => {
      if (c.engine === 'postgres') {
        const m =
          "This Lotwatch keeps its data on a team's PostgreSQL server: restore it from the server's own backups.";
        throw new BadInputError(m, { name: [m] });
      }
      const binding = c.nativeBinding;
      try {
        await stageRestore(c.dbPath, name, {
          now: c.clock.now(),
          ...(binding ? { nativeBinding: binding } : {}),
        });
      } catch (e) {
        // The backup is what is wrong here, not the open data file.
        if (e instanceof DatabaseUnavailableError) throw new BadInputError(e.message, { name: [e.message] });
        throw e;
      }
      return { pending: pendingView(c.dbPath)! };
    },
  };
}
