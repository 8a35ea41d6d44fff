import { ASSUMED_LIVE_SPAN_MS } from '../../shared/saleOutcome';
import type { LotState } from '../../shared/watch';
import { isEnded, mayBeRelisted } from '../diff';
import { nextBidLookAt, type BidWatch } from './bidPlan';

const S = 1000;
const MIN = 60 * S;
const HOUR = 60 * MIN;

/** A lot's auction is over: the diff's own rule, so the scheduler and the timeline never disagree. */
export const auctionOver = isEnded;

/** The lot is on the block now (the specification's Live sub-status or state); the real service never says so. */
export function isLive(s: LotState): boolean {
  return (s.lot_sub_status ?? '').toLowerCase() === 'live' || (s.state ?? '').toLowerCase() === 'live';
}

/**
 * Whether the service shows a lot's live phase: the specification's dialect carries `lot_sub_status` (Live, Open,
 * Ended); the real service's records have none, and their state stays "open" until the result
 * (docs/service-contract.md "Sale results"). Checks meant to catch the live phase are wasted where it cannot be seen.
 */
function showsLive(s: LotState): boolean {
  return s.lot_sub_status !== null;
}

/**
 * The first look after the listed sale time, and the shortest gap between later ones (ms): 2 minutes at scale 1,
 * stretched by `scale` up to 20 minutes. Lots of one sale go on the block one after another from the listed time
 * and the service refreshes states within about 15 minutes (docs/service-contract.md "Plans and quota"), so even on the
 * tightest budget a result is usually there by the first look.
 */
function afterSaleFirstGap(scale: number): number {
  return Math.min(20 * MIN, 2 * MIN * scale);
}

/**
 * How long after its listed sale time a lot's first look for its result waits when each sale can have only one look
 * (ms; oneLookPerSale). ASSUMPTION: a sale's lots go on the block one after another from the listed time, and the
 * service shows the end within its refresh lag of about 15 minutes (docs/service-contract.md "Plans and quota"), so
 * an hour after the listed time most results are there. Looks at 20 minutes found lots still open three times in 140 in
 * the watcher benchmark's dealer week at 10 requests a day: each cost another lot its result, where the naive poller,
 * looking hours after each sale, lost none.
 */
export const ONE_LOOK_WAIT = HOUR;

/**
 * Whether the watchlist's sales outnumber the day's requests: more of the day's sales (`selling`: salesAround, ended
 * or not, so the count does not fall as the day's sales end) than `perDay` requests. Then most sales get one look,
 * and a look that comes before the result costs another lot its result (ONE_LOOK_WAIT). Throws nothing.
 */
export function oneLookPerSale(selling: number, perDay: number): boolean {
  return selling > perDay;
}

/**
 * The day's sales: how many of `lots` have their listed sale time in the 24 hours around `now` (ms; from 12 hours
 * before to 12 hours after, ended or not), each a look for its result. Throws nothing.
 */
export function salesAround(lots: readonly (LotState | null)[], now: number): number {
  let selling = 0;
  for (const l of lots)
    if (l && l.auction_at !== null && l.auction_at > now - 12 * HOUR && l.auction_at <= now + 12 * HOUR)
      selling++;
  return selling;
}

/**
 * When a watched lot should next be fetched, spending requests where they are worth most. Before the sale: a
 * background interval that shrinks as the sale nears (bids, buy-now changes, reschedules; `scale` >= 1 stretches
 * it when the budget is tight) and, while the budget allows, looks 2 hours and 10 minutes before it. After the
 * listed sale time, until the result is seen: looks spaced by a third of the time since the sale time (a half when
 * the budget is tight, scale > 2; at least afterSaleFirstGap), so the gap grows with the uncertainty and a late end
 * costs a handful of requests, whatever the spread of start delays, live phases and refresh lag; where the service
 * shows the live phase, every 30 s
 * for the first 45 minutes (while live: every 30 s). An ended unsold lot (or sold on approval) is looked up by VIN
 * for a relist at 1, 2, 4 hours after its sale and then every 2 hours (both stretched by `scale`) up to a week
 * (relists come "within days", spread widely, to a later weekly sale); a sold lot daily from its sale. From a week
 * after the sale either one's gap grows with the time since it (afterEndGap).
 * Nothing here assumes one market's constants: every gap is a fraction of the time elapsed or of a day.
 *
 * @param lot the last stored state, or null when never fetched (fetch now).
 * @param lastChecked ms of the last fetch of this lot (by any poll), or null.
 * @param scale >= 1: the budget's stretch (scaleToFit); 1 when the budget is ample.
 * @param resultWait the least wait (ms) from the listed sale time to the first look for the result, and between later
 *   ones: ONE_LOOK_WAIT when each sale gets one look (oneLookPerSale), else 0.
 * @returns the time of the next fetch, ms since the epoch (may be <= now: due). Throws nothing.
 */
export function nextCheckAt(
  lot: LotState | null,
  lastChecked: number | null,
  now: number,
  scale = 1,
  resultWait = 0,
): number {
  if (!lot || lastChecked === null) return now;
  const last = lastChecked;
  if (auctionOver(lot)) {
    const endedAt = Math.max(lot.auction_at ?? last, 0);
    if (awaitsRelist(lot, last)) {
      // Doubling gaps from the end, up to RELIST_MAX_GAP_HOURS (stretched by scale): a relist days later is still
      // caught within hours on an ample budget, while its new lot has days to go before its own sale. A tight budget
      // starts later (fewer, wider looks).
      for (
        let h = Math.min(8, scale);
        h <= RELIST_LOOK_HOURS;
        h = Math.min(h * 2, h + RELIST_MAX_GAP_HOURS * scale)
      ) {
        if (endedAt + h * HOUR > last) return endedAt + h * HOUR;
      }
    }
    return last + afterEndGap(last - endedAt) * scale;
  }
  if (isLive(lot)) return last + 30 * S * Math.min(scale, 4);
  const at = lot.auction_at;
  if (at === null) return last + 6 * HOUR * scale;
  const first = Math.max(afterSaleFirstGap(scale), resultWait);
  if (last >= at) {
    // Past the sale time without a result: gaps of a third of the time since the sale time (half on a tight budget).
    const elapsed = last - at;
    if (showsLive(lot) && scale <= 2 && elapsed < 45 * MIN) return last + 30 * S;
    return last + Math.ceil(Math.min(Math.max(first, elapsed / (scale > 2 ? 2 : 3)), 6 * HOUR));
  }
  const anchors = [
    ...(scale <= 2 ? [at - 2 * HOUR] : []),
    ...(scale <= 4 ? [at - 10 * MIN] : []),
    at + (showsLive(lot) && scale <= 2 ? 20 * S : first),
  ];
  const anchor = anchors.find((a) => a > last) ?? at + first;
  const until = at - last;
  const background =
    until > 3 * 24 * HOUR ? 12 * HOUR : until > 24 * HOUR ? 6 * HOUR : until > 6 * HOUR ? 2 * HOUR : 30 * MIN;
  return Math.min(anchor, last + background * scale);
}

/** The widest gap between looks at a lot whose auction is over, past its relist look-ups (ms, at scale 1). */
const AFTER_END_MAX_GAP = 30 * 24 * HOUR;

/**
 * The gap between looks at a lot whose auction is over and whose relist look-ups are done (ms, at scale 1), from
 * the time since its sale (`sinceEnd`, ms): a day for the first week, then a seventh of the time since the sale, at
 * most AFTER_END_MAX_GAP. The same VIN comes back under a new lot (one was sold four times in a month:
 * docs/service-contract.md "Sale results"), so the looks go on; but a dealer who keeps hundreds of sold lots
 * watched must not spend hundreds of requests a day on them for good: a month after the sale a lot costs one
 * request in about four days, and a new lot listed days before its weekly sale is still seen before that sale more
 * often than not. Throws nothing.
 */
export function afterEndGap(sinceEnd: number): number {
  return Math.min(AFTER_END_MAX_GAP, Math.max(24 * HOUR, sinceEnd / 7));
}

/**
 * Whether an ended lot is in its relist look-ups (nextCheckAt): unsold or sold on approval, last fetched (`lastChecked`,
 * ms) within RELIST_LOOK_HOURS of its sale. Throws nothing.
 */
export function awaitsRelist(lot: LotState | null, lastChecked: number | null): boolean {
  if (!lot || lastChecked === null || !auctionOver(lot) || !mayBeRelisted(lot)) return false;
  return lastChecked < Math.max(lot.auction_at ?? lastChecked, 0) + RELIST_LOOK_HOURS * HOUR;
}

/**
 * How long after the sale relists are looked for, hours (then afterEndGap): a week. The yards sell weekly, and an
 * unsold lot, or one whose seller declined the bid, comes back at a later sale: the real service showed one VIN sold
 * four times in a month (docs/service-contract.md "Sale results"). A relist listed six days after the sale, for the
 * next week's sale, is still seen within the widest gap; a shorter window left it to the daily looks, which the
 * scale stretches to days on a budget the watchlist fills.
 */
const RELIST_LOOK_HOURS = 168;

/**
 * The widest gap between relist looks at scale 1, hours: 1, 2, 4, 6, 8 ... 168 h after the sale. On an ample
 * budget a relist is seen within 2 hours whenever it comes (about 85 looks a lot over the week); a tighter budget
 * stretches the gap by its scale (16 hours at scale 8: 11 looks).
 */
const RELIST_MAX_GAP_HOURS = 2;

/**
 * The watchlist's stretch (scaleToFit, a power of two) from which the budget counts as tight for relist look-ups:
 * the watchlist's projected checks need 8 times their share of the allowance or more. On so tight a budget most
 * look-ups find nothing: a buyer's week at 10 requests a day in the watcher benchmark spent 18 of its 31 watched-lot
 * looks on look-ups that found no relist, while every saved-search page it read brought new matches. There a relist
 * look-up goes after a saved search's page (value.ts watchValue) and nothing is kept back for it (`aboveSearches`).
 */
export const RELIST_YIELD_SCALE = 8;

/** Whether relist look-ups yield to saved-search pages at this `scale` (RELIST_YIELD_SCALE). Throws nothing. */
export function relistsYield(scale: number): boolean {
  return scale >= RELIST_YIELD_SCALE;
}

/**
 * The least gap between one unsold lot's relist look-ups that go before a saved search's page on a tight budget
 * (relistsYield; value.ts watchValue), ms: `lots` x 24 h / `watchlistShare`, so that the look-ups of the `lots`
 * awaiting a relist together beat the pages with no more than the watchlist's share of the allowance (budget.ts
 * watchlistShare, requests a day: a third while any saved search runs). A look-up waiting for a relist grows like a
 * background look to just above a page once it has waited a whole interval past its due time (delayed, not
 * dropped); with eight unsold lots beside three saved searches at 10 requests a day one look-up was then always
 * overdue, and the look-ups took 16 of every 20 requests. Within the gap it takes only what the pages leave.
 * Infinity when there is no lot or no share. Throws nothing.
 */
export function relistLookGap(lots: number, watchlistShare: number): number {
  if (lots <= 0 || watchlistShare <= 0) return Infinity;
  return (lots * 24 * HOUR) / watchlistShare;
}

/**
 * The projected checks requests are kept back for from saved searches at this `scale` (budget.ts watchReserve,
 * spending.ts searchKeep): all of them, or on a tight budget all but the relist look-ups (relistsYield). Throws nothing.
 */
export function keptFromSearches(scale: number): ProjectedChecks {
  return relistsYield(scale) ? 'aboveSearches' : 'all';
}

/**
 * The state a projection assumes for `lot` at time `t`: unchanged until its auction must be over, then ended
 * unsold (the dearest outcome: it keeps the relist checks). Without this a lot a few minutes from its sale
 * would be projected as "past its sale time, not yet seen ended" for the whole day.
 */
function projectedState(lot: LotState, t: number, now: number): LotState {
  if (auctionOver(lot)) return lot;
  // A lot already on the block is minutes from its end; one not yet live, its sale time plus the time on the block
  // and the service's refresh lag (ASSUMED_LIVE_SPAN_MS).
  const end = isLive(lot)
    ? now + 5 * MIN
    : lot.auction_at === null
      ? null
      : lot.auction_at + ASSUMED_LIVE_SPAN_MS;
  const start = isLive(lot) ? now : lot.auction_at;
  if (end === null || start === null || t < end) return lot;
  return { ...lot, lot_sub_status: 'Ended', state: 'not_sold', auction_at: start };
}

/** A watched lot as the projections (and the scheduler's watch states) see it. */
export interface ProjectedLot {
  /** Its stored state; null when never fetched. */
  lot: LotState | null;
  /** Its last fetch by any poll (ms), or null. */
  lastChecked: number | null;
  /** The bid plan's view of a bid rule not reached yet (bidPlan.ts): its looks count too. Absent or null otherwise. */
  bids?: BidWatch | null;
  /** The wait from the listed sale time before a look for its result when each sale gets one look (ms). */
  resultWait?: number;
}

/**
 * Requests the watchlist is expected to need over the next `horizon` ms (ms) at this `scale` (for the plan shown
 * to the user and for choosing the scale): simulates nextCheckAt forward for each lot (with its `resultWait`),
 * assuming nothing changes but the end of each auction (see projectedState).
 *
 * @param which the kind of checks counted (ProjectedChecks), all by default.
 * @returns a count of requests. Throws nothing.
 */
export function projectedChecks(
  lots: ProjectedLot[],
  now: number,
  horizon: number,
  scale = 1,
  which: ProjectedChecks = 'all',
): number {
  return projectedCheckTimes(lots, now, horizon, scale, which).length;
}

/**
 * Which projected checks projectedCheckTimes lists: `all` of them; `aboveSearches`, all but the relist look-ups after
 * a lot is projected over (on a tight budget those go after a saved search's page: relistsYield), which the scheduler
 * keeps requests back for from searches (budget.ts watchReserve, spending.ts searchKeep); `saleResults`, only the
 * planner's looks for a sale result (no bid looks), from the listed sale time until the lot is projected over
 * (spending.ts lookKeep).
 */
export type ProjectedChecks = 'all' | 'aboveSearches' | 'saleResults';

/**
 * The times (ms, ascending, each >= now) of the checks projectedChecks counts, of the kind `which` names: a lot
 * never fetched is due now. Throws nothing.
 */
export function projectedCheckTimes(
  lots: ProjectedLot[],
  now: number,
  horizon: number,
  scale = 1,
  which: ProjectedChecks = 'all',
): number[] {
  const afterSaleOnly = which === 'saleResults';
  const times: number[] = [];
  for (const { lot, lastChecked, bids, resultWait } of lots) {
    // Never fetched: one fetch now; what follows depends on what it returns.
    if (lot === null || lastChecked === null) {
      times.push(now);
      continue;
    }
    let last = lastChecked;
    let guard = 0;
    for (;;) {
      const state = projectedState(lot, last, now);
      // A bid rule not reached yet adds its looks until the sale (bidPlan.ts), as if the bid stood still.
      const bid = bids && !afterSaleOnly ? nextBidLookAt(state, bids, last, now, scale) : null;
      const planned = nextCheckAt(state, last, now, scale, resultWait);
      const t = bid !== null && bid < planned ? bid : planned;
      const at = Math.max(t, last + 1);
      if (at > now + horizon || guard++ > 5000) break;
      // saleResults: only the looks for a sale result (from the listed sale time until the lot is projected over);
      // aboveSearches: none of the relist look-ups after the lot is projected over.
      if (
        which === 'all' ||
        (which === 'aboveSearches' && !auctionOver(state)) ||
        (afterSaleOnly && lot.auction_at !== null && at >= lot.auction_at && !auctionOver(state))
      )
        times.push(Math.max(now, at));
      last = at;
    }
  }
  return times.sort((x, y) => x - y);
}

/**
 * The next reminder time (ms) after `after` among `remindMinutesBefore` for a lot not yet ended with a known sale
 * time: the moment the scheduler must wake to raise "auction in N minutes" on time. Null when there is none.
 * Throws nothing.
 */
export function nextReminderAt(
  lot: LotState | null,
  remindMinutesBefore: number[],
  after: number,
): number | null {
  if (!lot || lot.auction_at === null || auctionOver(lot)) return null;
  let next: number | null = null;
  for (const m of remindMinutesBefore) {
    const t = lot.auction_at - m * MIN;
    if (t > after && (next === null || t < next)) next = t;
  }
  return next;
}
