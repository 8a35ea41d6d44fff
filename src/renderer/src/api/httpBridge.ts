import type { Bridge } from '../../../shared/ipc/bridge';
import type { ContractEvent } from '../../../shared/ipc/contract';
import type { Result } from '../../../shared/ipc/errors';

/**
 * The headless shell's side of the contract: `POST /rpc/<method>` with the input as the JSON body, and one
 * shared EventSource on `/events`. The token travels as the HttpOnly cookie the server set when the page
 * was opened, so this module never sees it. Network failures resolve to a `network` error, never reject.
 */
export function createHttpBridge(
  opts: { baseUrl?: string; fetch?: typeof fetch; EventSource?: typeof EventSource } = {},
): Bridge {
  const base = opts.baseUrl ?? '';
  const doFetch = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const ES = opts.EventSource ?? (typeof EventSource === 'undefined' ? undefined : EventSource);
  const listeners = new Set<(e: ContractEvent) => void>();
  let source: EventSource | undefined;

  const ensureSource = () => {
    if (source || !ES) return;
    source = new ES(`${base}/events`, { withCredentials: true });
    source.onmessage = (m: MessageEvent<string>) => {
      let event: ContractEvent;
      try {
        event = JSON.parse(m.data) as ContractEvent;
      } catch {
        return;
      }
      for (const l of listeners) l(event);
    };
  };

  return {
    async invoke(method, input) {
      let res: Response;
      try {
        res = await doFetch(`${base}/rpc/${encodeURIComponent(method)}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          credentials: 'same-origin',
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
      ensureSource();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && source) {
          source.close();
          source = undefined;
        }
      };
    },
  };
}
