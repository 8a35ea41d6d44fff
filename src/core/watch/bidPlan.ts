import type { AlertRules, LotState } from '../../shared/watch';
import { isEnded as auctionOver } from '../diff';

/*
 * Looks at a watched lot with a bid rule (bid_above_usd, max_bid_usd, max_bid_near_percent) while its bid can still
 * cross the rule before the sale (docs/architecture.md "Request budget": "Bids before the sale"). Pure: the
 * scheduler passes the lot's stored state, its rules and its observed bid history. Every timing comes from what the
 * client sees: the service's refresh intervals (docs/service-contract.md "Plans and quota"), the lot's sale time and
 * the bids it was seen with.
 */

const S = 1000;
const MIN = 60 * S;
const HOUR = 60 * MIN;

/**
 * The service refreshes prices and states within about 15 minutes (ms): before the sale a look more often than that
 * mostly reads the same record again.
 */
export const PRICE_REFRESH = 15 * MIN;

/** The service refreshes live bids every 10 to 15 seconds (ms): on the block, a look every 15 s sees each new bid. */
export const LIVE_BID_REFRESH = 15 * S;

/**
 * The shortest gap while waiting for a lot to go on the block (ms): two live-bid refreshes, so a bid that stands for
 * half a minute on the block is seen before the next one replaces it.
 */
const BLOCK_WAIT_GAP = 2 * LIVE_BID_REFRESH;

/**
 * The widest gap between bid looks before the sale at scale 1 (ms) when the budget's fair share is not known (no
 * allowance, no lot waiting: bidLookGap). Pre-bids on the real service move over the last days before a sale, in a
 * few steps whose timing the client cannot see coming (a bid that stood still for a day says little about the next
 * one); without a cap a lot three days out with no rise seen yet would be looked at only a day and a half later,
 * and a crossing then waits that long.
 */
export const BID_LOOK_MAX_GAP = 4 * HOUR;

/**
 * The widest fair share (ms) that counts as paid for (bidShareFits): with the day's sale-result looks paid, the
 * allowance still looks at each lot waiting for a bid rule at least every 36 hours, two looks or more in the last
 * three days before its sale, when pre-bids move. A share wider than that warns too late to act on, and its looks
 * would take the saved searches' pages. ASSUMPTION, measured in the watcher benchmark (docs/architecture.md, its
 * table of timing assumptions): the dealer's 100 lots at 100 a day (a share of about 25 hours, 29 once the day's 14
 * or so sales are paid) saw the crossings at a p50 of 8.5 to 9.6 h, against 11 to 18 h while the share was stretched
 * by the watchlist's scale; at 30 a day (a share of days once the sales are paid) not stretching it cost the saved
 * searches every new match; the buyer's 10 lots beside three saved searches at 10 a day (48 hours and more) lost
 * 15 to 26 new matches a week with a 48-hour bound.
 */
const FITTED_SHARE_GAP = 36 * HOUR;

/** One point of a lot's observed bid history: when (ms) and the current bid then (USD). */
export type BidPoint = readonly [at: number, bid: number];

/** What the bid plan knows of a watched lot beyond its state: the level it waits for and the bids seen. */
export interface BidWatch {
  /** The lowest bid (USD) that raises an alert the bid has not reached yet (nextBidLevel). */
  level: number;
  /** Observed bids, oldest first (the first observation, then each bid change as seen). */
  history: BidPoint[];
  /**
   * The budget's fair share: `gap`, the widest gap between looks before the sale at scale 1 (ms; bidLookGap), and
   * `fits`, whether the allowance pays for it once the day's sale results are paid (bidShareFits): then the
   * watchlist's scale does not stretch the looks past it. Absent: BID_LOOK_MAX_GAP, which fits.
   */
  share?: { gap: number; fits: boolean };
  /**
   * The service's estimate of the lot's sale price (USD): the middle of its `pricing.estimated_cost` band (real
   * records carry it: docs/service-contract.md, its table of normalised fields: an estimate of the sale price, never a
   * repair cost). Absent or null when the record has none.
   */
  estimate?: number | null;
}

/**
 * The widest gap between bid looks at scale 1 (ms) for `lots` watched lots waiting for a bid rule, beside saved
 * searches and call watches whose runs cost `pagesPerCycle` requests in all (one run of each): the gap at which
 * every such lot gets the same share of `perDay` requests as one page of a saved search's run, as if each lot and
 * each page took its turn (a fair share per target). The share follows the watchlist as it changes: a lot whose
 * bid reached the rule or whose sale is over leaves it, so a shrinking watchlist does not keep half the day (the
 * previous rule, which left the buyer's saved searches too few pages on 100 to 1,000 requests a day in the watcher
 * benchmark), and a watchlist without saved searches gets the whole allowance. Never under PRICE_REFRESH (a look more
 * often reads the same record); BID_LOOK_MAX_GAP when there is no lot or no allowance. Throws nothing.
 */
export function bidLookGap(lots: number, perDay: number, pagesPerCycle: number): number {
  if (lots <= 0 || perDay <= 0) return BID_LOOK_MAX_GAP;
  return Math.max(PRICE_REFRESH, ((lots + Math.max(0, pagesPerCycle)) * 24 * HOUR) / perDay);
}

/**
 * Whether the fair share of `lots` lots waiting for a bid rule is paid for (FITTED_SHARE_GAP): the allowance left
 * once the day's sale results are paid (`perDay` requests a day less one look for each of `selling` sales, the lots
 * whose listed sale falls in the 24 hours around now: planner.ts salesAround) gives each such lot, beside the saved
 * searches' `pagesPerCycle` pages, a look at least every 36 hours (bidLookGap). False when the sales take the whole
 * allowance. Throws nothing.
 */
export function bidShareFits(lots: number, perDay: number, selling: number, pagesPerCycle: number): boolean {
  const left = perDay - Math.max(0, selling);
  return left > 0 && bidLookGap(lots, left, pagesPerCycle) <= FITTED_SHARE_GAP;
}

/**
 * How likely a lot's final price reaches `level` (USD), as a score from 0 to 1 that orders lots (not a
 * probability): x / (x + level), where x is the service's estimate of the sale price (`estimate`, USD) when the
 * record has one, else the last seen bid (`bid`, USD; no bid: 0), a floor, since bids only rise until the hammer. A
 * lot whose estimate is the level scores 0.5; one estimated at four times the level 0.8. In the watcher benchmark's
 * market, the 70 of 100 watched lots with the highest estimate over their rule's level all crossed it, against 60
 * to 65 of the 70 with the highest bid over it. 0 without a level above 0. Throws nothing.
 */
export function crossLikelihood(
  bid: number | null,
  level: number | null,
  estimate: number | null = null,
): number {
  if (level === null || !(level > 0)) return 0;
  const x = estimate !== null && estimate > 0 ? estimate : Math.max(0, bid ?? 0);
  return Number.isFinite(x) ? x / (x + level) : 1;
}

/**
 * The lowest bid (USD) at which one of `rules` alerts that `bid` (USD, null: no bid yet) has not reached: the
 * max_bid_near_percent share of max_bid_usd (rounded up, as decide.ts does), bid_above_usd, or just past
 * max_bid_usd (+1 USD). Null when the rules have no bid rule above the bid. Throws nothing.
 */
export function nextBidLevel(rules: AlertRules, bid: number | null): number | null {
  const b = bid ?? 0;
  const levels: number[] = [];
  if (rules.bid_above_usd !== null) levels.push(rules.bid_above_usd);
  if (rules.max_bid_usd !== null) {
    levels.push(rules.max_bid_usd + 1);
    if (rules.max_bid_near_percent !== null)
      levels.push(Math.ceil((rules.max_bid_usd * rules.max_bid_near_percent) / 100));
  }
  const above = levels.filter((l) => l > b);
  return above.length ? Math.min(...above) : null;
}

/**
 * The expected time (ms) until the bid reaches `level`, from its observed movement: bids change in steps, so the
 * crossing is `ceil(distance / mean step)` changes away, at the observed rate of changes over the history (at least
 * a price refresh long). With no change observed yet, one step at one change before the sale: the time to the sale.
 * Never more than `untilSale` (ms; the crossing that counts comes before the sale). Throws nothing.
 */
export function timeToCross(
  history: readonly BidPoint[],
  level: number,
  bid: number | null,
  now: number,
  untilSale: number,
): number {
  const distance = level - (bid ?? 0);
  if (distance <= 0) return 0;
  const steps: number[] = [];
  for (let i = 1; i < history.length; i++) {
    const rise = history[i]![1] - history[i - 1]![1];
    if (rise > 0) steps.push(rise);
  }
  if (steps.length === 0 || history.length === 0) return Math.max(0, untilSale);
  const span = Math.max(PRICE_REFRESH, now - history[0]![0]);
  const meanStep = steps.reduce((a, x) => a + x, 0) / steps.length;
  const perChange = span / steps.length;
  return Math.max(0, Math.min(untilSale, Math.ceil(distance / meanStep) * perChange));
}

/**
 * The two gaps of a bid look before the sale at scale 1 (ms), from the expected time to the crossing `tau` (ms):
 * `cap`, the widest (the budget's fair share, `bids.share`, else BID_LOOK_MAX_GAP), and `gap`, half of `tau` but at
 * least a price refresh. nextBidLookAt stretches them by the scale; bidLookValue measures a wait against them.
 */
function beforeSaleGap(bids: BidWatch, tau: number): { cap: number; gap: number } {
  return { cap: bids.share?.gap ?? BID_LOOK_MAX_GAP, gap: Math.max(PRICE_REFRESH, tau / 2) };
}

/**
 * Whether the lot was seen bidding on the block: a bid change observed at or after its sale time `at` (ms). The
 * real service never says a lot is live; its live bids (refreshed every 10 to 15 s) are the sign.
 */
function onTheBlock(history: readonly BidPoint[], at: number): boolean {
  for (let i = 1; i < history.length; i++)
    if (history[i]![0] >= at && history[i]![1] !== history[i - 1]![1]) return true;
  return false;
}

/**
 * When a watched lot with a bid rule should next be fetched to see its bid cross the rule while the lot is open
 * (ms), or null when the bid plan has nothing to add (no rule level above the bid, the auction over, no sale time).
 * The scheduler takes the earlier of this and the planner's own nextCheckAt, and values these looks below a sale
 * result (bidLookValue), so a tight budget drops them first.
 *
 * - before the sale: half the expected time to the crossing (timeToCross: the distance over the observed bid
 *   movement, at most the time to the sale), at least a price refresh (15 min) and at most the widest gap
 *   (`bids.share`, the budget's fair share: bidLookGap), and a look at the sale time;
 * - from the sale time, waiting for the lot to go on the block (no bid change seen since): gaps of an eighth of the
 *   time since the sale time, at least 30 s (two live-bid refreshes), so a late turn costs a few looks;
 * - on the block (a bid change seen since the sale time): every live-bid refresh (15 s) until the level is reached.
 * Every gap is stretched by `scale` (>= 1, the watchlist's stretch), except that a fair share the allowance pays for
 * (`bids.share.fits`: bidShareFits) is never stretched past itself, being already fitted to the budget. Throws
 * nothing.
 */
export function nextBidLookAt(
  lot: LotState | null,
  bids: BidWatch | null,
  lastChecked: number | null,
  now: number,
  scale = 1,
): number | null {
  if (!lot || !bids || lastChecked === null || auctionOver(lot) || lot.auction_at === null) return null;
  const at = lot.auction_at;
  const last = lastChecked;
  if (last < at) {
    const tau = timeToCross(bids.history, bids.level, lot.current_bid_usd, last, at - last);
    const { cap, gap } = beforeSaleGap(bids, tau);
    // A fair share the allowance pays for is already fitted to the budget: the scale (which fits the rest of the
    // watchlist) stretches only the looks nearer the sale. One it cannot pay for warns of a pre-bid move too late to
    // act on, so those looks yield to the scale like any background look.
    const fits = bids.share?.fits ?? true;
    return Math.min(at, last + (fits ? Math.min(cap, gap * scale) : Math.min(cap, gap) * scale));
  }
  if (onTheBlock(bids.history, at)) return last + LIVE_BID_REFRESH * scale;
  return last + Math.max(BLOCK_WAIT_GAP, (last - at) / 8) * scale;
}

/**
 * What a bid look is worth (value.ts VALUE): from the sale time on, VALUE.bidLive (the crossing is minutes away, and
 * a later look sees only the hammer price); before it, VALUE.background growing to VALUE.bidSoon as the time since
 * the last look nears the gap nextBidLookAt plans (half the expected time to the crossing, from a price refresh to
 * the widest gap): a bid close to the rule, moving fast or on a lot selling soon is worth more, and a look that is
 * due goes before a saved search's page (its rate is already bounded by the fair share). Below CRITICAL_VALUE: a
 * tight budget gives bid looks up before any sale result. `now`, `lastChecked` in ms. Throws nothing.
 */
export function bidLookValue(
  lot: LotState,
  bids: BidWatch,
  lastChecked: number | null,
  now: number,
  value: { background: number; bidSoon: number; bidLive: number },
): number {
  const at = lot.auction_at;
  if (at === null) return value.background;
  if (now >= at) return value.bidLive;
  const tau = timeToCross(bids.history, bids.level, lot.current_bid_usd, now, at - now);
  const { cap, gap } = beforeSaleGap(bids, tau);
  const waited = lastChecked === null ? Infinity : now - lastChecked;
  const share = Math.min(1, waited / Math.min(cap, gap));
  return value.background + (value.bidSoon - value.background) * share;
}

/** Hours of bid history the plan reads: the last day, when pre-bids move, and a little before it. */
export const BID_HISTORY_HOURS = 30;
export const BID_HISTORY_MS = BID_HISTORY_HOURS * HOUR;
