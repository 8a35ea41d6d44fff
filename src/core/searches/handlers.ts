import type { HandlerGroup } from '../handlerGroups';
import type { SearchesService } from './service';

type SearchMethods =
  | 'searches.list'
  | 'searches.create'
  | 'searches.update'
  | 'searches.remove'
  | 'searches.runNow'
  | 'searches.setPaused'
  | 'searches.estimate';

/** What the saved-search handlers need: the service, and the client's set-up for "run now". */
export interface SearchHandlerDeps {
  searches: SearchesService;
  /** Resolves once the client for the current mode is set up. */
  ready: Promise<void>;
}

/**
 * Saved searches: CRUD, pause, run now (queued behind the engine's job in flight) and the cost estimate shown
 * while editing (runs per week and requests per day against the daily allowance). Throws BadInputError for bad
 * params, schedules or rules; not_found for an unknown id.
 */
export function searchHandlers(c: SearchHandlerDeps): HandlerGroup<SearchMethods> {
  return {
    'searches.list': () => c.searches.listSearches(),
    'searches.create': (i) => c.searches.createSearch(i),
    'searches.update': (i) => c.searches.updateSearch(i),
    'searches.remove': (i) => c.searches.removeSearch(i.id),
    'searches.runNow': async (i) => {
      await c.ready;
      return c.searches.runSearchNow(i.id);
    },
    'searches.setPaused': (i) => c.searches.setSearchPaused(i.id, i.paused),
    'searches.estimate': (i) => c.searches.estimate(i),
  };
}
