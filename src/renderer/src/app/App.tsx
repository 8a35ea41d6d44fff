import { useEffect } from 'react';
import { useStore } from 'zustand';
import type { Bridge } from '../../../shared/ipc/bridge';
import { SpendNoticeHost } from '../components/SpendNotice';
import { VIEWS, type AppStore, type ViewId } from './appStore';
import { followRoute, openLot, openView, viewHref } from './navigation';
import { AlertsView } from '../features/alerts/AlertsView';
import { ConsoleView } from '../features/console/ConsoleView';
import { LibraryView } from '../features/library/LibraryView';
import { LocationsView } from '../features/locations/LocationsView';
import { LotView } from '../features/lot/LotView';
import { SavedSearchesView } from '../features/saved/SavedSearchesView';
import { SearchView } from '../features/search/SearchView';
import { SettingsView } from '../features/settings/SettingsView';
import { UsageView } from '../features/usage/UsageView';
import { WatchlistView } from '../features/watchlist/WatchlistView';

function CurrentView({ view, store }: { view: ViewId; store: AppStore }) {
  switch (view) {
    case 'search':
      return <SearchView />;
    case 'watchlist':
      return <WatchlistView />;
    case 'saved':
      return <SavedSearchesView />;
    case 'alerts':
      return <AlertsView />;
    case 'library':
      return <LibraryView />;
    case 'locations':
      return <LocationsView />;
    case 'usage':
      return <UsageView />;
    case 'console':
      return <ConsoleView />;
    case 'settings':
      return <SettingsView store={store} />;
  }
}

/** Applies the theme setting to the document: `system` follows prefers-color-scheme through CSS. */
function useTheme(theme: 'system' | 'light' | 'dark' | undefined) {
  useEffect(() => {
    document.documentElement.dataset['theme'] = theme ?? 'system';
  }, [theme]);
}

/** Keeps the view in the URL hash (`#/settings`) so a reload stays put; Ctrl/Cmd+1..8 switch views. */
function useViewRouting(store: AppStore) {
  useEffect(() => {
    const stopFollowing = followRoute((route) => {
      if (route?.kind === 'lot') store.setState({ lotKey: route.lotKey });
      else if (route?.kind === 'view') store.getState().setView(route.view);
    });
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      const n = Number(e.key === '0' ? 10 : e.key);
      const v = VIEWS[n - 1];
      if (Number.isInteger(n) && v) {
        e.preventDefault();
        openView(v.id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      stopFollowing();
      window.removeEventListener('keydown', onKey);
    };
  }, [store]);
}

/** The app frame: navigation, the Demo-mode label, and the current view. */
export function App({ store, api }: { store: AppStore; api: Bridge }) {
  const view = useStore(store, (s) => s.view);
  const lotKey = useStore(store, (s) => s.lotKey);
  const info = useStore(store, (s) => s.info);
  const settings = useStore(store, (s) => s.settings);
  const loadError = useStore(store, (s) => s.loadError);
  useTheme(settings?.theme);
  useViewRouting(store);

  useEffect(() => {
    void store.getState().load();
    return api.on((e) => {
      if (e.name === 'settings.changed') store.setState({ settings: e.payload });
      if (e.name === 'notification.clicked') openLot(e.payload.lotKey);
      // Core decided this notification is to be shown now (settings, mute, quiet hours and the digest applied);
      // only the browser shell sends it, and the page is its channel.
      if (e.name === 'notification.posted' && typeof Notification !== 'undefined' && Notification.permission === 'granted') {
        const n = new Notification(e.payload.title, { body: e.payload.body, tag: e.payload.tag });
        // A click brings the page forward on the lot, as the desktop app's native notification does.
        const lotKey = e.payload.lot_key;
        n.onclick = () => {
          window.focus();
          if (lotKey) openLot(lotKey);
        };
      }
    });
  }, [store, api]);

  const current = VIEWS.find((v) => v.id === view) ?? VIEWS[0];
  return (
    <div className="frame">
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◎
          </span>
          Lotwatch
        </div>
        <ul>
          {VIEWS.map((v, i) => (
            <li key={v.id}>
              <a
                href={viewHref(v.id)}
                className={v.id === view && !lotKey ? 'nav-item active' : 'nav-item'}
                aria-current={v.id === view && !lotKey ? 'page' : undefined}
                title={`${v.label} (Ctrl+${(i + 1) % 10})`}
              >
                {v.label}
              </a>
            </li>
          ))}
        </ul>
        <div className="sidebar-foot">
          {info ? `v${info.version} · ${info.shell === 'electron' ? 'Desktop' : 'Browser'}` : '\u00a0'}
        </div>
      </nav>
      <div className="main">
        <header className="topbar">
          <h1>{lotKey ? 'Lot' : current.label}</h1>
          {info?.mode === 'demo' && (
            <span className="demo-badge" role="status" title="Lotwatch is using its built-in simulated market">
              Demo mode · simulated market
            </span>
          )}
          {info?.mode === 'live' && <span className="live-badge">Live service</span>}
        </header>
        {loadError && (
          <div className="banner error" role="alert">
            <strong>Lotwatch could not load.</strong> {loadError.message}
          </div>
        )}
        <main className="content" id="content">
          {lotKey ? <LotView key={lotKey} lotKey={lotKey} /> : <CurrentView view={view} store={store} />}
        </main>
        <SpendNoticeHost store={store} />
      </div>
    </div>
  );
}
