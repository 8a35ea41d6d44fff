import BetterSqlite3 from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { addDays, format, startOfDay } from 'date-fns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  backupsDir,
  FIRST_BACKUP_DELAY_MS,
  KEEP_BACKUPS,
  listBackups,
  makeBackup,
} from '../../../src/core/db/backup';
import { closeDatabase, openDatabase } from '../../../src/core/db/connection';
import { silentLogger, type Logger } from '../../../src/core/log';
import { makeCore } from '../../helpers/core';
import { corruptPage, fillDatabase, rootPageOf, sha } from '../../helpers/damage';
import { FakeClock } from '../../helpers/fakeClock';
import { tempDir } from '../../helpers/tmp';

// The daily backup (docs/architecture.md "Data safety"): SQLite's online backup of the open file, checked before it
// counts, the last seven kept, and never a damaged copy in place of a good one.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const day = (t: number) => format(t, 'yyyy-MM-dd');

/** Opens the SQLite file a `.gz` backup holds (gunzipped beside it, removed with the test's folder), read-only. */
function openBackup(path: string): BetterSqlite3.Database {
  const plain = `${path}.test-expanded.sqlite`;
  writeFileSync(plain, gunzipSync(readFileSync(path)));
  cleanups.push(() => rmSync(plain, { force: true }));
  return new BetterSqlite3(plain, { readonly: true });
}

/** A logger that keeps its lines. */
function recordingLog(): Logger & {
  lines: { level: string; msg: string; data?: Record<string, unknown> }[];
} {
  const lines: { level: string; msg: string; data?: Record<string, unknown> }[] = [];
  const at = (level: string) => (msg: string, data?: Record<string, unknown>) =>
    void lines.push({ level, msg, ...(data ? { data } : {}) });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

describe('the daily backup of a running Lotwatch', () => {
  it("takes today's copy a minute after start: a sound, self-contained 0600 file with the data", async () => {
    const h = makeCore();
    cleanups.push(() => h.cleanup());
    await h.core.ready;
    await h.core.call('settings.update', { theme: 'dark' });
    expect(listBackups(h.dir)).toEqual([]);
    h.clock.advance(FIRST_BACKUP_DELAY_MS);
    const list = await vi.waitFor(async () => {
      const r = await h.core.call('backups.list', undefined);
      expect(r.backups).toHaveLength(1);
      return r;
    });
    const name = `lotwatch-${day(h.clock.now())}.sqlite.gz`;
    expect(list).toMatchObject({ folder: backupsDir(h.dir), pending: null });
    expect(list.backups[0]).toMatchObject({
      name,
      date: day(h.clock.now()),
      path: join(backupsDir(h.dir), name),
    });
    expect(list.backups[0]!.size).toBeGreaterThan(0);
    const path = list.backups[0]!.path;
    if (process.platform !== 'win32') {
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(backupsDir(h.dir)).mode & 0o777).toBe(0o700);
    }
    // One compressed file: no partial, -wal or -shm beside it; it holds a self-contained, sound copy of the data.
    expect(readdirSync(backupsDir(h.dir))).toEqual([name]);
    const copy = openBackup(path);
    expect(copy.pragma('quick_check', { simple: true })).toBe('ok');
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(copy.prepare("SELECT value FROM settings WHERE key = 'theme'").get()).toEqual({ value: '"dark"' });
    copy.close();
    expect(list.backups[0]!.size).toBeLessThan(statSync(`${path}.test-expanded.sqlite`).size / 4);
  });

  it('takes one a day after midnight and keeps the last seven', async () => {
    const h = makeCore();
    cleanups.push(() => h.cleanup());
    await h.core.ready;
    const days: string[] = [];
    h.clock.advance(FIRST_BACKUP_DELAY_MS);
    days.push(day(h.clock.now()));
    await vi.waitFor(() => expect(listBackups(h.dir)).toHaveLength(1));
    for (let i = 1; i <= 9; i++) {
      // A few minutes after the next local midnight.
      h.clock.advanceTo(startOfDay(addDays(h.clock.now(), 1)).getTime() + 10 * 60_000);
      days.push(day(h.clock.now()));
      await vi.waitFor(() => expect(listBackups(h.dir)[0]?.date).toBe(days.at(-1)));
    }
    expect(listBackups(h.dir).map((b) => b.date)).toEqual(days.slice(-KEEP_BACKUPS).reverse());
  });
});

describe('makeBackup', () => {
  function fixture(): { dir: string; path: string } {
    const t = tempDir();
    cleanups.push(() => t.cleanup());
    const path = join(t.dir, 'lotwatch.sqlite');
    fillDatabase(path);
    return { dir: t.dir, path };
  }

  it('refuses to copy a damaged file: no new backup, and none of the good ones is pruned', async () => {
    const { dir, path } = fixture();
    const clock = new FakeClock(Date.UTC(2026, 10, 23, 12, 0));
    // Seven good backups of the previous days (the limit: a new one would push the oldest out).
    mkdirSync(backupsDir(dir), { recursive: true });
    for (let i = 1; i <= KEEP_BACKUPS; i++) {
      const db = openDatabase(join(backupsDir(dir), `lotwatch-${day(clock.now() - i * 86_400_000)}.sqlite`));
      closeDatabase(db);
    }
    const before = Object.fromEntries(listBackups(dir).map((b) => [b.name, sha(b.path)]));
    corruptPage(path, rootPageOf(path, 'settings'));
    // The running app's connection (opened before the damage was found).
    const db = new BetterSqlite3(path);
    cleanups.push(() => db.close());
    const log = recordingLog();
    const r = await makeBackup({ db, dataDir: dir, clock, log });
    expect(r).toMatchObject({ status: 'damaged', problem: expect.stringMatching(/integrity check failed/) });
    expect(Object.fromEntries(listBackups(dir).map((b) => [b.name, sha(b.path)]))).toEqual(before);
    expect(readdirSync(backupsDir(dir)).filter((f) => !f.startsWith('lotwatch-'))).toEqual([]);
  });

  it('skips, and says so, when the disk would be nearly full after the copy', async () => {
    const { dir, path } = fixture();
    const db = openDatabase(path);
    cleanups.push(() => closeDatabase(db));
    const r = await makeBackup({
      db,
      dataDir: dir,
      clock: new FakeClock(),
      log: silentLogger,
      freeBytes: () => 10 * 1048576,
    });
    expect(r).toEqual({ status: 'skipped', reason: `only 10 MB free on the disk of ${backupsDir(dir)}` });
    expect(listBackups(dir)).toEqual([]);
    expect(existsSync(backupsDir(dir)) ? readdirSync(backupsDir(dir)) : []).toEqual([]);
  });

  it('does not take a second copy the same day', async () => {
    const { dir, path } = fixture();
    const db = openDatabase(path);
    cleanups.push(() => closeDatabase(db));
    const clock = new FakeClock();
    const first = await makeBackup({ db, dataDir: dir, clock, log: silentLogger });
    expect(first.status).toBe('made');
    clock.advance(3_600_000);
    const second = await makeBackup({ db, dataDir: dir, clock, log: silentLogger });
    expect(second.status).toBe('exists');
    expect(listBackups(dir)).toHaveLength(1);
  });

  it('keeps seven days of an unchanged file in the space of one, and copies again once something changed', async () => {
    const { dir, path } = fixture();
    const db = openDatabase(path);
    cleanups.push(() => closeDatabase(db));
    const clock = new FakeClock(Date.UTC(2026, 10, 23, 12, 0));
    const outcomes = [];
    for (let i = 0; i < 8; i++) {
      outcomes.push(await makeBackup({ db, dataDir: dir, clock, log: silentLogger }));
      clock.advance(86_400_000);
    }
    expect(outcomes.map((o) => (o.status === 'made' ? o.linked : o.status))).toEqual([
      false,
      true,
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    const list = listBackups(dir);
    expect(list).toHaveLength(KEEP_BACKUPS);
    // One file on disk under seven daily names, each a sound copy of the data.
    expect(new Set(list.map((b) => statSync(b.path).ino)).size).toBe(1);
    expect(statSync(list[0]!.path).nlink).toBe(KEEP_BACKUPS);
    const copy = openBackup(list[0]!.path);
    expect(copy.pragma('quick_check', { simple: true })).toBe('ok');
    copy.close();

    db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('theme', '\"dark\"', 1)").run();
    const changed = await makeBackup({ db, dataDir: dir, clock, log: silentLogger });
    expect(changed).toMatchObject({ status: 'made', linked: false });
    const [newest, previous] = listBackups(dir);
    expect(statSync(newest!.path).ino).not.toBe(statSync(previous!.path).ino);
    const fresh = openBackup(newest!.path);
    expect(fresh.prepare("SELECT value FROM settings WHERE key = 'theme'").get()).toEqual({
      value: '"dark"',
    });
    fresh.close();
    // Pruning the oldest name removes a link, never the data the other names share.
    expect(listBackups(dir)).toHaveLength(KEEP_BACKUPS);
    expect(statSync(previous!.path).nlink).toBe(KEEP_BACKUPS - 1);
  });
});
