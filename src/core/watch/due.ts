import type { BidChangeRow } from '../db/lotsRepo';
import type { WatchRow } from '../db/store';
import type { LotState } from '../../shared/watch';
import type { WatchState } from './backoff';
import { failureBackoff } from './backoff';
import {
  BID_HISTORY_MS,
  bidLookGap,
  bidLookValue,
  bidShareFits,
  nextBidLevel,
  nextBidLookAt,
  type BidPoint,
  type BidWatch,
} from './bidPlan';
import {
  auctionOver,
  awaitsRelist,
  nextCheckAt,
  ONE_LOOK_WAIT,
  oneLookPerSale,
  relistLookGap,
  relistsYield,
  salesAround,
} from './planner';
import { isResultLook, resultAnswers, resultExtras, VALUE, watchValue } from './value';
import { watchlistShare } from './budget';

/*
 * When a watch is due and what its check is worth, the planner's own plan (planner.ts, value.ts) joined with the bid
 * plan (bidPlan.ts) for lots with a bid rule (docs/architecture.md "Request budget"). Pure.
 */

/**
 * The bid plan's view of a watched lot (bidPlan.ts BidWatch): the rule level its bid has not reached and its bid
 * history over the last BID_HISTORY_MS (ms) from its timeline's bid changes (`bidChanges(from)`: those observed at or
 * after `from`, oldest first; LotsRepo.bidChangesSince), starting at the later of the watch's creation and the
 * window's start with the bid before the window's first change, and the service's `estimate` of its sale price (USD,
 * the middle of the record's band: view.ts; null when unknown). Null when the lot is not stored, is over, or its
 * rules have no bid level above its bid (then nothing is read). Throws nothing.
 */
export function bidWatchOf(
  watch: Pick<WatchRow, 'rules' | 'created_at'>,
  lot: LotState | null,
  bidChanges: (from: number) => BidChangeRow[],
  now: number,
  estimate: number | null = null,
): BidWatch | null {
  if (!lot || auctionOver(lot)) return null;
  const level = nextBidLevel(watch.rules, lot.current_bid_usd);
  if (level === null) return null;
  const from = Math.max(watch.created_at, now - BID_HISTORY_MS);
  const amount = (json: string | null): number => {
    const v = json === null ? null : (JSON.parse(json) as unknown);
    return typeof v === 'number' && Number.isFinite(v) ? v : 0;
  };
  const changes = bidChanges(from);
  const first = changes[0];
  const history: BidPoint[] = [[from, first ? amount(first.before) : (lot.current_bid_usd ?? 0)]];
  for (const c of changes) history.push([c.observed_at, amount(c.after)]);
  return { level, history, estimate };
}

/**
 * `states` with the budget's fair shares of `perDay` requests a day beside the saved searches and call watches
 * (`runs`: the pages one run of each costs, and whether any runs):
 * - each lot waiting for a bid rule gets the widest gap between its bid looks (bidPlan.ts bidLookGap: a page's turn
 *   each) and whether the allowance pays for it once the day's sale results are paid (bidPlan.ts bidShareFits, with
 *   planner.ts salesAround);
 * - on a tight budget (planner.ts relistsYield at `scale`), each unsold lot in its relist look-ups gets the least gap
 *   between its look-ups that go before a page (planner.ts relistLookGap, within the watchlist's share: budget.ts
 *   watchlistShare);
 * - when the sales of the 24 hours around `now` (ms) outnumber the day's requests (planner.ts oneLookPerSale), each
 *   lot not over gets the wait before its look for the result (planner.ts ONE_LOOK_WAIT), and the results of the
 *   lots least likely to answer the buyer's bid rule too yield (resultYielders).
 * Pure; throws nothing.
 */
export function withShares(
  states: WatchState[],
  perDay: number,
  runs: { pagesPerCycle(): number; anyActive(): boolean },
  scale: number,
  now: number,
): WatchState[] {
  const waiting = states.filter((x) => x.bids).length;
  const lots = states.map((x) => x.lot);
  const selling = salesAround(lots, now);
  const pages = runs.pagesPerCycle();
  const bidShare =
    waiting > 0
      ? { gap: bidLookGap(waiting, perDay, pages), fits: bidShareFits(waiting, perDay, selling, pages) }
      : null;
  const relisting = relistsYield(scale) ? states.filter((x) => awaitsRelist(x.lot, x.lastChecked)).length : 0;
  const share = watchlistShare(perDay, runs.anyActive());
  const relistGap = relisting > 0 ? relistLookGap(relisting, share) : null;
  const oneLook = oneLookPerSale(selling, perDay);
  if (bidShare === null && relistGap === null && !oneLook) return states;
  const yielders = oneLook ? resultYielders(states, perDay, selling) : new Set<WatchState>();
  return states.map((w) => {
    const y = yielders.has(w) ? { ...w, yieldsResult: true } : w;
    const x = oneLook && y.lot && !auctionOver(y.lot) ? { ...y, resultWait: ONE_LOOK_WAIT } : y;
    if (x.bids && bidShare !== null) return { ...x, bids: { ...x.bids, share: bidShare } };
    if (relistGap !== null && awaitsRelist(x.lot, x.lastChecked)) return { ...x, relistGap };
    return x;
  });
}

/**
 * The lots whose sale results yield when the day's `selling` sales outnumber its `perDay` requests (planner.ts
 * oneLookPerSale): about perDay / selling of the sales get a look, and each look catches one result whichever lot it
 * is, and a look at a lot whose final price reaches the buyer's bid rule catches the crossing too (a lot offered at
 * buy now, the offer's end). So the lots not over are ranked by what their result's look answers besides
 * (value.ts resultAnswers: how likely the final price reaches the rule's level, from the service's estimate of the
 * sale price, and a buy-now offer), the first perDay / selling of them (rounded up) keep their results' value, and
 * those scoring below the last of those yield (a tie at the cut does not: nothing tells them apart). In the watcher
 * benchmark's dealer week at 10 requests a day (100 lots, about 14 sales a day) the looks had gone to lots that
 * crossed about as often as the lots at large (88 %). ASSUMPTION: the service's estimate orders lots by their final
 * price, as in the survey's records (docs/service-contract.md "Searching ended lots"). Pure; throws nothing.
 */
export function resultYielders(states: WatchState[], perDay: number, selling: number): Set<WatchState> {
  const open = states.filter((w) => w.lot !== null && !auctionOver(w.lot));
  if (selling <= 0 || open.length === 0) return new Set();
  const score = (w: WatchState) => resultAnswers(w.lot!, w.bids?.level ?? null, w.bids?.estimate ?? null);
  const ranked = open.map((w) => ({ w, s: score(w) })).sort((a, b) => b.s - a.s);
  const keep = Math.min(ranked.length, Math.ceil((ranked.length * perDay) / selling));
  const cut = ranked[keep - 1]?.s ?? -Infinity;
  return new Set(ranked.filter((r) => r.s < cut).map((r) => r.w));
}

/**
 * When a watch is next due (ms): the earlier of the planner's check (nextCheckAt, with the watch's `resultWait`) and
 * the bid plan's look (nextBidLookAt, when `w.bids` is set), not before its failure backoff ends. `bidOnly`: only the
 * bid plan wants it by `now`, so it is valued as a bid look. Throws nothing.
 */
export function watchDue(
  w: WatchState,
  now: number,
  scale: number,
): { at: number; planned: number; bidOnly: boolean } {
  const backoff = (w.watch.last_checked_at ?? 0) + failureBackoff(w.watch);
  const planned = Math.max(nextCheckAt(w.lot, w.lastChecked, now, scale, w.resultWait), backoff);
  const bid = nextBidLookAt(w.lot, w.bids ?? null, w.lastChecked, now, scale);
  if (bid === null || Math.max(bid, backoff) >= planned) return { at: planned, planned, bidOnly: false };
  return { at: Math.max(bid, backoff), planned, bidOnly: planned > now };
}

/**
 * The value of checking a watch now (value.ts VALUE), given its watchDue: a bid look's value (bidLookValue) when only
 * the bid plan wants it, VALUE.yieldedResult for a look for a result that yields (resultYielders), else watchValue
 * from the planner's due time at the watchlist's `scale`, with what a sale result's look answers besides (value.ts
 * resultExtras: a buy-now offer, the bid rule `w.bids` waits for). Throws nothing.
 */
export function dueValue(
  w: WatchState,
  now: number,
  due: { planned: number; bidOnly: boolean },
  scale = 1,
): number {
  if (due.bidOnly && w.lot && w.bids) return bidLookValue(w.lot, w.bids, w.lastChecked, now, VALUE);
  if (w.yieldsResult && isResultLook(w.lot, now)) return VALUE.yieldedResult;
  const extras = resultExtras(w.lot, w.bids?.level ?? null, now, w.bids?.estimate ?? null);
  return watchValue(w.lot, now, due.planned, w.lastChecked, scale, w.relistGap) + extras;
}
