import type { ContractEvent, WatchView } from '../../shared/ipc/contract';
import type { HandlerGroup } from '../handlerGroups';
import type { WatchlistService } from './service';
import { currentActor } from '../actor';
import { splitRulesPatch, type MemberState } from '../team/personal';

/** What the watchlist handlers need: the service, and the client's set-up for the calls that reach the service. */
export interface WatchlistHandlerDeps {
  watchlist: WatchlistService;
  /** Resolves once the client for the current mode is set up. */
  ready: Promise<void>;
  /** A team member's own max bid, mute and snooze (team/personal.ts): the list shows theirs, not the team's. */
  member: Pick<MemberState, 'ownRules' | 'setOwnRules' | 'unreadCount'>;
  /** Sends `unread.changed` when a member's own mute or snooze changed their inbox; left out: not sent. */
  emit?: (e: ContractEvent) => void;
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
 * now, and pause, resume, remove or tag many at once. On a team server a member's own fields of the rules
 * (PERSONAL_RULE_FIELDS: max bid, mute, snooze) are theirs: `watchlist.setRules` and `watchlist.add` keep them in
 * the member's own row and the rest in the team's rules, and every watch answered carries the member's own values
 * (none set: none). The watcher's alerts follow the team's rules only; a member's own max bid raises none. The local
 * owner's calls are as on the desktop. Throws BadInputError for junk or duplicates, not_found for an unknown id,
 * ConflictError for a stale save, ApiError from the service.
 */
export function watchlistHandlers(c: WatchlistHandlerDeps): HandlerGroup<WatchlistMethods> {
  /** Writes member `user`'s own fields of `patch` for `lotKey`; tells their pages when their inbox changed. */
  const keepOwn =
    (user: number, personal: ReturnType<typeof splitRulesPatch>['personal']) => async (lotKey: string) => {
      if (!(await c.member.setOwnRules(user, lotKey, personal))) return;
      c.emit?.({ name: 'unread.changed', payload: { count: await c.member.unreadCount(user) } });
    };
  /** `w` as member `user` sees it. */
  const own = async (user: number, w: WatchView): Promise<WatchView> =>
    (await c.member.ownRules(user, [w]))[0]!;
  return {
    'watchlist.list': async () => {
      const user = currentActor().userId;
      const watches = await c.watchlist.listWatches();
      return user === null ? watches : c.member.ownRules(user, watches);
    },
    'watchlist.nextSale': () => c.watchlist.nextSale(),
    'watchlist.add': async (i) => {
      await c.ready;
      const user = currentActor().userId;
      if (user === null) return c.watchlist.addWatch(i);
      // A member's own fields go to their row once the lot is known (a VIN watch whose lot is not found keeps none).
      const { personal, team } = splitRulesPatch(i.rules);
      const w = await c.watchlist.addWatch({ ...i, rules: i.rules && team });
      const lotKey = w.lot_key ?? w.lot?.lot_key ?? null;
      if (lotKey !== null && Object.keys(personal).length > 0) await keepOwn(user, personal)(lotKey);
      return own(user, w);
    },
    'watchlist.remove': (i) => c.watchlist.removeWatch(i.id),
    'watchlist.bulk': (i) => c.watchlist.bulk(i),
    'watchlist.setRules': async (i) => {
      const user = currentActor().userId;
      if (user === null) return c.watchlist.setWatchRules(i.id, i.rules, i.label, i.expected_updated_at);
      const { personal, team } = splitRulesPatch(i.rules);
      const keep = Object.keys(personal).length > 0 ? keepOwn(user, personal) : null;
      return own(user, await c.watchlist.setMemberRules(i.id, team, i.label, i.expected_updated_at, keep));
    },
    'watchlist.checkNow': async (i) => {
      await c.ready;
      return c.watchlist.checkWatchNow(i.id);
    },
  };
}
