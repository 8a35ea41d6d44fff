import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection';
import { SqliteStore } from '../../../src/core/db/store';
import { migrationFiles } from './migrationFile';

const files = migrationFiles();

// Migration 200: a saved search's sweep keeps the service's cursor in its row, so it outlives a restart. A file from
// before has none: its sweeps go on from their windows, as they did after every start.

describe("migration 200: the sweep's cursor in the saved search's row", () => {
  it("keeps version 190's coverage, with no cursor, and stores one with the next coverage", () => {
    const path = files.at(190, (db) => {
      db.prepare(
        `INSERT INTO saved_searches (id, name, params, schedule, rules, baseline_done, sweep_from, created_at,
           updated_at) VALUES (7, 'Kias', '{"make":"KIA"}', '0 * * * *', '{}', 1, 5000, 1, 1)`,
      ).run();
    });
    const db = openDatabase(path);
    const s = new SqliteStore(db).sync;
    expect(s.searches.getSearch(7)).toMatchObject({
      baseline_done: true,
      sweep_from: 5000,
      sweep_cursor: null,
    });
    s.searches.setCoverage(7, { baseline_done: true, covered_until: null, sweep_from: 6000 }, 'c1');
    expect(s.searches.getSearch(7)).toMatchObject({ sweep_from: 6000, sweep_cursor: 'c1' });
    db.close();
  });
});
