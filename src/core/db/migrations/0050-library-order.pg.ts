import type { PgStep } from '../migrate';

/** PostgreSQL form of 0050-library-order.ts: the Library's default order read straight off an index. */
export const pg: PgStep = 'CREATE INDEX lots_last_observed ON lots (last_observed_at);';
