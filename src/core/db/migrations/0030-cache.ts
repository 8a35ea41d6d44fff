import type { Migration } from '../migrate';

/** A small key/value cache for service answers kept for offline use (filters metadata) and one-time flags. */
export const migration: Migration = {
  version: 30,
  name: 'cache',
  up(db) {
    db.exec(`
      CREATE TABLE cache (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
