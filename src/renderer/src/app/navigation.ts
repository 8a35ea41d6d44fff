import { isViewId, type ViewId } from './appStore';

/**
 * Where the app is, kept in the URL hash (`#/alerts`, `#/lot/copart%3A45416833`) so a reload, the Back button and
 * a notification's click all land on the same screen. Views move the user through these functions and never
 * import the app frame, which imports the views.
 */
export type Route = { kind: 'view'; view: ViewId } | { kind: 'lot'; lotKey: string };

/** The link to a lot's detail page, for an `href` that also opens in the same way when clicked. */
export function lotHref(lotKey: string): string {
  return `#/lot/${encodeURIComponent(lotKey)}`;
}

/** The link to one of the app's views (a navigation entry, a "Open Saved searches" link). */
export function viewHref(view: ViewId): string {
  return `#/${view}`;
}

/** Opens a lot in the detail view: from a search row, an alert, a watch, a related-lot card or a notification. */
export function openLot(lotKey: string): void {
  location.hash = lotHref(lotKey);
}

/** Opens one of the app's views, as its navigation link or its Ctrl+number shortcut does. */
export function openView(view: ViewId): void {
  location.hash = viewHref(view);
}

/** Reads a hash as a route; null for a hash that names nothing (the app then stays where it is). */
export function parseRoute(hash: string): Route | null {
  const id = hash.replace(/^#\/?/, '');
  const lot = /^lot\/(.+)$/.exec(id);
  if (lot?.[1]) {
    try {
      return { kind: 'lot', lotKey: decodeURIComponent(lot[1]) };
    } catch {
      return null;
    }
  }
  return isViewId(id) ? { kind: 'view', view: id } : null;
}

/**
 * Calls `listener` with the current route now and on every change of the hash; returns the function that stops
 * listening. The app frame follows the route through this, so a link anywhere moves the whole app.
 */
export function followRoute(listener: (route: Route | null) => void): () => void {
  const fire = () => listener(parseRoute(location.hash));
  fire();
  window.addEventListener('hashchange', fire);
  return () => window.removeEventListener('hashchange', fire);
}
