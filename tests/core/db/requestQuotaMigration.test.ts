import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection';
import { RequestsRepo } from '../../../src/core/db/requestsRepo';
import { migrationFiles } from './migrationFile';

const files = migrationFiles();

describe('migration 140: whose quota each request spent', () => {
  it("keeps an older file's requests, charges them to no key, and counts a key's own requests apart", () => {
    const path = files.at(130, (db) => {
      const log = db.prepare(
        `INSERT INTO request_log (at, endpoint, status, duration_ms, bytes, attempt, error_code)
         VALUES (?, '/vehicles', 200, 40, 900, 1, NULL)`,
      );
      for (const at of [1_000, 2_000, 3_000]) log.run(at);
    });
    const db = openDatabase(path);
    const repo = new RequestsRepo(db);
    // The rows an older Lotwatch logged are all still there, and belong to no key.
    expect(repo.requestsSince(0)).toBe(3);
    expect(repo.requestsSinceFor('demo', 0)).toBe(0);
    expect(repo.requestsSinceFor('key:0123456789abcdef', 0)).toBe(0);
    const entry = {
      endpoint: '/vehicles',
      status: 200,
      durationMs: 30,
      bytes: 500,
      attempt: 1,
      errorCode: null,
    };
    repo.logRequest({ ...entry, at: 4_000, quotaId: 'demo' });
    repo.logRequest({ ...entry, at: 5_000, quotaId: 'key:0123456789abcdef' });
    repo.logRequest({ ...entry, at: 6_000, quotaId: 'key:0123456789abcdef' });
    expect(repo.requestsSinceFor('key:0123456789abcdef', 0)).toBe(2);
    expect(repo.sentSinceFor('key:0123456789abcdef', 5_500)).toEqual([6_000]);
    expect(repo.requestsSinceFor('demo', 0)).toBe(1);
    expect(repo.requestsSinceFor(null, 0)).toBe(0);
    expect(repo.requestsSince(0)).toBe(6);
    db.close();
  });
});
