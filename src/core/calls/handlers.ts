import type { HandlerGroup } from '../handlerGroups';
import type { CallWatchService } from './service';

type CallWatchMethods =
  | 'callWatches.list'
  | 'callWatches.create'
  | 'callWatches.update'
  | 'callWatches.remove'
  | 'callWatches.runNow'
  | 'callWatches.setPaused'
  | 'callWatches.answer';

/** What the call-watch handlers need: the service, and the client's set-up for "run now". */
export interface CallWatchHandlerDeps {
  calls: CallWatchService;
  /** Resolves once the client for the current mode is set up. */
  ready: Promise<void>;
}

/**
 * Call watches: CRUD, pause, run now (queued behind the engine's job in flight) and the last good answer. Throws
 * BadInputError for a bad endpoint, schedule or rules; not_found for an unknown id.
 */
export function callWatchHandlers(c: CallWatchHandlerDeps): HandlerGroup<CallWatchMethods> {
  return {
    'callWatches.list': () => c.calls.list(),
    'callWatches.create': (i) => c.calls.create(i),
    'callWatches.update': (i) => c.calls.update(i),
    'callWatches.remove': (i) => c.calls.remove(i.id),
    'callWatches.runNow': async (i) => {
      await c.ready;
      return c.calls.runNow(i.id);
    },
    'callWatches.setPaused': (i) => c.calls.setPaused(i.id, i.paused),
    'callWatches.answer': (i) => c.calls.answer(i.id),
  };
}
