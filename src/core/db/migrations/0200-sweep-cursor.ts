import type { Migration } from '../migrate';

/**
 * Where a saved search's sweep stopped, as the service's own cursor (`meta.next_cursor`, docs/service-contract.md
 * "Cursor"), beside the `sweep_from` it belongs to (docs/architecture.md "Saved searches and new matches"). Kept in
 * memory before, so a restart of the app fell back to the window and read up to a day and a half of sale dates
 * again: on a free key's 3 requests a day, a day's allowance. NULL: no cursor (read the window).
 */
export const migration: Migration = {
  version: 200,
  name: 'sweep-cursor',
  up(db) {
    db.exec(`ALTER TABLE saved_searches ADD COLUMN sweep_cursor TEXT;`);
  },
};
