import type { PgStep } from '../migrate';

/**
 * PostgreSQL form of 0060-search-coverage.ts: the coverage columns, and the baseline started again for a search
 * that never had a complete run.
 */
export const pg: PgStep = `
  ALTER TABLE saved_searches ADD COLUMN covered_until BIGINT;
  ALTER TABLE saved_searches ADD COLUMN sweep_from BIGINT;
  UPDATE saved_searches SET baseline_done = 0 WHERE baseline_done = 1 AND NOT EXISTS (
    SELECT 1 FROM poll_runs WHERE poll_runs.target = 'search:' || saved_searches.id AND poll_runs.complete = 1);
`;
