import type { Core } from './appTypes';
import { currentActor } from './actor';
import type { Logger } from './log';
import { dispatch, type Handlers } from './rpc';
import { teamRefusal } from './team/gate';

/**
 * Core's `invoke` (docs/architecture.md "One contract, two shells"): refuses once core is shutting down, passes a team
 * member's call through the role gate whichever route made it (team/gate.ts; the shell checks first), waits for what
 * core reads at start (`opened`), then dispatches. Each call in flight is kept in `inFlight`, so dispose can wait for
 * it. A `db_unavailable` answer (a full disk, a read-only or damaged file) marks the database suspect: the next start
 * checks the file before it writes. Never throws.
 */
export function coreInvoke(d: {
  handlers: Handlers;
  log: Logger;
  opened: Promise<void>;
  disposing: () => boolean;
  inFlight: Set<Promise<unknown>>;
  suspect: () => void;
}): Core['invoke'] {
  return async (method, input) => {
    if (d.disposing()) {
      return {
        ok: false,
        error: { code: 'internal', message: 'Lotwatch is shutting down.', retryable: true },
      };
    }
    const refused = teamRefusal(currentActor(), method, input);
    if (refused) return { ok: false, error: refused };
    const p = d.opened.then(() => dispatch(d.handlers, method, input, d.log));
    d.inFlight.add(p);
    try {
      const r = await p;
      if (!r.ok && r.error.code === 'db_unavailable') d.suspect();
      return r;
    } finally {
      d.inFlight.delete(p);
    }
  };
}
