import { describe, expect, it } from 'vitest';
import { nextCoverage, windowFrom, WINDOW_EDGE_MS } from '../../../src/core/watch/coverage';

// How a saved search reads a list longer than one run (docs/architecture.md "Saved searches and new matches").
const T = Date.UTC(2026, 5, 3, 18, 30);
const fresh = { baseline_done: false, covered_until: null, sweep_from: null };

describe('search coverage', () => {
  it('a run cut short covers the list up to its last lot and the next run continues there, a window starting 12 h before', () => {
    const c = nextCoverage(fresh, { from: null, reachedEnd: false, lastAuctionAt: T });
    expect(c).toEqual({ baseline_done: false, covered_until: T, sweep_from: T });
    expect(windowFrom(c)).toBe('2026-06-03');
    expect(windowFrom({ ...c, sweep_from: Date.UTC(2026, 5, 3, 6) })).toBe('2026-06-02');
    // Reaching the end of the list after an unbroken sweep: the baseline; the next run starts at the head.
    expect(
      nextCoverage(c, { from: '2026-06-03', reachedEnd: true, lastAuctionAt: T + 5 * 86_400_000 }),
    ).toEqual({
      baseline_done: true,
      covered_until: null,
      sweep_from: null,
    });
  });

  it("keeps inside the user's own date bounds", () => {
    const c = { ...fresh, covered_until: T, sweep_from: T };
    expect(windowFrom(c, '2026-06-05')).toBeNull();
    expect(windowFrom(c, undefined, '2026-06-01')).toBeNull();
    expect(windowFrom(c, '2026-06-01', '2026-06-10')).toBe('2026-06-03');
  });

  it('a window that makes no progress (one day holds more lots than a run reads) skips a day and makes no baseline', () => {
    const c = { ...fresh, covered_until: T, sweep_from: T };
    const stuck = nextCoverage(c, { from: '2026-06-03', reachedEnd: false, lastAuctionAt: T - 1000 });
    expect(windowFrom(stuck)).toBe('2026-06-04');
    expect(stuck.covered_until).toBe(T);
    // The window after the gap does not extend what is covered, and its end is no baseline.
    const after = nextCoverage(stuck, {
      from: '2026-06-04',
      reachedEnd: false,
      lastAuctionAt: T + 2 * 86_400_000,
    });
    expect(after.covered_until).toBe(T);
    expect(
      nextCoverage(after, { from: '2026-06-05', reachedEnd: true, lastAuctionAt: null }).baseline_done,
    ).toBe(false);
    expect(WINDOW_EDGE_MS).toBe(12 * 3_600_000);
  });

  it('a window cut short by the budget before it got past the sweep changes nothing: the next run reads it again', () => {
    const c = { ...fresh, covered_until: T, sweep_from: T };
    expect(
      nextCoverage(c, { from: '2026-06-03', reachedEnd: false, lastAuctionAt: T - 1000, full: false }),
    ).toEqual(c);
  });
});
