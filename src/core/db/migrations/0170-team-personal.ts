import type { Migration } from '../migrate';

/**
 * What belongs to each member of a team (docs/architecture.md "Two engines"): the alerts are the team's, raised once,
 * but each member keeps their own read state, lot mutes and snoozes, personal settings and alert channels. Created
 * on the desktop's file too (empty) so both engines keep one schema; the desktop's one user is user id NULL and
 * keeps using `alerts.read_at`, the watch rules and `settings` as before.
 * - `alert_reads`: one row per alert a member has read (no row: unread), `read_at` in ms.
 * - `user_prefs`: a member's personal settings, one row per key (the value as JSON, as in `settings`).
 * - `lot_user_prefs`: a member's own mute, snooze (`snoozed_at` is when it was set, so alerts raised before it are
 *   not held) and max bid (USD) of a lot.
 * - `channels.owner_id`: the member a channel belongs to; NULL is the local owner's (the desktop's every channel).
 * `user_id` points at a team member's account; no foreign key, so the table of accounts stays its own migration's.
 */
export const migration: Migration = {
  version: 170,
  name: 'team-personal',
  up(db) {
    db.exec(`
      CREATE TABLE alert_reads (
        user_id INTEGER NOT NULL,
        alert_id INTEGER NOT NULL,
        read_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, alert_id)
      ) STRICT;

      CREATE TABLE user_prefs (
        user_id INTEGER NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, key)
      ) STRICT;

      CREATE TABLE lot_user_prefs (
        user_id INTEGER NOT NULL,
        lot_key TEXT NOT NULL,
        muted INTEGER NOT NULL DEFAULT 0,
        snooze_until INTEGER,
        snooze_until_event TEXT,
        snoozed_at INTEGER,
        max_bid_usd REAL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, lot_key)
      ) STRICT;

      ALTER TABLE channels ADD COLUMN owner_id INTEGER;
      CREATE INDEX channels_owner ON channels(owner_id);
    `);
  },
};
