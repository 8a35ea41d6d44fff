import type { SearchCoverage } from '../db/searchesRepo';

/**
 * How a saved search reads a result list longer than one run's pages, and which of its lots can be called new
 * (docs/architecture.md "Saved searches and new matches"). Pure: no I/O, no clock.
 *
 * The list is ordered by auction date (docs/service-contract.md "Cursor"), so a page sequence cut short (max_pages,
 * the budget, an error) has still read every lot whose auction time is before that of the last lot it returned.
 * A search reads its list in a sweep: each run starts where the previous one stopped, as an `auction_date_from`
 * window (spec "GET /vehicles": YYYY-MM-DD), and a run that reaches the end of the list ends the sweep; the next
 * run starts at the head again. A lot is a new match only where an earlier complete reading covered it: anywhere
 * once a sweep has read the whole list (the baseline), before that only below `covered_until`. Elsewhere it is
 * first seen: stored as a member, never alerted.
 */

const HOUR = 3_600_000;

/**
 * How far before the last lot read a window starts (ms). The spec does not say in which time zone
 * `auction_date_from` counts days; starting the window on the UTC day of (last auction time - 12 h) keeps the lot
 * itself and everything after it inside the window for any zone from UTC-12 to UTC+14, at the price of reading
 * again the lots of up to a day and a half before it (on an allowance that reads the lists rarely, the sweep goes on
 * from its cursor instead: sweepCursors.ts).
 */
export const WINDOW_EDGE_MS = 12 * HOUR;

/** `YYYY-MM-DD`, the UTC day of `ms` (the date format of `auction_date_from`, spec "GET /vehicles"). */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** ms since the epoch of 00:00 UTC of a `YYYY-MM-DD` day. */
function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

/**
 * The `auction_date_from` of a search's next run: null to read from the head of its list (a new sweep), else the
 * UTC day of (sweep_from - WINDOW_EDGE_MS). The user's own `auction_date_from` / `auction_date_to` bound the
 * window: a start at or before theirs is the head of their list, and one after their last day means the sweep
 * is over (null).
 *
 * @param c the search's coverage. @param userFrom, userTo the search's own date bounds (YYYY-MM-DD) or undefined.
 * @returns YYYY-MM-DD or null. Throws nothing.
 */
export function windowFrom(c: SearchCoverage, userFrom?: unknown, userTo?: unknown): string | null {
  if (c.sweep_from === null) return null;
  const day = utcDay(c.sweep_from - WINDOW_EDGE_MS);
  if (typeof userFrom === 'string' && day <= userFrom) return null;
  if (typeof userTo === 'string' && day > userTo) return null;
  return day;
}

/** What one run read, for nextCoverage. */
export interface RunReading {
  /** The run's auction_date_from (windowFrom), null when it read from the head of the list. */
  from: string | null;
  /** It reached the end of the list (no next cursor). */
  reachedEnd: boolean;
  /** Auction time (ms) of the last record it read that had one; null when none. */
  lastAuctionAt: number | null;
  /**
   * It read all the pages a run may (max_pages). A run the budget or an error stopped sooner says nothing about how
   * many lots one day holds; absent: true.
   */
  full?: boolean;
}

/**
 * The coverage after a run that fetched something (docs/architecture.md "Saved searches and new matches").
 *
 * - The run continues the sweep's covered part when it started at the head of the list, or its window starts at
 *   least WINDOW_EDGE_MS before what was covered (always so for a window from windowFrom in an unbroken sweep).
 * - Reaching the end: the sweep is over (sweep_from null); if it was unbroken, the baseline is done.
 * - Cut short: the sweep continues after the last lot read; if unbroken and the baseline is not done, the covered
 *   part reaches that lot's auction time (exclusive: lots at the very same time may be on the next page).
 * - A run that made no progress (all it read was before where the sweep stood, e.g. more lots on one day than
 *   its pages hold) skips to the next day: the sweep goes on, but it is broken and makes no baseline. Unless it was
 *   cut short (not `full`): then nothing changes, and the next run reads the same window with more pages.
 *
 * @returns the new coverage. Throws nothing.
 */
export function nextCoverage(c: SearchCoverage, r: RunReading): SearchCoverage {
  const unbroken =
    r.from === null ||
    c.baseline_done ||
    (c.covered_until !== null && dayStart(r.from) + WINDOW_EDGE_MS <= c.covered_until);
  if (r.reachedEnd)
    return { baseline_done: c.baseline_done || unbroken, covered_until: null, sweep_from: null };
  const last = r.lastAuctionAt;
  if (last === null || (c.sweep_from !== null && last <= c.sweep_from)) {
    if (r.full === false) return c;
    const base = r.from !== null ? dayStart(r.from) + WINDOW_EDGE_MS : c.sweep_from;
    return {
      baseline_done: c.baseline_done,
      covered_until: c.covered_until,
      sweep_from: base === null ? null : base + 24 * HOUR,
    };
  }
  const covered = c.baseline_done || !unbroken ? c.covered_until : Math.max(last, c.covered_until ?? last);
  return { baseline_done: c.baseline_done, covered_until: covered, sweep_from: last };
}
