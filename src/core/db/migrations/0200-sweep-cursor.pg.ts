import type { PgStep } from '../migrate';

/** PostgreSQL form of 0200-sweep-cursor.ts: where a saved search's sweep stopped, as the service's cursor. */
export const pg: PgStep = `
  ALTER TABLE saved_searches ADD COLUMN sweep_cursor TEXT;
`;
