import type { HandlerGroup } from '../handlerGroups';
import type { WatchlistService } from './service';
import { currentActor } from '../actor';
import type { MemberState } from '../team/personal';

/** What the watchlist handlers need: the service, and the client's set-up for the calls that reach the service. */
export interface WatchlistHandlerDeps {
  watchlist: WatchlistService;
  /** Resolves once the client for the current mode is set up. */
  ready: Promise<void>;
  /** A team member's own mute and snooze (team/personal.ts): the list shows theirs, not the team's. */
  member: Pick<MemberState, 'ownRules'>;
}

type WatchlistMethods =
  | 'watchlist.list'
  | 'watchlist.add'
  | 'watchlist.remove'
  | 'watchlist.setRules'
  | 'watchlist.checkNow'
  | 'watchlist.bulk'
  | 'watchlist.nextSale';

/**
 * The watchlist: add by VIN, lot number or lot-page URL (one request to fetch the lot), remove, edit rules, check
 * now, and pause, resume, remove or tag many at once. A team member's list carries their own mute and snooze. Throws BadInputError for junk or duplicates, not_found for an unknown id, ApiError from the service.
 */
export function watchlistHandlers(c: WatchlistHandlerDeps): HandlerGroup<WatchlistMethods> {
  return {
    'watchlist.list': async () => {
      const user = currentActor().userId;
      const watches = await c.watchlist.listWatches();
      return user === null ? watches : c.member.ownRules(user, watches);
    },
    'watchlist.nextSale': () => c.watchlist.nextSale(),
    'watchlist.add': async (i) => {
      await c.ready;
      return c.watchlist.addWatch(i);
    },
    'watchlist.remove': (i) => c.watchlist.removeWatch(i.id),
    'watchlist.bulk': (i) => c.watchlist.bulk(i),
    'watchlist.setRules': (i) => c.watchlist.setWatchRules(i.id, i.rules, i.label, i.expected_updated_at),
    'watchlist.checkNow': async (i) => {
      await c.ready;
      return c.watchlist.checkWatchNow(i.id);
    },
  };
}
