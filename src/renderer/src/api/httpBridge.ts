import type { Bridge } from '../../../shared/ipc/bridge';
import type { ContractEvent } from '../../../shared/ipc/contract';
import type { Result } from '../../../shared/ipc/errors';

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

/** Waits before the event stream is opened again after it ended or failed: 1 s, doubling, at most 30 s. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/**
 * The headless shell's side of the contract: `POST /rpc/<method>` with the input as the JSON body, and one shared
 * event stream on `GET /events` (Server-Sent Events, read with fetch so it can carry the token's header, which an
 * EventSource cannot). Both send the token as `Authorization: Bearer <token>`. The stream is opened again after it
 * ends or fails (1 s, doubling to 30 s), except after a 401 (a restarted Lotwatch has another token: only the printed
 * address helps). Network failures of a call resolve to a `network` error, never reject.
 * @param opts.token the page's token (takePageToken); none: calls go without it and answer `unauthorized`.
 */
export function createHttpBridge(
  opts: {
    baseUrl?: string;
    token?: string | null;
    fetch?: typeof fetch;
    /** Timer for the stream's reconnect waits (tests pass fake timers). */
    setTimeout?: (fn: () => void, ms: number) => unknown;
  } = {},
): Bridge {
  const base = opts.baseUrl ?? '';
  const doFetch = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const wait = opts.setTimeout ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const auth: Record<string, string> = opts.token ? { Authorization: `Bearer ${opts.token}` } : {};
  const listeners = new Set<(e: ContractEvent) => void>();
  let stream: AbortController | undefined;

  const deliver = (block: string) => {
    const data = block
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(l.startsWith('data: ') ? 6 : 5))
      .join('\n');
    if (!data) return;
    let event: ContractEvent;
    try {
      event = JSON.parse(data) as ContractEvent;
    } catch {
      return;
    }
    for (const l of listeners) l(event);
  };

  /**
   * Reads the event stream until it ends. `again`: it may be opened again (not refused, not closed by the page);
   * `opened`: it was open, so the next wait starts from the first again.
   */
  const readOnce = async (signal: AbortSignal): Promise<{ again: boolean; opened: boolean }> => {
    let res: Response;
    try {
      res = await doFetch(`${base}/events`, {
        headers: { ...auth, Accept: 'text/event-stream' },
        cache: 'no-store',
        signal,
      });
    } catch {
      return { again: !signal.aborted, opened: false };
    }
    if (res.status === 401 || res.status === 403) return { again: false, opened: false };
    if (!res.ok || !res.body) return { again: !signal.aborted, opened: false };
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          deliver(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
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
        const { again, opened } = await readOnce(controller.signal);
        if (!again) return;
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
      try {
        res = await doFetch(`${base}/rpc/${encodeURIComponent(method)}`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          credentials: 'omit',
          body: input === undefined ? '' : JSON.stringify(input),
        });
      } catch {
        return {
          ok: false,
          error: {
            code: 'network',
            message: 'Lotwatch is not reachable. Is `npm run serve` still running?',
            retryable: true,
          },
        };
      }
      try {
        return (await res.json()) as Result<never>;
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
