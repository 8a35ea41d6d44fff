import type { Bridge, RawBridge } from '../../../shared/ipc/bridge';
import { createHttpBridge, takePageToken, type PageWindow } from '../api/httpBridge';
import { createTeamSession, readTeamSession, type AuthFetchOptions, type TeamSession } from './session';

/**
 * How this page reaches core:
 * - `desktop`: the Electron preload's bridge (no sign-in; the desktop app is unchanged);
 * - `single`: the single-user headless shell, with the page's token (`tokenMissing`: opened without it);
 * - `team`: a team server: no token, a session cookie and its CSRF string, the sign-in screen when nobody is
 *   signed in.
 */
export type Boot =
  | { kind: 'desktop'; api: Bridge }
  | { kind: 'single'; api: Bridge; tokenMissing: boolean }
  | { kind: 'team'; api: Bridge; session: TeamSession };

/**
 * Chooses the page's way to core once, at start. The desktop app's preload wins without a question. In a browser
 * the token leaves the address first (takePageToken). A page with a token is the single-user shell's (a team
 * server prints no token), so it starts at once, exactly as before teams, without a request its server would
 * refuse (and the browser would log). A page without one asks `GET /auth/session` whether this is a team server;
 * any answer but a team's (a 401 or 404 from a single-user Lotwatch, no answer) keeps the single-user flow, which
 * then says to open the printed address. Throws nothing.
 */
export async function chooseShell(
  w: { api?: RawBridge } & Partial<PageWindow> = typeof window === 'undefined' ? {} : window,
  opts: AuthFetchOptions = {},
): Promise<Boot> {
  if (w.api && typeof w.api.invoke === 'function' && typeof w.api.on === 'function') {
    return { kind: 'desktop', api: w.api as unknown as Bridge };
  }
  const page = w.location && w.sessionStorage && w.history ? (w as PageWindow) : undefined;
  const token = takePageToken(page);
  const answer = token === null ? await readTeamSession(opts) : null;
  if (answer) {
    const session = createTeamSession(answer, opts);
    const api = createHttpBridge({ baseUrl: opts.baseUrl, fetch: opts.fetch, team: session.hooks });
    return { kind: 'team', api, session };
  }
  return {
    kind: 'single',
    api: createHttpBridge({ baseUrl: opts.baseUrl, fetch: opts.fetch, token }),
    tokenMissing: token === null,
  };
}
