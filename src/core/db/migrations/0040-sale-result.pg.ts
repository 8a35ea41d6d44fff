import type { PgClient, PgStep } from '../migrate';
import { soldRenamed } from './0040-sale-result';

/**
 * The number SQLite's `CAST(after AS REAL)` reads from a text: its leading number (spaces skipped), 0 when it has
 * none, where PostgreSQL's own cast would fail the whole step on a text that is not a number. NUMERIC, so a huge
 * exponent compares rather than overflowing.
 */
const leadingNumber = (col: string) =>
  `coalesce(substring(${col} from '^\\s*([-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?)')::numeric, 0)`;

const SQL = `
  ALTER TABLE lots ADD COLUMN last_sold_status TEXT;
  ALTER TABLE changes ADD COLUMN outcome TEXT
    CHECK (outcome IS NULL OR outcome IN ('open', 'sold', 'sold_on_approval', 'ended_unsold'));

  UPDATE changes SET
    kind = 'sale_result',
    outcome = CASE
      WHEN (SELECT lower(coalesce(l.state, '')) FROM lots l WHERE l.lot_key = changes.lot_key)
        IN ('approval', 'on_approval', 'sold_on_approval') THEN 'sold_on_approval'
      WHEN after IS NOT NULL AND after <> 'null' AND ${leadingNumber('after')} > 0 THEN 'sold'
      WHEN (SELECT lower(coalesce(l.state, '')) FROM lots l WHERE l.lot_key = changes.lot_key) = 'sold' THEN 'sold'
      ELSE 'ended_unsold'
    END
  WHERE kind = 'sold';

  UPDATE alerts SET kind = 'sale_result' WHERE kind = 'sold';
`;

/**
 * PostgreSQL form of 0040-sale-result.ts: the same columns and the same rewrite of old `sold` changes and alerts.
 * The stored rule sets are rewritten in TypeScript by the SQLite form's own function (soldRenamed), so the JSON text
 * that comes back is the same on both engines (jsonb would re-space it).
 */
export const pg: PgStep = async (c: PgClient) => {
  await c.query(SQL);
  for (const table of ['saved_searches', 'watches'] as const) {
    const { rows } = await c.query<{ id: string | number; rules: string }>(`SELECT id, rules FROM ${table}`);
    for (const row of rows) {
      const renamed = soldRenamed(row.rules);
      if (renamed !== null) await c.query(`UPDATE ${table} SET rules = $1 WHERE id = $2`, [renamed, row.id]);
    }
  }
};
