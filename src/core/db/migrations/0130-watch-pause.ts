import type { Migration } from '../migrate';

/**
 * A watch the buyer paused (the watchlist's bulk "Pause"): `watches.paused` 1 means the watcher skips it (no
 * request is spent on it) until it is resumed; "Check now" still checks it on demand. Existing watches stay active.
 */
export const migration: Migration = {
  version: 130,
  name: 'watch-pause',
  up(db) {
    db.exec('ALTER TABLE watches ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;');
  },
};
