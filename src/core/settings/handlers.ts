import type { ContractEvent } from '../../shared/ipc/contract';
import { SettingsPatchSchema } from '../../shared/settings';
import type { ApiClient } from '../api';
import type { Clock } from '../clock';
import type { SettingsSource } from '../db/settingsRepo';
import type { DemoService } from '../demo/service';
import { DemoSpeedError } from '../errors';
import type { HandlerGroup } from '../handlerGroups';
import type { WatchEngine } from '../watch/engine';

type SettingsMethods = 'settings.get' | 'settings.update' | 'key.set' | 'key.test' | 'key.clear';

/** What the settings handlers need: the settings, the engine's wake-up, the examples' pause, and the client's life. */
export interface SettingsHandlerDeps {
  settings: SettingsSource;
  clock: Clock;
  engine: Pick<WatchEngine, 'wake'>;
  demo: Pick<DemoService, 'pauseExamples' | 'resumeExamples'>;
  /** The client for the current key and mode, or null. */
  client(): ApiClient | null;
  /** Resolves once the client for the current mode is set up. */
  ready: Promise<void>;
  /** Stores (encrypted) or forgets the API key, then rebuilds the client. */
  setKey(key: string | null): Promise<void>;
  /** Rebuilds the client after the mode or the service URL changed. */
  rebuildClient(): Promise<void>;
  emit(e: ContractEvent): void;
}

/**
 * Settings and the API key: a change of mode or service URL rebuilds the client (another
 * quota); turning Demo mode off pauses the examples so they never spend the user's real key. The key is stored
 * encrypted and never returned; it is bound to the service URL's origin when saved, so a URL on another origin
 * reads as "no key" until its own key is saved (docs/architecture.md "Conventions"). Throws ZodError for a bad
 * patch (dispatch maps it), DemoSpeedError for turning Demo mode off on an accelerated clock (nothing saved),
 * ApiError from key.test.
 */
export function settingsHandlers(c: SettingsHandlerDeps): HandlerGroup<SettingsMethods> {
  return {
    'settings.get': () => c.settings.get(),
    'settings.update': async (patch) => {
      const before = c.settings.get();
      const parsed = SettingsPatchSchema.parse(patch);
      // An accelerated clock (--demo-speed) drives the Demo market only; live mode would run the watcher on it
      // against the real service. Refused rather than slowed down: the engine cannot change clocks while running.
      const speed = c.clock.speed ?? 1;
      if (parsed.demoMode === false && speed > 1) throw new DemoSpeedError(speed, 'switch');
      const next = await c.settings.update(parsed);
      // Demo mode's examples never run on the user's real key: turning Demo mode off pauses them until the user
      // says (Settings asks: remove them or keep them paused); turning it on again resumes them.
      if (before.demoMode && !next.demoMode) await c.demo.pauseExamples();
      if (!before.demoMode && next.demoMode) await c.demo.resumeExamples();
      if (before.demoMode !== next.demoMode || before.serviceUrl !== next.serviceUrl) await c.rebuildClient();
      c.engine.wake();
      c.emit({ name: 'settings.changed', payload: next });
      return next;
    },
    'key.set': async (i) => {
      await c.setKey(i.key);
      return { ok: true as const };
    },
    'key.test': async () => {
      await c.ready;
      const client = c.client();
      if (!client) {
        return { ok: false, usage: null };
      }
      const usage = await client.getUsage();
      return { ok: true, usage: usage.data };
    },
    'key.clear': async () => {
      await c.setKey(null);
      return { ok: true as const };
    },
  };
}
