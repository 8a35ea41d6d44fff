import { joinSearch, type LocalRefinements } from '../../../shared/localRefinements';
import { create } from 'zustand';
import type { Bridge } from '../../../shared/ipc/bridge';
import type { AppInfo, MethodOutput } from '../../../shared/ipc/contract';
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
  { id: 'plan', label: 'Auction day', short: 'Plan' },
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

/**
 * A saved search opened in the Search form ("Open in Search" in Saved searches): which one (id, name) and the
 * GET /vehicles parameters the form starts from. `opened` counts openings, so opening the same search again
 * starts the form afresh.
 */
export interface SearchDraft {
  id: number;
  name: string;
  /** The form's view: the sent parameters with the local damage refinement joined into `damage` (joinSearch). */
  params: Record<string, unknown>;
  opened: number;
  /**
   * When the saved search was last changed, as it was opened or last saved here (ms; 0: not known): the save sends
   * it as `expected_updated_at`, so a search another member changed since is refused rather than overwritten.
   */
  updatedAt: number;
}

/**
 * The Search view's last search, kept while another view or a lot is open, so going back shows the same filters,
 * page and results without sending a request again (each page costs one of the quota). `mode` is the mode the
 * results came from: Demo mode's lots are not shown after a switch to the live service, nor the other way round.
 * `draftOpened` is the saved-search opening the form belonged to (SearchDraft.opened), so opening a saved search
 * starts from its filters, not from the kept ones.
 */
export interface SearchSession {
  /** The form's values as the user left them (features/search/params.ts SearchForm). */
  form: Record<string, unknown>;
  /** The parameters of the search the results belong to; null before the first Search. */
  params: Record<string, unknown> | null;
  page: MethodOutput<'vehicles.search'> | null;
  pageNo: number;
  /** When the page shown was read (ms, the app's clock), or null. */
  readAt: number | null;
  photoChoice: boolean | null;
  mode: AppInfo['mode'] | null;
  draftOpened: number | null;
}

/** A saved search as a draft is made from: its parameters and its local refinements (none when left out). */
type DraftSource = {
  id: number;
  name: string;
  params: Record<string, unknown>;
  refine?: LocalRefinements;
  updated_at?: number;
};

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
  /** The saved search whose filters the Search form is editing, or null for a plain search. */
  searchDraft: SearchDraft | null;
  /** The Search view's last search while the view is closed (see SearchSession), or null. */
  searchSession: SearchSession | null;
  /** Keeps the Search view's state (merged over what is kept) for when the view opens again. */
  keepSearchSession(patch: Partial<SearchSession>): void;
  setView(view: ViewId): void;
  /**
   * Shows the Search view with the form filled from a saved search's parameters, to edit them and save them back
   * (searches.update) or as a new search. Runs no search: a search spends a request of the quota, so only the
   * user's own Search press sends one.
   */
  openSearchDraft(search: DraftSource): void;
  /** Updates the open draft after its saved search was saved (new name or parameters); ignored for another id. */
  updateSearchDraft(search: DraftSource): void;
  /** Stops editing a saved search: the form's values stay, later saves create a new search. */
  closeSearchDraft(): void;
  load(): Promise<void>;
  updateSettings(patch: SettingsPatch): Promise<boolean>;
}

/**
 * The app frame's store: current view, app info and settings, the saved search the Search form is editing, and the
 * Search view's last search (SearchSession). Built over a Bridge so tests give it a typed fake. `updateSettings`
 * resolves to true when the change was saved.
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
    searchDraft: null,
    searchSession: null,
    keepSearchSession: (patch) =>
      set((s) => ({
        searchSession: {
          form: {},
          params: null,
          page: null,
          pageNo: 1,
          readAt: null,
          photoChoice: null,
          mode: null,
          draftOpened: null,
          ...s.searchSession,
          ...patch,
        },
      })),
    setView: (view) => set({ view, lotKey: null }),
    openSearchDraft: ({ id, name, params, refine, updated_at }) =>
      set((s) => ({
        searchDraft: {
          id,
          name,
          params: joinSearch(params, refine),
          opened: (s.searchDraft?.opened ?? 0) + 1,
          updatedAt: updated_at ?? 0,
        },
        view: 'search',
        lotKey: null,
      })),
    updateSearchDraft: ({ id, name, params, refine, updated_at }) =>
      set((s) =>
        s.searchDraft?.id === id
          ? {
              searchDraft: {
                ...s.searchDraft,
                name,
                params: joinSearch(params, refine),
                updatedAt: updated_at ?? s.searchDraft.updatedAt,
              },
            }
          : {},
      ),
    closeSearchDraft: () => set({ searchDraft: null }),
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
      set({
        saving: false,
        savedAt: Date.now(),
        settings: res.value,
        ...(info.ok ? { info: info.value } : {}),
      });
      return true;
    },
  }));
}

export type AppStore = ReturnType<typeof createAppStore>;
