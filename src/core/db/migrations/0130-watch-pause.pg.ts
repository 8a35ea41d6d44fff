import type { PgStep } from '../migrate';

/** PostgreSQL form of 0130-watch-pause.ts: a watch the buyer paused. */
export const pg: PgStep = 'ALTER TABLE watches ADD COLUMN paused BIGINT NOT NULL DEFAULT 0;';
