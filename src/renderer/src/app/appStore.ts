import { create } from 'zustand';
import type { Bridge } from '../../../shared/ipc/bridge';
import type { AppInfo } from '../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../shared/ipc/errors';
import type { Settings, SettingsPatch } from '../../../shared/settings';
import { syncAppClock } from '../lib/clock';

/**
 * The views of the app frame, in navigation order. `short` is the label of the narrow navigation rail a small
 * window shows, so every view stays one click away when the full sidebar does not fit.
 */
export const VIEWS = [
  { id: 'search', label: 'Search', short: 'Search' },
  { id: 'watchlist', label: 'Watchlist', short: 'Watch' },
  { id: 'saved', label: 'Saved searches', short: 'Saved' },
  { id: 'alerts', label: 'Alerts', short: 'Alerts' },
  { id: 'library', label: 'Library', short: 'Library' },
  { id: 'locations', label: 'Locations', short: 'Places' },
  { id: 'usage', label: 'Usage', short: 'Usage' },
  { id: 'console', label: 'API console', short: 'API' },
  { id: 'settings', label: 'Settings', short: 'Settings' },
] as const;

export type ViewId = (typeof VIEWS)[number]['id'];

/** Whether a string names one of the views (a hash from a link, a bookmark or a reload). */
export function isViewId(v: string): v is ViewId {
  return VIEWS.some((x) => x.id === v);
}

export interface AppState {
  view: ViewId;
  /** The lot open in the detail view (`#/lot/<lot_key>`), or null. */
  lotKey: string | null;
  info: AppInfo | null;
  settings: Settings | null;
  /** A failure of loading the frame (info/settings), shown as a banner. */
  loadError: ErrorPayload | null;
  saving: boolean;
  /** When the settings were last saved from this window (ms), or null. */
  savedAt: number | null;
  /** The last save error, with per-field messages when the input was refused. */
  saveError: ErrorPayload | null;
  setView(view: ViewId): void;
  load(): Promise<void>;
  updateSettings(patch: SettingsPatch): Promise<boolean>;
}

/**
 * The app frame's store: current view, app info and settings. Built over a Bridge so tests give it a typed
 * fake. `updateSettings` resolves to true when the change was saved.
 */
export function createAppStore(api: Bridge, initialView: ViewId = 'search') {
  return create<AppState>((set) => ({
    view: initialView,
    lotKey: null,
    info: null,
    settings: null,
    loadError: null,
    saving: false,
    savedAt: null,
    saveError: null,
    setView: (view) => set({ view, lotKey: null }),
    async load() {
      const [info, settings] = await Promise.all([api.invoke('app.info'), api.invoke('settings.get')]);
      if (!info.ok) return set({ loadError: info.error });
      if (!settings.ok) return set({ loadError: settings.error });
      syncAppClock(info.value.clock);
      set({ info: info.value, settings: settings.value, loadError: null });
    },
    async updateSettings(patch) {
      set({ saving: true, saveError: null, savedAt: null });
      const res = await api.invoke('settings.update', patch);
      if (!res.ok) {
        set({ saving: false, saveError: res.error });
        return false;
      }
      const info = await api.invoke('app.info');
      if (info.ok) syncAppClock(info.value.clock);
      set({ saving: false, savedAt: Date.now(), settings: res.value, ...(info.ok ? { info: info.value } : {}) });
      return true;
    },
  }));
}

export type AppStore = ReturnType<typeof createAppStore>;
