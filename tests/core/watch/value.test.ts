import { describe, expect, it } from 'vitest';
import type { LotState } from '../../../src/shared/watch';
import { lot as fixtureLot } from '../diff/fixtures';
import { keepFor } from '../../../src/core/watch/budget';
import {
  CRITICAL_VALUE,
  orderQueue,
  resultExtras,
  searchValue,
  VALUE,
  watchValue,
} from '../../../src/core/watch/value';

const MIN = 60_000;
const HOUR = 60 * MIN;
const now = Date.UTC(2026, 10, 23, 12);

/** The diff's fixture lot (open, Copart, with a bid), observed now, with this file's bid and sale time. */
const lot = (over: Partial<LotState> = {}): LotState =>
  fixtureLot({
    current_bid_usd: 1000,
    lot_sub_status: null,
    auction_at: now + 3 * 24 * HOUR,
    observed_at: now,
    ...over,
  });

describe('watchValue', () => {
  it('ranks the sale result above a relist, a relist above a search run, a search run above a background look', () => {
    const sale = watchValue(lot({ auction_at: now - 5 * MIN }), now);
    const relist = watchValue(lot({ auction_at: now - 3 * HOUR, state: 'finished' }), now);
    const background = watchValue(lot(), now, now, now - 6 * HOUR);
    expect(sale).toBeGreaterThan(relist);
    expect(relist).toBeGreaterThan(VALUE.searchRun);
    expect(VALUE.searchRun).toBeGreaterThan(background);
  });

  it('gives a starved background look more value as it waits, but never a sale-critical one', () => {
    const due = now - 12 * HOUR;
    const fresh = watchValue(lot(), now, now, now - 12 * HOUR);
    const starved = watchValue(lot(), now, due, due - 12 * HOUR);
    expect(starved).toBeGreaterThan(fresh);
    expect(watchValue(lot(), now, now - 30 * 24 * HOUR, now - 31 * 24 * HOUR)).toBeLessThan(VALUE.relistSoon);
  });

  it('lets a background look that has waited a whole interval past its due time beat a search page at its cap', () => {
    const interval = 6 * HOUR;
    const page = searchValue(3 * 24 * HOUR, 15 * MIN, 5) / 5;
    const halfway = watchValue(lot(), now, now - interval / 2, now - 1.5 * interval);
    const doubled = watchValue(lot(), now, now - interval, now - 2 * interval);
    expect(halfway).toBeLessThan(page);
    expect(doubled).toBeGreaterThan(page);
    expect(doubled).toBeLessThan(VALUE.relistLater);
  });
});

describe('resultExtras', () => {
  const sold = (over: Partial<LotState> = {}) => lot({ auction_at: now - 2 * HOUR, ...over });

  it('puts a sale result that also ends a buy-now offer before a plain one, fresh or stale', () => {
    const buyNow = sold({ buy_now_usd: 6500 });
    const listedAsBuyNow = sold({ lot_status: 'Buy Now' });
    expect(resultExtras(buyNow, null, now)).toBe(VALUE.resultBuyNow);
    expect(resultExtras(listedAsBuyNow, null, now)).toBe(VALUE.resultBuyNow);
    expect(resultExtras(sold(), null, now)).toBe(0);
    // Two stale results waiting 8 and 7 hours: without the offer the more recent goes first; with it, the other.
    const older = watchValue(buyNow, now, now - 8 * HOUR) + resultExtras(buyNow, null, now);
    const newer = watchValue(sold(), now, now - 7 * HOUR) + resultExtras(sold(), null, now);
    expect(watchValue(buyNow, now, now - 8 * HOUR)).toBeLessThan(watchValue(sold(), now, now - 7 * HOUR));
    expect(older).toBeGreaterThan(newer);
  });

  it("weighs a bid rule not reached by how likely the final price reaches it: the service's estimate, else the bid", () => {
    const near = resultExtras(sold({ current_bid_usd: 5000 }), 5400, now);
    const far = resultExtras(sold({ current_bid_usd: 100 }), 500, now);
    expect(near).toBeCloseTo((VALUE.resultBidRule * 5000) / 10_400);
    expect(far).toBeCloseTo((VALUE.resultBidRule * 100) / 600);
    expect(near).toBeGreaterThan(far);
    expect(resultExtras(sold({ current_bid_usd: null }), 500, now)).toBe(0);
    // The service estimates the $100 lot's sale at $2,000, four times the $500 rule: likelier than the $5,000 one
    // estimated at $5,000 to reach $5,400.
    const cheap = resultExtras(sold({ current_bid_usd: 100 }), 500, now, 2000);
    expect(cheap).toBeCloseTo(VALUE.resultBidRule * 0.8);
    expect(cheap).toBeGreaterThan(resultExtras(sold({ current_bid_usd: 5000 }), 5400, now, 5000));
  });

  it('never lifts a stale result to a fresh one, and adds nothing to a look that is not a sale result', () => {
    const most = sold({ buy_now_usd: 6500, current_bid_usd: 5399 });
    const stale = watchValue(most, now, now - 6 * HOUR - MIN) + resultExtras(most, 5400, now);
    expect(stale).toBeLessThan(VALUE.saleResult);
    expect(resultExtras(lot({ buy_now_usd: 6500 }), 5400, now)).toBe(0);
    expect(resultExtras(sold({ buy_now_usd: 6500, lot_sub_status: 'Live' }), 5400, now)).toBe(0);
    expect(resultExtras(sold({ buy_now_usd: 6500, state: 'finished' }), 5400, now)).toBe(0);
    expect(resultExtras(null, 5400, now)).toBe(0);
  });
});

describe('orderQueue', () => {
  it('sends the sale-critical checks first whatever the cost, then by value per request', () => {
    const q = orderQueue([
      { item: 'search of 5 pages', value: VALUE.searchRun, cost: 5, dueAt: now - HOUR, critical: false },
      { item: 'background', value: VALUE.background, cost: 1, dueAt: now - 2 * HOUR, critical: false },
      { item: 'sale result', value: VALUE.saleResult, cost: 1, dueAt: now, critical: true },
      { item: 'search of 1 page', value: VALUE.searchRun, cost: 1, dueAt: now, critical: false },
      { item: 'relist', value: VALUE.relistSoon, cost: 1, dueAt: now - MIN, critical: true },
    ]).map((q) => q.item);
    expect(q).toEqual(['sale result', 'relist', 'search of 1 page', 'search of 5 pages', 'background']);
  });

  it('lets a search of many pages that has waited overtake a cheap one that just ran: no search starves', () => {
    const interval = 15 * MIN;
    const cheap = {
      item: 'cheap',
      value: searchValue(interval, interval, 3),
      cost: 3,
      dueAt: now - interval,
      critical: false,
    };
    const dear = {
      item: 'dear',
      value: searchValue(1.5 * interval, interval, 5),
      cost: 5,
      dueAt: now - 1.5 * interval,
      critical: false,
    };
    expect(orderQueue([cheap, dear])[0]!.item).toBe('cheap');
    dear.value = searchValue(3 * interval, interval, 5);
    expect(orderQueue([cheap, dear])[0]!.item).toBe('dear');
  });

  it('caps a long-waiting search below a relist look in its first two days, above a background look just due', () => {
    const waitedDays = searchValue(3 * 24 * HOUR, 15 * MIN, 5) / 5;
    expect(waitedDays).toBeLessThan(VALUE.relistSoon);
    expect(waitedDays).toBeGreaterThan(watchValue(lot(), now, now, now - 6 * HOUR));
  });

  it('puts a fresh sale result before one whose look has waited over 6 hours; among equals, the longest-waiting first', () => {
    const sold = lot({ auction_at: now - 8 * HOUR });
    const stale = watchValue(sold, now, now - 7 * HOUR, now - 8 * HOUR);
    const fresh = watchValue(lot({ auction_at: now - 10 * MIN }), now, now - MIN, now - 3 * MIN);
    const sales = orderQueue([
      { item: 'stale', value: stale, cost: 1, dueAt: now - 7 * HOUR, critical: true },
      { item: 'fresh', value: fresh, cost: 1, dueAt: now - MIN, critical: true },
      { item: 'search', value: VALUE.searchRun * 10, cost: 1, dueAt: now - 9 * HOUR, critical: false },
    ]).map((q) => q.item);
    expect(sales).toEqual(['fresh', 'stale', 'search']);
    const q = orderQueue([
      { item: 'b', value: 5, cost: 1, dueAt: now, critical: false },
      { item: 'a', value: 5, cost: 1, dueAt: now - MIN, critical: false },
    ]).map((q) => q.item);
    expect(q).toEqual(['a', 'b']);
  });
});

describe('stale sale results', () => {
  it('go most recent first once their looks have waited over 6 hours, all still sale-critical', () => {
    const sold = lot({ auction_at: now - 200 * HOUR });
    const dayOld = watchValue(sold, now, now - 24 * HOUR, now - 30 * HOUR);
    const weekOld = watchValue(sold, now, now - 7 * 24 * HOUR, now - 8 * 24 * HOUR);
    expect(dayOld).toBeGreaterThan(weekOld);
    expect(weekOld).toBeGreaterThanOrEqual(CRITICAL_VALUE);
    expect(dayOld).toBeLessThan(VALUE.live);
    const order = orderQueue([
      { item: 'week old', value: weekOld, cost: 1, dueAt: now - 7 * 24 * HOUR, critical: true },
      { item: 'day old', value: dayOld, cost: 1, dueAt: now - 24 * HOUR, critical: true },
    ]).map((q) => q.item);
    expect(order).toEqual(['day old', 'week old']);
  });

  it('rank a later relist look above a long-waiting saved search page', () => {
    const ended = lot({ auction_at: now - 3 * 24 * HOUR, state: 'finished' });
    expect(watchValue(ended, now)).toBeGreaterThan(searchValue(3 * 24 * HOUR, 15 * MIN, 5) / 5);
  });
});

describe('relist look-ups on a tight budget', () => {
  const ended = (hoursAgo: number) => lot({ auction_at: now - hoursAgo * HOUR, state: 'finished' });
  const page = searchValue(3 * 24 * HOUR, 15 * MIN, 5) / 5;

  it('go after a long-waiting saved search page from scale 8 up, before it at scale 4', () => {
    expect(watchValue(ended(3), now, now, now - HOUR, 4)).toBe(VALUE.relistSoon);
    expect(watchValue(ended(72), now, now, now - 8 * HOUR, 4)).toBe(VALUE.relistLater);
    expect(watchValue(ended(3), now, now, now - HOUR, 8)).toBe(VALUE.relistTightSoon);
    expect(watchValue(ended(72), now, now, now - 8 * HOUR, 64)).toBe(VALUE.relistTightLater);
    expect(VALUE.relistTightSoon).toBeLessThan(page);
    expect(VALUE.relistTightLater).toBeGreaterThan(watchValue(lot(), now, now, now - 6 * HOUR));
  });

  it('are delayed, not dropped: one that has waited its whole interval past its due time beats the page again', () => {
    const interval = 16 * HOUR;
    const halfway = watchValue(ended(72), now, now - interval / 2, now - 1.5 * interval, 8);
    const doubled = watchValue(ended(72), now, now - interval, now - 2 * interval, 8);
    expect(halfway).toBeLessThan(page);
    expect(doubled).toBeGreaterThan(page);
    expect(doubled).toBeLessThan(CRITICAL_VALUE);
  });

  it('do not grow within the share of a lot looked at less than its gap ago: they take what the pages leave', () => {
    const interval = 16 * HOUR;
    const gap = 48 * HOUR;
    // Overdue by a whole interval, but looked at 32 hours ago: within the lot's share, no growth.
    expect(watchValue(ended(72), now, now - interval, now - 2 * interval, 8, gap)).toBe(
      VALUE.relistTightLater,
    );
    // Looked at 48 hours ago, due for the last 24: past the share, it grows as before.
    expect(watchValue(ended(72), now, now - 24 * HOUR, now - gap, 8, gap)).toBeGreaterThan(page);
    // On an ample budget the share plays no part: a look-up always beats the page.
    expect(watchValue(ended(72), now, now, now - HOUR, 4, gap)).toBe(VALUE.relistLater);
  });

  it('leave a sold lot at its daily look and a sale result sale-critical', () => {
    expect(watchValue(lot({ auction_at: now - 3 * HOUR, state: 'sold' }), now, now, null, 64)).toBe(
      VALUE.afterSale,
    );
    expect(watchValue(lot({ auction_at: now - 5 * MIN }), now, now, null, 64)).toBe(VALUE.saleResult);
  });
});

describe('keepFor', () => {
  it('keeps a token now for a sale result due before the bucket refills one, not for one due after', () => {
    // 3 requests a day: one token every 8 hours.
    expect(keepFor([now + 2 * HOUR], now, 3)).toBe(1);
    expect(keepFor([now + 10 * HOUR], now, 3)).toBe(0);
    // Two looks an hour apart 2 hours away: both must be there.
    expect(keepFor([now + 2 * HOUR, now + 3 * HOUR], now, 3)).toBe(2);
    // Never more than all but one of the burst (3 at this rate): a search can always start eventually.
    expect(keepFor([now, now, now, now, now], now, 3)).toBe(2);
    // 1,000 a day refills about 42 an hour: a look in an hour needs nothing kept.
    expect(keepFor([now + HOUR], now, 1000)).toBe(0);
  });
});
