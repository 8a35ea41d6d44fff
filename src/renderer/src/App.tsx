import { useEffect } from 'react';
import { useStore } from 'zustand';
import type { Bridge } from '../../shared/ipc/bridge';
import { SpendNoticeHost } from './components/SpendNotice';
import { isViewId, VIEWS, type AppStore, type ViewId } from './state/appStore';
import { AlertsView } from './views/AlertsView';
import { ConsoleView } from './views/ConsoleView';
import { LibraryView } from './views/LibraryView';
import { LocationsView } from './views/LocationsView';
import { LotView } from './views/LotView';
import { SavedSearchesView } from './views/SavedSearchesView';
import { SearchView } from './views/SearchView';
import { SettingsView } from './views/SettingsView';
import { UsageView } from './views/UsageView';
import { WatchlistView } from './views/WatchlistView';

/** Opens a lot in the detail view. */
export function openLot(lotKey: string): void {
  location.hash = `#/lot/${encodeURIComponent(lotKey)}`;
}

function CurrentView({ view, store }: { view: ViewId; store: AppStore }) {
  switch (view) {
    case 'search':
      return <SearchView store={store} />;
    case 'watchlist':
      return <WatchlistView />;
    case 'saved':
      return <SavedSearchesView store={store} />;
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
    const fromHash = () => {
      const id = location.hash.replace(/^#\/?/, '');
      const lot = /^lot\/(.+)$/.exec(id);
      if (lot?.[1]) store.setState({ lotKey: decodeURIComponent(lot[1]) });
      else if (isViewId(id)) store.getState().setView(id);
    };
    fromHash();
    window.addEventListener('hashchange', fromHash);
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      const n = Number(e.key === '0' ? 10 : e.key);
      const v = VIEWS[n - 1];
      if (Number.isInteger(n) && v) {
        e.preventDefault();
        location.hash = `#/${v.id}`;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('hashchange', fromHash);
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
                href={`#/${v.id}`}
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
