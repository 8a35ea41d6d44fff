import { createStore, type StoreApi } from 'zustand/vanilla';
import type { TeamSessionHooks } from '../api/httpBridge';
import { RoleSchema } from '../../../shared/team';
import type { TeamUser } from '../../../shared/ipc/contract/team';

/** `GET /auth/session` of a team server: who is signed in on this browser, and the session's CSRF string. */
export interface TeamSessionAnswer {
  user: TeamUser | null;
  csrf: string | null;
}

/** How the page reaches the team server's sign-in routes (tests pass their own fetch and address). */
export interface AuthFetchOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
}

/** A sign-in's outcome, as the sign-in screen says it. */
export type SignInOutcome =
  | { ok: true; user: TeamUser; csrf: string }
  /** Any wrong login or password (one answer for both, so the page never tells which logins exist). */
  | { ok: false; reason: 'wrong' }
  /** Too many failed sign-ins: the server takes the next one after `retryAfterS` seconds. */
  | { ok: false; reason: 'throttled'; retryAfterS: number }
  /** The server did not answer. */
  | { ok: false; reason: 'unreachable' }
  /** Any other refusal, with the server's message. */
  | { ok: false; reason: 'other'; message: string };

const fetcher = (o: AuthFetchOptions) => o.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));

/** The member of an answer when it has the shape of one (id, login, name, role), else null. */
function asUser(v: unknown): TeamUser | null {
  if (!v || typeof v !== 'object') return null;
  const u = v as Record<string, unknown>;
  const role = RoleSchema.safeParse(u['role']);
  if (typeof u['id'] !== 'number' || typeof u['login'] !== 'string' || !role.success) return null;
  return {
    id: u['id'],
    login: u['login'],
    name: typeof u['name'] === 'string' ? u['name'] : u['login'],
    role: role.data,
  };
}

/**
 * Asks the page's own server whether it is a team server (`GET /auth/session`, same origin, the session cookie
 * if there is one). The browser shell starts with this, before any call to core, when its page has no token.
 * @returns the session (its member, or null before anyone signed in) when the answer is 200 with `team: true`;
 *   null for anything else (404 or 401 from a single-user Lotwatch, no JSON, `team: false`, no answer), and the
 *   page then behaves exactly as it always has. Throws nothing.
 */
export async function readTeamSession(opts: AuthFetchOptions = {}): Promise<TeamSessionAnswer | null> {
  try {
    const res = await fetcher(opts)(`${opts.baseUrl ?? ''}/auth/session`, {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
      cache: 'no-store',
    });
    if (res.status !== 200) return null;
    const body = (await res.json()) as Record<string, unknown> | null;
    if (body?.['team'] !== true) return null;
    const user = asUser(body['user']);
    const csrf = typeof body['csrf'] === 'string' ? body['csrf'] : null;
    return { user: user && csrf ? user : null, csrf: user ? csrf : null };
  } catch {
    return null;
  }
}

/** Seconds to wait from a 429: its body's `retry_after_s`, else its Retry-After header, else a minute. */
async function retryAfter(res: Response): Promise<number> {
  try {
    const body = (await res.json()) as { retry_after_s?: unknown };
    if (typeof body.retry_after_s === 'number' && body.retry_after_s > 0)
      return Math.ceil(body.retry_after_s);
  } catch {
    // No JSON body: the header below.
  }
  const header = Number(res.headers.get('retry-after'));
  return Number.isFinite(header) && header > 0 ? Math.ceil(header) : 60;
}

/**
 * Signs in on the team server (`POST /auth/login {login, password}`): 200 sets the session cookie and answers the
 * member and the CSRF string; 401 is a wrong login or password (never which); 429 says how long to wait.
 * Throws nothing: every failure is an outcome.
 */
export async function signInRequest(
  login: string,
  password: string,
  opts: AuthFetchOptions = {},
): Promise<SignInOutcome> {
  let res: Response;
  try {
    res = await fetcher(opts)(`${opts.baseUrl ?? ''}/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify({ login, password }),
    });
  } catch {
    return { ok: false, reason: 'unreachable' };
  }
  if (res.status === 401) return { ok: false, reason: 'wrong' };
  if (res.status === 429) return { ok: false, reason: 'throttled', retryAfterS: await retryAfter(res) };
  let body: Record<string, unknown> | null = null;
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    // Not JSON: said below with the status.
  }
  const user = asUser(body?.['user']);
  const csrf = body?.['csrf'];
  if (res.ok && user && typeof csrf === 'string') return { ok: true, user, csrf };
  const error = body?.['error'] as { message?: unknown } | undefined;
  const message =
    typeof error?.message === 'string'
      ? error.message
      : typeof body?.['message'] === 'string'
        ? body['message']
        : null;
  return {
    ok: false,
    reason: 'other',
    message: message ?? `The team server answered with status ${res.status}. Try again in a moment.`,
  };
}

/**
 * Signs out on the team server (`POST /auth/logout`, with the CSRF string): the server forgets the session. Throws
 * nothing; the page shows the sign-in whatever the answer, and a session the server could not end expires there.
 */
export async function signOutRequest(csrf: string | null, opts: AuthFetchOptions = {}): Promise<void> {
  try {
    await fetcher(opts)(`${opts.baseUrl ?? ''}/auth/logout`, {
      method: 'POST',
      headers: { Accept: 'application/json', ...(csrf ? { 'X-CSRF-Token': csrf } : {}) },
      credentials: 'same-origin',
    });
  } catch {
    // Unreachable: the page signs out all the same.
  }
}

/**
 * Where a browser tab stands with its team server:
 * - `signed-out`: nobody signed in (the first visit, or after Sign out): only the sign-in screen shows;
 * - `signed-in`: the app shows, for `user`;
 * - `ended`: a call answered 401 (the session expired, was ended elsewhere, or the member was disabled): the
 *   sign-in shows over the app, which stays as it was underneath, so what was typed is still there.
 * `appKey` names the app instance on screen (null: none): it changes when another member signs in, so nobody
 * sees the screens, settings or inbox of the member before them.
 */
export interface TeamSessionState {
  phase: 'signed-out' | 'signed-in' | 'ended';
  /** The signed-in member; while `ended`, the member whose session ended. */
  user: TeamUser | null;
  csrf: string | null;
  appKey: number | null;
}

/** A tab's team session: its state, the hooks the HTTP bridge calls, and signing in and out. */
export interface TeamSession {
  store: StoreApi<TeamSessionState>;
  hooks: TeamSessionHooks;
  /** Signs in (signInRequest); on success the app shows (the same one again after an ended session). */
  signIn(login: string, password: string): Promise<SignInOutcome>;
  /** Signs out on the server, then shows the sign-in screen with no app behind it. Never rejects. */
  signOut(): Promise<void>;
}

/**
 * The team session of this tab, from the answer of readTeamSession. Its hooks are what createHttpBridge's `team`
 * option takes: the current CSRF string, and on a 401 the `ended` phase and a promise that resolves once someone
 * signed in (true when it is the same member).
 */
export function createTeamSession(initial: TeamSessionAnswer, opts: AuthFetchOptions = {}): TeamSession {
  let counter = initial.user ? 1 : 0;
  const store = createStore<TeamSessionState>(() => ({
    phase: initial.user ? 'signed-in' : 'signed-out',
    user: initial.user,
    csrf: initial.csrf,
    appKey: initial.user ? 1 : null,
  }));

  const signedIn = (user: TeamUser, csrf: string) => {
    const s = store.getState();
    // The same member back after an ended session keeps the app as it was; anyone else gets a fresh one.
    const same = s.phase === 'ended' && s.user?.id === user.id && s.appKey !== null;
    store.setState({ phase: 'signed-in', user, csrf, appKey: same ? s.appKey : ++counter });
  };

  const hooks: TeamSessionHooks = {
    csrf: () => store.getState().csrf,
    sessionEnded() {
      const s = store.getState();
      if (s.phase === 'signed-in') store.setState({ phase: 'ended', csrf: null });
      const before = s.phase === 'signed-out' ? null : (s.user?.id ?? null);
      return new Promise<boolean>((resolve) => {
        const stop = store.subscribe((now) => {
          if (now.phase !== 'signed-in') return;
          stop();
          resolve(before !== null && now.user?.id === before);
        });
      });
    },
  };

  return {
    store,
    hooks,
    async signIn(login, password) {
      const outcome = await signInRequest(login, password, opts);
      if (outcome.ok) signedIn(outcome.user, outcome.csrf);
      return outcome;
    },
    async signOut() {
      await signOutRequest(store.getState().csrf, opts);
      store.setState({ phase: 'signed-out', user: null, csrf: null, appKey: null });
    },
  };
}
