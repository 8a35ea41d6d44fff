import type { AppInfo } from '../../shared/ipc/contract';
import type { WatchingState } from '../../shared/watching';
import type { QuotaSnapshot } from '../../shared/vehicle';
import type { ApiClient } from '../api';
import type { Clock } from '../clock';
import type { SettingsSource } from '../db/settingsRepo';
import type { HandlerGroup } from '../handlerGroups';
import type { RequestBudget } from '../watch/budget';
import type { WatchEngine } from '../watch/engine';

/** What app.info and status.get read: settings, the engine's plan and pause, the budget, and core's own state. */
export interface AppHandlerDeps {
  settings: SettingsSource;
  clock: Clock;
  engine: Pick<WatchEngine, 'plan' | 'pause'>;
  budget: Pick<RequestBudget, 'plan'>;
  /** The last quota snapshot stored, or null. */
  quota(): QuotaSnapshot | null;
  /** About the app, for app.info. */
  about: {
    version: string;
    shell: AppInfo['shell'];
    electronVersion: string | null;
    dataDir: string;
    dbPath: string;
  };
  /**
   * Which engine holds the data, the SQLite library's version, PostgreSQL's server version (null on the desktop) and
   * the schema version (coreDatabase.ts CoreDatabase.versions).
   */
  database(): {
    engine: 'sqlite' | 'postgres';
    sqlite: string;
    postgres: string | null;
    schemaVersion: number;
  };
  /** How the secrets are kept (Settings says it). */
  secretsDescription: string;
  /** The client for the current key and mode, or null. */
  client(): ApiClient | null;
  /** Whether an API key is stored for the service URL's origin (the only key that is ever sent). */
  hasKey(): boolean;
  /** The origin a stored key was entered for, when the service URL now points elsewhere (kept, not sent); else null. */
  keyStoredFor(): string | null;
  /** Whether the service answered the last request (null before the first). */
  reachable(): boolean | null;
  /** The one state of watching (WatchingTracker.current). */
  watching(): WatchingState;
}

/**
 * app.info and status.get: what the header, About and Usage pages show (mode, versions, key, quota, budget,
 * pause, reachability). Reads only; throws only database errors.
 */
export function appHandlers(c: AppHandlerDeps): HandlerGroup<'app.info' | 'status.get'> {
  return {
    'app.info': () => ({
      name: 'Lotwatch',
      version: c.about.version,
      shell: c.about.shell,
      mode: c.settings.get().demoMode ? 'demo' : 'live',
      dataDir: c.about.dataDir,
      dbPath: c.about.dbPath,
      platform: `${process.platform}-${process.arch}`,
      database: c.database().engine,
      versions: {
        node: process.versions.node,
        electron: c.about.electronVersion,
        sqlite: c.database().sqlite,
        postgres: c.database().postgres,
      },
      schemaVersion: c.database().schemaVersion,
      clock: { now: c.clock.now(), speed: c.clock.speed ?? 1 },
    }),
    'status.get': async () => {
      const now = c.clock.now();
      const plan = await c.engine.plan();
      return {
        mode: c.settings.get().demoMode ? ('demo' as const) : ('live' as const),
        key: { set: c.hasKey(), storage: c.secretsDescription, stored_for: c.keyStoredFor() },
        quota: c.quota(),
        budget: c.budget.plan(now, plan.projectedNext24h),
        scale: plan.scale,
        running: c.client() !== null,
        paused_until: c.engine.pause().until,
        pause_reason: c.engine.pause().reason,
        pause_kind: c.engine.pause().kind,
        service_reachable: c.reachable(),
        watching: c.watching(),
      };
    },
  };
}
