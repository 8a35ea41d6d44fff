import type { PgStep } from '../migrate';

/** PostgreSQL form of 0100-market-comps.ts: one row per band of an Ended search. */
export const pg: PgStep = `
  CREATE TABLE market_comps (
    band TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    platform TEXT NOT NULL,
    make TEXT NOT NULL,
    model TEXT NOT NULL,
    year_from BIGINT NOT NULL,
    year_to BIGINT NOT NULL,
    fetched_at BIGINT,
    lot_keys TEXT NOT NULL DEFAULT '[]',
    requests BIGINT NOT NULL DEFAULT 0,
    pages BIGINT NOT NULL DEFAULT 0,
    error TEXT,
    error_at BIGINT
  );
`;
