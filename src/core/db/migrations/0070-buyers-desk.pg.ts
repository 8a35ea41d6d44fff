import type { PgStep } from '../migrate';

/** The columns SQLite's `lots_fts` indexes from this version. */
const FTS = ['title', 'vin', 'lot_number', 'make', 'model', 'location', 'notes', 'tags'];

/**
 * PostgreSQL form of 0070-buyers-desk.ts: `lots.tags`, the full-text column `lots.fts` made again with it (the
 * counterpart of rebuilding `lots_fts`; PostgreSQL computes it for every stored lot), `lot_shipping`, and the index
 * comparable sales read by. SQLite's `make COLLATE NOCASE, model COLLATE NOCASE` is `lower(make), lower(model)` here:
 * a query that compares without case writes `lower(make) = lower($1)` to use it.
 */
export const pg: PgStep = `
  ALTER TABLE lots ADD COLUMN tags TEXT NOT NULL DEFAULT '';

  ALTER TABLE lots DROP COLUMN fts;
  ALTER TABLE lots ADD COLUMN fts tsvector GENERATED ALWAYS AS (
    to_tsvector('simple'::regconfig, ${FTS.map((c) => `coalesce(${c}, '')`).join(` || ' ' || `)})
  ) STORED;
  CREATE INDEX lots_fts ON lots USING gin (fts);

  CREATE TABLE lot_shipping (
    lot_key TEXT NOT NULL,
    port TEXT NOT NULL,
    price_usd DOUBLE PRECISION,
    currency TEXT,
    fetched_at BIGINT NOT NULL,
    PRIMARY KEY (lot_key, port)
  );

  CREATE INDEX lots_make_model ON lots (lower(make), lower(model), year);
`;
