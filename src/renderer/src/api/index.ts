import type { Bridge, RawBridge } from '../../../shared/ipc/bridge';
import { createHttpBridge, takePageToken, type PageWindow } from './httpBridge';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in a plain browser (headless shell). */
    api?: RawBridge;
  }
}

/**
 * The renderer's one way to reach core: `window.api` when the Electron preload provided it, the HTTP bridge
 * of the headless shell otherwise. The app's entry makes this choice once and hands the bridge to the views through
 * ApiProvider; they talk to both the same way, and learn which shell hosts them only from `app.info`
 * (docs/architecture.md "One contract, two shells"). The HTTP bridge gets the page's token (takePageToken), which
 * also takes it out of the address. The app's entry uses chooseShell (src/renderer/src/team/boot.ts), which makes
 * the same choice and also finds a team server's sign-in.
 */
export function pickBridge(
  w: { api?: RawBridge } & Partial<PageWindow> = typeof window === 'undefined' ? {} : window,
): Bridge {
  if (w.api && typeof w.api.invoke === 'function' && typeof w.api.on === 'function') {
    return w.api as unknown as Bridge;
  }
  // The headless shell: the token comes once in the page address and is kept in this tab's sessionStorage.
  const page = w.location && w.sessionStorage && w.history ? (w as PageWindow) : undefined;
  return createHttpBridge({ token: takePageToken(page) });
}

/**
 * True when this page is the browser shell's and has no token: it was opened without the printed address (a typed
 * address, a bookmark, a new tab), so every call would be refused. The app's entry then shows what to open instead.
 */
export function tokenMissing(
  w: { api?: RawBridge } & Partial<PageWindow> = typeof window === 'undefined' ? {} : window,
): boolean {
  if (w.api && typeof w.api.invoke === 'function') return false;
  const page = w.location && w.sessionStorage && w.history ? (w as PageWindow) : undefined;
  return takePageToken(page) === null;
}
