import type { PgStep } from '../migrate';

/** PostgreSQL form of 0010-initial.ts: key/value settings. */
export const pg: PgStep = `
  CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at BIGINT NOT NULL
  );
`;
