import type { Database } from 'better-sqlite3';
import { join } from 'node:path';
import type { Clock } from './clock';
import { closeDatabase, markSuspect, nativeBindingOf, openDatabase, sqliteVersion } from './db/connection';
import { dataSafety } from './db/dataSafety';
import { KyselyExec } from './db/kysely/exec';
import { KyselySettings } from './db/kysely/settingsRepo';
import { schemaVersion } from './db/migrate';
import { MIGRATIONS } from './db/migrations';
import { migratePg, pgSchemaVersion } from './db/pg/migrate';
import { openPostgres, type OpenPostgresOptions } from './db/pg/open';
import { PgStore } from './db/pg/store';
import { PhotoCache } from './db/photoCache';
import { SettingsRepo, type SettingsSource } from './db/settingsRepo';
import { SqliteStore, type Store } from './db/store';
import { redactedUrl } from './db/target';
import type { Logger } from './log';

/*
 * The database core runs on (docs/architecture.md "Two engines: one store"): the desktop's SQLite file or a team's
 * PostgreSQL database, with the few things that differ between them said here once: the store and settings, what
 * About shows, the photo cache's index, the daily copy and retention (the desktop's file only), and closing.
 */

/** The daily jobs of a data file (db/dataSafety.ts), started with the engine; none on a team's server. */
export interface DailyJobs {
  start(): void;
  dispose(): Promise<void>;
}

/** An opened, migrated database as core uses it; core owns it from createCore on and closes it on dispose. */
export interface CoreDatabase {
  readonly engine: 'sqlite' | 'postgres';
  readonly store: Store;
  /** The buyer's settings, read synchronously (a team's are loaded at open and kept in memory). */
  readonly settings: SettingsSource;
  /** Where the data is, as About shows it: the file's path, or the address without its password. */
  readonly location: string;
  /** The engine's version (SQLite's library, or PostgreSQL's server) and the schema version. */
  versions(): { sqlite: string; postgres: string | null; schemaVersion: number };
  /** Whether the database is still open: an answer arriving after dispose is not logged. */
  isOpen(): boolean;
  /** The photo cache: files in the data folder, their index in the data file (in this process's memory on PostgreSQL). */
  readonly photos: PhotoCache;
  /** The better-sqlite3 binding of the data file (a restore checks a backup with the same one); undefined otherwise. */
  readonly nativeBinding: string | undefined;
  /** The daily copy and retention pass of a data file (Settings.retentionDays read at each pass); none on PostgreSQL. */
  dailyJobs(d: { dataDir: string; clock: Clock; log: Logger; fullRecordDays: () => number }): DailyJobs[];
  /** Says a database error was met (the next start checks the file); nothing on PostgreSQL. */
  suspect(): void;
  /** Closes it (idempotent). */
  close(): Promise<void>;
}

/**
 * The desktop's database: the SQLite file `db` (opened and migrated by `openDatabase`) with its photos in
 * `<dataDir>/photos`. Throws nothing.
 */
export function sqliteDatabase(
  db: Database,
  d: { dbPath: string; dataDir: string; clock: Clock },
): CoreDatabase {
  const store = new SqliteStore(db);
  const safety = (j: Parameters<CoreDatabase['dailyJobs']>[0]) => dataSafety({ db, ...j });
  return {
    engine: 'sqlite',
    store,
    settings: new SettingsRepo(db, d.clock),
    location: d.dbPath,
    versions: () => ({ sqlite: sqliteVersion(db), postgres: null, schemaVersion: schemaVersion(db) }),
    isOpen: () => db.open,
    photos: new PhotoCache(db, join(d.dataDir, 'photos')),
    nativeBinding: nativeBindingOf(db),
    dailyJobs: (j) => {
      const { backups, retention } = safety(j);
      return backups ? [backups, retention] : [retention];
    },
    suspect: () => markSuspect(db),
    close: async () => {
      if (db.open) closeDatabase(db);
    },
  };
}

/**
 * A team's database at `url` (`postgres://…`): migrated to this build's schema (pg/migrate.ts, two servers starting
 * at once apply each step once), opened as a pool (openPostgres), the settings read, and the photos' files in
 * `<dataDir>/photos` with their index in this process's memory.
 * @throws DatabaseAddressError for an address Lotwatch cannot use, DatabaseUnreachableError (`db_unreachable`) when
 *   the server does not answer or refuses the sign-in, DatabaseFromFutureError for a database of a newer Lotwatch;
 *   every message names the address without its password. Nothing is left open when it throws.
 */
export async function postgresDatabase(
  url: string,
  d: { dataDir: string; clock: Clock; pool?: OpenPostgresOptions },
): Promise<CoreDatabase> {
  const h = await openPostgres(url, d.pool);
  let photoIndex: Database | null = null;
  try {
    // One pooled connection migrates (under the advisory lock) and then reads what About shows.
    const client = await h.pool.connect();
    let postgres: string;
    let version: number;
    try {
      await migratePg(client, MIGRATIONS, redactedUrl(url));
      postgres = (await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!
        .v;
      version = await pgSchemaVersion(client);
    } finally {
      client.release();
    }
    const store = new PgStore(h.db);
    const settings = new KyselySettings(new KyselyExec(h.db), 'postgres', d.clock);
    await settings.load();
    photoIndex = openDatabase(':memory:');
    const memory = photoIndex;
    let open = true;
    return {
      engine: 'postgres',
      store,
      settings,
      location: redactedUrl(url),
      versions: () => ({ sqlite: sqliteVersion(memory), postgres, schemaVersion: version }),
      isOpen: () => open,
      photos: new PhotoCache(memory, join(d.dataDir, 'photos')),
      nativeBinding: undefined,
      dailyJobs: () => [],
      suspect: () => {},
      close: async () => {
        if (!open) return;
        open = false;
        closeDatabase(memory);
        await h.close();
      },
    };
  } catch (e) {
    if (photoIndex?.open) closeDatabase(photoIndex);
    await h.close();
    throw e;
  }
}
