import { describe, expect, it } from 'vitest';
import type { LotState } from '../../../src/shared/watch';
import { lot as fixtureLot, rules } from '../diff/fixtures';
import {
  BID_LOOK_MAX_GAP,
  bidLookGap,
  bidLookValue,
  bidShareFits,
  crossLikelihood,
  LIVE_BID_REFRESH,
  nextBidLevel,
  nextBidLookAt,
  PRICE_REFRESH,
  timeToCross,
  type BidWatch,
} from '../../../src/core/watch/bidPlan';
import { bidWatchOf, dueValue, resultYielders, watchDue, withShares } from '../../../src/core/watch/due';
import { ONE_LOOK_WAIT, relistLookGap } from '../../../src/core/watch/planner';
import { CRITICAL_VALUE, VALUE } from '../../../src/core/watch/value';
import type { WatchRow } from '../../../src/core/db/store';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const now = Date.UTC(2026, 10, 23, 12);

/** An open lot in the real dialect (no live phase shown), bid $4,400, selling at `at`. */
const lot = (at: number, over: Partial<LotState> = {}): LotState =>
  fixtureLot({ current_bid_usd: 4400, auction_at: at, observed_at: now, lot_sub_status: null, ...over });

describe('nextBidLevel', () => {
  it('is the lowest rule level above the bid: the max-bid share, the threshold, or just past the max bid', () => {
    expect(nextBidLevel(rules({ bid_above_usd: 4600 }), 4400)).toBe(4600);
    expect(nextBidLevel(rules({ max_bid_usd: 5000, max_bid_near_percent: 90 }), 4400)).toBe(4500);
    expect(nextBidLevel(rules({ max_bid_usd: 5000, max_bid_near_percent: 90 }), 4600)).toBe(5001);
    expect(nextBidLevel(rules({ bid_above_usd: 4000 }), 4400)).toBeNull();
    expect(nextBidLevel(rules({}), 4400)).toBeNull();
    expect(nextBidLevel(rules({ bid_above_usd: 200 }), null)).toBe(200);
  });
});

describe('timeToCross', () => {
  it('counts the steps to the level at the observed pace, never past the sale', () => {
    // Two rises of $200 over 4 hours: $400 away is two changes, 4 hours.
    const h: [number, number][] = [
      [now - 4 * HOUR, 4000],
      [now - 2 * HOUR, 4200],
      [now, 4400],
    ];
    expect(timeToCross(h, 4800, 4400, now, DAY)).toBe(4 * HOUR);
    // A level one step away is half as far; a sale sooner than that bounds it.
    expect(timeToCross(h, 4600, 4400, now, DAY)).toBe(2 * HOUR);
    expect(timeToCross(h, 4800, 4400, now, HOUR)).toBe(HOUR);
    // No movement seen: at most the time to the sale (pre-bids move in the last day).
    expect(timeToCross([[now - DAY, 4400]], 4600, 4400, now, 10 * HOUR)).toBe(10 * HOUR);
  });
});

describe('nextBidLookAt', () => {
  const watch = (h: [number, number][] = [[now - DAY, 4400]]): BidWatch => ({ level: 4600, history: h });

  it('has nothing to add without a level, a sale time, or once the auction is over', () => {
    expect(nextBidLookAt(lot(now + HOUR), null, now, now)).toBeNull();
    expect(nextBidLookAt(lot(now + HOUR, { auction_at: null }), watch(), now, now)).toBeNull();
    const sold = lot(now - HOUR, { state: 'finished', last_sold_status: 'Sold', sale_price_usd: 5000 });
    expect(nextBidLookAt(sold, watch(), now, now)).toBeNull();
  });

  it('before the sale: half the time to the crossing, at least a price refresh, and a look at the sale time', () => {
    // No movement: halving towards the sale, never closer than the service refreshes prices.
    expect(nextBidLookAt(lot(now + 8 * HOUR), watch(), now, now)).toBe(now + 4 * HOUR);
    expect(nextBidLookAt(lot(now + 20 * MIN), watch(), now, now)).toBe(now + PRICE_REFRESH);
    expect(nextBidLookAt(lot(now + 10 * MIN), watch(), now, now)).toBe(now + 10 * MIN);
    // A bid rising $200 every 30 minutes, one step from the level: 15 minutes, not hours.
    const moving = watch([
      [now - HOUR, 4000],
      [now - 30 * MIN, 4200],
      [now, 4400],
    ]);
    expect(nextBidLookAt(lot(now + DAY), moving, now, now)).toBe(now + PRICE_REFRESH);
    // A tight budget (a share the allowance cannot pay for) stretches it.
    expect(
      nextBidLookAt(lot(now + 8 * HOUR), { ...watch(), share: { gap: 2 * DAY, fits: false } }, now, now, 4),
    ).toBe(now + 8 * HOUR);
  });

  it('days before the sale with no rise seen: at most BID_LOOK_MAX_GAP apart, or the narrower gap the budget allows', () => {
    // Three days out, half the time to the sale would be a day and a half: a crossing then waits that long.
    expect(nextBidLookAt(lot(now + 3 * DAY), watch(), now, now)).toBe(now + BID_LOOK_MAX_GAP);
    expect(
      nextBidLookAt(lot(now + 3 * DAY), { ...watch(), share: { gap: 30 * MIN, fits: true } }, now, now),
    ).toBe(now + 30 * MIN);
    // A fair share the allowance pays for is already fitted to the budget: the watchlist's scale leaves it.
    expect(
      nextBidLookAt(lot(now + 3 * DAY), { ...watch(), share: { gap: 30 * MIN, fits: true } }, now, now, 2),
    ).toBe(now + 30 * MIN);
    expect(nextBidLookAt(lot(now + 3 * DAY), watch(), now, now, 2)).toBe(now + BID_LOOK_MAX_GAP);
    // Nearer the sale the planned gap is under the share: the scale stretches it, never past the share.
    expect(
      nextBidLookAt(lot(now + 2 * HOUR), { ...watch(), share: { gap: 4 * HOUR, fits: true } }, now, now, 3),
    ).toBe(now + 2 * HOUR);
    expect(
      nextBidLookAt(lot(now + 6 * HOUR), { ...watch(), share: { gap: 4 * HOUR, fits: true } }, now, now, 4),
    ).toBe(now + 4 * HOUR);
    // A share the allowance cannot pay for (a tight budget) yields to the scale like any background look.
    expect(
      nextBidLookAt(lot(now + 6 * DAY), { ...watch(), share: { gap: 2 * DAY, fits: false } }, now, now, 2),
    ).toBe(now + 4 * DAY);
    // The same 25-hour share at the tightest scale: paid for, a look at the share's gap; not, only the sale time's.
    const far = lot(now + 4 * DAY);
    expect(nextBidLookAt(far, { ...watch(), share: { gap: 25 * HOUR, fits: true } }, now, now, 64)).toBe(
      now + 25 * HOUR,
    );
    expect(nextBidLookAt(far, { ...watch(), share: { gap: 25 * HOUR, fits: false } }, now, now, 64)).toBe(
      now + 4 * DAY,
    );
  });

  it('from the sale time: waits for the block at gaps of an eighth of the time since, then every live-bid refresh', () => {
    const at = now - 2 * MIN;
    expect(nextBidLookAt(lot(at), watch(), now, now)).toBe(now + 30_000);
    expect(nextBidLookAt(lot(now - 16 * MIN), watch(), now, now)).toBe(now + 2 * MIN);
    // A bid change seen since the sale time: the lot is on the block.
    const live = watch([
      [now - DAY, 4400],
      [now - 30_000, 4500],
    ]);
    expect(nextBidLookAt(lot(at, { current_bid_usd: 4500 }), live, now, now)).toBe(now + LIVE_BID_REFRESH);
  });
});

describe('bidLookGap', () => {
  it('gives each lot waiting for a bid rule the turn a saved-search page gets, never under a price refresh', () => {
    // 10 lots beside 15 pages a cycle on 300 a day: 25 turns a cycle, 12 cycles a day, a look every 2 hours; the
    // lots get 10 of every 25 requests (120 a day), the pages the rest.
    expect(bidLookGap(10, 300, 15)).toBe(2 * HOUR);
    // The share shrinks with the watchlist: 2 lots left, 17 turns a cycle, a look every 1.4 hours.
    expect(bidLookGap(2, 300, 15)).toBe((17 * DAY) / 300);
    // Without saved searches the lots share the whole allowance.
    expect(bidLookGap(10, 500, 0)).toBe((10 * DAY) / 500);
    // A tight budget: a wide gap (no cap: the budget decides), the scale stretches it further.
    expect(bidLookGap(100, 10, 15)).toBe((115 * DAY) / 10);
    // One lot on a large budget: never more often than the service refreshes prices.
    expect(bidLookGap(1, 100_000, 5)).toBe(PRICE_REFRESH);
    expect(bidLookGap(0, 1000, 15)).toBe(BID_LOOK_MAX_GAP);
    expect(bidLookGap(10, 0, 15)).toBe(BID_LOOK_MAX_GAP);
  });
});

describe('bidShareFits', () => {
  it("counts a share as paid for when what the day's sale results leave still looks at each lot every 36 hours", () => {
    // A dealer's 100 lots beside 10 saved searches of a page each, 14 of the lots selling in the 24 hours around now.
    // 100 a day: 86 left, 110 turns, a look every 31 hours: paid for.
    expect(bidShareFits(100, 100, 14, 10)).toBe(true);
    // 30 a day: 16 left, a look every 7 days: not, though the share over the whole allowance is 88 hours.
    expect(bidShareFits(100, 30, 14, 10)).toBe(false);
    // With no sale near, the same 30 a day still cannot look every 36 hours.
    expect(bidShareFits(100, 30, 0, 10)).toBe(false);
    // The edge: 15 lots and no saved search at 10 a day are a look every 36 hours; one sale makes it 40.
    expect(bidShareFits(15, 10, 0, 0)).toBe(true);
    expect(bidShareFits(15, 10, 1, 0)).toBe(false);
    // Sales that take the whole allowance leave nothing.
    expect(bidShareFits(1, 10, 10, 0)).toBe(false);
    expect(bidShareFits(1, 10, 12, 0)).toBe(false);
  });
});

describe('bid look values', () => {
  const w: BidWatch = { level: 4600, history: [[now - DAY, 4400]] };

  it('stay below a sale result: on the block VALUE.bidLive, before it growing with the wait towards VALUE.bidSoon', () => {
    expect(bidLookValue(lot(now - MIN), w, now - 30_000, now, VALUE)).toBe(VALUE.bidLive);
    expect(VALUE.bidLive).toBeLessThan(CRITICAL_VALUE);
    const soon = bidLookValue(lot(now + HOUR), w, now - HOUR, now, VALUE);
    const later = bidLookValue(lot(now + 10 * HOUR), w, now - HOUR, now, VALUE);
    expect(soon).toBe(VALUE.bidSoon);
    expect(later).toBeGreaterThan(VALUE.background);
    expect(later).toBeLessThan(soon);
    // Closer to the rule at the same pace: worth more.
    const pace: BidWatch['history'] = [
      [now - 4 * HOUR, 3600],
      [now - 2 * HOUR, 4000],
      [now, 4400],
    ];
    const near = bidLookValue(lot(now + DAY), { level: 4600, history: pace }, now - HOUR, now, VALUE);
    const far = bidLookValue(lot(now + DAY), { level: 5600, history: pace }, now - HOUR, now, VALUE);
    expect(near).toBeGreaterThan(far);
  });

  it('a watch due only for its bid look is valued as one; a sale result keeps its own value', () => {
    const row = { rules: rules({ bid_above_usd: 4600 }), created_at: now - DAY, last_checked_at: now - MIN };
    const watchRow = { ...row, consecutive_failures: 0 } as unknown as WatchRow;
    const open = lot(now - 2 * MIN);
    const bids = bidWatchOf(row, open, () => [], now);
    expect(bids).toEqual({ level: 4600, history: [[now - DAY, 4400]], estimate: null });
    const w = { watch: watchRow, lot: open, lastChecked: now - MIN, bids };
    const due = watchDue(w, now, 1);
    expect(due).toMatchObject({ at: now - 30_000, bidOnly: true });
    expect(dueValue(w, now, due)).toBe(VALUE.bidLive);
    // Once the planner's own look after the sale time is due, it is the sale result's.
    const later = watchDue(w, now + 2 * MIN, 1);
    expect(later.bidOnly).toBe(false);
    // It also answers whether the final bid crossed the rule (value.ts resultExtras): without the service's estimate,
    // as if the final price were the last seen bid, $4,400 against the $4,600 level; with one of $9,200, likelier.
    expect(dueValue(w, now + 2 * MIN, later)).toBeCloseTo(
      VALUE.saleResult + (VALUE.resultBidRule * 4400) / (4400 + 4600),
    );
    const estimated = { ...w, bids: { ...bids!, estimate: 9200 } };
    expect(dueValue(estimated, now + 2 * MIN, later)).toBeCloseTo(
      VALUE.saleResult + (VALUE.resultBidRule * 9200) / (9200 + 4600),
    );
    // Rules with no level above the bid: no bid plan.
    expect(bidWatchOf({ ...row, rules: rules({ bid_above_usd: 4000 }) }, open, () => [], now)).toBeNull();
  });
});

describe('withShares', () => {
  const watch = { consecutive_failures: 0, last_checked_at: now - HOUR } as unknown as WatchRow;
  const unsold = (hoursAgo: number) => ({
    watch,
    lot: lot(now - hoursAgo * HOUR, { state: 'finished', lot_sub_status: null }),
    lastChecked: now - HOUR,
  });
  const sold = {
    watch,
    lot: lot(now - 5 * HOUR, { state: 'sold', lot_sub_status: null }),
    lastChecked: now - HOUR,
  };
  const waiting = { watch, lot: lot(now + DAY), lastChecked: now - HOUR, bids: { level: 4600, history: [] } };
  const states = [unsold(5), unsold(30), unsold(200), sold, waiting];

  // Three saved searches of 7 pages in all at 10 a day: the watchlist's share is a third.
  const runs = { pagesPerCycle: () => 7, anyActive: () => true };

  it("on a tight budget gives the lots in their relist look-ups the watchlist's share for them all", () => {
    const out = withShares(states, 10, runs, 8, now);
    // Two lots are in their look-ups; one ended 200 hours ago is past them (daily looks), one sold needs none.
    const share = relistLookGap(2, 10 / 3);
    expect(out.map((w) => ('relistGap' in w ? w.relistGap : undefined))).toEqual([
      share,
      share,
      undefined,
      undefined,
      undefined,
    ]);
    // The lot waiting for its bid rule keeps its page's turn (bidLookGap), counted over the round's pages.
    expect(out[4]?.bids?.share?.gap).toBe(((1 + 7) * DAY) / 10);
  });

  it("holds each sale's look for its result ONE_LOOK_WAIT after the sale time only when the sales outnumber the requests", () => {
    const selling = Array.from({ length: 12 }, (_, i) => ({
      watch,
      lot: lot(now + i * HOUR),
      lastChecked: now,
    }));
    const all = [...selling, sold];
    const waits = (perDay: number) => withShares(all, perDay, runs, 64, now).map((w) => w.resultWait);
    // Twelve sales within 12 hours at 10 requests a day: each open lot waits; the sold one has no result to wait for.
    expect(waits(10)).toEqual([...selling.map(() => ONE_LOOK_WAIT), undefined]);
    // At 30 a day the first look after the sale time keeps its own gap.
    expect(waits(30).every((x) => x === undefined)).toBe(true);
  });

  it("says whether the bid share is paid for once the day's sales have their looks", () => {
    const selling = Array.from({ length: 14 }, (_, i) => ({
      watch,
      lot: lot(now - 6 * HOUR + i * HOUR),
      lastChecked: now,
    }));
    const bidders = Array.from({ length: 20 }, (_, i) => ({
      watch,
      lot: lot(now + (2 + i) * DAY),
      lastChecked: now,
      bids: { level: 4600, history: [] },
    }));
    const share = (perDay: number) =>
      withShares([...selling, ...bidders], perDay, runs, 64, now)[20]?.bids?.share;
    // 20 lots waiting and 7 pages: at 40 a day a look every 16.2 hours, 24.9 once the 14 sales are paid: paid for.
    expect(share(40)).toEqual({ gap: (27 * DAY) / 40, fits: true });
    // At 25 a day a look every 25.9 hours over the whole allowance, but 59 over the 11 the sales leave: stretched by
    // the watchlist's scale.
    expect(share(25)).toEqual({ gap: (27 * DAY) / 25, fits: false });
  });

  it('gives relist look-ups no gap on an ample budget: they beat a page anyway', () => {
    const out = withShares(states, 10, runs, 4, now);
    expect(out.some((w) => 'relistGap' in w)).toBe(false);
    expect(out[4]?.bids?.share?.gap).toBe(((1 + 7) * DAY) / 10);
  });
});

describe('crossLikelihood (how likely the final price reaches a bid rule)', () => {
  it("orders lots by the service's estimate of the sale price over the rule's level", () => {
    expect(crossLikelihood(100, 400, 400)).toBe(0.5);
    expect(crossLikelihood(100, 400, 1600)).toBe(0.8);
    expect(crossLikelihood(3000, 5400, 2700)).toBeCloseTo(1 / 3);
  });

  it('falls back on the last seen bid, a floor, without an estimate; 0 without a level', () => {
    expect(crossLikelihood(4400, 4600, null)).toBeCloseTo(4400 / 9000);
    expect(crossLikelihood(null, 400, null)).toBe(0);
    expect(crossLikelihood(4400, 4600, 0)).toBeCloseTo(4400 / 9000);
    expect(crossLikelihood(4400, null, 9000)).toBe(0);
  });
});

describe("resultYielders (whose results yield when the day's sales outnumber its requests)", () => {
  const watch = { consecutive_failures: 0, last_checked_at: now - HOUR } as unknown as WatchRow;
  /** A lot selling `h` hours from now with a bid rule at $1,000 and the service's `estimate`, USD. */
  const ruled = (h: number, estimate: number | null) => ({
    watch,
    lot: lot(now + h * HOUR, { current_bid_usd: 200 }),
    lastChecked: now - HOUR,
    bids: { level: 1000, history: [], estimate },
  });

  it('keeps the results of the lots likeliest to reach their rule, perDay / selling of them, and yields the rest', () => {
    const states = Array.from({ length: 14 }, (_, i) => ruled(i, 500 + 250 * i));
    // 10 requests a day for 14 sales: the 10 with the highest estimates keep their results' value.
    const out = resultYielders(states, 10, 14);
    expect([...out].map((w) => w.bids?.estimate).sort((a, b) => a! - b!)).toEqual([500, 750, 1000, 1250]);
    // A lot offered at buy now answers its offer's end too.
    const offered = { ...states[0]!, lot: { ...states[0]!.lot, buy_now_usd: 9000 } };
    expect(resultYielders([offered, ...states.slice(1)], 10, 14).has(offered)).toBe(false);
  });

  it('yields nothing that nothing tells apart, nor a lot already over', () => {
    const same = Array.from({ length: 14 }, (_, i) => ruled(i, 2000));
    expect(resultYielders(same, 10, 14).size).toBe(0);
    const plain = Array.from({ length: 14 }, (_, i) => ({
      watch,
      lot: lot(now + i * HOUR),
      lastChecked: now,
    }));
    expect(resultYielders(plain, 10, 14).size).toBe(0);
    const sold = {
      watch,
      lot: lot(now - 5 * HOUR, { state: 'sold', lot_sub_status: null }),
      lastChecked: now,
    };
    const states = [sold, ...Array.from({ length: 13 }, (_, i) => ruled(i, 500 + 250 * i))];
    expect(resultYielders(states, 10, 14).has(sold)).toBe(false);
  });

  it('is set by withShares only when the sales outnumber the requests, and values such a look 71', () => {
    const runs = { pagesPerCycle: () => 0, anyActive: () => false };
    const states = Array.from({ length: 14 }, (_, i) => ruled(i - 6, 500 + 250 * i));
    const flagged = (perDay: number) =>
      withShares(states, perDay, runs, 64, now).filter((w) => w.yieldsResult);
    expect(flagged(10)).toHaveLength(4);
    expect(flagged(30)).toHaveLength(0);
    // The first lot's sale was 6 hours ago: its look is for its result, valued below any fresh result's.
    const first = flagged(10)[0]!;
    const due = watchDue(first, now, 64);
    expect(dueValue(first, now, due, 64)).toBe(VALUE.yieldedResult);
    expect(VALUE.yieldedResult).toBeGreaterThanOrEqual(CRITICAL_VALUE);
  });
});
