import { z } from 'zod';
import { WatchingStateSchema } from '../../watching';
import { SettingsPatchSchema, SettingsSchema } from '../../settings';
import { QuotaSnapshotSchema } from '../../vehicle';
import { Done, Void } from './common';

/** The app domain of the contract: app.info, status, settings, the API key and backups. */

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  /** Which shell hosts core: the Electron desktop app or the headless browser shell. */
  shell: z.enum(['electron', 'headless']),
  /** `demo` while Lotwatch talks to its built-in sandbox, `live` with a real key. */
  mode: z.enum(['demo', 'live']),
  dataDir: z.string(),
  /** Where the data is: the data file's path, or a team's PostgreSQL address without its password. */
  dbPath: z.string(),
  /** Which engine holds the data: the desktop's SQLite file or a team's PostgreSQL database. */
  database: z.enum(['sqlite', 'postgres']).default('sqlite'),
  platform: z.string(),
  /** `postgres`: the PostgreSQL server's version on a team's database, null (or absent) on the desktop. */
  versions: z.object({
    node: z.string(),
    electron: z.string().nullable(),
    sqlite: z.string(),
    postgres: z.string().nullable().optional(),
  }),
  /** Database schema version (PRAGMA user_version on SQLite, lotwatch_schema on PostgreSQL). */
  schemaVersion: z.number().int(),
  /**
   * Core's clock when it answered (ms since the epoch) and its speed (clock ms per wall ms: 1 in real time, more in
   * an accelerated demo), so the UI's countdowns and "5 minutes ago" agree with the watcher's time.
   */
  clock: z.object({ now: z.number(), speed: z.number().positive() }),
});

export const StatusSchema = z.object({
  mode: z.enum(['demo', 'live']),
  /**
   * `set`: a key is stored for the service URL's origin (only such a key is sent). `stored_for`: the origin a stored
   * key was entered for when the service URL points elsewhere, so Settings can ask for this service's key.
   */
  key: z.object({ set: z.boolean(), storage: z.string(), stored_for: z.string().nullable().optional() }),
  quota: QuotaSnapshotSchema.nullable(),
  budget: z.object({
    allowedPerDay: z.number(),
    spentLast24h: z.number(),
    projectedNext24h: z.number(),
    basis: z.enum(['quota', 'setting', 'default']),
    periodRemaining: z.number().nullable(),
    periodEnd: z.number().nullable(),
  }),
  scale: z.number(),
  running: z.boolean(),
  /** Polling is paused until this time (ms), after the service answered 429 or because the buyer paused it; else null. */
  paused_until: z.number().nullable(),
  pause_reason: z.string().nullable(),
  /**
   * Why: `quota_spent` (the plan's requests are used up until `paused_until`, the period's end: say the date) or
   * `rate_limited` (too many requests a second: a short wait) or `user` (the buyer paused watching from the tray or
   * Settings, until `paused_until`); null when not paused.
   */
  pause_kind: z.enum(['quota_spent', 'rate_limited', 'user']).nullable().default(null),
  /**
   * Whether the service answered the last request Lotwatch sent (any HTTP status counts as an answer; a refused
   * connection, DNS failure or timeout does not); null before the first request. The header says "Offline" on false.
   */
  service_reachable: z.boolean().nullable().default(null),
  /** The one state of watching every view shows (src/shared/watching.ts); `watching.changed` follows it. */
  watching: WatchingStateSchema.default({ kind: 'running' }),
});

export type Status = z.infer<typeof StatusSchema>;

/** One daily copy of the database (docs/architecture.md "Data safety"). */
export const BackupSchema = z.object({
  /** File name, e.g. `lotwatch-2026-11-23.sqlite.gz` (older versions: `.sqlite`); what `backups.restore` takes. */
  name: z.string(),
  /** The local day it was taken, `YYYY-MM-DD`. */
  date: z.string(),
  /** Bytes. */
  size: z.number().int().min(0),
  path: z.string(),
  /** When it was written, ms since the epoch. */
  created_at: z.number(),
});

export type Backup = z.infer<typeof BackupSchema>;

/** A restore chosen and checked, waiting for the next start to replace the data file. */
export const PendingRestoreSchema = z.object({ source: z.string(), requested_at: z.number() });

/** The methods of this domain; contract.ts joins every domain into the one contract. */
export const appMethods = {
  'app.info': { input: Void, output: AppInfoSchema },
  'settings.get': { input: Void, output: SettingsSchema },
  'settings.update': { input: SettingsPatchSchema, output: SettingsSchema },
  'status.get': { input: Void, output: StatusSchema },
  'key.set': {
    input: z
      .object({ key: z.string().trim().min(8, 'That is too short to be an API key.').max(500) })
      .strict(),
    output: Done,
  },
  'key.test': {
    input: Void,
    output: z.object({ ok: z.boolean(), usage: z.record(z.string(), z.unknown()).nullable() }),
  },
  'key.clear': { input: Void, output: Done },
  'backups.list': {
    input: Void,
    output: z.object({
      folder: z.string(),
      backups: z.array(BackupSchema),
      pending: PendingRestoreSchema.nullable(),
    }),
  },
  /**
   * Checks the chosen backup (a copy of it passes SQLite's quick_check) and stages it: it replaces the data file when
   * Lotwatch next starts, the current file kept beside it. Nothing changes until then.
   */
  'backups.restore': {
    input: z
      .object({
        name: z
          .string()
          .regex(/^lotwatch-\d{4}-\d{2}-\d{2}\.sqlite(\.gz)?$/, 'Choose one of the listed backups.'),
      })
      .strict(),
    output: z.object({ pending: PendingRestoreSchema }),
  },
  /** The alert channels (email, ntfy, webhook) with their health, and the newest 100 rows of the delivery log. */
} as const;
