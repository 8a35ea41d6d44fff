import type { Migration } from '../migrate';

/**
 * Storage that stays bounded (docs/architecture.md "Retention"):
 * - `lots.content_hash`: the hash of the lot's normalised record as stored (photo list capped). A poll whose record
 *   has the same content (the real service's records carry a countdown that differs on every answer) stores no new
 *   copy: the lot's last observation gets `last_seen_at` (ms) and one more `seen` instead of a new row. NULL for lots
 *   stored before this version, so their next observation is stored once more.
 * - `observations.last_seen_at`, `observations.seen`: when this content was last seen and how many polls saw it.
 * - `lots.raw_z`, `observations.raw_z`: the raw record as deflated JSON (a fifth of its text; record lists repeat
 *   their photo addresses). Where set, `raw` is '' (lots) or NULL (observations). The newest observation of a lot
 *   holds no record: it is the lot's own, moved into the observation when the lot next changes, so each record
 *   received is stored once. Rows written before keep their text.
 * - `lots.pruned_at`: when the retention pass slimmed an old lot nobody follows to its sale result (raw record and
 *   observations dropped, the timeline and the normalised record kept for comparable sales); NULL while whole.
 * - indexes the retention pass reads by: lots by their sale time, poll runs and read alerts by age.
 * Nothing is deleted here: the first retention pass after the upgrade prunes, in small batches.
 */
export const migration: Migration = {
  version: 90,
  name: 'storage-retention',
  up(db) {
    db.exec(`
      ALTER TABLE lots ADD COLUMN content_hash TEXT;
      ALTER TABLE lots ADD COLUMN pruned_at INTEGER;
      ALTER TABLE observations ADD COLUMN last_seen_at INTEGER;
      ALTER TABLE observations ADD COLUMN seen INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE lots ADD COLUMN raw_z BLOB;
      ALTER TABLE observations ADD COLUMN raw_z BLOB;
      CREATE INDEX poll_runs_started ON poll_runs(started_at);
      CREATE INDEX alerts_read ON alerts(read_at) WHERE read_at IS NOT NULL;
    `);
  },
};
