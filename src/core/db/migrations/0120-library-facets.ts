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

/** One of the facts' columns: its name and its SQL over a JSON record `j`. */
type Col = readonly [name: string, sql: (j: string) => string];

const text = (j: string, path: string) => `json_extract(${j}, '$.${path}')`;
/** Non-null parts joined by a space ('' when none), for the full-text columns. */
const joined = (j: string, ...paths: string[]) =>
  `trim(${paths.map((p) => `coalesce(${text(j, p)}, '')`).join(` || ' ' || `)})`;
const yesNo = (j: string, path: string) =>
  `CASE json_type(${j}, '$.${path}') WHEN 'true' THEN 'yes' WHEN 'false' THEN 'no' END`;

/** The full-text columns added to the index (after title, vin, lot_number, make, model, location, notes, tags). */
const FTS_COLS: readonly Col[] = [
  ['damage', (j) => joined(j, 'damage', 'secondary_damage')],
  ['title_document', (j) => joined(j, 'title_document.name', 'title_document.brand')],
  ['run_condition', (j) => joined(j, 'run_condition_label', 'run_condition')],
  ['seller', (j) => joined(j, 'seller.name', 'seller.type')],
  ['sale_result', (j) => joined(j, 'auction.last_sold_status')],
];

/** The facet columns: one value per lot, NULL when the record does not say. */
const FACET_COLS: readonly Col[] = [
  ['f_damage', (j) => text(j, 'damage')],
  ['f_secondary_damage', (j) => text(j, 'secondary_damage')],
  ['f_title_document', (j) => text(j, 'title_document.name')],
  ['f_run_condition', (j) => `coalesce(${text(j, 'run_condition_label')}, ${text(j, 'run_condition')})`],
  ['f_keys', (j) => yesNo(j, 'has_key')],
  ['f_seller_type', (j) => text(j, 'seller.type')],
  ['f_export', (j) => yesNo(j, 'title_document.export')],
  ['f_sale_result', (j) => text(j, 'auction.last_sold_status')],
  ['f_sale_month', (j) => `substr(${text(j, 'auction.last_sold_day')}, 1, 7)`],
];

const BASE = ['title', 'vin', 'lot_number', 'make', 'model', 'location', 'notes', 'tags'];
const FTS = [...BASE, ...FTS_COLS.map(([n]) => n)];
/** The record of a row `r`, or '{}' when it is not valid JSON (json_extract would fail the whole statement). */
const rec = (r: string) => `(CASE WHEN json_valid(${r}.normalized) THEN ${r}.normalized ELSE '{}' END)`;
/** The values of FTS's columns for row `r` (new/old in a trigger). */
const values = (r: string) =>
  [...BASE.map((c) => `${r}.${c}`), ...FTS_COLS.map(([, sql]) => sql(rec(r)))].join(', ');

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
      CREATE VIEW lots_facets AS SELECT lots.rowid AS lot_rowid, ${BASE.map((c) => `lots.${c}`).join(', ')},
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
      CREATE TRIGGER lots_au AFTER UPDATE OF ${BASE.join(', ')}, normalized ON lots BEGIN
        INSERT INTO lots_fts(lots_fts, rowid, ${cols}) VALUES ('delete', old.rowid, ${values('old')});
        INSERT INTO lots_fts(rowid, ${cols}) VALUES (new.rowid, ${values('new')});
      END;
      INSERT INTO lots_fts(lots_fts) VALUES ('rebuild');
    `);
  },
};
