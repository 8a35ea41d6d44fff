import { useEffect, useRef, type MouseEvent } from 'react';
import { useStore } from 'zustand';
import type { Bridge } from '../../../shared/ipc/bridge';
import { ApiProvider, useApi } from '../api/ApiContext';
import { SpendNoticeHost } from '../components/SpendNotice';
import { VIEWS, type AppStore } from './appStore';
import { followRoute, openLot, openView, viewHref } from './navigation';
import { useUnreadCount, useUnreadTitle } from './signals';
import { WatchingStateNotice, useWatchingState } from '../components/WatchingState';
import { CurrentView, LotPage } from './views';
import { DemoIntro } from './DemoIntro';
import type { TeamUser } from '../../../shared/ipc/contract/team';
import { MeProvider, useTeamMe } from '../team/me';
import { WhoAmI } from '../team/WhoAmI';

/** The browser page's sign-in on a team server: who signed in, and signing out (src/renderer/src/team/session.ts). */
export interface TeamSignIn {
  user: TeamUser;
  signOut(): Promise<void>;
}

/** Applies the theme setting to the document: `system` follows prefers-color-scheme through CSS. */
function useTheme(theme: 'system' | 'light' | 'dark' | undefined) {
  useEffect(() => {
    document.documentElement.dataset['theme'] = theme ?? 'system';
  }, [theme]);
}

/** Keeps the view in the URL hash (`#/settings`) so a reload stays put; Ctrl/Cmd+1..9 switch views. */
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
        // The view takes the focus, as a click in the navigation gives it, not the page's body.
        document.getElementById('content')?.focus({ preventScroll: true });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      stopFollowing();
      window.removeEventListener('keydown', onKey);
    };
  }, [store]);
}

/**
 * The app: hands the bridge to core down to every view (ApiProvider), and the signed-in member (`team.me`, seeded by
 * `team` on a team server) to the views that show owners or gate a member's buttons (MeProvider), and draws the
 * frame. The entry point and the tests choose the bridge; nothing below reads it from a module.
 */
export function App({ store, api, team }: { store: AppStore; api: Bridge; team?: TeamSignIn }) {
  const me = useTeamMe(api, team?.user ?? null);
  return (
    <ApiProvider bridge={api}>
      <MeProvider me={me}>
        <Frame store={store} signOut={team?.signOut} />
      </MeProvider>
    </ApiProvider>
  );
}

/**
 * The app frame: a skip link, the navigation (with the unread count on Alerts), the header with the Demo/Live
 * label, the state of watching whenever it is not plainly running (paused, offline, key refused) and on a team the
 * signed-in member's menu, and the current view.
 */
function Frame({ store, signOut }: { store: AppStore; signOut?: () => Promise<void> }) {
  const api = useApi();
  const view = useStore(store, (s) => s.view);
  const lotKey = useStore(store, (s) => s.lotKey);
  const info = useStore(store, (s) => s.info);
  const settings = useStore(store, (s) => s.settings);
  const loadError = useStore(store, (s) => s.loadError);
  const unread = useUnreadCount();
  const watching = useWatchingState();
  const mainRef = useRef<HTMLElement>(null);
  useTheme(settings?.theme);
  useViewRouting(store);
  useUnreadTitle(unread);

  useEffect(() => {
    void store.getState().load();
    return api.on((e) => {
      if (e.name === 'settings.changed') store.setState({ settings: e.payload });
      if (e.name === 'notification.clicked') openLot(e.payload.lotKey);
      // Core decided this notification is to be shown now (settings, mute, quiet hours and the digest applied);
      // only the browser shell sends it, and the page is its channel.
      if (
        e.name === 'notification.posted' &&
        typeof Notification !== 'undefined' &&
        Notification.permission === 'granted'
      ) {
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

  // The skip link moves focus into the view without touching the hash, which holds the route.
  const skipToMain = (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    mainRef.current?.focus({ preventScroll: true });
  };

  // A view chosen in the navigation takes the focus, so its keys (the inbox's arrows, Enter and r) work at once
  // and the next Tab goes into it; the link's own navigation still changes the hash.
  const focusView = () => mainRef.current?.focus({ preventScroll: true });

  const current = VIEWS.find((v) => v.id === view) ?? VIEWS[0];
  return (
    <div className="frame">
      <a className="skip-link" href="#content" onClick={skipToMain}>
        Skip to main content
      </a>
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◎
          </span>
          <span className="brand-name">Lotwatch</span>
        </div>
        <ul>
          {VIEWS.map((v, i) => {
            const here = v.id === view && !lotKey;
            const count = v.id === 'alerts' && unread ? unread : 0;
            return (
              <li key={v.id}>
                <a
                  href={viewHref(v.id)}
                  className={here ? 'nav-item active' : 'nav-item'}
                  aria-current={here ? 'page' : undefined}
                  aria-label={count ? `${v.label}, ${count} unread` : v.label}
                  title={`${v.label} (Ctrl+${(i + 1) % 10})`}
                  onClick={focusView}
                >
                  <span className="nav-label">{v.label}</span>
                  <span className="nav-short" aria-hidden="true">
                    {v.short}
                  </span>
                  {count > 0 && (
                    <span className="nav-badge" aria-hidden="true">
                      {count > 999 ? '999+' : count}
                    </span>
                  )}
                </a>
              </li>
            );
          })}
        </ul>
        <div className="sidebar-foot">
          {info ? `v${info.version} · ${info.shell === 'electron' ? 'Desktop' : 'Browser'}` : '\u00a0'}
        </div>
      </nav>
      <div className="main">
        <header className="topbar">
          <h1>{lotKey ? 'Lot' : current.label}</h1>
          <span className="topbar-badges">
            <WatchingStateNotice state={watching} variant="pill" hideRunning />
            {info?.mode === 'demo' && (
              <span
                className="demo-badge"
                role="status"
                title="Lotwatch is using its built-in simulated market"
              >
                Demo mode · simulated market
              </span>
            )}
            {info?.mode === 'live' && <span className="live-badge">Live service</span>}
            <WhoAmI signOut={signOut} />
          </span>
        </header>
        {loadError && (
          <div className="banner error" role="alert">
            <strong>Lotwatch could not load.</strong> {loadError.message}
          </div>
        )}
        <main className="content" id="content" tabIndex={-1} ref={mainRef}>
          {/* The first-run panel belongs to the first screens (Search, where the app opens, and the Watchlist it
              points to), not above every view's own work. */}
          {info?.mode === 'demo' && !lotKey && (view === 'search' || view === 'watchlist') && <DemoIntro />}
          {lotKey ? <LotPage lotKey={lotKey} /> : <CurrentView view={view} store={store} />}
        </main>
        <SpendNoticeHost store={store} />
      </div>
    </div>
  );
}
