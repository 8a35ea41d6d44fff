import { lazy, Suspense, type ReactNode } from 'react';
import type { AppStore, ViewId } from './appStore';

// Each view loads on demand: the first paint needs only the frame and the view the user opens, not the charts of
// Usage or the table code of Search. The named exports are mapped to the default export React.lazy expects.
const SearchView = lazy(() =>
  import('../features/search/SearchView').then((m) => ({ default: m.SearchView })),
);
const WatchlistView = lazy(() =>
  import('../features/watchlist/WatchlistView').then((m) => ({ default: m.WatchlistView })),
);
const PlanView = lazy(() => import('../features/plan/PlanView').then((m) => ({ default: m.PlanView })));
const SavedSearchesView = lazy(() =>
  import('../features/saved/SavedSearchesView').then((m) => ({ default: m.SavedSearchesView })),
);
const AlertsView = lazy(() =>
  import('../features/alerts/AlertsView').then((m) => ({ default: m.AlertsView })),
);
const LibraryView = lazy(() =>
  import('../features/library/LibraryView').then((m) => ({ default: m.LibraryView })),
);
const LocationsView = lazy(() =>
  import('../features/locations/LocationsView').then((m) => ({ default: m.LocationsView })),
);
const UsageView = lazy(() => import('../features/usage/UsageView').then((m) => ({ default: m.UsageView })));
const ConsoleView = lazy(() =>
  import('../features/console/ConsoleView').then((m) => ({ default: m.ConsoleView })),
);
const SettingsView = lazy(() =>
  import('../features/settings/SettingsView').then((m) => ({ default: m.SettingsView })),
);
const LotView = lazy(() => import('../features/lot/LotView').then((m) => ({ default: m.LotView })));

/**
 * What shows while a view's code loads (a moment on first open, then never again): a polite status, so a screen
 * reader hears that something is on its way and the layout does not jump.
 */
export function ViewLoading() {
  return (
    <div className="view-loading" role="status" aria-live="polite">
      Loading…
    </div>
  );
}

function Loaded({ children }: { children: ReactNode }) {
  return <Suspense fallback={<ViewLoading />}>{children}</Suspense>;
}

/** The view the navigation points at, loaded on demand. */
export function CurrentView({ view, store }: { view: ViewId; store: AppStore }) {
  return <Loaded>{viewElement(view, store)}</Loaded>;
}

/** One lot's detail page (from a search row, an alert, a watch or a notification), loaded on demand. */
export function LotPage({ lotKey }: { lotKey: string }) {
  return (
    <Loaded>
      <LotView key={lotKey} lotKey={lotKey} />
    </Loaded>
  );
}

function viewElement(view: ViewId, store: AppStore) {
  switch (view) {
    case 'search':
      return <SearchView store={store} />;
    case 'watchlist':
      return <WatchlistView />;
    case 'plan':
      return <PlanView />;
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
