import type { PgStep } from '../migrate';

/** PostgreSQL form of 0170-team-personal.ts: each member's read state, settings, lot mutes and snoozes, channels. */
export const pg: PgStep = `
  CREATE TABLE alert_reads (
    user_id BIGINT NOT NULL,
    alert_id BIGINT NOT NULL,
    read_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, alert_id)
  );

  CREATE TABLE user_prefs (
    user_id BIGINT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, key)
  );

  CREATE TABLE lot_user_prefs (
    user_id BIGINT NOT NULL,
    lot_key TEXT NOT NULL,
    muted BIGINT NOT NULL DEFAULT 0,
    snooze_until BIGINT,
    snooze_until_event TEXT,
    snoozed_at BIGINT,
    max_bid_usd DOUBLE PRECISION,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, lot_key)
  );

  ALTER TABLE channels ADD COLUMN owner_id BIGINT;
  CREATE INDEX channels_owner ON channels (owner_id);
`;
