import type { Migration } from '../migrate';

/**
 * What a buyer sorts on, readable by SQL, per stored lot: `lot_facets`, one row per lot (kept by triggers on
 * `lots`) with the normalised record's damage, title document, run condition, keys, seller, export flag and sale
 * result (src/shared/vehicle.ts; the real service's `condition`, `sale_document`, `seller` and `auction` parts,
 * docs/service-contract.md), read from the JSON once when the record is written, so counting them over 20,000 lots
 * is a scan of small rows rather than 20,000 JSON parses. The Library counts and filters on its facet columns
 * (`f_*`), and the full-text index is rebuilt over `lots_facets` (lots joined with those rows) so "hail", "salvage"
 * or "runs and drives" find the lots whose record says so. The tokenizer now stems English words (porter), so "runs
 * and drives" matches the label "Run and Drive" as well as "RUNS AND DRIVES" without a list of phrases. The rows and
 * the index are filled here for every lot already stored. A record that is not valid JSON reads as no facts (NULLs)
 * rather than failing the write or a search.
 */

/** One of the facts' columns: its name and its SQL over a record `j`. */
export type FactCol = readonly [name: string, sql: (j: string) => string];

/**
 * The facts' columns in one engine's SQL, said once for both engines: `text(j, path)` reads the value at a dotted
 * path as text (a number's text, 1 or 0 for a boolean, NULL when missing), `yesNo(j, path)` 'yes' or 'no' for a
 * boolean and NULL otherwise. `fts`: the full-text columns added to the index (after FACT_BASE); `facets`: one value per
 * lot, NULL when the record does not say. The PostgreSQL form (0120-library-facets.pg.ts) passes its own readers.
 */
export function factColumns(
  text: (j: string, path: string) => string,
  yesNo: (j: string, path: string) => string,
): { fts: readonly FactCol[]; facets: readonly FactCol[] } {
  /** Non-null parts joined by a space ('' when none), for the full-text columns. */
  const joined = (j: string, ...paths: string[]) =>
    `trim(${paths.map((p) => `coalesce(${text(j, p)}, '')`).join(` || ' ' || `)})`;
  return {
    fts: [
      ['damage', (j) => joined(j, 'damage', 'secondary_damage')],
      ['title_document', (j) => joined(j, 'title_document.name', 'title_document.brand')],
      ['run_condition', (j) => joined(j, 'run_condition_label', 'run_condition')],
      ['seller', (j) => joined(j, 'seller.name', 'seller.type')],
      ['sale_result', (j) => joined(j, 'auction.last_sold_status')],
    ],
    facets: [
      ['f_damage', (j) => text(j, 'damage')],
      ['f_secondary_damage', (j) => text(j, 'secondary_damage')],
      ['f_title_document', (j) => text(j, 'title_document.name')],
      ['f_run_condition', (j) => `coalesce(${text(j, 'run_condition_label')}, ${text(j, 'run_condition')})`],
      ['f_keys', (j) => yesNo(j, 'has_key')],
      ['f_seller_type', (j) => text(j, 'seller.type')],
      ['f_export', (j) => yesNo(j, 'title_document.export')],
      ['f_sale_result', (j) => text(j, 'auction.last_sold_status')],
      ['f_sale_month', (j) => `substr(${text(j, 'auction.last_sold_day')}, 1, 7)`],
    ],
  };
}

/** The lot's own columns at the head of the full-text index, in its order. */
export const FACT_BASE = ['title', 'vin', 'lot_number', 'make', 'model', 'location', 'notes', 'tags'];

const { fts: FTS_COLS, facets: FACET_COLS } = factColumns(
  (j, path) => `json_extract(${j}, '$.${path}')`,
  (j, path) => `CASE json_type(${j}, '$.${path}') WHEN 'true' THEN 'yes' WHEN 'false' THEN 'no' END`,
);
const FTS = [...FACT_BASE, ...FTS_COLS.map(([n]) => n)];
/** The record of a row `r`, or '{}' when it is not valid JSON (json_extract would fail the whole statement). */
const rec = (r: string) => `(CASE WHEN json_valid(${r}.normalized) THEN ${r}.normalized ELSE '{}' END)`;
/** The values of FTS's columns for row `r` (new/old in a trigger). */
const values = (r: string) =>
  [...FACT_BASE.map((c) => `${r}.${c}`), ...FTS_COLS.map(([, sql]) => sql(rec(r)))].join(', ');

const FACTS = [...FTS_COLS, ...FACET_COLS];
/** The facts of row `r` (new/old in a trigger, lots in a SELECT). */
const facts = (r: string) => FACTS.map(([, sql]) => sql(rec(r))).join(', ');

export const migration: Migration = {
  version: 120,
  name: 'library-facets',
  up(db) {
    const cols = FTS.join(', ');
    const names = FACTS.map(([n]) => n).join(', ');
    db.exec(`
      CREATE TABLE lot_facets (
        lot_rowid INTEGER PRIMARY KEY,
        ${FACTS.map(([n]) => `${n} TEXT`).join(', ')}
      ) STRICT;
      INSERT INTO lot_facets (lot_rowid, ${names}) SELECT rowid, ${facts('lots')} FROM lots;
      CREATE TRIGGER lot_facets_ai AFTER INSERT ON lots BEGIN
        INSERT OR REPLACE INTO lot_facets (lot_rowid, ${names}) VALUES (new.rowid, ${facts('new')});
      END;
      CREATE TRIGGER lot_facets_au AFTER UPDATE OF normalized ON lots BEGIN
        INSERT OR REPLACE INTO lot_facets (lot_rowid, ${names}) VALUES (new.rowid, ${facts('new')});
      END;
      CREATE TRIGGER lot_facets_ad AFTER DELETE ON lots BEGIN
        DELETE FROM lot_facets WHERE lot_rowid = old.rowid;
      END;
      CREATE VIEW lots_facets AS SELECT lots.rowid AS lot_rowid, ${FACT_BASE.map((c) => `lots.${c}`).join(', ')},
        ${FTS_COLS.map(([n]) => `f.${n}`).join(', ')}
        FROM lots JOIN lot_facets f ON f.lot_rowid = lots.rowid;

      DROP TRIGGER lots_ai;
      DROP TRIGGER lots_ad;
      DROP TRIGGER lots_au;
      DROP TABLE lots_fts;
      CREATE VIRTUAL TABLE lots_fts USING fts5(
        ${cols},
        content = 'lots_facets', content_rowid = 'lot_rowid',
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER lots_ai AFTER INSERT ON lots BEGIN
        INSERT INTO lots_fts(rowid, ${cols}) VALUES (new.rowid, ${values('new')});
      END;
      CREATE TRIGGER lots_ad AFTER DELETE ON lots BEGIN
        INSERT INTO lots_fts(lots_fts, rowid, ${cols}) VALUES ('delete', old.rowid, ${values('old')});
      END;
      CREATE TRIGGER lots_au AFTER UPDATE OF ${FACT_BASE.join(', ')}, normalized ON lots BEGIN
        INSERT INTO lots_fts(lots_fts, rowid, ${cols}) VALUES ('delete', old.rowid, ${values('old')});
        INSERT INTO lots_fts(rowid, ${cols}) VALUES (new.rowid, ${values('new')});
      END;
      INSERT INTO lots_fts(lots_fts) VALUES ('rebuild');
    `);
  },
};
