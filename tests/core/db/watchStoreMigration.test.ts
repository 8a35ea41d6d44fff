import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../../src/core/db/connection';
import { schemaVersion } from '../../../src/core/db/migrate';
import { MIGRATIONS } from '../../../src/core/db/migrations';
import { SettingsRepo } from '../../../src/core/db/settingsRepo';
import { SqliteStore } from '../../../src/core/db/store';
import { FakeClock } from '../../helpers/fakeClock';
import { migrateTo, migrationFiles } from './migrationFile';

// A file from the first release (schema 10: settings only) gets the watch store: its settings stay, the new tables
// take rows with their constraints, and the full-text index follows the lots table through its triggers.

const files = migrationFiles();

/** A schema-10 file whose user turned notifications off. */
function fileAtVersion10(): string {
  return files.at(10, (db) => new SettingsRepo(db, new FakeClock()).update({ notificationsEnabled: false }));
}

const matches = (db: BetterSqlite3.Database, q: string) =>
  db
    .prepare(
      'SELECT lots.lot_key FROM lots_fts JOIN lots ON lots.rowid = lots_fts.rowid WHERE lots_fts MATCH ?',
    )
    .all(q);

function addLot(db: BetterSqlite3.Database, n: string, title: string): void {
  db.prepare(
    `INSERT INTO lots (lot_key, platform, lot_number, vin, title, make, model, normalized, raw, raw_hash,
    first_seen_at, last_observed_at) VALUES (?, 'copart', ?, ?, ?, 'HONDA', 'ACCORD', '{}', '{}', 'h', 1, 1)`,
  ).run(`copart:${n}`, n, `1HGCM82633A00${n}`, title);
}

describe('migration 20: the watch store', () => {
  it('adds the watch tables to a schema-10 file and keeps its settings', () => {
    const path = fileAtVersion10();
    const db = new BetterSqlite3(path);
    expect(migrateTo(db, path, 20)).toEqual([20]);
    expect(new SettingsRepo(db, new FakeClock()).get().notificationsEnabled).toBe(false);
    const tables = (
      db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[]
    ).map((r) => r.name);
    for (const t of [
      'saved_searches',
      'search_members',
      'watches',
      'lots',
      'observations',
      'changes',
      'alerts',
      'poll_runs',
      'request_log',
      'quota',
      'photos',
      'secrets',
      'lots_fts',
    ]) {
      expect(tables, t).toContain(t);
    }
    // A VIN watch needs its VIN, and one VIN is watched once.
    const watch = db.prepare(
      "INSERT INTO watches (kind, vin, rules, created_at, updated_at) VALUES ('vin', ?, '{}', 0, 0)",
    );
    expect(() => watch.run(null)).toThrow(/CHECK/);
    watch.run('1HGCM82633A004352');
    expect(() => watch.run('1HGCM82633A004352')).toThrow(/UNIQUE/);
    db.close();
  });

  it('keeps the full-text index in step with the lots table: insert, update and delete', () => {
    const path = fileAtVersion10();
    const db = new BetterSqlite3(path);
    migrateTo(db, path, 20);
    addLot(db, '1', '2003 HONDA ACCORD EX');
    addLot(db, '2', '2004 HONDA ACCORD LX');
    expect(matches(db, 'accord')).toHaveLength(2);
    db.prepare(
      "UPDATE lots SET title = '2004 HONDA CIVIC LX', model = 'CIVIC' WHERE lot_key = 'copart:2'",
    ).run();
    expect(matches(db, 'accord')).toEqual([{ lot_key: 'copart:1' }]);
    expect(matches(db, 'civic')).toEqual([{ lot_key: 'copart:2' }]);
    db.prepare("DELETE FROM lots WHERE lot_key = 'copart:1'").run();
    expect(matches(db, 'accord')).toEqual([]);
    db.prepare("INSERT INTO lots_fts(lots_fts) VALUES ('integrity-check')").run();
    db.close();
  });

  it('a lot stored at version 20 is read by the current store once the file is fully migrated', () => {
    const path = fileAtVersion10();
    const raw = new BetterSqlite3(path);
    migrateTo(raw, path, 20);
    addLot(raw, '7', '2003 HONDA ACCORD EX');
    raw.close();
    const db = openDatabase(path);
    expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)!.version);
    const s = new SqliteStore(db).sync;
    expect(s.library.find('accord', 10, 0)?.rows.map((r) => r.lot_key)).toEqual(['copart:7']);
    expect(s.lots.getLotState('copart:7')).toMatchObject({
      platform: 'copart',
      lot_number: '7',
      vin: '1HGCM82633A007',
    });
    closeDatabase(db);
  });
});
