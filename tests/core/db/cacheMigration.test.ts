import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CacheRepo } from '../../../src/core/db/cacheRepo';
import { closeDatabase, openDatabase } from '../../../src/core/db/connection';
import { SqliteStore } from '../../../src/core/db/store';
import { migrateTo, migrationFiles } from './migrationFile';

// A schema-20 file (the watch store, no cache) gets the key/value cache for offline answers and one-time flags;
// the saved searches and lots it held are untouched.

const files = migrationFiles();

/** A schema-20 file with one saved search and one lot. */
function fileAtVersion20(): string {
  return files.at(20, (db) => {
    db.prepare(
      `INSERT INTO saved_searches (name, params, schedule, rules, created_at, updated_at)
    VALUES ('Accords', '{"make":"Honda"}', '*/30 * * * *', '{}', 0, 0)`,
    ).run();
    db.prepare(
      `INSERT INTO lots (lot_key, platform, lot_number, title, normalized, raw, raw_hash, first_seen_at,
    last_observed_at) VALUES ('copart:1', 'copart', '1', '2003 HONDA ACCORD EX', '{}', '{}', 'h', 1, 1)`,
    ).run();
  });
}

describe('migration 30: the cache', () => {
  it('adds a working cache to a schema-20 file and leaves its searches and lots as they were', () => {
    const path = fileAtVersion20();
    const db = new BetterSqlite3(path);
    const before = db.prepare('SELECT * FROM saved_searches').all();
    expect(migrateTo(db, path, 30)).toEqual([30]);
    const cache = new CacheRepo(db);
    expect(cache.get('filters')).toBeNull();
    cache.put('filters', '{"makes":["HONDA"]}', 5);
    cache.put('filters', '{"makes":["HONDA","TESLA"]}', 6);
    expect(cache.get('filters')).toMatchObject({ value: '{"makes":["HONDA","TESLA"]}', updated_at: 6 });
    expect(db.prepare('SELECT * FROM saved_searches').all()).toEqual(before);
    expect(db.prepare('SELECT lot_key, title FROM lots').all()).toEqual([
      { lot_key: 'copart:1', title: '2003 HONDA ACCORD EX' },
    ]);
    db.close();
  });

  it('what the cache held at version 30 is read by the current store', () => {
    const path = fileAtVersion20();
    const raw = new BetterSqlite3(path);
    migrateTo(raw, path, 30);
    new CacheRepo(raw).put('flag:examples-added', '1', 9);
    raw.close();
    const db = openDatabase(path);
    const s = new SqliteStore(db).sync;
    expect(s.cache.get('flag:examples-added')).toMatchObject({ value: '1', updated_at: 9 });
    expect(s.searches.listSearches().map((r) => r.name)).toEqual(['Accords']);
    closeDatabase(db);
  });
});
