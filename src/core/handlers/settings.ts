import { SettingsPatchSchema } from '../../shared/settings';
import type { HandlerContext, HandlerGroup } from './context';

type SettingsMethods = 'settings.get' | 'settings.update' | 'key.set' | 'key.test' | 'key.clear' | 'examples.remove';

/**
 * Settings, the API key and Demo mode's examples: a change of mode or service URL rebuilds the client (another
 * quota); turning Demo mode off pauses the examples so they never spend the user's real key. The key is stored
 * encrypted and never returned. Throws ZodError for a bad patch (dispatch maps it), ApiError from key.test.
 */
export function settingsHandlers(c: HandlerContext): HandlerGroup<SettingsMethods> {
  return {
    'settings.get': () => c.settings.get(),
    'settings.update': async (patch) => {
      const before = c.settings.get();
      const next = c.settings.update(SettingsPatchSchema.parse(patch));
      // Demo mode's examples never run on the user's real key: turning Demo mode off pauses them until the user
      // says (Settings asks: remove them or keep them paused); turning it on again resumes them.
      if (before.demoMode && !next.demoMode) c.explore.pauseExamples();
      if (!before.demoMode && next.demoMode) c.explore.resumeExamples();
      if (before.demoMode !== next.demoMode || before.serviceUrl !== next.serviceUrl) await c.rebuildClient();
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
    'examples.remove': () => c.explore.removeExamples(),
  };
}
