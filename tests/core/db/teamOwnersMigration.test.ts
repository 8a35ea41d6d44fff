import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection';
import { SqliteStore } from '../../../src/core/db/store';
import { migrationFiles } from './migrationFile';

const files = migrationFiles();

describe('migration 180: who made each search and watch, and who spent each request', () => {
  it("reads version 170's searches, watches, call watches and requests as the local owner's", () => {
    const path = files.at(170, (db) => {
      db.prepare(
        `INSERT INTO saved_searches (name, params, schedule, rules, created_at, updated_at)
         VALUES ('Toyotas', '{"make":"TOYOTA"}', '*/30 * * * *', '{}', 1000, 2000)`,
      ).run();
      db.prepare(
        `INSERT INTO watches (kind, vin, rules, created_at, updated_at)
         VALUES ('vin', '1HGCM82633A004352', '{}', 1000, 3000)`,
      ).run();
      db.prepare(
        `INSERT INTO call_watches (name, endpoint, config, schedule, rules, created_at, updated_at)
         VALUES ('Videos', 'videos', '{}', '0 * * * *', '{}', 1000, 1000)`,
      ).run();
      const log = db.prepare(
        `INSERT INTO request_log (at, endpoint, status, duration_ms, bytes, attempt, error_code, quota_id)
         VALUES (?, '/vehicles', 200, 40, 900, 1, NULL, 'demo')`,
      );
      for (const at of [1_000, 2_000, 3_000]) log.run(at);
    });
    const db = openDatabase(path);
    const s = new SqliteStore(db).sync;
    expect(s.searches.listSearches().map((r) => [r.name, r.updated_at, r.created_by, r.updated_by])).toEqual([
      ['Toyotas', 2000, null, null],
    ]);
    expect(s.watches.listWatches().map((w) => [w.updated_at, w.created_by, w.updated_by])).toEqual([
      [3000, null, null],
    ]);
    expect(s.calls.list().map((c) => c.created_by)).toEqual([null]);
    expect(s.requests.recent(10).map((r) => r.user_name)).toEqual([null, null, null]);
    expect(s.requests.spentByUser(0, 10_000)).toEqual([{ user_id: null, name: null, requests: 3 }]);
    // A request a member spends after the upgrade is theirs, by name; the old ones stay nobody's.
    db.prepare(
      "INSERT INTO users (id, login, name, role, password_hash, created_at, updated_at) VALUES (7, 'dana', 'Dana', 'buyer', 'h', 1, 1)",
    ).run();
    s.requests.logRequest({
      at: 4_000,
      endpoint: '/vehicles',
      status: 200,
      durationMs: 30,
      bytes: 500,
      attempt: 1,
      errorCode: null,
      quotaId: 'demo',
      userId: 7,
    });
    expect(s.requests.recent(1)[0]!.user_name).toBe('Dana');
    expect(s.requests.spentByUser(0, 10_000).sort((a, b) => (a.user_id ?? 0) - (b.user_id ?? 0))).toEqual([
      { user_id: null, name: null, requests: 3 },
      { user_id: 7, name: 'Dana', requests: 1 },
    ]);
    expect(s.searches.updateSearch(1, { ...s.searches.getSearch(1)!, name: 'Stale' }, 5000, 1999)).toBe(
      false,
    );
    expect(s.searches.getSearch(1)!.name).toBe('Toyotas');
    db.close();
  });
});
