import type { ContractEvent } from '../../shared/ipc/contract';
import { SettingsPatchSchema, type SettingsPatch } from '../../shared/settings';
import { currentActor } from '../actor';
import type { ApiClient } from '../api';
import type { Clock } from '../clock';
import type { SettingsSource } from '../db/settingsRepo';
import type { DemoService } from '../demo/service';
import { DemoSpeedError } from '../errors';
import type { HandlerGroup } from '../handlerGroups';
import { splitPatch, type MemberState } from '../team/personal';
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
  /** Each team member's own settings (PERSONAL_SETTING_KEYS, team/personal.ts). */
  member: Pick<MemberState, 'settings' | 'updateSettings'>;
}

/**
 * Settings and the API key: a change of mode or service URL rebuilds the client (another
 * quota); turning Demo mode off pauses the examples so they never spend the user's real key. The key is stored
 * encrypted and never returned; it is bound to the service URL's origin when saved, so a URL on another origin
 * reads as "no key" until its own key is saved (docs/architecture.md "Conventions"). Throws ZodError for a bad
 * patch (dispatch maps it), DemoSpeedError for turning Demo mode off on an accelerated clock (nothing saved),
 * ApiError from key.test. A team member (`currentActor`) reads the team's settings with their own personal values,
 * and their update writes those to their own row (no `settings.changed`: the event is the team's), the rest to the
 * team's (the role gate, team/gate.ts, lets only an admin name a team setting).
 */
export function settingsHandlers(c: SettingsHandlerDeps): HandlerGroup<SettingsMethods> {
  const updateTeam = async (parsed: SettingsPatch) => {
    const before = c.settings.get();
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
  };
  return {
    'settings.get': () => {
      const user = currentActor().userId;
      return user === null ? c.settings.get() : c.member.settings(user);
    },
    'settings.update': async (patch) => {
      const user = currentActor().userId;
      const parsed = SettingsPatchSchema.parse(patch);
      if (user === null) return updateTeam(parsed);
      const { personal, team } = splitPatch(parsed);
      if (Object.keys(personal).length) await c.member.updateSettings(user, personal, c.clock.now());
      if (Object.keys(team).length) await updateTeam(team);
      return c.member.settings(user);
    },
    'key.set': async (i) => {
      await c.setKey(i.key);
      // The team's other servers read the key again on this (team/eventBus.ts relays it); pages re-read settings.
      c.emit({ name: 'settings.changed', payload: c.settings.get() });
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
      c.emit({ name: 'settings.changed', payload: c.settings.get() });
      return { ok: true as const };
    },
  };
}
