import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_POOL_SIZE,
  openPostgres,
  unreachableError,
  type PostgresHandle,
} from '../../../../src/core/db/pg/open';
import { DatabaseAddressError, DatabaseUnreachableError } from '../../../../src/core/errors';
import { freePort, pgAvailable, testDatabase } from '../../../helpers/postgres';

// Opening a team's PostgreSQL database (src/core/db/pg/open.ts) on the run's real test cluster: the values as the
// app reads them, the pool's bounds and name, and each way the first connection can fail said in one line without
// the password.

const ADDRESS = 'postgres://team:***@db.example.com:5432/lotwatch';
const driverError = (code: string, message = `driver says ${code}`) =>
  Object.assign(new Error(message), { code });

describe('unreachableError: what each driver error means', () => {
  it.each([
    [
      'ECONNREFUSED',
      driverError('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:5432'),
      'refused',
      'is running',
    ],
    [
      'a missing socket',
      driverError('ENOENT', 'connect ENOENT /var/run/postgresql/.s.PGSQL.5432'),
      'refused',
      'socket folder',
    ],
    [
      'ENOTFOUND',
      driverError('ENOTFOUND', 'getaddrinfo ENOTFOUND db.example.com'),
      'unknown_host',
      'host name',
    ],
    ['EAI_AGAIN', driverError('EAI_AGAIN'), 'unknown_host', 'host name'],
    ['ETIMEDOUT', driverError('ETIMEDOUT'), 'timeout', 'firewall'],
    [
      'a connection timeout',
      new Error('Connection terminated due to connection timeout'),
      'timeout',
      'within 10 s',
    ],
    ['a pool timeout', new Error('timeout exceeded when trying to connect'), 'timeout', 'firewall'],
    [
      '28P01 bad password',
      driverError('28P01', 'password authentication failed for user "team"'),
      'bad_password',
      'percent-encoded',
    ],
    [
      'a password the server asked for and the address lacks',
      new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string'),
      'bad_password',
      'password',
    ],
    ['28000 refused login', driverError('28000', 'role "team" does not exist'), 'refused_login', 'user name'],
    [
      '3D000 no such database',
      driverError('3D000', 'database "lotwatch" does not exist'),
      'no_database',
      'named lotwatch',
    ],
    ['53300 too many connections', driverError('53300'), 'too_many_connections', 'connection limit'],
    ['57P03 starting', driverError('57P03'), 'starting', 'Try again in a minute'],
    [
      'a self-signed certificate',
      driverError('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'),
      'tls',
      'sslmode',
    ],
    ['a server without TLS', new Error('The server does not support SSL connections'), 'tls', 'sslmode'],
    [
      'an AggregateError (two addresses refused)',
      Object.assign(new AggregateError([driverError('ECONNREFUSED'), driverError('ECONNREFUSED')], ''), {}),
      'refused',
      'is running',
    ],
    [
      'anything else, in the driver’s words',
      new Error('something odd\n  happened.'),
      'other',
      'something odd happened',
    ],
  ])('%s', (_label, e, reason, says) => {
    const err = unreachableError(ADDRESS, e, { password: 's3cret', timeoutMs: 10_000 });
    expect(err).toBeInstanceOf(DatabaseUnreachableError);
    expect(err.code).toBe('db_unreachable');
    expect(err.reason).toBe(reason);
    expect(err.message).toContain(says);
    expect(err.message).toMatch(
      /^Lotwatch could not connect to the PostgreSQL database at postgres:\/\/team:\*\*\*@db\.example\.com:5432\/lotwatch: /,
    );
    expect(err.message).not.toContain('\n');
    expect(err.message).not.toContain('s3cret');
    expect(err.toPayload()).not.toHaveProperty('stack');
  });

  it('keeps the password out even when the driver quoted it', () => {
    const err = unreachableError(ADDRESS, new Error('bad option near s3cret'), { password: 's3cret' });
    expect(err.message).toContain('bad option near ***');
    expect(err.message).not.toContain('s3cret');
  });

  it('gives the driver’s code for the log, and whether a later start may succeed', () => {
    expect(unreachableError(ADDRESS, driverError('ECONNREFUSED'))).toMatchObject({
      driverCode: 'ECONNREFUSED',
      retryable: true,
    });
    expect(unreachableError(ADDRESS, driverError('28P01'))).toMatchObject({
      driverCode: '28P01',
      retryable: false,
    });
    expect(unreachableError(ADDRESS, new Error('x'))).toMatchObject({ driverCode: null });
  });
});

describe.skipIf(!pgAvailable())('openPostgres on a real PostgreSQL', () => {
  let url: string;
  let h: PostgresHandle;
  beforeAll(async () => {
    url = (await testDatabase('open'))!;
    h = await openPostgres(url, { max: 3 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('reads int8 and numeric as numbers, on its own pool only', async () => {
    const r = await sql<{
      ms: number;
      id: number;
      n: number;
      usd: number;
    }>`SELECT 1764230400000::int8 AS ms, 42::bigint AS id, count(*) AS n, 12345.67::numeric AS usd FROM (VALUES (1), (2)) v(x)`.execute(
      h.db,
    );
    expect(r.rows[0]).toEqual({ ms: 1764230400000, id: 42, n: 2, usd: 12345.67 });
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      const o = await other.query<{ ms: unknown }>('SELECT 1764230400000::int8 AS ms');
      expect(o.rows[0]!.ms).toBe('1764230400000');
    } finally {
      await other.end();
    }
  });

  it('refuses an int8 too large to read exactly, in that query only', async () => {
    await expect(sql`SELECT 9007199254740993::int8 AS big`.execute(h.db)).rejects.toThrow(/too large/);
    const ok = await sql<{ one: number }>`SELECT 1::int8 AS one`.execute(h.db);
    expect(ok.rows[0]!.one).toBe(1);
  });

  it('names its connections lotwatch and keeps the pool bounded', async () => {
    const r = await h.pool.query<{ name: string }>('SELECT current_setting($1) AS name', [
      'application_name',
    ]);
    expect(r.rows[0]!.name).toBe('lotwatch');
    expect(h.pool.options.max).toBe(3);
    const d = await openPostgres(url);
    try {
      expect(d.pool.options.max).toBe(DEFAULT_POOL_SIZE);
    } finally {
      await d.close();
      await d.close();
    }
    expect(d.pool.ended).toBe(true);
  });

  it('says a closed port in one line, without the password', async () => {
    const port = await freePort();
    const closed = `postgres://team:s3cr%40t@127.0.0.1:${port}/lotwatch`;
    const e = await openPostgres(closed).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(DatabaseUnreachableError);
    const err = e as DatabaseUnreachableError;
    expect(err.reason).toBe('refused');
    expect(err.driverCode).toBe('ECONNREFUSED');
    expect(err.message).toBe(
      `Lotwatch could not connect to the PostgreSQL database at postgres://team:***@127.0.0.1:${port}/lotwatch: ` +
        'nothing answers at that host and port. Check that the PostgreSQL server is running and that the host and ' +
        'port (or socket folder) in the address are right.',
    );
  });

  it('says a database that does not exist', async () => {
    const u = new URL(url);
    u.pathname = '/no_such_lotwatch_db';
    const err = (await openPostgres(u.toString()).catch((e: unknown) => e)) as DatabaseUnreachableError;
    expect(err).toBeInstanceOf(DatabaseUnreachableError);
    expect(err.reason).toBe('no_database');
    expect(err.driverCode).toBe('3D000');
    expect(err.message).toContain('has no database named no_such_lotwatch_db');
  });

  it('says a role the server does not know', async () => {
    const u = new URL(url);
    u.username = 'nobody_here';
    u.password = 's3cret';
    const err = (await openPostgres(u.toString()).catch((e: unknown) => e)) as DatabaseUnreachableError;
    expect(err).toBeInstanceOf(DatabaseUnreachableError);
    expect(err.reason).toBe('refused_login');
    expect(err.driverCode).toBe('28000');
    expect(err.message).not.toContain('s3cret');
  });

  it('connects with a role that has a password with special characters (the address percent-encoded)', async () => {
    const password = 'p@ss:w/rd#1 %';
    await h.pool.query(`CREATE ROLE lw_team LOGIN PASSWORD '${password}'`);
    try {
      const u = new URL(url);
      u.username = 'lw_team';
      u.password = encodeURIComponent(password);
      const t = await openPostgres(u.toString(), { max: 1 });
      try {
        const r = await t.pool.query<{ who: string }>('SELECT current_user AS who');
        expect(r.rows[0]!.who).toBe('lw_team');
      } finally {
        await t.close();
      }
    } finally {
      await h.pool.query('DROP ROLE lw_team');
    }
  });

  it('refuses an address it cannot use before connecting', async () => {
    await expect(openPostgres('postgres://team:s3cret@127.0.0.1:5432')).rejects.toBeInstanceOf(
      DatabaseAddressError,
    );
  });
});
