import type { Database } from 'better-sqlite3';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import { BackupScheduler } from './backup';
import { markSuspect, nativeBindingOf } from './connection';
import { RetentionScheduler } from './retention';

/**
 * The daily jobs that keep a data file safe and bounded (docs/architecture.md "Data safety", "Retention"): the daily
 * copy of a file database (none for an in-memory one), and the daily retention pass over old observations, logs and
 * read alerts, in small steps. Both are started with the engine by the caller. Throws nothing.
 */
export function dataSafety(d: {
  db: Database;
  dataDir: string;
  clock: Clock;
  log: Logger;
  /** Days full records are kept (Settings.retentionDays), read at each pass. */
  fullRecordDays: () => number;
}): {
  binding: ReturnType<typeof nativeBindingOf>;
  backups: BackupScheduler | null;
  retention: RetentionScheduler;
} {
  const { db, clock, log } = d;
  const binding = nativeBindingOf(db);
  const backups = db.memory
    ? null
    : new BackupScheduler({
        db,
        dataDir: d.dataDir,
        clock,
        log,
        ...(binding ? { nativeBinding: binding } : {}),
        onDamaged: () => markSuspect(db),
      });
  const retention = new RetentionScheduler({ db, clock, log, fullRecordDays: d.fullRecordDays });
  return { binding, backups, retention };
}
