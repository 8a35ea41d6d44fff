import type { Database } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readIaaiFigures } from '../../api/fields';
import { isObj, Reader } from '../../api/reader';
import { repairToValue } from '../../../shared/estimates';
import type { Migration } from '../migrate';
import { unpackRecord } from '../lotsRepo';

/** Rows read and rewritten per step, so a large file never holds every record in memory at once. */
const BATCH = 500;

interface Row {
  rowid: number;
  platform: string;
  normalized: string;
  raw: string | null;
  raw_z: Buffer | null;
}

/**
 * The estimates as fields of every stored record (docs/service-contract.md "The estimates in the normalised
 * record"): a record stored before `pricing.acv_usd`, `est_repair_usd` and `repair_to_value` were read gets them,
 * read from its own raw copy by the normaliser's reader (api/fields.ts readIaaiFigures; Copart rows get nulls without
 * reading their raw copy), so the Library's filters, the CSV, the lot page and the rule see an old lot as a new one.
 * `content_hash` follows the rewritten record, so the next poll of an unchanged lot is no new observation. A record
 * that is not a JSON object with a `pricing` object is left as it is. Runs inside the migration transaction.
 */
export const migration: Migration = {
  version: 110,
  name: 'record-estimates',
  up(db: Database) {
    const page = db.prepare<[number, number], Row>(
      `SELECT rowid, platform, normalized, raw, raw_z FROM lots
       WHERE rowid > ? AND json_valid(normalized) AND json_type(normalized, '$.pricing') = 'object'
         AND json_type(normalized, '$.pricing.repair_to_value') IS NULL
       ORDER BY rowid LIMIT ?`,
    );
    const write = db.prepare<[string, string, number]>(
      'UPDATE lots SET normalized = ?, content_hash = ? WHERE rowid = ?',
    );
    let after = 0;
    for (;;) {
      const rows = page.all(after, BATCH);
      if (rows.length === 0) break;
      for (const r of rows) {
        after = r.rowid;
        const json = withEstimates(r);
        write.run(json, createHash('sha256').update(json).digest('hex'), r.rowid);
      }
    }
  },
};

/**
 * The normalised record of stored lot `r` (its `normalized` a JSON object with a `pricing` object) with
 * `pricing.acv_usd`, `est_repair_usd` (USD) and `repair_to_value` read from its raw copy (IAAI; Copart gets nulls),
 * as JSON text. Both engines' forms of this step use it, so the rewritten text is the same on both.
 * @throws SyntaxError when `normalized` is not JSON (the callers select records that are).
 */
export function withEstimates(r: Pick<Row, 'platform' | 'normalized' | 'raw' | 'raw_z'>): string {
  const rec = JSON.parse(r.normalized) as { pricing: Record<string, unknown> };
  let figures = { acv_usd: null as number | null, est_repair_usd: null as number | null };
  if (r.platform === 'iaai') {
    let raw: unknown = null;
    try {
      raw = JSON.parse(unpackRecord(r) ?? 'null');
    } catch {
      // A raw copy that does not read gives unknown figures, as a record without them.
    }
    figures = readIaaiFigures(new Reader(isObj(raw) ? raw : {}, '', []).sub('details'));
  }
  rec.pricing = {
    ...rec.pricing,
    acv_usd: figures.acv_usd,
    est_repair_usd: figures.est_repair_usd,
    repair_to_value: repairToValue(figures.acv_usd, figures.est_repair_usd),
  };
  return JSON.stringify(rec);
}
