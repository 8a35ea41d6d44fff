import type { Migration } from '../migrate';

/** The first schema: key/value settings. Later issues add the watch tables in their own migrations. */
export const migration: Migration = {
  version: 10,
  name: 'initial',
  up(db) {
    db.exec(`
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
