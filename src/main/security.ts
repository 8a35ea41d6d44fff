/**
 * Security rules of the Electron shell (docs/architecture.md "Conventions", Security). Pure functions, so the rules
 * are tested without Electron.
 */

/** Hosts whose https pages may be opened in the system browser (lot pages, the service's site). */
export const EXTERNAL_HOSTS = [
  'www.copart.com',
  'copart.com',
  'www.iaai.com',
  'iaai.com',
  'apibara.tech',
] as const;

export { CONTENT_SECURITY_POLICY } from '../shared/csp';

/** True when `url` may be opened externally: https and a known host (or a subdomain of one). */
export function isSafeExternalUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' || u.username || u.password) return false;
  const host = u.hostname.toLowerCase();
  return EXTERNAL_HOSTS.some((h) => host === h || host.endsWith('.' + h));
}

/**
 * True when an IPC message comes from the app's own page: the renderer file that the shell loaded
 * (`file://.../out/renderer/index.html`), or the dev server URL in development.
 */
export function isTrustedSenderUrl(senderUrl: string | undefined, appUrl: string): boolean {
  if (!senderUrl) return false;
  let s: URL;
  let a: URL;
  try {
    s = new URL(senderUrl);
    a = new URL(appUrl);
  } catch {
    return false;
  }
  if (s.protocol !== a.protocol) return false;
  if (a.protocol === 'file:') return s.pathname === a.pathname;
  return s.origin === a.origin;
}

/** True when a navigation to `url` stays on the app page (reloads and hash changes); all else is blocked. */
export function isAllowedNavigation(url: string, appUrl: string): boolean {
  return isTrustedSenderUrl(url, appUrl);
}
