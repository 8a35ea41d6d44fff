import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection';
import { WatchesRepo } from '../../../src/core/db/watchesRepo';
import { migrationFiles } from './migrationFile';

const files = migrationFiles();

describe('migration 130: paused watches', () => {
  it('keeps every watch of an older file active, and a pause is stored', () => {
    const path = files.at(120, (db) => {
      db.prepare(
        `INSERT INTO watches (kind, vin, lot_key, label, rules, is_example, created_at, updated_at)
         VALUES ('lot', NULL, 'copart:45416833', 'Blue Tesla', '{}', 0, 1, 1)`,
      ).run();
    });
    const db = openDatabase(path);
    const repo = new WatchesRepo(db);
    const [w] = repo.listWatches();
    expect(w).toMatchObject({ label: 'Blue Tesla', paused: false });
    expect(repo.setPaused(w!.id, true, 5)).toBe(true);
    expect(repo.getWatch(w!.id)).toMatchObject({ paused: true, updated_at: 5 });
    expect(repo.setPaused(999, true, 5)).toBe(false);
    db.close();
  });
});
