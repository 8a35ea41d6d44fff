import type { Migration } from '../migrate';

/**
 * The Library's default list (every stored lot, most recently seen first) and the CSV export of everything read
 * lots in `last_observed_at` order. Without an index that is a scan of the whole table and a sort on every visit
 * (about 140 ms at 20,000 lots); with it, a page is read straight off the index in order.
 */
export const migration: Migration = {
  version: 50,
  name: 'library-order',
  up(db) {
    db.exec('CREATE INDEX lots_last_observed ON lots(last_observed_at);');
  },
};
