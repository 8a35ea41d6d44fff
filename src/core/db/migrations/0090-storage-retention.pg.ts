import type { PgStep } from '../migrate';

/**
 * PostgreSQL form of 0090-storage-retention.ts: the content hash, the deflated raw copies, the observation's
 * `seen` count and the retention pass's indexes. Nothing is deleted here either.
 */
export const pg: PgStep = `
  ALTER TABLE lots ADD COLUMN content_hash TEXT;
  ALTER TABLE lots ADD COLUMN pruned_at BIGINT;
  ALTER TABLE observations ADD COLUMN last_seen_at BIGINT;
  ALTER TABLE observations ADD COLUMN seen BIGINT NOT NULL DEFAULT 1;
  ALTER TABLE lots ADD COLUMN raw_z BYTEA;
  ALTER TABLE observations ADD COLUMN raw_z BYTEA;
  CREATE INDEX poll_runs_started ON poll_runs (started_at);
  CREATE INDEX alerts_read ON alerts (read_at) WHERE read_at IS NOT NULL;
`;
