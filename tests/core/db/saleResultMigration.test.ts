import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/core/db/migrate';
import { MIGRATIONS } from '../../../src/core/db/migrations';
import { AlertRulesSchema } from '../../../src/shared/watch';
import { migrateTo, migrationFiles } from './migrationFile';

// A data file written before sale results had an outcome: its `sold` changes, alerts and rules must stay readable
// and say the right result afterwards (an unsold end must never become "Sold").

const files = migrationFiles();

function oldFile(): BetterSqlite3.Database {
  const path = files.path();
  const db = new BetterSqlite3(path);
  migrateTo(db, path, 30);
  const lot =
    db.prepare(`INSERT INTO lots (lot_key, platform, lot_number, state, lot_sub_status, sale_price_usd, normalized, raw, raw_hash,
    first_seen_at, last_observed_at) VALUES (?, 'copart', ?, ?, 'Ended', ?, '{}', '{}', 'h', 0, 0)`);
  lot.run('copart:1', '1', 'sold', 12300);
  lot.run('copart:2', '2', 'unsold', null);
  lot.run('copart:3', '3', 'approval', 6600);
  const change = db.prepare(
    `INSERT INTO changes (lot_key, kind, field, before, after, observed_at) VALUES (?, ?, 'sale_price_usd', 'null', ?, 1)`,
  );
  change.run('copart:1', 'sold', '12300');
  change.run('copart:2', 'sold', 'null');
  change.run('copart:3', 'sold', '6600');
  change.run('copart:1', 'bid_changed', '12300');
  db.prepare(
    `INSERT INTO alerts (dedup_key, kind, lot_key, change_id, title, body, created_at, delivery, status)
    VALUES ('change:1', 'sold', 'copart:1', 1, 't', 'b', 1, 'now', 'delivered')`,
  ).run();
  const rules = JSON.stringify({ kinds: ['new_match', 'sold'], snooze_until_event: 'sold' });
  db.prepare(
    `INSERT INTO watches (kind, lot_key, rules, created_at, updated_at) VALUES ('lot', 'copart:1', ?, 0, 0)`,
  ).run(rules);
  db.prepare(
    `INSERT INTO saved_searches (name, params, schedule, rules, created_at, updated_at) VALUES ('s', '{}', '*/30 * * * *', ?, 0, 0)`,
  ).run(rules);
  db.prepare(
    `INSERT INTO saved_searches (name, params, schedule, rules, created_at, updated_at) VALUES ('broken', '{}', '*/30 * * * *', '{oops', 0, 0)`,
  ).run();
  return db;
}

describe('migration 40: sale results', () => {
  it('rewrites old sold changes as sale_result with the outcome each lot had', () => {
    const db = oldFile();
    migrate(db, 'test', MIGRATIONS);
    const rows = db.prepare('SELECT lot_key, kind, outcome FROM changes ORDER BY id').all();
    expect(rows).toEqual([
      { lot_key: 'copart:1', kind: 'sale_result', outcome: 'sold' },
      { lot_key: 'copart:2', kind: 'sale_result', outcome: 'ended_unsold' },
      { lot_key: 'copart:3', kind: 'sale_result', outcome: 'sold_on_approval' },
      { lot_key: 'copart:1', kind: 'bid_changed', outcome: null },
    ]);
    expect(db.prepare('SELECT kind FROM alerts').all()).toEqual([{ kind: 'sale_result' }]);
    db.close();
  });

  it('renames sold in stored rules so they still parse, and leaves an unreadable rule set as it was', () => {
    const db = oldFile();
    migrate(db, 'test', MIGRATIONS);
    for (const table of ['watches', 'saved_searches']) {
      const { rules } = db.prepare(`SELECT rules FROM ${table} ORDER BY id LIMIT 1`).get() as {
        rules: string;
      };
      const parsed = AlertRulesSchema.parse(JSON.parse(rules));
      expect(parsed.kinds).toEqual(['new_match', 'sale_result']);
      expect(parsed.snooze_until_event).toBe('sale_result');
    }
    expect(db.prepare("SELECT rules FROM saved_searches WHERE name = 'broken'").get()).toEqual({
      rules: '{oops',
    });
    db.close();
  });

  it('refuses an outcome outside the four', () => {
    const db = oldFile();
    migrate(db, 'test', MIGRATIONS);
    expect(() =>
      db
        .prepare(
          `INSERT INTO changes (lot_key, kind, observed_at, outcome) VALUES ('x', 'sale_result', 1, 'maybe')`,
        )
        .run(),
    ).toThrow(/CHECK/);
    db.close();
  });
});
