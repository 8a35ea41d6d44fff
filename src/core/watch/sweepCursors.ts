import type { SavedSearchRow } from '../db/store';

/*
 * Where each saved search's sweep stopped, as the service's own cursor (docs/architecture.md "Saved searches and new
 * matches"). A sweep goes on with an `auction_date_from` window (coverage.ts windowFrom), which starts up to a day
 * and a half of sale dates before the last lot read (WINDOW_EDGE_MS): on an allowance that reads each list only a few
 * times a day, those pages are most of a run. The cursor the run stopped at (`meta.next_cursor`) goes on from the
 * very next lot: the real service's cursor is Laravel's, the auction date and update time of the edge record
 * (docs/service-contract.md "Cursor"), so it stays good as the list changes; a lot updated since moves later in the
 * list and is read again, never skipped.
 *
 * Stored with the search's coverage (`saved_searches.sweep_cursor`, written only beside the `sweep_from` it belongs
 * to), so it outlives a restart of the app. An edited search (its coverage is reset), a run that reached the end of
 * the list or a failed page clears it, and the next run reads the window, which is always correct. Which lots are
 * new matches is decided by the coverage alone, never by the cursor.
 */

/**
 * The cursor for the next page of search `s`'s sweep: the one its last run stopped at, while its coverage still
 * stands where that run left it (a `sweep_from` beside it); else undefined (read the window). Throws nothing.
 */
export function sweepCursorOf(s: Pick<SavedSearchRow, 'sweep_from' | 'sweep_cursor'>): string | undefined {
  return s.sweep_from !== null && s.sweep_cursor !== null ? s.sweep_cursor : undefined;
}
