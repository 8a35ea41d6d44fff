import type { Database } from 'better-sqlite3';
import type { Migration } from '../migrate';

/**
 * Sale results as the real service reports them (docs/service-contract.md "Sale results"): a lot keeps its
 * `last_sold_status` ("Sold", "Sold on Approval"), and the timeline's old `sold` change becomes `sale_result` with an
 * `outcome` (sold | sold_on_approval | ended_unsold), so an unsold end is never labelled "Sold". Old rows are
 * rewritten, not dropped: their outcome is read from the price they carried and the lot's stored state word.
 * Alert rules that named `sold` (notify kinds, "snooze until it sells") name `sale_result` afterwards.
 */
export const migration: Migration = {
  version: 40,
  name: 'sale-result',
  up(db) {
    db.exec(`
      ALTER TABLE lots ADD COLUMN last_sold_status TEXT;
      ALTER TABLE changes ADD COLUMN outcome TEXT
        CHECK (outcome IS NULL OR outcome IN ('open', 'sold', 'sold_on_approval', 'ended_unsold'));

      UPDATE changes SET
        kind = 'sale_result',
        outcome = CASE
          WHEN (SELECT lower(coalesce(l.state, '')) FROM lots l WHERE l.lot_key = changes.lot_key)
            IN ('approval', 'on_approval', 'sold_on_approval') THEN 'sold_on_approval'
          WHEN after IS NOT NULL AND after <> 'null' AND CAST(after AS REAL) > 0 THEN 'sold'
          WHEN (SELECT lower(coalesce(l.state, '')) FROM lots l WHERE l.lot_key = changes.lot_key) = 'sold' THEN 'sold'
          ELSE 'ended_unsold'
        END
      WHERE kind = 'sold';

      UPDATE alerts SET kind = 'sale_result' WHERE kind = 'sold';
    `);
    renameSoldInRules(db, 'saved_searches');
    renameSoldInRules(db, 'watches');
  },
};

/** Rewrites `sold` to `sale_result` in the `kinds` list and `snooze_until_event` of every stored rule set. */
function renameSoldInRules(db: Database, table: 'saved_searches' | 'watches'): void {
  const rows = db.prepare(`SELECT id, rules FROM ${table}`).all() as { id: number; rules: string }[];
  const update = db.prepare(`UPDATE ${table} SET rules = ? WHERE id = ?`);
  for (const row of rows) {
    const renamed = soldRenamed(row.rules);
    if (renamed !== null) update.run(renamed, row.id);
  }
}

/**
 * A stored rule set (JSON text) with `sold` renamed `sale_result` in its `kinds` list and `snooze_until_event`, or
 * null when it names neither, is not a JSON object, or does not parse. Both engines' forms of this step use it, so
 * the rewritten text is the same on both.
 */
export function soldRenamed(text: string): string | null {
  let rules: unknown;
  try {
    rules = JSON.parse(text);
  } catch {
    // An unreadable rule set is left as it is: the store already falls back to the defaults when reading it.
    return null;
  }
  if (rules === null || typeof rules !== 'object' || Array.isArray(rules)) return null;
  const r = rules as Record<string, unknown>;
  let changed = false;
  if (Array.isArray(r['kinds'])) {
    const kinds = r['kinds'].map((k) => (k === 'sold' ? 'sale_result' : k));
    changed = kinds.some((k, i) => k !== (r['kinds'] as unknown[])[i]);
    r['kinds'] = kinds;
  }
  if (r['snooze_until_event'] === 'sold') {
    r['snooze_until_event'] = 'sale_result';
    changed = true;
  }
  return changed ? JSON.stringify(r) : null;
}
