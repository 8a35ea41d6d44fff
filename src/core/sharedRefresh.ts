import type { SettingsSource } from './db/settingsRepo';

/**
 * Core.refreshShared's work (docs/team.md "Several servers"): reads the team's settings, API key and request log
 * again, and builds a new service client only when the mode, the service or the key changed, since a rebuild
 * forgets the team's quota snapshot (serviceClient.ts). Then wakes the watcher, whose plan may have changed.
 * @throws the driver's error when the database does not answer (the values read before stay).
 */
export async function refreshShared(d: {
  settings: SettingsSource;
  keyFor: (serviceUrl: string) => string | undefined;
  loadKey: () => Promise<void>;
  refreshLedger: () => Promise<void>;
  rebuildClient: () => Promise<void>;
  wake: () => void;
}): Promise<void> {
  const before = d.settings.get();
  const key = d.keyFor(before.serviceUrl);
  await d.settings.reload?.();
  await d.loadKey();
  await d.refreshLedger();
  const after = d.settings.get();
  const changed = before.demoMode !== after.demoMode || before.serviceUrl !== after.serviceUrl;
  if (changed || key !== d.keyFor(after.serviceUrl)) await d.rebuildClient();
  d.wake();
}
