import type { HandlerGroup } from '../handlerGroups';
import type { ApiConsole } from './apiConsole';
import type { ExploreService } from './service';

type ExploreMethods =
  | 'vehicles.search'
  | 'vehicles.filters'
  | 'locations.list'
  | 'usage.fetch'
  | 'usage.byUser'
  | 'requests.list'
  | 'console.endpoints'
  | 'console.call';

/** What the explore handlers need: the service, the API console, and the client's set-up. */
export interface ExploreHandlerDeps {
  explore: ExploreService;
  apiConsole: ApiConsole;
  /** Resolves once the client for the current mode is set up (calls that reach the service wait for it). */
  ready: Promise<void>;
}

/**
 * Explore: live search and its filters, locations, the key's usage from the service, the request log, and one raw
 * call to any endpoint of either specification (the API console). Throws ApiInputError for bad input (no request),
 * unauthorized without a client, ApiError from the service.
 */
export function exploreHandlers(c: ExploreHandlerDeps): HandlerGroup<ExploreMethods> {
  const live =
    <I, O>(fn: (i: I) => Promise<O>) =>
    async (i: I): Promise<O> => {
      await c.ready;
      return fn(i);
    };
  return {
    'vehicles.search': live((i) => c.explore.search(i)),
    'vehicles.filters': live(() => c.explore.filters()),
    'locations.list': live((i) => c.explore.locations(i)),
    'usage.fetch': live(() => c.explore.usage()),
    'usage.byUser': () => c.explore.usageByUser(),
    'requests.list': (i) => c.explore.requests(i?.limit ?? 200),
    'console.endpoints': () => c.apiConsole.endpoints(),
    'console.call': live((i) => c.apiConsole.call(i)),
  };
}
