import { describe, expect, it } from 'vitest';
import {
  groupBySaleDay,
  landedUnknownReason,
  maxBidOf,
  pastMax,
  pruneSelection,
  selectionState,
  SORT_KEYS,
  toggleAll,
  toggleOne,
  watchesWord,
} from '../../src/renderer/src/features/watchlist/watchTable';
import { AlertRulesSchema } from '../../src/shared/watch';
import { lotSummary, NOW, watch } from './views/fixtures';

const HOUR = 3_600_000;
const desk = (over: Record<string, unknown> = {}) => ({
  notes: '',
  tags: [],
  port: 'Savannah',
  shipping_usd: 600,
  landed_cost_usd: 5_000,
  landed_excludes: [],
  max_bid_usd: 4_000,
  max_bid_excludes: [],
  ...over,
});

describe('the max bid a row shows', () => {
  it("is the watch's own rule first, else the desk's, else none", () => {
    const rules = AlertRulesSchema.parse({ max_bid_usd: 3_500 });
    expect(maxBidOf(watch({ rules, desk: desk() }))).toEqual({ usd: 3_500, source: 'rule' });
    expect(maxBidOf(watch({ desk: desk() }))).toEqual({ usd: 4_000, source: 'desk' });
    expect(maxBidOf(watch({ desk: desk({ max_bid_usd: null }) }))).toBeNull();
    expect(maxBidOf(watch({ desk: null }))).toBeNull();
  });

  it('is past when the open lot is bid over it, never for an ended lot', () => {
    const over = watch({ lot: lotSummary({ current_bid_usd: 4_100 }), desk: desk() });
    expect(pastMax(over)).toBe(true);
    expect(pastMax(watch({ lot: lotSummary({ current_bid_usd: 4_000 }), desk: desk() }))).toBe(false);
    const ended = watch({
      lot: lotSummary({
        current_bid_usd: 9_000,
        state: 'finished',
        last_sold_status: 'Sold',
        sale_price_usd: 9_000,
      }),
      desk: desk(),
    });
    expect(ended.lot?.outcome).not.toBe('open');
    expect(pastMax(ended)).toBe(false);
  });
});

describe('an unknown landed cost', () => {
  it('says why: no lot fetched yet, or no bid to price', () => {
    expect(landedUnknownReason(watch({ desk: desk() }))).toBeNull();
    expect(landedUnknownReason(watch({ lot: null, desk: null }))).toMatch(/not been fetched yet/);
    expect(landedUnknownReason(watch({ desk: desk({ landed_cost_usd: null }) }))).toMatch(/no bid yet/);
  });
});

describe('sort keys', () => {
  it('put a watch without a value after every real one', () => {
    const none = watch({ lot: null, desk: null, last_checked_at: null });
    const some = watch({ desk: desk() });
    expect(SORT_KEYS.sale(none)).toBeGreaterThan(SORT_KEYS.sale(some));
    expect(SORT_KEYS.max(none)).toBeLessThan(SORT_KEYS.max(some));
    expect(SORT_KEYS.landed(none)).toBeLessThan(SORT_KEYS.landed(some));
    // The sale price of a sold lot, not its last bid.
    const sold = watch({ lot: lotSummary({ current_bid_usd: 100, sale_price_usd: 250 }) });
    expect(SORT_KEYS.bid(sold)).toBe(250);
  });
});

describe('grouping by sale day', () => {
  it('groups by the local day in day order, keeps the order inside a day, puts "No sale time" last', () => {
    const day = (h: number) => NOW + h * HOUR;
    const items = [
      { id: 'b', at: day(30) },
      { id: 'none', at: null },
      { id: 'a2', at: day(1) },
      { id: 'c', at: day(60) },
      { id: 'a1', at: day(0) },
    ];
    const groups = groupBySaleDay(items, (i) => i.at);
    expect(groups.map((g) => g.items.map((i) => i.id))).toEqual([['a2', 'a1'], ['b'], ['c'], ['none']]);
    expect(groups.at(-1)).toMatchObject({ key: null, label: 'No sale time' });
    expect(groups[0]?.label).toMatch(/^[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} \d{4}$/);
    expect(groupBySaleDay([], (i: { at: number }) => i.at)).toEqual([]);
  });
});

describe('bulk selection', () => {
  it('selects all, some or none; the header box toggles every shown row', () => {
    const shown = [1, 2, 3];
    expect(selectionState(new Set(), shown)).toBe('none');
    expect(selectionState(new Set([2]), shown)).toBe('some');
    expect(selectionState(new Set([1, 2, 3, 9]), shown)).toBe('all');
    expect([...toggleAll(new Set([2]), shown)].sort()).toEqual([1, 2, 3]);
    expect([...toggleAll(new Set([1, 2, 3, 9]), shown)]).toEqual([9]);
    expect([...toggleOne(new Set([1]), 1)]).toEqual([]);
    expect([...toggleOne(new Set([1]), 2)]).toEqual([1, 2]);
  });

  it('drops watches no longer listed and keeps the same set when none went', () => {
    const sel = new Set([1, 2]);
    expect(pruneSelection(sel, [{ id: 1 }, { id: 2 }, { id: 3 }])).toBe(sel);
    expect([...pruneSelection(sel, [{ id: 2 }])]).toEqual([2]);
    expect(watchesWord(1)).toBe('1 watch');
    expect(watchesWord(3)).toBe('3 watches');
  });
});
