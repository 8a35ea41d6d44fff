import type { PgStep } from '../migrate';

/** PostgreSQL form of 0180-team-owners.ts: who made and last changed each search and watch, who spent each request. */
export const pg: PgStep = `
  ALTER TABLE saved_searches ADD COLUMN created_by BIGINT;
  ALTER TABLE saved_searches ADD COLUMN updated_by BIGINT;
  ALTER TABLE watches ADD COLUMN created_by BIGINT;
  ALTER TABLE watches ADD COLUMN updated_by BIGINT;
  ALTER TABLE call_watches ADD COLUMN created_by BIGINT;
  ALTER TABLE request_log ADD COLUMN user_id BIGINT;
`;
