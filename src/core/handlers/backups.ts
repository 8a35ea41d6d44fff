import { backupsDir, listBackups } from '../db/backup';
import { nativeBindingOf } from '../db/connection';
import { pendingRestore, stageRestore } from '../db/restore';
import { BadInputError, DatabaseUnavailableError } from '../errors';
import type { HandlerContext, HandlerGroup } from './context';

/** A staged restore as the contract says it. */
function pendingView(dbPath: string): { source: string; requested_at: number } | null {
  const p = pendingRestore(dbPath);
  return p ? { source: p.source, requested_at: p.requestedAt } : null;
}

/**
 * backups.list and backups.restore (docs/architecture.md "Data safety"): the daily copies in `<dataDir>/backups`,
 * newest first, and the restore of one of them at the next start. Restore takes only a listed backup's name, never a
 * path from the page.
 * @throws BadInputError when the chosen backup is not there or fails its check (nothing is staged).
 */
export function backupHandlers(c: HandlerContext): HandlerGroup<'backups.list' | 'backups.restore'> {
  return {
    'backups.list': () => ({
      folder: backupsDir(c.about.dataDir),
      backups: listBackups(c.about.dataDir).map((b) => ({
        name: b.name,
        date: b.date,
        size: b.size,
        path: b.path,
        created_at: b.createdAt,
      })),
      pending: pendingView(c.about.dbPath),
    }),
    'backups.restore': async ({ name }) => {
      const binding = nativeBindingOf(c.db);
      try {
        await stageRestore(c.about.dbPath, name, {
          now: c.clock.now(),
          ...(binding ? { nativeBinding: binding } : {}),
        });
      } catch (e) {
        // The backup is what is wrong here, not the open data file.
        if (e instanceof DatabaseUnavailableError) throw new BadInputError(e.message, { name: [e.message] });
        throw e;
      }
      return { pending: pendingView(c.about.dbPath)! };
    },
  };
}
