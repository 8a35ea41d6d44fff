import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateTo, migrationFiles } from './migrationFile';

// A saved search whose baseline came from a run cut short was marked done all the same; its unread lots later came
// as false new matches. The migration starts such a baseline again and keeps those whose run was complete.

const files = migrationFiles();

describe('migration 60: search coverage', () => {
  it('restarts the baseline of searches that never had a complete run, and adds the coverage columns', () => {
    const db = new BetterSqlite3(files.path());
    migrateTo(db, 'test', 50);
    const add =
      db.prepare(`INSERT INTO saved_searches (id, name, params, schedule, rules, baseline_done, created_at, updated_at)
      VALUES (?, ?, '{}', '0 * * * *', '{}', ?, 0, 0)`);
    const run = db.prepare(
      "INSERT INTO poll_runs (target, started_at, status, complete) VALUES (?, 1, 'ok', ?)",
    );
    add.run(1, 'complete once', 1);
    run.run('search:1', 0);
    run.run('search:1', 1);
    add.run(2, 'only cut short', 1);
    run.run('search:2', 0);
    add.run(3, 'never run', 0);
    expect(migrateTo(db, 'test', 60)).toEqual([60]);
    const rows = db
      .prepare('SELECT id, baseline_done, covered_until, sweep_from FROM saved_searches ORDER BY id')
      .all();
    expect(rows).toEqual([
      { id: 1, baseline_done: 1, covered_until: null, sweep_from: null },
      { id: 2, baseline_done: 0, covered_until: null, sweep_from: null },
      { id: 3, baseline_done: 0, covered_until: null, sweep_from: null },
    ]);
    db.close();
  });
});
