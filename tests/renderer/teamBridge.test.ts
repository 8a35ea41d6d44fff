import { describe, expect, it, vi } from 'vitest';
import { createHttpBridge, TOKEN_STORAGE_KEY } from '../../src/renderer/src/api/httpBridge';
import { chooseShell } from '../../src/renderer/src/team/boot';
import { createTeamSession, readTeamSession, signInRequest } from '../../src/renderer/src/team/session';
import type { TeamUser } from '../../src/shared/ipc/contract/team';

const DANA: TeamUser = { id: 2, login: 'dana', name: 'Dana Lee', role: 'buyer' };
const SAM: TeamUser = { id: 3, login: 'sam', name: 'Sam Ortiz', role: 'viewer' };

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The requests a fake fetch received: address, headers (as a plain object) and credentials mode. */
function recorder(answer: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const seen: {
    url: string;
    headers: Record<string, string>;
    credentials?: RequestCredentials;
    body?: unknown;
  }[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    seen.push({
      url,
      headers: { ...(init.headers as Record<string, string>) },
      credentials: init.credentials,
      body: init.body,
    });
    return answer(url, init);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, seen };
}

describe('the HTTP bridge on a team server', () => {
  it('sends X-CSRF-Token and the session cookie (same origin) on every call, never a Bearer token', async () => {
    const { fetch, seen } = recorder(() => json({ ok: true, value: {} }));
    const session = createTeamSession({ user: DANA, csrf: 'csrf-1' });
    const b = createHttpBridge({ fetch, token: 'stale-token', team: session.hooks });
    await b.invoke('app.info');
    await b.invoke('settings.update', { theme: 'dark' });
    expect(seen.map((s) => s.url)).toEqual(['/rpc/app.info', '/rpc/settings.update']);
    for (const s of seen) {
      expect(s.headers['X-CSRF-Token']).toBe('csrf-1');
      expect(s.headers['Authorization']).toBeUndefined();
      expect(s.credentials).toBe('same-origin');
    }
  });

  it('opens the event stream with ?csrf= (and the header)', async () => {
    const { fetch, seen } = recorder(
      (_url, init) =>
        new Response(
          new ReadableStream({
            start(c) {
              init.signal?.addEventListener('abort', () =>
                c.error(new DOMException('aborted', 'AbortError')),
              );
            },
          }),
        ),
    );
    const session = createTeamSession({ user: DANA, csrf: 'a b/c' });
    const b = createHttpBridge({ fetch, team: session.hooks });
    const off = b.on(() => {});
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0]!.url).toBe('/events?csrf=a%20b%2Fc');
    expect(seen[0]!.headers['X-CSRF-Token']).toBe('a b/c');
    expect(seen[0]!.credentials).toBe('same-origin');
    off();
  });

  it('on a 401 shows the sign-in, and sends the call again with the new CSRF once the same member is back', async () => {
    let first = true;
    const { fetch, seen } = recorder((url) => {
      if (url === '/auth/login') return json({ user: DANA, csrf: 'csrf-2' });
      if (first) {
        first = false;
        return json(
          { ok: false, error: { code: 'unauthorized', message: 'Sign in.', retryable: false } },
          401,
        );
      }
      return json({ ok: true, value: { id: 7 } });
    });
    const session = createTeamSession({ user: DANA, csrf: 'csrf-1' }, { fetch });
    const b = createHttpBridge({ fetch, team: session.hooks });
    const answer = b.invoke('watchlist.add', { target: '45416833', label: '' });
    await vi.waitFor(() => expect(session.store.getState().phase).toBe('ended'));
    expect(session.store.getState().user).toEqual(DANA);
    expect(await session.signIn('dana', 'correct horse battery')).toMatchObject({ ok: true });
    expect(await answer).toEqual({ ok: true, value: { id: 7 } });
    const rpc = seen.filter((s) => s.url.startsWith('/rpc/'));
    expect(rpc.map((s) => s.headers['X-CSRF-Token'])).toEqual(['csrf-1', 'csrf-2']);
    expect(rpc[1]!.body).toBe(rpc[0]!.body);
    // The same member back keeps the app that was on screen.
    expect(session.store.getState()).toMatchObject({ phase: 'signed-in', appKey: 1 });
  });

  it('sends a call refused for a session replaced meanwhile again with the new one, and ends nothing', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const { fetch, seen } = recorder(async (url, init) => {
      if (url === '/auth/login') return json({ user: DANA, csrf: 'csrf-2' });
      const csrf = (init.headers as Record<string, string>)['X-CSRF-Token'];
      if (csrf === 'csrf-1') {
        // Answered only after the member signed in again elsewhere in the page.
        await held;
        return json(
          { ok: false, error: { code: 'unauthorized', message: 'Sign in.', retryable: false } },
          401,
        );
      }
      return json({ ok: true, value: { count: 0 } });
    });
    const session = createTeamSession({ user: DANA, csrf: 'csrf-1' }, { fetch });
    const b = createHttpBridge({ fetch, team: session.hooks });
    const answer = b.invoke('alerts.unread');
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    session.store.setState({ phase: 'ended', csrf: null });
    // While the sign-in shows, a new call waits for it instead of going out without a session.
    const waiting = b.invoke('alerts.unread');
    await session.signIn('dana', 'correct horse battery');
    release();
    expect(await answer).toEqual({ ok: true, value: { count: 0 } });
    expect(await waiting).toEqual({ ok: true, value: { count: 0 } });
    expect(seen.filter((s) => s.url.startsWith('/rpc/')).map((s) => s.headers['X-CSRF-Token'])).toEqual([
      'csrf-1',
      'csrf-2',
      'csrf-2',
    ]);
    expect(session.store.getState().phase).toBe('signed-in');
  });

  it('answers unauthorized (nothing sent again) when another member signs in after a 401', async () => {
    const { fetch, seen } = recorder((url) => {
      if (url === '/auth/login') return json({ user: SAM, csrf: 'csrf-sam' });
      return json({ ok: false, error: { code: 'unauthorized', message: 'Sign in.', retryable: false } }, 401);
    });
    const session = createTeamSession({ user: DANA, csrf: 'csrf-1' }, { fetch });
    const b = createHttpBridge({ fetch, team: session.hooks });
    const answer = b.invoke('watchlist.remove', { id: 4 });
    await vi.waitFor(() => expect(session.store.getState().phase).toBe('ended'));
    await session.signIn('sam', 'another long password');
    expect(await answer).toMatchObject({
      ok: false,
      error: { code: 'unauthorized', message: expect.stringMatching(/someone else has signed in/) },
    });
    expect(seen.filter((s) => s.url === '/rpc/watchlist.remove')).toHaveLength(1);
    // Another member gets a fresh app: nothing of Dana's screens stays on show.
    expect(session.store.getState()).toMatchObject({ phase: 'signed-in', user: SAM, appKey: 2 });
  });

  it("returns a 403's typed envelope with its message, adding who to ask only when it names no step", async () => {
    const refusals = [
      'Only a buyer or above on your team can do this; you are a viewer. Ask an admin of your team.',
      'Only a buyer can do this.',
    ];
    const { fetch } = recorder(() =>
      json({ ok: false, error: { code: 'forbidden', message: refusals.shift(), retryable: false } }, 403),
    );
    const b = createHttpBridge({ fetch, team: createTeamSession({ user: SAM, csrf: 'c' }).hooks });
    expect(await b.invoke('watchlist.add', { target: '1', label: '' })).toEqual({
      ok: false,
      error: {
        code: 'forbidden',
        message:
          'Only a buyer or above on your team can do this; you are a viewer. Ask an admin of your team.',
        retryable: false,
      },
    });
    expect(await b.invoke('watchlist.add', { target: '1', label: '' })).toMatchObject({
      ok: false,
      error: {
        code: 'forbidden',
        message: 'Only a buyer can do this. Ask an admin of your team if you need to do this.',
      },
    });
  });

  it('keeps the single-user flow as it was without a team: Bearer token, no cookies, a 401 is an answer', async () => {
    const { fetch, seen } = recorder(() =>
      json({ ok: false, error: { code: 'unauthorized', message: 'token', retryable: false } }, 401),
    );
    const b = createHttpBridge({ fetch, token: 'tok' });
    expect(await b.invoke('app.info')).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers).toMatchObject({ Authorization: 'Bearer tok' });
    expect(seen[0]!.headers['X-CSRF-Token']).toBeUndefined();
    expect(seen[0]!.credentials).toBe('omit');
  });
});

describe('the sign-in routes', () => {
  it('reads GET /auth/session: a team answer, and anything else as no team', async () => {
    const answers = [
      json({ team: true, user: DANA, csrf: 'c1' }),
      json({ team: true, user: null, csrf: null }),
      json({ ok: false, error: { code: 'not_found', message: 'no', retryable: false } }, 404),
      json({ ok: false, error: { code: 'unauthorized', message: 'token', retryable: false } }, 401),
      new Response('<html>', { status: 200 }),
      json({ team: false, user: null, csrf: null }),
    ];
    const { fetch, seen } = recorder(() => answers.shift()!);
    expect(await readTeamSession({ fetch })).toEqual({ user: DANA, csrf: 'c1' });
    expect(await readTeamSession({ fetch })).toEqual({ user: null, csrf: null });
    for (let i = 0; i < 4; i++) expect(await readTeamSession({ fetch })).toBeNull();
    expect(seen[0]).toMatchObject({ url: '/auth/session', credentials: 'same-origin' });
    const unreachable = (async () =>
      Promise.reject(new TypeError('fetch failed'))) as unknown as typeof fetch;
    expect(await readTeamSession({ fetch: unreachable })).toBeNull();
  });

  it('says a wrong login or password as one outcome, and how long to wait when throttled', async () => {
    const answers = [
      json({ ok: false, error: { code: 'unauthorized', message: 'Wrong login or password.' } }, 401),
      json({ ok: false, error: { code: 'rate_limited', message: 'Wait.' }, retry_after_s: 42 }, 429),
      new Response('', { status: 429, headers: { 'Retry-After': '7' } }),
      json({ user: DANA, csrf: 'c9' }),
    ];
    const { fetch, seen } = recorder(() => answers.shift()!);
    expect(await signInRequest('dana', 'x', { fetch })).toEqual({ ok: false, reason: 'wrong' });
    expect(await signInRequest('dana', 'x', { fetch })).toEqual({
      ok: false,
      reason: 'throttled',
      retryAfterS: 42,
    });
    expect(await signInRequest('dana', 'x', { fetch })).toMatchObject({
      reason: 'throttled',
      retryAfterS: 7,
    });
    expect(await signInRequest('dana', 'pw', { fetch })).toEqual({ ok: true, user: DANA, csrf: 'c9' });
    expect(seen[3]).toMatchObject({ url: '/auth/login', credentials: 'same-origin' });
    expect(JSON.parse(String(seen[3]!.body))).toEqual({ login: 'dana', password: 'pw' });
  });

  it('signs out with POST /auth/logout and its CSRF string, leaving no app', async () => {
    const { fetch, seen } = recorder(() => json({ ok: true }));
    const session = createTeamSession({ user: DANA, csrf: 'c1' }, { fetch });
    await session.signOut();
    expect(seen).toEqual([
      expect.objectContaining({
        url: '/auth/logout',
        headers: expect.objectContaining({ 'X-CSRF-Token': 'c1' }),
      }),
    ]);
    expect(session.store.getState()).toEqual({ phase: 'signed-out', user: null, csrf: null, appKey: null });
    expect(session.hooks.csrf()).toBeNull();
  });
});

describe('chooseShell', () => {
  const page = (href: string) => {
    const store = new Map<string, string>();
    return {
      location: { href },
      sessionStorage: {
        getItem: (k: string) => store.get(k) ?? null,
        setItem: (k: string, v: string) => void store.set(k, v),
      },
      history: { state: null, replaceState: () => {} },
      store,
    };
  };

  it('keeps the desktop bridge without asking anything', async () => {
    const { fetch, seen } = recorder(() => json({}));
    const api = { invoke: vi.fn(), on: vi.fn() };
    expect(await chooseShell({ api }, { fetch })).toEqual({ kind: 'desktop', api });
    expect(seen).toEqual([]);
  });

  it('starts a page with its token as the single-user shell, without asking /auth/session', async () => {
    const { fetch, seen } = recorder(() => json({ ok: true, value: {} }));
    const p = page('http://127.0.0.1:5190/?token=abc');
    const boot = await chooseShell(p, { fetch });
    expect(boot).toMatchObject({ kind: 'single', tokenMissing: false });
    expect(p.store.get(TOKEN_STORAGE_KEY)).toBe('abc');
    expect(seen).toEqual([]);
    await boot.api.invoke('app.info');
    expect(seen[0]!.headers).toMatchObject({ Authorization: 'Bearer abc' });
  });

  it('asks a page without a token: a team answer starts the team flow, anything else the single-user one', async () => {
    const answers = [json({ team: true, user: null, csrf: null }), json({}, 401)];
    const { fetch, seen } = recorder(() => answers.shift()!);
    const team = await chooseShell(page('https://lotwatch.example.com/'), { fetch });
    expect(team.kind).toBe('team');
    if (team.kind === 'team') expect(team.session.store.getState().phase).toBe('signed-out');
    const single = await chooseShell(page('http://127.0.0.1:5190/'), { fetch });
    expect(single).toMatchObject({ kind: 'single', tokenMissing: true });
    expect(seen.map((s) => s.url)).toEqual(['/auth/session', '/auth/session']);
  });
});
