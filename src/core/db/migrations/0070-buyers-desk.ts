import type { Migration } from '../migrate';

/**
 * The buyer's desk (docs/architecture.md "The buyer's desk"):
 * - `lots.tags`: the user's tags on a lot, comma-separated, beside `notes`; both are searched by the full-text
 *   index, which is rebuilt here with the new column (its triggers follow).
 * - `lot_shipping`: the service's shipping prices to each port, fetched once for a lot and kept with it, so the
 *   landed cost is worked out offline and never spends a request again.
 * - `lots_make_model`: comparable sales are the finished lots of one make and model; without an index every lot page
 *   would scan the whole store.
 */
export const migration: Migration = {
  version: 70,
  name: 'buyers-desk',
  up(db) {
    db.exec(`
      ALTER TABLE lots ADD COLUMN tags TEXT NOT NULL DEFAULT '';

      DROP TRIGGER lots_ai;
      DROP TRIGGER lots_ad;
      DROP TRIGGER lots_au;
      DROP TABLE lots_fts;
      CREATE VIRTUAL TABLE lots_fts USING fts5(
        title, vin, lot_number, make, model, location, notes, tags,
        content = 'lots', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER lots_ai AFTER INSERT ON lots BEGIN
        INSERT INTO lots_fts(rowid, title, vin, lot_number, make, model, location, notes, tags)
        VALUES (new.rowid, new.title, new.vin, new.lot_number, new.make, new.model, new.location, new.notes, new.tags);
      END;
      CREATE TRIGGER lots_ad AFTER DELETE ON lots BEGIN
        INSERT INTO lots_fts(lots_fts, rowid, title, vin, lot_number, make, model, location, notes, tags)
        VALUES ('delete', old.rowid, old.title, old.vin, old.lot_number, old.make, old.model, old.location, old.notes, old.tags);
      END;
      CREATE TRIGGER lots_au AFTER UPDATE OF title, vin, lot_number, make, model, location, notes, tags ON lots BEGIN
        INSERT INTO lots_fts(lots_fts, rowid, title, vin, lot_number, make, model, location, notes, tags)
        VALUES ('delete', old.rowid, old.title, old.vin, old.lot_number, old.make, old.model, old.location, old.notes, old.tags);
        INSERT INTO lots_fts(rowid, title, vin, lot_number, make, model, location, notes, tags)
        VALUES (new.rowid, new.title, new.vin, new.lot_number, new.make, new.model, new.location, new.notes, new.tags);
      END;
      INSERT INTO lots_fts(lots_fts) VALUES ('rebuild');

      CREATE TABLE lot_shipping (
        lot_key TEXT NOT NULL,
        port TEXT NOT NULL,
        price_usd REAL,
        currency TEXT,
        fetched_at INTEGER NOT NULL,
        PRIMARY KEY (lot_key, port)
      ) STRICT;

      CREATE INDEX lots_make_model ON lots(make COLLATE NOCASE, model COLLATE NOCASE, year);
    `);
  },
};
