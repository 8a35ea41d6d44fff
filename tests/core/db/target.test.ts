import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DATABASE_ENV,
  databaseTarget,
  DatabaseTargetSchema,
  parsePostgresUrl,
  redactedUrl,
} from '../../../src/core/db/target';
import { DatabaseAddressError, LotwatchError } from '../../../src/core/errors';

const DEFAULT = '/home/buyer/.config/lotwatch/lotwatch.sqlite';
const none = {};

describe('databaseTarget', () => {
  it.each([
    ['nothing: the desktop file', undefined, none, { kind: 'sqlite', path: DEFAULT }],
    [
      'a blank flag and variable count as nothing',
      '  ',
      { [DATABASE_ENV]: '' },
      { kind: 'sqlite', path: DEFAULT },
    ],
    ['a file path', '/srv/lotwatch/team.sqlite', none, { kind: 'sqlite', path: '/srv/lotwatch/team.sqlite' }],
    [
      'a relative path, made absolute',
      'data/x.sqlite',
      none,
      { kind: 'sqlite', path: resolve('data/x.sqlite') },
    ],
    ['a file:// address', 'file:///srv/a%20b.sqlite', none, { kind: 'sqlite', path: '/srv/a b.sqlite' }],
    ['in memory', ':memory:', none, { kind: 'sqlite', path: ':memory:' }],
    [
      'postgres://',
      'postgres://lotwatch:pw@db.example.com:5432/lotwatch',
      none,
      { kind: 'postgres', url: 'postgres://lotwatch:pw@db.example.com:5432/lotwatch' },
    ],
    [
      'postgresql://, from the variable',
      undefined,
      { [DATABASE_ENV]: 'postgresql://team@db/lotwatch' },
      { kind: 'postgres', url: 'postgresql://team@db/lotwatch' },
    ],
    [
      'the flag wins over the variable',
      '/tmp/flag.sqlite',
      { [DATABASE_ENV]: 'postgres://team@db/lotwatch' },
      { kind: 'sqlite', path: '/tmp/flag.sqlite' },
    ],
    [
      'a postgres flag wins over a file in the variable',
      'POSTGRES://team@db/lotwatch',
      { [DATABASE_ENV]: '/tmp/env.sqlite' },
      { kind: 'postgres', url: 'POSTGRES://team@db/lotwatch' },
    ],
    [
      'an IPv6 host',
      'postgres://team:pw@[::1]:5433/lotwatch',
      none,
      { kind: 'postgres', url: 'postgres://team:pw@[::1]:5433/lotwatch' },
    ],
    [
      'a socket folder as a parameter',
      'postgres://team@/lotwatch?host=/var/run/postgresql',
      none,
      { kind: 'postgres', url: 'postgres://team@/lotwatch?host=/var/run/postgresql' },
    ],
  ])('%s', (_label, arg, env, want) => {
    const got = databaseTarget(arg, env, DEFAULT);
    expect(got).toEqual(want);
    expect(DatabaseTargetSchema.parse(got)).toEqual(want);
  });

  it.each([
    ['no database name', 'postgres://team:s3cret@db.example.com:5432', 'names no database'],
    ['no database name, only a slash', 'postgres://team:s3cret@db.example.com/', 'names no database'],
    ['no host', 'postgres://team:s3cret@/lotwatch', 'names no server'],
    ['a port out of range', 'postgres://team:s3cret@db:99999/lotwatch', 'cannot be read'],
    [
      'a port that is not a number',
      'postgres://team:s3cret@db:5432/lotwatch?port=abc',
      'port that is not a number',
    ],
    ['a raw # in the password', 'postgres://team:s3cret#x@db/lotwatch', 'cannot be read'],
    ['a raw # after digits in the password', 'postgres://team:12#s3cret@db/lotwatch', 'cannot be read'],
    ['a raw / in the password', 'postgres://team:12/s3cret@db/lotwatch', 'cannot be read'],
    ['a raw ? in the password', 'postgres://team:12?s3cret@db/lotwatch', 'cannot be read'],
    ['a broken percent-encoding', 'postgres://team:s3cret%ZZ@db/lotwatch', 'percent-encoding'],
    ['a path after the database', 'postgres://team:s3cret@db/lotwatch/extra', 'more than one name'],
    ['another database', 'mysql://team:s3cret@db/lotwatch', 'is not a database Lotwatch can use'],
    ['a web address', 'https://team:s3cret@db.example.com/lotwatch', 'is not a database Lotwatch can use'],
  ])('refuses %s, without showing the password', (_label, arg, problem) => {
    let e: unknown;
    try {
      databaseTarget(arg, none, DEFAULT);
    } catch (err) {
      e = err;
    }
    expect(e).toBeInstanceOf(DatabaseAddressError);
    expect(e).toBeInstanceOf(LotwatchError);
    const err = e as DatabaseAddressError;
    expect(err.code).toBe('bad_input');
    expect(err.message).toContain(problem);
    expect(err.message).toContain('postgres://user:password@host:5432/lotwatch');
    expect(err.message).not.toContain('s3cret');
    expect(err.message).not.toContain('\n');
  });

  it('refuses the same addresses in the schema', () => {
    expect(DatabaseTargetSchema.safeParse({ kind: 'postgres', url: 'postgres://db' }).success).toBe(false);
    expect(DatabaseTargetSchema.safeParse({ kind: 'sqlite', path: '' }).success).toBe(false);
    expect(DatabaseTargetSchema.safeParse({ kind: 'postgres', url: 'postgres://db/x' }).success).toBe(true);
  });
});

describe('parsePostgresUrl', () => {
  it.each([
    [
      'everything given',
      'postgres://team:pw@db.example.com:6543/lotwatch',
      { host: 'db.example.com', port: 6543, user: 'team', password: 'pw', database: 'lotwatch' },
    ],
    [
      'a password with encoded @ : / # % and a space',
      'postgres://team:p%40ss%3Aw%2Frd%23%25%20x@db/lotwatch',
      { host: 'db', port: null, user: 'team', password: 'p@ss:w/rd#% x', database: 'lotwatch' },
    ],
    [
      'a raw @ in the password (the last @ ends it, as the driver reads it)',
      'postgres://team:p@ss@db/lotwatch',
      { host: 'db', port: null, user: 'team', password: 'p@ss', database: 'lotwatch' },
    ],
    [
      'an IPv6 host without its brackets',
      'postgresql://team@[2001:db8::5]:5433/lotwatch',
      { host: '2001:db8::5', port: 5433, user: 'team', password: '', database: 'lotwatch' },
    ],
    [
      'a socket folder as a parameter',
      'postgres://team:pw@/lotwatch?host=/var/run/postgresql',
      { host: '/var/run/postgresql', port: null, user: 'team', password: 'pw', database: 'lotwatch' },
    ],
    [
      'a socket folder percent-encoded in the host place',
      'postgres://team@%2Fvar%2Frun%2Fpostgresql/lotwatch',
      { host: '/var/run/postgresql', port: null, user: 'team', password: '', database: 'lotwatch' },
    ],
    [
      'parameters winning over the address',
      'postgres://a:b@db:1/lotwatch?user=team&password=pw&port=5432',
      { host: 'db', port: 5432, user: 'team', password: 'pw', database: 'lotwatch' },
    ],
  ])('%s', (_label, url, want) => {
    expect(parsePostgresUrl(url)).toEqual(want);
  });
});

describe('redactedUrl', () => {
  it.each([
    ['a plain password', 'postgres://team:s3cret@db:5432/lotwatch', 'postgres://team:***@db:5432/lotwatch'],
    ['no password: unchanged', 'postgres://team@db/lotwatch', 'postgres://team@db/lotwatch'],
    [
      'an encoded password with special characters',
      'postgres://team:s3cret%40%3A%2F%23@db/lotwatch',
      'postgres://team:***@db/lotwatch',
    ],
    ['a raw @ in the password', 'postgres://team:s3cret@x@db/lotwatch', 'postgres://team:***@db/lotwatch'],
    ['a raw # in the password', 'postgres://team:12#s3cret@db/lotwatch', 'postgres://team:***@db/lotwatch'],
    ['a raw / in the password', 'postgres://team:12/s3cret@db/lotwatch', 'postgres://team:***@db/lotwatch'],
    ['an IPv6 host', 'postgres://team:s3cret@[::1]:5433/lotwatch', 'postgres://team:***@[::1]:5433/lotwatch'],
    ['a raw ? in the password', 'postgres://team:s3cret?x@db/lotwatch', 'postgres://team:***@db/lotwatch'],
    [
      'digits and a raw ? in the password',
      'postgres://team:12?s3cret@db/lotwatch',
      'postgres://team:***@db/lotwatch',
    ],
    [
      'digits, a raw / and a raw ? in the password',
      'postgres://team:12/x?s3cret@db/lotwatch',
      'postgres://team:***@db/lotwatch',
    ],
    [
      'an @ in a parameter of an address without a user (more is hidden, nothing leaks)',
      'postgres://db:5432/lotwatch?user=team@corp',
      'postgres://db:***@corp',
    ],
    [
      'a socket folder and a password as parameters, the other parameters as written',
      'postgres:///lotwatch?host=/var/run/postgresql&password=s3cret&application_name=a b',
      'postgres:///lotwatch?host=/var/run/postgresql&password=***&application_name=a%20b',
    ],
    [
      'a socket (empty host)',
      'postgres://team:s3cret@/lotwatch?host=/var/run/postgresql',
      'postgres://team:***@/lotwatch?host=/var/run/postgresql',
    ],
    [
      'the password as a parameter',
      'postgresql://team@db/lotwatch?sslmode=require&password=s3cret&sslpassword=s3cret',
      'postgresql://team@db/lotwatch?sslmode=require&password=***&sslpassword=***',
    ],
    [
      'an address that does not parse',
      'postgres://team:s3cret@db:99999/lotwatch?password=s3cret',
      'postgres://team:***@db:99999/lotwatch?password=***',
    ],
    ['a file path: unchanged', '/srv/lotwatch/a:b@c.sqlite', '/srv/lotwatch/a:b@c.sqlite'],
  ])('%s', (_label, url, want) => {
    const got = redactedUrl(url);
    expect(got).toBe(want);
    expect(got).not.toContain('s3cret');
  });
});
