import BetterSqlite3 from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/connection';
import { migrate, schemaVersion, type Migration } from '../../src/core/db/migrate';
import { MIGRATIONS } from '../../src/core/db/migrations';
import { SettingsRepo } from '../../src/core/db/settingsRepo';
import { DatabaseFromFutureError, DatabaseUnavailableError } from '../../src/core/errors';
import { FakeClock } from '../helpers/fakeClock';
import { tempDir } from '../helpers/tmp';

const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));
const fresh = () => {
  const t = tempDir();
  dirs.push(t);
  return join(t.dir, 'lotwatch.sqlite');
};
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

describe('openDatabase and migrations', () => {
  it('creates the file, uses WAL, and sets user_version to the newest migration', () => {
    const path = fresh();
    const db = openDatabase(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)?.version);
    const table = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'settings'").get() as {
      sql: string;
    };
    expect(table.sql).toMatch(/STRICT/);
    db.close();
  });

  it('numbers migrations upwards in steps of 10', () => {
    MIGRATIONS.forEach((m, i) => expect(m.version).toBe((i + 1) * 10));
  });

  it('is idempotent: reopening applies nothing', () => {
    const path = fresh();
    openDatabase(path).close();
    const db = openDatabase(path);
    expect(migrate(db, path, MIGRATIONS)).toEqual([]);
    db.close();
  });

  it('refuses a database from a newer version and leaves the file untouched', () => {
    const path = fresh();
    const raw = new BetterSqlite3(path);
    raw.exec('CREATE TABLE future_things (x INTEGER) STRICT');
    raw.pragma('user_version = 9990');
    raw.close();
    const before = sha(path);
    let caught: unknown;
    try {
      openDatabase(path);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(DatabaseFromFutureError);
    expect((caught as DatabaseFromFutureError).code).toBe('db_from_future');
    expect((caught as Error).message).toMatch(/newer version of Lotwatch.*not changed/s);
    expect(sha(path)).toBe(before);
  });

  it('rolls the whole set back when a migration fails', () => {
    const path = fresh();
    const raw = new BetterSqlite3(path);
    const broken: Migration[] = [
      { version: 10, name: 'ok', up: (db) => db.exec('CREATE TABLE a (x INTEGER) STRICT') },
      { version: 20, name: 'broken', up: (db) => db.exec('CREATE TABLE nonsense (') },
    ];
    expect(() => migrate(raw, path, broken)).toThrow();
    expect(schemaVersion(raw)).toBe(0);
    expect(raw.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'a'").get()).toEqual({ n: 0 });
    raw.close();
  });

  it('reports a file that is not a database as unavailable, with the path', () => {
    const path = fresh();
    writeFileSync(path, 'this is not sqlite, just text that is long enough '.repeat(20));
    expect(() => openDatabase(path)).toThrow(DatabaseUnavailableError);
  });

  it('reports a missing native module clearly', () => {
    expect(() => openDatabase(fresh(), { nativeBinding: '/nonexistent/better_sqlite3.node' })).toThrow(
      /could not open its data file/,
    );
  });
});

describe('SettingsRepo', () => {
  it('returns defaults, stores a patch, and survives a reopen', () => {
    const path = fresh();
    const clock = new FakeClock();
    let db = openDatabase(path);
    const repo = new SettingsRepo(db, clock);
    expect(repo.get().theme).toBe('system');
    expect(repo.update({ theme: 'dark', demoMode: false }).theme).toBe('dark');
    db.close();
    db = openDatabase(path);
    const again = new SettingsRepo(db, clock).get();
    expect(again).toMatchObject({ theme: 'dark', demoMode: false, notificationsEnabled: true });
    db.close();
  });

  it('falls back to the default for a damaged or invalid stored value, field by field', () => {
    const db = openDatabase(fresh());
    const repo = new SettingsRepo(db, new FakeClock());
    repo.update({ notificationsEnabled: false });
    db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('theme', '{not json', 0)").run();
    db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('serviceUrl', '\"nope\"', 0)").run();
    db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('obsolete', '1', 0)").run();
    expect(repo.get()).toMatchObject({
      theme: 'system',
      serviceUrl: 'https://apibara.tech/api/v1/vehicle-auction',
      notificationsEnabled: false,
    });
    db.close();
  });

  it('reads desk settings saved before the cheapest port and destinations existed, keeping every stored field', () => {
    const db = openDatabase(fresh());
    const repo = new SettingsRepo(db, new FakeClock());
    const old = {
      membership: { copart: 'standard_non_clean_secured', iaai: 'licensed_standard_volume' },
      port: 'Houston',
      omit_fees: ['bid_fee'],
      custom_fees: [],
      own_lines: [{ id: 'own_1', label: 'Ocean freight', usd: 1150 }],
    };
    db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('desk', ?, 0)").run(
      JSON.stringify(old),
    );
    // The Copart fee table saved then reads as the membership it meant (its title part now comes from each lot).
    expect(repo.get().desk).toEqual({
      ...old,
      membership: { copart: 'standard_secured', iaai: 'licensed_standard_volume' },
      port_choice: 'port',
      destinations: [],
    });
    db.close();
  });
});
