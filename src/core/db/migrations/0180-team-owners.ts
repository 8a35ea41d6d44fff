import type { Migration } from '../migrate';

/**
 * Who made and who last changed the team's things, and who spent each request (docs/architecture.md "A team on one
 * server"). `created_by` on saved searches, watches and call watches and `updated_by` on saved searches and watches
 * hold the member's id in `users` (migration 160); `request_log.user_id` the member whose call sent the request.
 * NULL is the local owner (the desktop's one user, or the watcher's own scheduled work) and every row made before
 * this migration, so a desktop file reads exactly as before. No foreign key: the name is looked up in `users` when
 * shown, and a row whose member is not there reads as nobody's.
 */
export const migration: Migration = {
  version: 180,
  name: 'team-owners',
  up(db) {
    db.exec(`
      ALTER TABLE saved_searches ADD COLUMN created_by INTEGER;
      ALTER TABLE saved_searches ADD COLUMN updated_by INTEGER;
      ALTER TABLE watches ADD COLUMN created_by INTEGER;
      ALTER TABLE watches ADD COLUMN updated_by INTEGER;
      ALTER TABLE call_watches ADD COLUMN created_by INTEGER;
      ALTER TABLE request_log ADD COLUMN user_id INTEGER;
    `);
  },
};
