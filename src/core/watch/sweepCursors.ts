import type { SearchCoverage } from '../db/searchesRepo';

/**
 * Where each saved search's sweep stopped, as the service's own cursor (docs/architecture.md "Saved searches and new
 * matches"). A sweep goes on with an `auction_date_from` window (coverage.ts windowFrom), which starts up to a day
 * and a half of sale dates before the last lot read (WINDOW_EDGE_MS): on an allowance that reads each list only a few
 * times a day, those pages are most of a run. The cursor the run stopped at (`meta.next_cursor`) goes on from the
 * very next lot: the real service's cursor is Laravel's, the auction date and update time of the edge record
 * (docs/service-contract.md "Cursor"), so it stays good as the list changes; a lot updated since moves later in the
 * list and is read again, never skipped.
 *
 * Kept in memory only: a start, an edited search (its coverage is reset) or a failed run falls back to the window,
 * which is always correct. Which lots are new matches is decided by the coverage alone, never by the cursor.
 */
export class SweepCursors {
  private readonly kept = new Map<number, { sweepFrom: number; cursor: string }>();

  /**
   * The cursor for the next page of search `id`'s sweep, when the search's coverage `c` still stands where the run
   * that left it ended (its `sweep_from`, ms); else undefined (read the window). Throws nothing.
   */
  resume(id: number, c: SearchCoverage): string | undefined {
    const k = this.kept.get(id);
    return k && c.sweep_from !== null && k.sweepFrom === c.sweep_from ? k.cursor : undefined;
  }

  /**
   * After a run of search `id` that stored coverage `c`: keeps `next` (the cursor of the page after the last one it
   * read; null when the run reached the end of the list) for the next run, or forgets the search. Throws nothing.
   */
  keep(id: number, c: SearchCoverage, next: string | null): void {
    if (next !== null && c.sweep_from !== null) this.kept.set(id, { sweepFrom: c.sweep_from, cursor: next });
    else this.forget(id);
  }

  /** Forgets search `id`'s cursor (a page of its run failed): its next run reads the window. Throws nothing. */
  forget(id: number): void {
    this.kept.delete(id);
  }
}
