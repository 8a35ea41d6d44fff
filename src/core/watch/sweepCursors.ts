import { BadRequestError, ValidationError } from '../api/errors';
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
 * the list or a failed page clears it, and the next run reads the window, which is always correct; a stored cursor
 * the service refuses (refusesCursor) costs one request and the same run reads its window. Which lots are new
 * matches is decided by the coverage alone, never by the cursor.
 */

/**
 * The cursor for the next page of search `s`'s sweep: the one its last run stopped at, while its coverage still
 * stands where that run left it (a `sweep_from` beside it); else undefined (read the window). Throws nothing.
 */
export function sweepCursorOf(s: Pick<SavedSearchRow, 'sweep_from' | 'sweep_cursor'>): string | undefined {
  return s.sweep_from !== null && s.sweep_cursor !== null ? s.sweep_cursor : undefined;
}

/**
 * Whether `e` is the service refusing a request's parameters as invalid: 400 ("one or more parameters invalid") or
 * 422 ("validation failure"), the two statuses the spec's "Errors" gives for a bad parameter. The real service does
 * not say which one answers a cursor it no longer takes, so a stored sweep cursor refused with either is retried from
 * the window. Other 4xx statuses the client also reads as BadRequestError (405, 410, …) are not a parameter's fault.
 * Nor is a 5xx: a failing service says nothing of the cursor, the client has already retried it, and asking again
 * from the window within the same run would spend more requests (one is a third of a free key's day) on an outage;
 * the page fails like any other, its cursor is cleared, and the next run reads the window. Throws nothing.
 */
export function refusesCursor(e: unknown): boolean {
  return e instanceof ValidationError || (e instanceof BadRequestError && e.status === 400);
}
