import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { pgAvailable, testDatabase } from '../../../helpers/postgres';

// The test cluster itself (tests/helpers/postgres.ts): each file gets a database of its own on the run's cluster,
// and two files' databases never see each other's tables.

describe.skipIf(!pgAvailable())('the test run’s PostgreSQL cluster', () => {
  it('gives each caller an empty database of its own, on 127.0.0.1', async () => {
    const a = (await testDatabase())!;
    const b = (await testDatabase())!;
    expect(a).not.toBe(b);
    expect(new URL(a).hostname).toBe('127.0.0.1');
    const ca = new pg.Client({ connectionString: a });
    const cb = new pg.Client({ connectionString: b });
    await ca.connect();
    await cb.connect();
    try {
      await ca.query('CREATE TABLE t (x int)');
      const seen = await cb.query<{ n: string }>(
        "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 't'",
      );
      expect(seen.rows[0]!.n).toBe('0');
      const v = await ca.query<{ server_version_num: string }>('SHOW server_version_num');
      expect(Number(v.rows[0]!.server_version_num)).toBeGreaterThanOrEqual(150000);
    } finally {
      await ca.end();
      await cb.end();
    }
  });
});
