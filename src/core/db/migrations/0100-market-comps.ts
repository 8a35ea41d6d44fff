import type { Migration } from '../migrate';

/**
 * Market comparables (docs/architecture.md "The buyer's desk"): one row per band of an Ended search Lotwatch made,
 * so every lot of the same platform, make, model and model years is served by one answer for a day.
 * - `band`: the row's key, `<source>|<platform>|<make>|<model>|<year_from>-<year_to>` (make and model upper case);
 *   `source` is "demo" or the service URL, so the Demo market's answers never stand for the real service's.
 * - `fetched_at` (ms): when the last answer came; `lot_keys`: a JSON array of the lot keys it returned (stored as
 *   lots with their sale results through the search path); `requests`, `pages`: what it spent.
 * - `error`, `error_at` (ms): the last failed attempt (a sentence), kept beside the answer it did not replace.
 */
export const migration: Migration = {
  version: 100,
  name: 'market-comps',
  up(db) {
    db.exec(`
      CREATE TABLE market_comps (
        band TEXT PRIMARY KEY,
        source TEXT NOT NULL,
        platform TEXT NOT NULL,
        make TEXT NOT NULL,
        model TEXT NOT NULL,
        year_from INTEGER NOT NULL,
        year_to INTEGER NOT NULL,
        fetched_at INTEGER,
        lot_keys TEXT NOT NULL DEFAULT '[]',
        requests INTEGER NOT NULL DEFAULT 0,
        pages INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        error_at INTEGER
      ) STRICT;
    `);
  },
};
