import BetterSqlite3 from 'better-sqlite3';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backupsDir } from '../../../src/core/db/backup';
import { closeDatabase, openDatabase } from '../../../src/core/db/connection';
import { closedMarkerPath } from '../../../src/core/db/integrity';
import { DatabaseUnavailableError } from '../../../src/core/errors';
import { corruptPage, fillDatabase, makeUnwritable, rootPageOf, sha } from '../../helpers/damage';
import { tempDir } from '../../helpers/tmp';

// The checks at open (docs/architecture.md "Data safety"): an empty, damaged, read-only file or a full disk is
// refused with what to do and where the backups are, and the file is left exactly as it was.

const dirs: { cleanup(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

function folder(): { dir: string; path: string } {
  const t = tempDir();
  dirs.push(t);
  return { dir: t.dir, path: join(t.dir, 'lotwatch.sqlite') };
}

/** The refusal openDatabase throws (fails the test when it opens instead). */
function refusal(path: string, opts: Parameters<typeof openDatabase>[1] = {}): DatabaseUnavailableError {
  let db;
  try {
    db = openDatabase(path, opts);
  } catch (e) {
    expect(e).toBeInstanceOf(DatabaseUnavailableError);
    return e as DatabaseUnavailableError;
  }
  db.close();
  throw new Error('openDatabase opened the file instead of refusing it');
}

/** A backup file in the data folder's backups folder: a real, sound Lotwatch file. */
function placeBackup(dir: string, date: string): string {
  const p = join(backupsDir(dir), `lotwatch-${date}.sqlite`);
  fillDatabase(p, 10);
  return p;
}

describe('an empty data file', () => {
  it('is refused, not silently replaced by a new database, and names the newest backup', () => {
    const { dir, path } = folder();
    const newest = placeBackup(dir, '2026-11-22');
    placeBackup(dir, '2026-11-20');
    writeFileSync(path, '');
    const e = refusal(path);
    expect(e.code).toBe('db_unavailable');
    expect(e.problem).toBe('empty');
    expect(e.message).toContain(`The data file ${path} is empty (0 bytes)`);
    expect(e.message).toContain('did not change it');
    expect(e.message).toContain(`The newest backup is ${newest} (2026-11-22)`);
    expect(e.message).toContain('move the empty file away');
    expect(e.latestBackup).toBe(newest);
    // Still 0 bytes, and no journal appeared beside it.
    expect(statSync(path).size).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['backups', 'lotwatch.sqlite']);
  });

  it('without backups says there is none yet', () => {
    const { dir, path } = folder();
    writeFileSync(path, '');
    const e = refusal(path);
    expect(e.message).toContain(`There is no backup in ${backupsDir(dir)} yet.`);
    expect(e.latestBackup).toBeNull();
  });
});

describe('a data file damaged past its first page', () => {
  it('fails the integrity check at open, is not written to, and the message points to the newest backup', () => {
    const { dir, path } = folder();
    fillDatabase(path);
    const newest = placeBackup(dir, '2026-11-22');
    // A bad sector in the middle of the settings table, while Lotwatch was closed.
    corruptPage(path, rootPageOf(path, 'settings'));
    const before = sha(path);
    const e = refusal(path);
    expect(e.problem).toBe('damaged');
    expect(e.message).toMatch(
      new RegExp(
        `^The data file ${path} is damaged \\(SQLite's integrity check failed: .+\\)\\. Lotwatch did not change it\\.`,
      ),
    );
    expect(e.message).toContain(`The newest backup is ${newest} (2026-11-22)`);
    expect(e.latestBackup).toBe(newest);
    expect(sha(path)).toBe(before);
    expect(existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0).toBe(0);
  });

  it('is caught after a stop that was not clean even when its modification time looks unchanged', () => {
    const { path } = folder();
    fillDatabase(path);
    const { atime, mtimeMs } = statSync(path);
    corruptPage(path, rootPageOf(path, 'settings'));
    utimesSync(path, atime, mtimeMs / 1000);
    // A crash: no clean-close record.
    const db = openDatabase(path);
    expect(existsSync(closedMarkerPath(path))).toBe(false);
    db.close();
    expect(refusal(path).problem).toBe('damaged');
  });

  it('a clean close is recorded, and a file nobody touched since opens without the check', () => {
    const { path } = folder();
    fillDatabase(path);
    expect(existsSync(closedMarkerPath(path))).toBe(true);
    // Damage that keeps size and modification time (bit rot) is not looked for at open: the daily backup's check
    // finds it. This is the price of not reading the whole file at every start.
    const { atime, mtimeMs } = statSync(path);
    corruptPage(path, rootPageOf(path, 'settings'));
    utimesSync(path, atime, mtimeMs / 1000);
    const db = openDatabase(path);
    expect(existsSync(closedMarkerPath(path))).toBe(false);
    closeDatabase(db);
  });

  it('a file that is not a database at all is reported as damaged, with the path', () => {
    const { path } = folder();
    writeFileSync(path, 'this is not sqlite, just text that is long enough '.repeat(200));
    const before = sha(path);
    const e = refusal(path);
    expect(e.problem).toBe('damaged');
    expect(e.message).toContain(`The data file ${path} is damaged`);
    expect(sha(path)).toBe(before);
  });
});

describe('a data file Lotwatch cannot write', () => {
  it('is refused at open with the path to fix, instead of failing at the first write', (ctx) => {
    const { dir, path } = folder();
    fillDatabase(path, 10);
    const undo = makeUnwritable(path);
    if (!undo) return ctx.skip();
    try {
      const before = sha(path);
      const e = refusal(path);
      expect(e.problem).toBe('readonly');
      expect(e.message).toContain(
        `Lotwatch cannot write to its data file ${path}: the file or its folder is read-only`,
      );
      expect(e.message).toContain(`Fix the permissions of ${path} and of ${dir}`);
      expect(e.message).toContain(`the backups are in ${backupsDir(dir)}`);
      expect(sha(path)).toBe(before);
    } finally {
      undo();
    }
  });

  it('the write probe leaves a writable file byte for byte as it was', () => {
    const { path } = folder();
    fillDatabase(path, 10);
    const before = sha(path);
    const db = openDatabase(path);
    db.close();
    expect(sha(path)).toBe(before);
  });
});

describe('a full disk at start', () => {
  it('is refused before anything is written, with how much is free and where the backups are', () => {
    const { dir, path } = folder();
    fillDatabase(path, 10);
    const before = sha(path);
    const e = refusal(path, { freeBytes: () => 3 * 1048576 });
    expect(e.problem).toBe('full');
    expect(e.message).toBe(
      `The disk that holds ${dir} is full (3 MB free): Lotwatch could not save anything. Free disk space, then start ` +
        `Lotwatch again. Nothing was changed; the backups are in ${backupsDir(dir)}.`,
    );
    expect(sha(path)).toBe(before);
  });
});

describe('a file from a newer Lotwatch', () => {
  it('is still refused untouched (the checks read it on a read-only connection)', () => {
    const { path } = folder();
    fillDatabase(path, 10);
    const raw = new BetterSqlite3(path);
    raw.pragma('user_version = 9990');
    raw.close();
    const before = sha(path);
    expect(() => openDatabase(path)).toThrow(/newer version of Lotwatch/);
    expect(sha(path)).toBe(before);
  });
});
