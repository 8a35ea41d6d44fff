import { describe, expect, it } from 'vitest';
import type { LotState } from '../../../src/shared/watch';
import { lot as fixtureLot } from '../diff/fixtures';
import {
  nextCheckAt,
  ONE_LOOK_WAIT,
  oneLookPerSale,
  projectedCheckTimes,
  projectedChecks,
  relistLookGap,
  salesAround,
} from '../../../src/core/watch/planner';
import { waitsBehindSearch } from '../../../src/core/watch/spending';
import { SEARCH_PAGE_CAP, VALUE } from '../../../src/core/watch/value';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const now = Date.UTC(2026, 10, 23, 12);

/** The diff's fixture lot (open, Copart, with a bid), observed now, with this file's bid and sale time. */
const lot = (over: Partial<LotState> = {}): LotState =>
  fixtureLot({
    current_bid_usd: 1000,
    auction_at: now + 2 * MIN,
    observed_at: now,
    ...over,
  });

describe('nextCheckAt', () => {
  it('checks every 30 s once the sale time has passed without a result', () => {
    const l = lot({ auction_at: now - MIN });
    expect(nextCheckAt(l, now, now)).toBe(now + 30_000);
  });

  it('on a tight budget drops the looks before the sale, never the first look after it (at most 20 min after)', () => {
    const far = lot({ auction_at: now + 5 * DAY });
    expect(nextCheckAt(far, now, now, 4)).toBe(now + 4 * 12 * HOUR);
    const near = lot({ auction_at: now + 20 * MIN });
    expect(nextCheckAt(near, now, now, 1)).toBe(now + 10 * MIN);
    expect(nextCheckAt(near, now, now, 64)).toBe(now + 40 * MIN);
  });

  it('where the service hides the live phase, looks after the sale time at gaps of a third of the time since it', () => {
    // The real dialect: no lot_sub_status. Walk the looks from the sale time; for an end shown V minutes after it,
    // the first look at or after V comes within V/3 (at least the 2-min first gap), for any V up to 6 hours.
    const at = now;
    const real = lot({ auction_at: at, lot_sub_status: null });
    const looks: number[] = [];
    let last = at;
    while (last < at + 6 * HOUR) {
      last = nextCheckAt(real, last, last);
      looks.push(last);
    }
    expect(looks.filter((t) => t <= at + HOUR).length).toBeLessThanOrEqual(15);
    for (let v = 1; v <= 360; v++) {
      const shown = at + v * MIN;
      const seen = looks.find((t) => t >= shown)!;
      expect(seen - shown, `shown ${v} min after the sale time`).toBeLessThanOrEqual(
        Math.max(2 * MIN, (v * MIN) / 3) + 1,
      );
    }
  });

  it('looks for a relist at doubling gaps from the sale, at most 2 h apart (stretched by scale), then daily', () => {
    const ended = lot({ auction_at: now, lot_sub_status: null, state: 'finished', last_sold_status: null });
    const looksAt = (scale: number, n: number) => {
      const looks: number[] = [];
      let last = now + 10 * MIN;
      for (let i = 0; i < n; i++) {
        last = nextCheckAt(ended, last, last, scale);
        looks.push((last - now) / HOUR);
      }
      return looks;
    };
    const ample = looksAt(1, 86);
    expect(ample.slice(0, 6)).toEqual([1, 2, 4, 6, 8, 10]);
    // Every 2 hours for a week (a relist comes to a later weekly sale), then a day later.
    expect(ample.slice(-3)).toEqual([166, 168, 192]);
    // A tight budget starts later and spaces them wider (16 h at scale 8): few looks over the same week.
    expect(looksAt(8, 12)).toEqual([8, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 352]);
  });

  it('looks at a sold lot daily for a week, then at a seventh of the time since its sale, at most 30 days apart', () => {
    const sold = lot({ auction_at: now, lot_sub_status: null, state: 'finished', last_sold_status: 'Sold' });
    const days: number[] = [];
    let last = now + 10 * MIN;
    while (last < now + 400 * DAY) {
      last = nextCheckAt(sold, last, last, 1);
      days.push(Math.round(((last - now) / DAY) * 100) / 100);
    }
    // A resale under a new lot comes within days of the sale at first: a look a day.
    expect(days.slice(0, 7)).toEqual([1.01, 2.01, 3.01, 4.01, 5.01, 6.01, 7.01]);
    // Then the gap grows with the time since the sale: a month after it, a look in about 4.3 days.
    const gapAt = (day: number) => {
      const i = days.findIndex((d) => d >= day);
      return days[i + 1]! - days[i]!;
    };
    expect(gapAt(30)).toBeCloseTo(days.find((d) => d >= 30)! / 7, 1);
    expect(Math.max(...days.slice(1).map((d, i) => d - days[i]!))).toBeLessThanOrEqual(30);
    // A dealer with 400 sold lots watched: about 400 looks a day in their first week, about 400 / 4.3 a month on.
    expect(days.filter((d) => d >= 30 && d < 60).length).toBeLessThan(8);
    expect(days.filter((d) => d < 7.5).length).toBe(7);
    // The scale stretches it like every other gap.
    expect(nextCheckAt(sold, now + 60 * DAY, now + 60 * DAY, 2) - (now + 60 * DAY)).toBeCloseTo(
      2 * ((60 * DAY) / 7),
      0,
    );
  });
});

describe('projectedChecks', () => {
  it('assumes an auction minutes away ends after its live phase, not that it is polled all day', () => {
    const n = projectedChecks([{ lot: lot(), lastChecked: now }], now, DAY);
    // A few anchors, the 30-s looks for the live phase this dialect shows (until the assumed end 20 min after the
    // sale time), the relist look-ups: tens, not the 2,880 of a 30-s poll all day.
    expect(n).toBeGreaterThan(5);
    expect(n).toBeLessThan(60);
    // Where the live phase is hidden (the real service), a handful before the result and the relist look-ups (every
    // 2 hours at most) for the rest of the day, assuming the dearest outcome: ended unsold.
    expect(
      projectedChecks([{ lot: lot({ lot_sub_status: null }), lastChecked: now }], now, DAY),
    ).toBeLessThan(24);
  });

  it('assumes a live lot ends within minutes', () => {
    const live = lot({ auction_at: now - 3 * MIN, lot_sub_status: 'Live', state: 'live' });
    const n = projectedChecks([{ lot: live, lastChecked: now }], now, DAY);
    expect(n).toBeLessThan(40);
  });

  it('projects a lot days away at its background interval, fewer with a larger scale', () => {
    const far = lot({ auction_at: now + 5 * DAY });
    expect(projectedChecks([{ lot: far, lastChecked: now }], now, DAY)).toBe(2);
    expect(projectedChecks([{ lot: far, lastChecked: now }], now, DAY, 2)).toBe(1);
  });

  it('counts a never-fetched lot as due now', () => {
    expect(projectedChecks([{ lot: null, lastChecked: null }], now, DAY)).toBe(1);
  });

  it('leaves out the relist look-ups where they go after a search page, never the looks for the sale result', () => {
    // The real dialect, a sale in 2 minutes: its looks for the result, then (assumed unsold) relist look-ups.
    const soon = [{ lot: lot({ lot_sub_status: null }), lastChecked: now }];
    const all = projectedCheckTimes(soon, now, DAY, 8);
    const above = projectedCheckTimes(soon, now, DAY, 8, 'aboveSearches');
    const results = projectedCheckTimes(soon, now, DAY, 8, 'saleResults');
    expect(above.length).toBeLessThan(all.length);
    expect(above.filter((t) => t >= now + 2 * MIN)).toEqual(results);
    expect(results.length).toBeGreaterThan(0);
    // Every look after the projected end (20 minutes after the sale time) is a relist look-up: none is kept.
    expect(above.every((t) => t <= now + 2 * MIN + 20 * MIN + 20 * MIN)).toBe(true);
    // An ended unsold lot has nothing but relist look-ups.
    const ended = [{ lot: lot({ auction_at: now - 3 * HOUR, state: 'finished' }), lastChecked: now }];
    expect(projectedChecks(ended, now, DAY, 8)).toBeGreaterThan(0);
    expect(projectedChecks(ended, now, DAY, 8, 'aboveSearches')).toBe(0);
  });
});

describe('waitsBehindSearch', () => {
  const ended = lot({ auction_at: now - 30 * HOUR, state: 'finished' });
  const look = { critical: false, value: VALUE.relistTightLater };

  it('holds a relist look-up behind a waiting search run on a tight budget only', () => {
    expect(waitsBehindSearch(true, look, ended, 8)).toBe(true);
    expect(waitsBehindSearch(false, look, ended, 8)).toBe(false);
    expect(waitsBehindSearch(true, look, ended, 4)).toBe(false);
  });

  it('never holds a look at an open lot, a sale-critical check, or a look-up that has outwaited the page', () => {
    expect(waitsBehindSearch(true, look, lot(), 64)).toBe(false);
    expect(waitsBehindSearch(true, { critical: true, value: VALUE.saleResult }, ended, 64)).toBe(false);
    expect(waitsBehindSearch(true, { critical: false, value: SEARCH_PAGE_CAP + 1 }, ended, 64)).toBe(false);
    expect(waitsBehindSearch(true, look, null, 64)).toBe(false);
  });
});

describe('relistLookGap', () => {
  it("lets the relist look-ups together beat the pages with no more than the watchlist's share", () => {
    for (const [lots, share] of [
      [8, 10 / 3],
      [2, 10],
      [30, 100],
      [1, 1],
    ] as const) {
      // Each lot's look-ups that beat a page at most once a gap: look-ups a day for them all.
      expect((lots * DAY) / relistLookGap(lots, share)).toBeCloseTo(share, 9);
    }
    // Eight lots beside three saved searches at 10 a day (a third of it for the watchlist): 57.6 hours.
    expect(relistLookGap(8, 10 / 3)).toBeCloseTo(57.6 * HOUR, 3);
  });

  it('gives no gap without a lot, and no growth without a share', () => {
    expect(relistLookGap(0, 10)).toBe(Infinity);
    expect(relistLookGap(4, 0)).toBe(Infinity);
  });
});

describe('one look per sale', () => {
  it("counts the lots whose sale time falls in the 24 hours around now against the day's requests", () => {
    const selling = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => lot({ auction_at: from + i * HOUR }));
    // Twelve sales from 11 hours ago: more than 10 requests a day, fewer than 30.
    expect(oneLookPerSale(salesAround(selling(12, now - 11 * HOUR), now), 10)).toBe(true);
    expect(oneLookPerSale(salesAround(selling(12, now - 11 * HOUR), now), 30)).toBe(false);
    // Lots over still count while their sale time is in the window, so the count does not fall as the sales end.
    const over = selling(12, now - 11 * HOUR).map((l) => ({ ...l, state: 'sold', lot_sub_status: null }));
    expect(oneLookPerSale(salesAround(over, now), 10)).toBe(true);
    // Sales outside the window and lots never fetched do not count.
    expect(
      oneLookPerSale(
        salesAround([...selling(12, now + 13 * HOUR), ...selling(12, now - 36 * HOUR), null], now),
        10,
      ),
    ).toBe(false);
  });

  it('waits ONE_LOOK_WAIT after the listed sale time before the look for the result, and as long between later ones', () => {
    const at = now - 5 * MIN;
    const real = lot({ auction_at: at, lot_sub_status: null });
    // Before the sale on the tightest budget: 20 minutes after the sale time, or the wait.
    expect(nextCheckAt(real, at - HOUR, at - HOUR, 64)).toBe(at + 20 * MIN);
    expect(nextCheckAt(real, at - HOUR, at - HOUR, 64, ONE_LOOK_WAIT)).toBe(at + ONE_LOOK_WAIT);
    // A look that still found the lot open: the next one is the wait later at least.
    expect(nextCheckAt(real, at + ONE_LOOK_WAIT, now, 64, ONE_LOOK_WAIT)).toBe(at + 2 * ONE_LOOK_WAIT);
    // The projections (the keeps for sale results) see the same look.
    expect(
      projectedCheckTimes(
        [{ lot: real, lastChecked: at - HOUR, resultWait: ONE_LOOK_WAIT }],
        at - HOUR,
        DAY,
        64,
        'saleResults',
      ),
    ).toEqual([at + ONE_LOOK_WAIT]);
    // A lot already over is not held back: its relist look-ups keep their own gaps.
    const ended = lot({ auction_at: at, lot_sub_status: null, state: 'finished', last_sold_status: null });
    expect(nextCheckAt(ended, at + HOUR, at + HOUR, 64, ONE_LOOK_WAIT)).toBe(
      nextCheckAt(ended, at + HOUR, at + HOUR, 64),
    );
  });
});
