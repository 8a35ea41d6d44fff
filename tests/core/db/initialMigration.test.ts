import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../../src/core/db/connection';
import { schemaVersion } from '../../../src/core/db/migrate';
import { MIGRATIONS } from '../../../src/core/db/migrations';
import { SettingsRepo } from '../../../src/core/db/settingsRepo';
import { FakeClock } from '../../helpers/fakeClock';
import { migrateTo, migrationFiles } from './migrationFile';

// The file before any migration is an empty SQLite file (user_version 0): what a first start finds after creating
// it, or after a crash between creating the file and the first commit. Migration 10 gives it the settings table,
// and what is stored in it then survives every later migration.

const files = migrationFiles();

function emptyFile(): string {
  const path = files.path();
  const db = new BetterSqlite3(path);
  expect(schemaVersion(db)).toBe(0);
  db.close();
  return path;
}

describe('migration 10: the settings table', () => {
  it('turns an empty file at version 0 into version 10 with a working settings table', () => {
    const path = emptyFile();
    const db = new BetterSqlite3(path);
    expect(migrateTo(db, path, 10)).toEqual([10]);
    expect(schemaVersion(db)).toBe(10);
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all();
    expect(tables).toEqual([{ name: 'settings' }]);
    const settings = new SettingsRepo(db, new FakeClock());
    settings.update({ notificationsEnabled: false, theme: 'dark' });
    expect(settings.get()).toMatchObject({ notificationsEnabled: false, theme: 'dark' });
    db.close();
  });

  it('keeps the settings written at version 10 through every later migration', () => {
    const path = emptyFile();
    const raw = new BetterSqlite3(path);
    migrateTo(raw, path, 10);
    new SettingsRepo(raw, new FakeClock()).update({ notificationsEnabled: false, retentionDays: 90 });
    raw.close();
    const db = openDatabase(path);
    expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)!.version);
    expect(new SettingsRepo(db, new FakeClock()).get()).toMatchObject({
      notificationsEnabled: false,
      retentionDays: 90,
    });
    closeDatabase(db);
  });
});
