// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignIn, WRONG_SIGN_IN, waitWords } from '../../src/renderer/src/team/SignIn';
import type { SignInOutcome } from '../../src/renderer/src/team/session';
import { createTeamSession } from '../../src/renderer/src/team/session';
import { createHttpBridge } from '../../src/renderer/src/api/httpBridge';
import { TeamShell } from '../../src/renderer/src/team/TeamShell';
import type { TeamUser } from '../../src/shared/ipc/contract/team';
import { createFakeBridge } from './fakeBridge';
import type { Method } from '../../src/shared/ipc/contract';

const DANA: TeamUser = { id: 2, login: 'dana', name: 'Dana Lee', role: 'buyer' };

beforeEach(() => {
  window.location.hash = '';
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/**
 * Presses Enter in a field as a browser does (HTML "implicit submission", which jsdom does not do by itself): the
 * field's form is submitted through its default button, and only when that button can be pressed.
 */
function pressEnter(field: HTMLElement) {
  const form = (field as HTMLInputElement).form;
  const button = form?.querySelector<HTMLButtonElement>('button[type="submit"], input[type="submit"]');
  expect(form, 'the field is in a form').toBeTruthy();
  if (form && button && !button.disabled) act(() => form.requestSubmit(button));
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('Sign-in screen', () => {
  it('starts on the login, labels its fields, and Enter in the password signs in', async () => {
    const signIn = vi.fn(async (): Promise<SignInOutcome> => ({ ok: true, user: DANA, csrf: 'c' }));
    render(<SignIn signIn={signIn} />);
    expect(screen.getByRole('heading', { level: 1, name: /Sign in to Lotwatch/ })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Login'));
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(screen.getByLabelText('Login').getAttribute('autocomplete')).toBe('username');
    type('Login', ' dana ');
    type('Password', 'correct horse battery');
    pressEnter(screen.getByLabelText('Password'));
    await waitFor(() => expect(signIn).toHaveBeenCalledWith('dana', 'correct horse battery'));
  });

  it('says a wrong login or password in one uniform text, keeps the login and asks the password again', async () => {
    const signIn = vi.fn(async (): Promise<SignInOutcome> => ({ ok: false, reason: 'wrong' }));
    render(<SignIn signIn={signIn} />);
    type('Login', 'dana');
    type('Password', 'wrong one');
    pressEnter(screen.getByLabelText('Login'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('The login or the password is not right. Check both, then sign in again.');
    expect(alert.textContent).toBe(WRONG_SIGN_IN);
    expect((screen.getByLabelText('Login') as HTMLInputElement).value).toBe('dana');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Password')));
    // Nothing is sent without a password: Enter moves there instead.
    pressEnter(screen.getByLabelText('Login'));
    expect(signIn).toHaveBeenCalledTimes(1);
  });

  it('says how long to wait after too many failures, counts down, and takes no sign-in until then', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: Date.UTC(2026, 10, 27, 9) });
    const outcomes: SignInOutcome[] = [
      { ok: false, reason: 'throttled', retryAfterS: 3 },
      { ok: true, user: DANA, csrf: 'c' },
    ];
    const signIn = vi.fn(async () => outcomes.shift()!);
    render(<SignIn signIn={signIn} />);
    type('Login', 'dana');
    type('Password', 'guess 1');
    pressEnter(screen.getByLabelText('Password'));
    await act(async () => {});
    expect(screen.getByRole('alert').textContent).toBe(
      'Too many sign-ins failed. Wait 3 seconds, then sign in again.',
    );
    const button = screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    type('Password', 'correct horse battery');
    pressEnter(screen.getByLabelText('Password'));
    expect(signIn).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('alert').textContent).toMatch(/Wait 2 seconds/);
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.getByRole('alert').textContent).toBe(
      'Too many sign-ins failed. You can sign in again now.',
    );
    expect(button.disabled).toBe(false);
    pressEnter(screen.getByLabelText('Password'));
    await act(async () => {});
    expect(signIn).toHaveBeenCalledTimes(2);
  });

  it('says long waits in minutes', () => {
    expect(waitWords(1)).toBe('Wait 1 second');
    expect(waitWords(90)).toBe('Wait 90 seconds');
    expect(waitWords(900)).toBe('Wait 15 minutes');
  });
});

/** A team server for the page: its sign-in routes and its /rpc over a fake core; `expire()` ends the session. */
function teamServer(handlers: Parameters<typeof createFakeBridge>[0] = {}) {
  const core = createFakeBridge(handlers);
  let live: string | null = null;
  let n = 0;
  const rpcSeen: string[] = [];
  const fetch = (async (url: string, init: RequestInit = {}) => {
    const reply = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
    if (url === '/auth/login') {
      const { password } = JSON.parse(String(init.body)) as { password: string };
      if (password !== 'correct horse battery') return reply({ ok: false }, 401);
      live = `csrf-${++n}`;
      return reply({ user: DANA, csrf: live });
    }
    if (url === '/auth/logout') {
      live = null;
      return reply({ ok: true });
    }
    if (url.startsWith('/events'))
      return new Response(
        new ReadableStream({
          start(c) {
            init.signal?.addEventListener('abort', () => c.error(new DOMException('aborted', 'AbortError')));
          },
        }),
      );
    const method = decodeURIComponent(url.replace('/rpc/', '')) as Method;
    rpcSeen.push(method);
    const csrf = (init.headers as Record<string, string>)['X-CSRF-Token'];
    if (!live || csrf !== live)
      return reply({ ok: false, error: { code: 'unauthorized', message: 'Sign in.' } }, 401);
    const body = init.body ? (JSON.parse(String(init.body)) as never) : undefined;
    return reply(await core.bridge.invoke(method, body));
  }) as unknown as typeof globalThis.fetch;
  return {
    fetch,
    rpcSeen,
    signInNow: () => (live = `csrf-${++n}`),
    expire: () => (live = null),
  };
}

describe('the team page', () => {
  it('shows only the sign-in until someone signs in, then the app with who is signed in', async () => {
    const server = teamServer({
      handlers: { 'team.me': () => ({ ok: true, value: { team: true, user: DANA } }) },
    });
    const session = createTeamSession({ user: null, csrf: null }, { fetch: server.fetch });
    const api = createHttpBridge({ fetch: server.fetch, team: session.hooks });
    render(<TeamShell api={api} session={session} />);
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(server.rpcSeen).toEqual([]);
    type('Login', 'dana');
    type('Password', 'correct horse battery');
    pressEnter(screen.getByLabelText('Password'));
    const menu = await screen.findByRole('button', { name: 'Signed in as Dana Lee (dana), Buyer' });
    expect(menu.textContent).toContain('Dana Lee');
    expect(menu.textContent).toContain('Buyer');
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it('a 401 shows the sign-in over the app, which keeps what was typed; Sign out leaves no app', async () => {
    const server = teamServer();
    server.signInNow();
    const session = createTeamSession({ user: DANA, csrf: 'csrf-1' }, { fetch: server.fetch });
    const api = createHttpBridge({ fetch: server.fetch, team: session.hooks });
    window.location.hash = '#/watchlist';
    render(<TeamShell api={api} session={session} />);
    const target = (await screen.findByLabelText(
      /VIN, lot number or lot-page URL/,
      {},
      { timeout: 5000 },
    )) as HTMLInputElement;
    fireEvent.change(target, { target: { value: '1HGCM82633A004352' } });

    // The session ends on the server: the next call answers 401.
    server.expire();
    act(() => {
      void api.invoke('alerts.unread');
    });
    const dialog = await screen.findByText(/Your session ended/);
    const card = dialog.closest('form')!;
    expect((within(card).getByLabelText('Login') as HTMLInputElement).value).toBe('dana');
    await waitFor(() => expect(document.activeElement).toBe(within(card).getByLabelText('Password')));
    // The app is still there underneath, inert, with the VIN as typed.
    expect(target.isConnected).toBe(true);
    expect(target.closest('[inert]')).toBeTruthy();

    fireEvent.change(within(card).getByLabelText('Password'), { target: { value: 'correct horse battery' } });
    pressEnter(within(card).getByLabelText('Password'));
    await waitFor(() => expect(screen.queryByText(/Your session ended/)).toBeNull());
    expect(target.isConnected).toBe(true);
    expect(target.value).toBe('1HGCM82633A004352');
    expect(target.closest('[inert]')).toBeNull();

    // Sign out: the sign-in screen, and nothing of the app behind it.
    fireEvent.click(screen.getByRole('button', { name: /Signed in as Dana Lee/ }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await screen.findByText(/Sign in with the login and password/);
    expect(target.isConnected).toBe(false);
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect((screen.getByLabelText('Login') as HTMLInputElement).value).toBe('');
  });
});
