import type { LotState } from '../../shared/watch';
import { mayBeRelisted } from '../diff';
import { crossLikelihood } from './bidPlan';
import { auctionOver, isLive, relistsYield } from './planner';

const MIN = 60_000;
const HOUR = 60 * MIN;
/** A sale result's look that has waited longer than this (ms) is stale: it gives way to fresh ones. */
const STALE_AFTER = 6 * HOUR;

/**
 * What one request is worth to the buyer, by the event it can catch and how close its deadline is, so that watch
 * checks and saved-search pages compete in one queue (docs/architecture.md "Request budget"). Values are relative
 * weights, not probabilities; the order is what matters:
 *
 * - 100 a watched lot past its sale time without a result (the sale result: the last thing the budget gives up);
 *   80 falling towards 70 once its look has waited over 6 hours: when results outnumber requests, the fresh ones go
 *   first and then the most recent of the stale ones, so each request still catches a result and the buyer hears
 *   of most while they are news (oldest-first would spend the last requests of a tight week on results days old);
 * - on top of a sale result's 100 (or 80 to 70), what the same look answers besides (resultExtras): 3 for a lot
 *   offered at buy now (its end also ends the offer) and up to 5 for a bid rule not reached yet, by how likely the
 *   final price reaches it (bidPlan.ts crossLikelihood): when sale results outnumber requests (a dealer's
 *   watchlist on 10 a day), the looks that answer more go first; never enough to lift a stale result to a fresh
 *   one's 100;
 * - 71 instead, for the same look at a lot whose result yields (due.ts withShares: when the day's sales outnumber
 *   its requests, the lots least likely to reach their bid rule): still sale-critical, so it skips the pacing bucket,
 *   but it goes only while the rolling day leaves a place for each other lot's first look for its result
 *   (spending.ts yieldedResultWaits), and after any fresh result;
 * - 90 a watched lot on the block (live: its bids and the result are minutes away);
 * - 60 an unsold (or sold-on-approval) lot in its first two days after the sale (a relist);
 * - 55 an unsold lot later in its relist look-ups (at most one every 2 hours, stretched by the budget's scale): above
 *   a saved search's page, because a relist missed is the watched vehicle's next sale result missed too;
 * - on a tight budget (planner.ts relistsYield) instead 48 in the first two days and 44 later: there most look-ups
 *   find nothing while a saved search's page brings new matches, so a look-up takes the requests the pages leave. It
 *   grows to 51 once it has waited a whole interval past its due time (delayed, not dropped: the relisted lot's own
 *   sale result and bids follow from it), but only once the lot has gone its share's gap without a look (planner.ts
 *   relistLookGap: the look-ups together beat the pages with no more than the watchlist's share of the allowance;
 *   with eight unsold lots one look-up was always overdue, and they took 16 of every 20 requests);
 * - 50 a watched lot never fetched (nothing is known: not even its sale time);
 * - 60 a bid look (bidPlan.ts) from the sale time on at a lot with a bid rule not reached yet: the bid climbs on the
 *   block within minutes, and a look after the hammer sees only the final price;
 * - 40 a watched lot within 15 minutes of its sale (a last reschedule, the threshold, buy now);
 * - 5 growing to 52 a bid look before the sale, as the time since the last look nears its planned gap (half the
 *   expected time until the bid reaches the rule, at most the lot's fair share of the allowance: bidPlan.ts
 *   bidLookGap): a due bid look goes before a saved search's page (a crossing is the buyer's cue to act on a lot
 *   they chose; how many there are is bounded by that share);
 * - 40 a saved search's run per interval of its schedule it has waited (new matches arrive over time: a run after
 *   two missed intervals can catch twice as many), shared over its pages by the queue, at most 50 a page;
 * - 5 a background look at a lot days from its sale (a bid, a buy-now change, a reschedule: rare), growing with the
 *   time it has waited past its due time, up to 51 once it has waited a whole interval (then it beats a search page);
 * - 1 a sold lot's look, daily for a week and rarer after (planner.ts afterEndGap; a resale under a new lot is rarer
 *   still).
 */
export const VALUE = {
  saleResult: 100,
  staleResult: 70,
  live: 90,
  relistSoon: 60,
  neverFetched: 50,
  nearSale: 40,
  searchRun: 40,
  relistLater: 55,
  relistTightSoon: 48,
  relistTightLater: 44,
  background: 5,
  afterSale: 1,
  bidSoon: 52,
  bidLive: 60,
  resultBuyNow: 3,
  resultBidRule: 5,
  yieldedResult: 71,
} as const;

/**
 * Watch checks valued at or above this are sale-critical: they go first and may spend the requests kept back. A
 * sale result (fresh or stale) and a live lot; a relist look competes by value (a saved search's pages often catch
 * more per request).
 */
export const CRITICAL_VALUE = VALUE.staleResult;

/**
 * The most a saved search's run is worth per page (see searchValue): above any background look, below every relist
 * look, so a search that waits for days on a small plan does not starve those.
 */
export const SEARCH_PAGE_CAP = 50;

/**
 * The value of a saved search's run now: VALUE.searchRun for each interval of its schedule (ms) since its last run
 * (or its creation), at least one, and at most SEARCH_PAGE_CAP for each of its `pages`. Throws nothing.
 */
export function searchValue(sinceLastRun: number, interval: number, pages = 1): number {
  return Math.min(
    VALUE.searchRun * Math.max(1, sinceLastRun / Math.max(60_000, interval)),
    SEARCH_PAGE_CAP * Math.max(1, pages),
  );
}

/**
 * The value (VALUE) of checking a watched lot now, from its last stored state (null: never fetched).
 *
 * @param now ms since the epoch.
 * @param dueAt when the check became due (ms), and `lastChecked` the last fetch (ms): a background look (and on a
 *   tight budget a relist look-up) gains value as it waits, by the waiting time over its own interval.
 * @param scale the watchlist's stretch (scaleToFit), 1 when the budget is ample.
 * @param relistGap on a tight budget, the least gap between the lot's look-ups that go before a page (planner.ts
 *   relistLookGap, ms): until this long has passed since `lastChecked` a relist look-up does not grow. Default 0.
 *   Throws nothing.
 */
export function watchValue(
  lot: LotState | null,
  now: number,
  dueAt = now,
  lastChecked: number | null = null,
  scale = 1,
  relistGap = 0,
): number {
  if (!lot) return VALUE.neverFetched;
  if (auctionOver(lot)) {
    if (!mayBeRelisted(lot)) return VALUE.afterSale;
    const soon = lot.auction_at !== null && now < lot.auction_at + 48 * HOUR;
    if (!relistsYield(scale)) return soon ? VALUE.relistSoon : VALUE.relistLater;
    const base = soon ? VALUE.relistTightSoon : VALUE.relistTightLater;
    // Within the lot's share (relistLookGap) a look-up takes only what the pages leave; past it, it grows.
    if (lastChecked !== null && now < lastChecked + relistGap) return base;
    return waited(base, now, dueAt, lastChecked);
  }
  if (isLive(lot)) return VALUE.live;
  const at = lot.auction_at;
  if (at !== null && at <= now) {
    const waited = now - dueAt;
    // Stale: 80 falling towards 70 as the wait grows, so among stale results the most recent goes first.
    return waited > STALE_AFTER ? VALUE.staleResult + (10 * STALE_AFTER) / waited : VALUE.saleResult;
  }
  if (at !== null && at - 15 * MIN <= now) return VALUE.nearSale;
  return waited(VALUE.background, now, dueAt, lastChecked);
}

/**
 * What a look for `lot`'s sale result answers besides the result (VALUE): the buy-now offer's end for a lot offered
 * at buy now (`buy_now_usd` or lot_status "Buy Now": the offer goes when the lot goes on the block), VALUE.resultBuyNow;
 * and for a bid rule not reached yet (`level`, USD: bidPlan.ts nextBidLevel; null: none) whether the final bid crossed
 * it, VALUE.resultBidRule times how likely the final price reaches the level (bidPlan.ts crossLikelihood, from the
 * service's `estimate` of the sale price, USD, else the last seen bid). Under 8. One measure for both uses: it orders
 * the results due at once (resultExtras) and picks the results that yield when the day's sales outnumber its
 * requests (due.ts resultYielders). Throws nothing.
 */
export function resultAnswers(lot: LotState, level: number | null, estimate: number | null = null): number {
  const buyNow = lot.buy_now_usd !== null || lot.lot_status === 'Buy Now' ? VALUE.resultBuyNow : 0;
  return buyNow + VALUE.resultBidRule * crossLikelihood(lot.current_bid_usd, level, estimate);
}

/**
 * What a sale result's look at `lot` now (ms) answers besides the result, added to watchValue's sale result
 * (resultAnswers); 0 for a lot over, on the block or before its sale time, where the look is not a sale result's
 * (isResultLook). When sale results outnumber requests each look catches one result, and these decide which results
 * catch more: never enough to lift a stale result to a fresh one's 100 (the gap is 10). Throws nothing.
 */
export function resultExtras(
  lot: LotState | null,
  level: number | null,
  now: number,
  estimate: number | null = null,
): number {
  return isResultLook(lot, now) ? resultAnswers(lot, level, estimate) : 0;
}

/**
 * Whether a look at `lot` now (ms) is a look for its sale result: past its listed sale time, not seen on the block
 * and not over. Throws nothing.
 */
export function isResultLook(lot: LotState | null, now: number): lot is LotState {
  return (
    lot !== null && !auctionOver(lot) && !isLive(lot) && lot.auction_at !== null && lot.auction_at <= now
  );
}

/**
 * A look's value `base` grown by its wait past its due time over its own interval (from `lastChecked` to `dueAt`, an
 * hour when unknown): a look that has waited a whole interval has doubled the gap the planner chose, and it then
 * beats a saved search's page (SEARCH_PAGE_CAP + 1), so a busy search cannot starve the watchlist's bids,
 * reschedules and relists. Times in ms. Throws nothing.
 */
function waited(base: number, now: number, dueAt: number, lastChecked: number | null): number {
  const interval = lastChecked !== null && dueAt > lastChecked ? dueAt - lastChecked : HOUR;
  const overdue = Math.max(0, now - dueAt) / interval;
  return Math.min(SEARCH_PAGE_CAP + 1, base + (SEARCH_PAGE_CAP + 1 - base) * overdue);
}

/** One request (or a run of `cost` requests) waiting in the queue, with its value (see VALUE). */
export interface QueuedRequest<T> {
  item: T;
  value: number;
  /** Requests it is expected to spend (a saved search's pages), >= 1. */
  cost: number;
  /** When it became due (ms): among equals, the longest-waiting goes first. */
  dueAt: number;
  /** A sale-critical watch check (value >= CRITICAL_VALUE): before any other work, whatever its cost. */
  critical: boolean;
}

/**
 * Orders the due work by value per request spent, highest first. A sale-critical item always goes before any other,
 * whatever its cost. Ties: the longest-waiting first (among lots past their sale time, a fair turn each). Pure;
 * throws nothing.
 */
export function orderQueue<T>(queue: QueuedRequest<T>[]): QueuedRequest<T>[] {
  const rank = (q: QueuedRequest<T>) => (q.critical ? 1e6 + q.value : q.value / Math.max(1, q.cost));
  return [...queue].sort((a, b) => rank(b) - rank(a) || a.dueAt - b.dueAt);
}
