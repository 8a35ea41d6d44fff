import type { HandlerContext, HandlerGroup } from './context';

type WatchlistMethods =
  | 'watchlist.list'
  | 'watchlist.add'
  | 'watchlist.remove'
  | 'watchlist.setRules'
  | 'watchlist.checkNow'
  | 'watchlist.nextSale';

/**
 * The watchlist: add by VIN, lot number or lot-page URL (one request to fetch the lot), remove, edit rules, check
 * now. Throws BadInputError for junk or duplicates, not_found for an unknown id, ApiError from the service.
 */
export function watchlistHandlers(c: HandlerContext): HandlerGroup<WatchlistMethods> {
  return {
    'watchlist.list': () => c.service.listWatches(),
    'watchlist.nextSale': () => c.store.watches.nextSale(c.clock.now()),
    'watchlist.add': async (i) => {
      await c.ready;
      return c.service.addWatch(i);
    },
    'watchlist.remove': (i) => c.service.removeWatch(i.id),
    'watchlist.setRules': (i) => c.service.setWatchRules(i.id, i.rules, i.label),
    'watchlist.checkNow': async (i) => {
      await c.ready;
      return c.service.checkWatchNow(i.id);
    },
  };
}
