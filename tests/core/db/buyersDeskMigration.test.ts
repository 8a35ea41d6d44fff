import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { COMP_CANDIDATES_SQL } from '../../../src/core/db/compsRepo';
import { closeDatabase, openDatabase } from '../../../src/core/db/connection';
import { SqliteStore } from '../../../src/core/db/store';
import { migrateTo, migrationFiles } from './migrationFile';

// Migration 70 drops the full-text index over lots and builds it again with the new `tags` column. A schema-60 file
// full of lots must come out with every lot findable by the words it had (title, VIN, notes), tags searchable from
// then on, and the index consistent with its table.

const files = migrationFiles();

/** A schema-60 file with three lots; one has notes written after it was stored (through the update trigger). */
function fileAtVersion60(): string {
  return files.at(60, (db) => {
    const add =
      db.prepare(`INSERT INTO lots (lot_key, platform, lot_number, vin, title, year, make, model, location,
    state, lot_sub_status, sale_price_usd, normalized, raw, raw_hash, first_seen_at, last_observed_at)
    VALUES (?, 'copart', ?, ?, ?, ?, ?, ?, 'Dallas (TX)', ?, ?, ?, '{}', '{}', 'h', 1, ?)`);
    add.run(
      'copart:1',
      '1',
      '1HGCM82633A004352',
      '2003 HONDA ACCORD EX',
      2003,
      'HONDA',
      'ACCORD',
      'finished',
      'Ended',
      4200,
      3,
    );
    add.run(
      'copart:2',
      '2',
      '5YJ3E1EA7KF317000',
      '2019 TESLA MODEL 3',
      2019,
      'TESLA',
      'MODEL 3',
      'open',
      'Open',
      null,
      2,
    );
    add.run(
      'copart:3',
      '3',
      '1HGCM82633A004399',
      '2004 HONDA ACCORD LX',
      2004,
      'HONDA',
      'ACCORD',
      'open',
      'Open',
      null,
      1,
    );
    db.prepare("UPDATE lots SET notes = 'hail damage on the roof' WHERE lot_key = 'copart:3'").run();
  });
}

const matches = (db: BetterSqlite3.Database, q: string) =>
  (
    db
      .prepare(
        'SELECT lots.lot_key FROM lots_fts JOIN lots ON lots.rowid = lots_fts.rowid WHERE lots_fts MATCH ? ORDER BY lots.lot_key',
      )
      .all(q) as { lot_key: string }[]
  ).map((r) => r.lot_key);

describe("migration 70: the buyer's desk", () => {
  it('rebuilds the full-text index: every old lot is found by its title, VIN and notes, and the index checks out', () => {
    const path = fileAtVersion60();
    const db = new BetterSqlite3(path);
    expect(matches(db, 'accord')).toEqual(['copart:1', 'copart:3']);
    expect(migrateTo(db, path, 70)).toEqual([70]);
    // Throws 'database disk image is malformed' when the index and its table disagree.
    db.prepare("INSERT INTO lots_fts(lots_fts) VALUES ('integrity-check')").run();
    expect(matches(db, 'accord')).toEqual(['copart:1', 'copart:3']);
    expect(matches(db, 'tesla')).toEqual(['copart:2']);
    expect(matches(db, '"5YJ3E1EA7KF317000"')).toEqual(['copart:2']);
    expect(matches(db, 'hail')).toEqual(['copart:3']);
    expect(db.prepare('SELECT DISTINCT tags FROM lots').all()).toEqual([{ tags: '' }]);
    db.close();
  });

  it('keeps the rebuilt index in step: tags written, lots added and removed after the upgrade', () => {
    const path = fileAtVersion60();
    const db = new BetterSqlite3(path);
    migrateTo(db, path, 70);
    db.prepare("UPDATE lots SET tags = 'export,project' WHERE lot_key = 'copart:1'").run();
    expect(matches(db, 'export')).toEqual(['copart:1']);
    db.prepare("UPDATE lots SET tags = 'keep' WHERE lot_key = 'copart:1'").run();
    expect(matches(db, 'export')).toEqual([]);
    db.prepare(
      `INSERT INTO lots (lot_key, platform, lot_number, title, tags, normalized, raw, raw_hash, first_seen_at,
      last_observed_at) VALUES ('iaai:9', 'iaai', '9', '2015 FORD F-150', 'fleet', '{}', '{}', 'h', 5, 5)`,
    ).run();
    expect(matches(db, 'fleet')).toEqual(['iaai:9']);
    db.prepare("DELETE FROM lots WHERE lot_key = 'copart:2'").run();
    expect(matches(db, 'tesla')).toEqual([]);
    db.prepare("INSERT INTO lots_fts(lots_fts) VALUES ('integrity-check')").run();
    db.close();
  });

  it("adds the lots' shipping prices and the make/model index comparable sales read", () => {
    const path = fileAtVersion60();
    const db = new BetterSqlite3(path);
    migrateTo(db, path, 70);
    const plan = (
      db.prepare(`EXPLAIN QUERY PLAN ${COMP_CANDIDATES_SQL}`).all('honda', 'accord', 2000, 2010, 'x') as {
        detail: string;
      }[]
    ).map((r) => r.detail);
    expect(plan.join('\n')).toMatch(/lots_make_model/);
    const ship = db.prepare(
      'INSERT INTO lot_shipping (lot_key, port, price_usd, currency, fetched_at) VALUES (?, ?, ?, ?, ?)',
    );
    ship.run('copart:1', 'Klaipeda', 1450, 'USD', 1);
    expect(() => ship.run('copart:1', 'Klaipeda', 1500, 'USD', 2)).toThrow(/UNIQUE|PRIMARY/);
    db.close();
  });

  it("the current store finds an old lot by its notes, then by the tags the buyer's desk gives it", () => {
    const path = fileAtVersion60();
    const db = openDatabase(path);
    const s = new SqliteStore(db).sync;
    expect(s.library.find('hail', 10, 0)?.rows.map((r) => r.lot_key)).toEqual(['copart:3']);
    expect(s.desk.setNotes('copart:1', 'title is clean', 'export')).toBe(true);
    expect(s.library.find('export', 10, 0)?.rows.map((r) => r.lot_key)).toEqual(['copart:1']);
    expect(s.library.find('honda -export', 10, 0)?.rows.map((r) => r.lot_key)).toEqual(['copart:3']);
    closeDatabase(db);
  });
});
