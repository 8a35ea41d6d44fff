import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection';
import { RECENT_LOTS_SQL } from '../../../src/core/db/libraryRepo';
import { SqliteStore } from '../../../src/core/db/store';
import { migrateTo, migrationFiles } from './migrationFile';

// The Library's default list (no query) must read lots off an index in last-seen order, not scan and sort them all.

const files = migrationFiles();
const path = files.path;

/** The detail lines of EXPLAIN QUERY PLAN for `sql` with `params`. */
function plan(db: BetterSqlite3.Database, sql: string, ...params: unknown[]): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map(
    (r) => r.detail,
  );
}

const DEFAULT_LIST = RECENT_LOTS_SQL;

function addLots(db: BetterSqlite3.Database, n: number): void {
  const ins =
    db.prepare(`INSERT INTO lots (lot_key, platform, lot_number, normalized, raw, raw_hash, first_seen_at,
    last_observed_at) VALUES (?, 'copart', ?, '{}', '{}', 'h', 0, ?)`);
  db.transaction(() => {
    for (let i = 0; i < n; i++) ins.run(`copart:${i}`, String(i), (i * 7919) % n);
  })();
}

describe('migration 50: the library order index', () => {
  it('serves the default list from lots_last_observed without a scan and sort of lots', () => {
    const db = openDatabase(path());
    addLots(db, 500);
    db.exec('ANALYZE');
    const lines = plan(db, DEFAULT_LIST, 100, 0);
    expect(lines.some((l) => l.includes('USING INDEX lots_last_observed'))).toBe(true);
    expect(lines.some((l) => l.includes('TEMP B-TREE'))).toBe(false);
    expect(lines.some((l) => /^SCAN lots$/.test(l))).toBe(false);
    db.close();
  });

  it('is what makes the difference: a file before it scans and sorts', () => {
    const db = new BetterSqlite3(path());
    migrateTo(db, 'test', 40);
    const before = plan(db, DEFAULT_LIST, 100, 0);
    expect(before.some((l) => l.includes('TEMP B-TREE FOR ORDER BY'))).toBe(true);
    expect(migrateTo(db, 'test', 50)).toEqual([50]);
    expect(plan(db, DEFAULT_LIST, 100, 0).some((l) => l.includes('USING INDEX lots_last_observed'))).toBe(
      true,
    );
    db.close();
  });

  it('keeps the default list in last-seen order, newest first, page by page', () => {
    const db = openDatabase(path());
    addLots(db, 50);
    const store = new SqliteStore(db).sync;
    const seen = [
      ...store.library.recent(20, 0),
      ...store.library.recent(20, 20),
      ...store.library.recent(20, 40),
    ].map((r) => r.last_observed_at);
    expect(seen).toHaveLength(50);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    expect(store.library.count()).toBe(50);
    db.close();
  });
});
