import type { Migration } from '../migrate';

/**
 * Alert channels (docs/architecture.md "Delivery"):
 * - `channels`: email, ntfy and webhook channels. `settings` is the channel's JSON (ChannelSettingsSchema: name,
 *   kinds, quiet hours, type config), never a secret (those are rows of `secrets`, named `channel:<id>`). `cursor` is
 *   the last alert id this channel has routed: a new alert is routed to a channel once, whenever the outbox gets to
 *   it, and a new or re-enabled channel starts from now instead of sending the whole inbox. `failures` counts failed
 *   attempts in a row (the self-monitoring alert goes at 3); `failing_since` is when that streak began.
 * - `deliveries`: the per-channel outbox and its log, one row per alert and channel (UNIQUE: routed once).
 *   `status` held | pending | sending | sent | failed | skipped; `not_before` when it may go (ms); `message_key`
 *   the id of the message that carries it, the same on every attempt (a quiet-hours digest carries several rows).
 *   A row left `sending` by a stop is checked with the receiver, or sent again under the same key, at the next start.
 */
export const migration: Migration = {
  version: 80,
  name: 'alert-channels',
  up(db) {
    db.exec(`
      CREATE TABLE channels (
        id INTEGER PRIMARY KEY,
        type TEXT NOT NULL CHECK (type IN ('email', 'ntfy', 'webhook')),
        settings TEXT NOT NULL,
        cursor INTEGER NOT NULL DEFAULT 0,
        failures INTEGER NOT NULL DEFAULT 0,
        failing_since INTEGER,
        last_error TEXT,
        last_sent_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE deliveries (
        id INTEGER PRIMARY KEY,
        alert_id INTEGER NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
        channel_id INTEGER NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('held', 'pending', 'sending', 'sent', 'failed', 'skipped')),
        not_before INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        message_key TEXT,
        detail TEXT,
        created_at INTEGER NOT NULL,
        attempted_at INTEGER,
        sent_at INTEGER,
        UNIQUE (alert_id, channel_id)
      );
      CREATE INDEX deliveries_due ON deliveries (channel_id, status, not_before);
      CREATE INDEX deliveries_alert ON deliveries (alert_id);
    `);
  },
};
