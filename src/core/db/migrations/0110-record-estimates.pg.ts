import { createHash } from 'node:crypto';
import type { PgClient, PgStep } from '../migrate';
import { withEstimates } from './0110-record-estimates';

/** Rows read per step, so a large store never holds every record in memory at once. */
const BATCH = 500;

type Row = {
  rowid: string | number;
  platform: string;
  normalized: string;
  raw: string | null;
  raw_z: Buffer | null;
};

/**
 * Whether SQLite's form selects this record: valid JSON, an object whose `pricing` is an object without
 * `repair_to_value` (json_valid and json_type there; PostgreSQL 15 has no JSON test that does not fail on bad text).
 */
function needsEstimates(normalized: string): boolean {
  let rec: unknown;
  try {
    rec = JSON.parse(normalized);
  } catch {
    return false;
  }
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) return false;
  const pricing = (rec as Record<string, unknown>)['pricing'];
  if (pricing === null || typeof pricing !== 'object' || Array.isArray(pricing)) return false;
  return !Object.hasOwn(pricing, 'repair_to_value');
}

/**
 * PostgreSQL form of 0110-record-estimates.ts: every stored record without the estimates gets them from its own raw
 * copy through the SQLite form's own function (withEstimates), so the rewritten JSON text and its `content_hash`
 * are the same on both engines. Lots are read in `rowid` order, BATCH at a time.
 */
export const pg: PgStep = async (c: PgClient) => {
  let after: string | number = 0;
  for (;;) {
    const { rows }: { rows: Row[] } = await c.query<Row>(
      'SELECT rowid, platform, normalized, raw, raw_z FROM lots WHERE rowid > $1 ORDER BY rowid LIMIT $2',
      [after, BATCH],
    );
    if (rows.length === 0) break;
    for (const r of rows) {
      after = r.rowid;
      if (!needsEstimates(r.normalized)) continue;
      const json = withEstimates(r);
      await c.query('UPDATE lots SET normalized = $1, content_hash = $2 WHERE rowid = $3', [
        json,
        createHash('sha256').update(json).digest('hex'),
        r.rowid,
      ]);
    }
  }
};
