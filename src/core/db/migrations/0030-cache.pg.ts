import type { PgStep } from '../migrate';

/** PostgreSQL form of 0030-cache.ts: the key/value cache of service answers and one-time flags. */
export const pg: PgStep = `
  CREATE TABLE cache (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at BIGINT NOT NULL
  );
`;
