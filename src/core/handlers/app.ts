import { schemaVersion } from '../db/migrate';
import { sqliteVersion } from '../db/connection';
import type { HandlerContext, HandlerGroup } from './context';

/**
 * app.info and status.get: what the header, About and Usage pages show (mode, versions, key, quota, budget,
 * pause, reachability). Reads only; throws only database errors.
 */
export function appHandlers(c: HandlerContext): HandlerGroup<'app.info' | 'status.get'> {
  return {
    'app.info': () => ({
      name: 'Lotwatch',
      version: c.about.version,
      shell: c.about.shell,
      mode: c.settings.get().demoMode ? 'demo' : 'live',
      dataDir: c.about.dataDir,
      dbPath: c.about.dbPath,
      platform: `${process.platform}-${process.arch}`,
      versions: {
        node: process.versions.node,
        electron: c.about.electronVersion,
        sqlite: sqliteVersion(c.db),
      },
      schemaVersion: schemaVersion(c.db),
      clock: { now: c.clock.now(), speed: c.clock.speed ?? 1 },
    }),
    'status.get': () => {
      const now = c.clock.now();
      const plan = c.engine.plan();
      return {
        mode: c.settings.get().demoMode ? ('demo' as const) : ('live' as const),
        key: { set: c.hasKey(), storage: c.secrets.description, stored_for: c.keyStoredFor() },
        quota: c.store.requests.loadQuota(),
        budget: c.budget.plan(now, plan.projectedNext24h),
        scale: plan.scale,
        running: c.client() !== null,
        paused_until: c.engine.pause().until,
        pause_reason: c.engine.pause().reason,
        pause_kind: c.engine.pause().kind,
        service_reachable: c.reachable(),
      };
    },
  };
}
