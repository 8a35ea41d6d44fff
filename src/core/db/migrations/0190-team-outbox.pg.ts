import type { PgStep } from '../migrate';

/**
 * PostgreSQL form of 0190-team-outbox.ts: which server claimed a delivery being sent, and the sequence that numbers
 * a team's server processes (core/team/leader.ts takes one number per process; PostgreSQL only: the desktop is one
 * process).
 */
export const pg: PgStep = `
  ALTER TABLE deliveries ADD COLUMN claimed_by BIGINT;
  CREATE INDEX deliveries_sending ON deliveries (claimed_by) WHERE status = 'sending';
  CREATE SEQUENCE lotwatch_servers AS integer;
`;
