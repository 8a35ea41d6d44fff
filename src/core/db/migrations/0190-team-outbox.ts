import type { Migration } from '../migrate';

/**
 * Which server claimed a delivery being sent (docs/architecture.md "Delivery"): `deliveries.claimed_by` is the id of
 * the team's server that set it `sending`, so a server that starts (or looks again) takes over only the messages of
 * a server that is gone, never one another server is sending right now. NULL where one process sends (the desktop
 * writes none), and for every row before this step. The partial index finds the rows being sent without reading
 * the whole log.
 */
export const migration: Migration = {
  version: 190,
  name: 'team-outbox',
  up(db) {
    db.exec(`
      ALTER TABLE deliveries ADD COLUMN claimed_by INTEGER;
      CREATE INDEX deliveries_sending ON deliveries (claimed_by) WHERE status = 'sending';
    `);
  },
};
