import type { Migration } from '../migrate';

/**
 * Where a saved search's reading stands (docs/architecture.md "Saved searches and new matches"): `covered_until`
 * (ms, an auction time) is how far down the result list, ordered by auction date, complete page sequences have
 * read while the search has no full baseline yet; `sweep_from` (ms, an auction time) is where the next run
 * continues reading a list too long for one run, NULL to start at the list's head.
 *
 * A search whose baseline came from a run cut short (max_pages, the budget, an error) was marked done all the same,
 * and its unread lots later arrived as false new matches: a search that never had a complete run starts its
 * baseline again, keeping the lots it has seen as members.
 */
export const migration: Migration = {
  version: 60,
  name: 'search-coverage',
  up(db) {
    db.exec(`
      ALTER TABLE saved_searches ADD COLUMN covered_until INTEGER;
      ALTER TABLE saved_searches ADD COLUMN sweep_from INTEGER;
      UPDATE saved_searches SET baseline_done = 0 WHERE baseline_done = 1 AND NOT EXISTS (
        SELECT 1 FROM poll_runs WHERE poll_runs.target = 'search:' || saved_searches.id AND poll_runs.complete = 1);
    `);
  },
};
