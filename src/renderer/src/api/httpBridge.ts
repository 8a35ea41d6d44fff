import type { Bridge } from '../../../shared/ipc/bridge';
import type { ContractEvent } from '../../../shared/ipc/contract';
import type { Result } from '../../../shared/ipc/errors';
import { sseReader } from '../../../shared/sse';
import { namesAction } from '../lib/messages';

/** Where the page keeps the headless shell's token: sessionStorage, this tab and this origin (host and port) only. */
export const TOKEN_STORAGE_KEY = 'lotwatch.token';

/** The parts of `window` the token hand-over uses (tests pass their own). */
export interface PageWindow {
  location: { href: string };
  sessionStorage: Pick<Storage, 'getItem' | 'setItem'>;
  history: Pick<History, 'replaceState' | 'state'>;
}

/**
 * Takes the headless shell's token from the page address (`?token=...`, the address `npm run serve` printed) into
 * sessionStorage and removes it from the address and the tab's history entry (history.replaceState), so it is not in
 * a bookmark, a screenshot of the address bar or a link copied from it. Never a cookie: a browser sends a host's
 * cookies to every port on it, so every other local web server would receive it (docs/architecture.md "One
 * contract, two shells"). sessionStorage belongs to this origin only and survives a reload of the tab.
 * @returns the token, or null when the page was opened without one (its calls then answer `unauthorized`, which says
 *   to open the printed address). Throws nothing (storage refused: the token is used for this page load only).
 */
export function takePageToken(
  w: PageWindow | undefined = typeof window === 'undefined' ? undefined : window,
): string | null {
  if (!w) return null;
  const url = new URL(w.location.href);
  const fromAddress = url.searchParams.get('token');
  if (fromAddress === null) {
    try {
      return w.sessionStorage.getItem(TOKEN_STORAGE_KEY);
    } catch {
      return null;
    }
  }
  try {
    w.sessionStorage.setItem(TOKEN_STORAGE_KEY, fromAddress);
  } catch {
    // Storage refused (a privacy setting): this load works, a reload asks for the printed address again.
  }
  url.searchParams.delete('token');
  w.history.replaceState(w.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return fromAddress;
}

/**
 * What the HTTP bridge needs from a team server's sign-in (team mode, src/renderer/src/team/session.ts): the
 * session's CSRF string and what to do when the session ends.
 */
export interface TeamSessionHooks {
  /** The signed-in session's CSRF string: sent as `X-CSRF-Token` on every call and as `?csrf=` on the stream. */
  csrf(): string | null;
  /**
   * Called on every 401 (the session ended: signed out elsewhere, expired, or an admin disabled the member). Shows
   * the sign-in again and resolves once someone has signed in: true for the same member, so the refused call is
   * sent again (a 401 means the server did nothing), false for another member (the call answers `unauthorized`;
   * the app starts afresh for them).
   */
  sessionEnded(): Promise<boolean>;
}

/** Said when a call was refused because the session ended and someone else signed in before it could be sent again. */
const SESSION_CHANGED =
  'This was not done: you were signed out, and someone else has signed in since. Do it again if you still need it.';

/** Said after a team server's 403 whose message names no next step (a role the member does not have). */
const ASK_ADMIN = 'Ask an admin of your team if you need to do this.';

/** Waits before the event stream is opened again after it ended or failed: 1 s, doubling, at most 30 s. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/**
 * The headless shell's side of the contract: `POST /rpc/<method>` with the input as the JSON body, and one shared
 * event stream on `GET /events` (Server-Sent Events, read with fetch so it can carry the token's header, which an
 * EventSource cannot). Both send the token as `Authorization: Bearer <token>`. The stream is opened again after it
 * ends or fails (1 s, doubling to 30 s), except after a 401 (a restarted Lotwatch has another token: only the printed
 * address helps). Network failures of a call resolve to a `network` error, never reject.
 *
 * On a team server (`opts.team`) there is no token: the browser sends the session cookie (same origin only) and
 * the bridge adds `X-CSRF-Token` to every call and `?csrf=` (and the header) to the stream. A 401 there means the
 * session ended: the bridge hands it to `team.sessionEnded()` (the sign-in shows again) and sends the call again
 * once the same member is back, so nothing typed or asked for is lost. A 403 is a role the member lacks: its typed
 * `forbidden` envelope is returned as it is, with a pointer to the team's admin when its message names no step.
 * @param opts.token the page's token (takePageToken); none: calls go without it and answer `unauthorized`.
 * @param opts.team the team session's hooks; absent: the single-user token flow, exactly as before teams.
 */
export function createHttpBridge(
  opts: {
    baseUrl?: string;
    token?: string | null;
    fetch?: typeof fetch;
    /** Timer for the stream's reconnect waits (tests pass fake timers). */
    setTimeout?: (fn: () => void, ms: number) => unknown;
    team?: TeamSessionHooks;
  } = {},
): Bridge {
  const base = opts.baseUrl ?? '';
  const doFetch = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const wait = opts.setTimeout ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const team = opts.team;
  const bearer: Record<string, string> = opts.token && !team ? { Authorization: `Bearer ${opts.token}` } : {};
  /** The headers that say who is calling: the token's, or on a team the session's CSRF string. */
  const auth = (): Record<string, string> => {
    const csrf = team?.csrf();
    return csrf ? { 'X-CSRF-Token': csrf } : bearer;
  };
  /** Only a team server's session cookie goes with a call; the single-user page never sends cookies. */
  const credentials: RequestCredentials = team ? 'same-origin' : 'omit';
  const listeners = new Set<(e: ContractEvent) => void>();
  let stream: AbortController | undefined;

  /**
   * Reads the event stream until it ends. `again`: it may be opened again (not refused, not closed by the page);
   * `opened`: it was open, so the next wait starts from the first again.
   */
  const readOnce = async (
    signal: AbortSignal,
  ): Promise<{ again: boolean; opened: boolean; now?: boolean }> => {
    let res: Response;
    const csrf = team?.csrf();
    if (team && csrf === null) {
      // The sign-in shows: the stream waits for it, then opens at once with the new session.
      await team.sessionEnded();
      return { again: !signal.aborted, opened: true, now: true };
    }
    try {
      res = await doFetch(`${base}/events${csrf ? `?csrf=${encodeURIComponent(csrf)}` : ''}`, {
        headers: { ...auth(), Accept: 'text/event-stream' },
        cache: 'no-store',
        credentials,
        signal,
      });
    } catch {
      return { again: !signal.aborted, opened: false };
    }
    if (team && res.status === 401) {
      // The session ended (unless it was replaced since this was sent): open the stream again at once, with the
      // new CSRF string, once someone signed in.
      const current = team.csrf();
      if (current === null || current === csrf) await team.sessionEnded();
      return { again: !signal.aborted, opened: true, now: true };
    }
    if (res.status === 401 || res.status === 403) return { again: false, opened: false };
    if (!res.ok || !res.body) return { again: !signal.aborted, opened: false };
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    const read = sseReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const event of read(decoder.decode(value, { stream: true })))
          for (const l of listeners) l(event);
      }
    } catch {
      // The connection broke (Lotwatch stopped, the machine slept): opened again below.
    }
    return { again: !signal.aborted, opened: true };
  };

  const openStream = () => {
    if (stream) return;
    const controller = new AbortController();
    stream = controller;
    void (async () => {
      let delay = RETRY_FIRST_MS;
      for (;;) {
        const { again, opened, now } = await readOnce(controller.signal);
        if (!again) return;
        if (now) continue;
        if (opened) delay = RETRY_FIRST_MS;
        await new Promise<void>((resolve) => wait(resolve, delay));
        if (controller.signal.aborted) return;
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      }
    })();
  };

  return {
    async invoke(method, input) {
      let res: Response;
      for (;;) {
        // While the sign-in shows, a call waits for it rather than going out without a session.
        if (team && team.csrf() === null && !(await team.sessionEnded())) {
          return { ok: false, error: { code: 'unauthorized', message: SESSION_CHANGED, retryable: false } };
        }
        const sent = team?.csrf();
        try {
          res = await doFetch(`${base}/rpc/${encodeURIComponent(method)}`, {
            method: 'POST',
            headers: { ...auth(), 'Content-Type': 'application/json' },
            credentials,
            body: input === undefined ? '' : JSON.stringify(input),
          });
        } catch {
          return {
            ok: false,
            error: {
              code: 'network',
              message: team
                ? 'The team server is not reachable. Check the connection, then try again.'
                : 'Lotwatch is not reachable. Is `npm run serve` still running?',
              retryable: true,
            },
          };
        }
        if (!team || res.status !== 401) break;
        // Refused for a session that has been replaced since it was sent: send it again with the new one.
        const current = team.csrf();
        if (current !== null && current !== sent) continue;
        // The server refused before doing anything: send the same call again once the same member is back.
        if (!(await team.sessionEnded())) {
          return { ok: false, error: { code: 'unauthorized', message: SESSION_CHANGED, retryable: false } };
        }
      }
      try {
        const answer = (await res.json()) as Result<never>;
        if (team && res.status === 403 && !answer.ok && !namesAction(answer.error.message)) {
          return { ok: false, error: { ...answer.error, message: `${answer.error.message} ${ASK_ADMIN}` } };
        }
        return answer;
      } catch {
        return {
          ok: false,
          error: {
            code: res.status === 401 ? 'unauthorized' : 'bad_response',
            message:
              res.status === 401
                ? 'This page has lost its token. Open the address printed by `npm run serve` again.'
                : `Lotwatch answered with status ${res.status} and no readable body.`,
            retryable: false,
          },
        };
      }
    },
    on(listener) {
      listeners.add(listener);
      openStream();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && stream) {
          stream.abort();
          stream = undefined;
        }
      };
    },
  };
}
