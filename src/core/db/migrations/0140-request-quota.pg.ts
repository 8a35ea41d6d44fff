import type { PgStep } from '../migrate';

/** PostgreSQL form of 0140-request-quota.ts: whose quota each logged request spent. */
export const pg: PgStep = `
  ALTER TABLE request_log ADD COLUMN quota_id TEXT;
  CREATE INDEX request_log_quota_at ON request_log (quota_id, at);
`;
