import type { Database } from 'better-sqlite3';
import type { AppInfo, ContractEvent } from '../shared/ipc/contract';
import type { Result } from '../shared/ipc/errors';
import { SettingsPatchSchema } from '../shared/settings';
import type { Clock } from './clock';
import { SettingsRepo } from './db/settingsRepo';
import { schemaVersion } from './db/migrate';
import type { Logger } from './log';
import { dispatch, type Handlers } from './rpc';
import type { SecretBox } from './secrets';

/** A native or browser notification sink (DESIGN.md "Delivery"). Implemented by each shell. */
export interface Notifier {
  notify(n: { title: string; body: string; lotKey?: string }): void;
}

/** What createCore needs from its shell: everything with side effects is injected. */
export interface CoreDeps {
  /** An opened, migrated database (see `openDatabase`). Core owns it from now on and closes it on dispose. */
  db: Database;
  dbPath: string;
  dataDir: string;
  clock: Clock;
  secrets: SecretBox;
  notifier: Notifier;
  log: Logger;
  shell: AppInfo['shell'];
  version: string;
  electronVersion?: string | null;
}

export interface Core {
  /** Calls a contract method by name with unparsed input. Never throws: see `dispatch`. */
  invoke(method: unknown, input: unknown): Promise<Result<unknown>>;
  /** Subscribes to contract events. Returns the unsubscribe function. */
  on(listener: (e: ContractEvent) => void): () => void;
  /** Stops everything long-lived, waits for work in flight, then closes the database. Idempotent. */
  dispose(): Promise<void>;
}

/**
 * The composition root without a shell (DESIGN.md "The parts"). Both the Electron and the headless shell
 * call this with their own ports.
 */
export function createCore(deps: CoreDeps): Core {
  const { db, log } = deps;
  const settings = new SettingsRepo(db, deps.clock);
  const listeners = new Set<(e: ContractEvent) => void>();
  const emit = (e: ContractEvent) => {
    for (const l of listeners) {
      try {
        l(e);
      } catch (error) {
        log.warn('event listener failed', { event: e.name, error: (error as Error).message });
      }
    }
  };
  let disposed: Promise<void> | undefined;
  const inFlight = new Set<Promise<unknown>>();

  const handlers: Handlers = {
    'app.info': () => ({
      name: 'Lotwatch',
      version: deps.version,
      shell: deps.shell,
      mode: settings.get().demoMode ? 'demo' : 'live',
      dataDir: deps.dataDir,
      dbPath: deps.dbPath,
      platform: `${process.platform}-${process.arch}`,
      versions: {
        node: process.versions.node,
        electron: deps.electronVersion ?? null,
        sqlite: (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v,
      },
      schemaVersion: schemaVersion(db),
    }),
    'settings.get': () => settings.get(),
    'settings.update': (patch) => {
      const next = settings.update(SettingsPatchSchema.parse(patch));
      emit({ name: 'settings.changed', payload: next });
      return next;
    },
  };

  return {
    async invoke(method, input) {
      if (disposed) {
        return {
          ok: false,
          error: { code: 'internal', message: 'Lotwatch is shutting down.', retryable: true },
        };
      }
      const p = dispatch(handlers, method, input, log);
      inFlight.add(p);
      try {
        return await p;
      } finally {
        inFlight.delete(p);
      }
    },
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      disposed ??= (async () => {
        await Promise.allSettled([...inFlight]);
        listeners.clear();
        if (db.open) db.close();
      })();
      return disposed;
    },
  };
}
