import BetterSqlite3 from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_BACKUP_DELAY_MS, listBackups, makeBackup } from '../../../src/core/db/backup';
import { closeDatabase, openDatabase } from '../../../src/core/db/connection';
import { stagedPath, stageRestore } from '../../../src/core/db/restore';
import { SettingsRepo } from '../../../src/core/db/settingsRepo';
import { DatabaseUnavailableError } from '../../../src/core/errors';
import { silentLogger } from '../../../src/core/log';
import { makeCore } from '../../helpers/core';
import { corruptPage, fillDatabase, rootPageOf, sha } from '../../helpers/damage';
import { FakeClock } from '../../helpers/fakeClock';
import { tempDir } from '../../helpers/tmp';

// Restore (docs/architecture.md "Data safety"): the chosen backup is checked on a copy and staged; at the next open
// it replaces the data file, which is kept beside it, never deleted.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const themeIn = (path: string) => {
  const db = new BetterSqlite3(path, { readonly: true });
  try {
    return db.prepare<[], { value: string }>("SELECT value FROM settings WHERE key = 'theme'").get()?.value;
  } finally {
    db.close();
  }
};

/** A running core with one backup taken while the theme was dark, and the theme light since. */
async function coreWithBackup() {
  const h = makeCore();
  // Dispose is idempotent: a test may stop the core itself, as a quit does.
  cleanups.push(() => h.cleanup());
  await h.core.ready;
  await h.core.call('settings.update', { theme: 'dark' });
  h.clock.advance(FIRST_BACKUP_DELAY_MS);
  await vi.waitFor(() => expect(listBackups(h.dir)).toHaveLength(1));
  await h.core.call('settings.update', { theme: 'light' });
  return h;
}

describe('restoring a backup from Settings', () => {
  it('stages the backup, changes nothing until the next start, then swaps it in and keeps the replaced file', async () => {
    const h = await coreWithBackup();
    const [backup] = (await h.core.call('backups.list', undefined)).backups;
    const r = await h.core.call('backups.restore', { name: backup!.name });
    expect(r.pending).toEqual({ source: backup!.name, requested_at: h.clock.now() });
    expect((await h.core.call('backups.list', undefined)).pending).toEqual(r.pending);
    // The running app still reads and writes its own file.
    expect((await h.core.call('settings.get', undefined)).theme).toBe('light');
    await h.core.dispose();

    const db = openDatabase(h.dbPath);
    expect(new SettingsRepo(db, h.clock).get().theme).toBe('dark');
    closeDatabase(db);
    const kept = readdirSync(h.dir).filter((f) =>
      /^lotwatch\.sqlite\.replaced-\d{4}-\d{2}-\d{2}-\d{6}$/.test(f),
    );
    expect(kept).toHaveLength(1);
    expect(themeIn(join(h.dir, kept[0]!))).toBe('"light"');
    expect(existsSync(stagedPath(h.dbPath))).toBe(false);
  });

  it('refuses a backup that fails its check, and stages nothing', async () => {
    const h = await coreWithBackup();
    const [backup] = listBackups(h.dir);
    // A copy whose gzip is sound but whose SQLite pages are not.
    const plain = `${backup!.path}.plain`;
    writeFileSync(plain, gunzipSync(readFileSync(backup!.path)));
    corruptPage(plain, rootPageOf(plain, 'settings'));
    writeFileSync(backup!.path, gzipSync(readFileSync(plain)));
    rmSync(plain);
    const before = sha(backup!.path);
    const r = await h.core.invoke('backups.restore', { name: backup!.name });
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: 'bad_input',
        message: expect.stringMatching(
          /cannot be restored: SQLite's integrity check failed.*choose an older backup/,
        ),
      },
    });
    expect(existsSync(stagedPath(h.dbPath))).toBe(false);
    expect(readdirSync(h.dir).filter((f) => f.includes('restoring'))).toEqual([]);
    expect(sha(backup!.path)).toBe(before);
    expect((await h.core.call('backups.list', undefined)).pending).toBeNull();
  });

  it('takes only the name of a listed backup, never a path', async () => {
    const h = await coreWithBackup();
    expect(await h.core.invoke('backups.restore', { name: '/etc/passwd' })).toMatchObject({
      ok: false,
      error: { code: 'bad_input' },
    });
    expect(await h.core.invoke('backups.restore', { name: 'lotwatch-1999-01-01.sqlite' })).toMatchObject({
      ok: false,
      error: {
        code: 'bad_input',
        message: expect.stringContaining('There is no backup named lotwatch-1999-01-01.sqlite'),
      },
    });
  });
});

describe('restoring when the data file cannot be opened', () => {
  it('"latest" replaces a damaged file with the newest backup; the damaged file is kept', async () => {
    const t = tempDir();
    cleanups.push(() => t.cleanup());
    const path = join(t.dir, 'lotwatch.sqlite');
    fillDatabase(path);
    const db = openDatabase(path);
    const clock = new FakeClock();
    new SettingsRepo(db, clock).update({ theme: 'dark' });
    closeDatabase(db);
    const live = openDatabase(path);
    await makeBackup({ db: live, dataDir: t.dir, clock, log: silentLogger });
    closeDatabase(live);
    corruptPage(path, rootPageOf(path, 'settings'));
    const damaged = sha(path);
    expect(() => openDatabase(path)).toThrow(DatabaseUnavailableError);

    await stageRestore(path, 'latest', { now: clock.now() });
    const restored = openDatabase(path);
    expect(new SettingsRepo(restored, clock).get().theme).toBe('dark');
    closeDatabase(restored);
    const kept = readdirSync(t.dir).find((f) => f.startsWith('lotwatch.sqlite.replaced-'))!;
    expect(sha(join(t.dir, kept))).toBe(damaged);
  });

  it('restores a plain backup an older version made, and a truncated compressed one is refused', async () => {
    const t = tempDir();
    cleanups.push(() => t.cleanup());
    const path = join(t.dir, 'lotwatch.sqlite');
    const clock = new FakeClock(Date.UTC(2026, 10, 23, 12, 0));
    const db = openDatabase(path);
    new SettingsRepo(db, clock).update({ theme: 'dark' });
    // An older Lotwatch's daily copy: a plain SQLite file named .sqlite, the day before.
    mkdirSync(join(t.dir, 'backups'));
    await db.backup(join(t.dir, 'backups', 'lotwatch-2026-11-22.sqlite'));
    new SettingsRepo(db, clock).update({ theme: 'light' });
    await makeBackup({ db, dataDir: t.dir, clock, log: silentLogger });
    closeDatabase(db);
    expect(listBackups(t.dir).map((b) => b.name)).toEqual([
      'lotwatch-2026-11-23.sqlite.gz',
      'lotwatch-2026-11-22.sqlite',
    ]);

    // Today's compressed copy cut short (a full disk while copying it by hand): refused, nothing staged.
    const gz = join(t.dir, 'backups', 'lotwatch-2026-11-23.sqlite.gz');
    const whole = readFileSync(gz);
    writeFileSync(gz, whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(stageRestore(path, 'latest', { now: clock.now() })).rejects.toThrow(
      /could not be copied.*Nothing was changed/,
    );
    expect(existsSync(stagedPath(path))).toBe(false);
    expect(readdirSync(t.dir).filter((f) => f.includes('restoring'))).toEqual([]);

    await stageRestore(path, 'lotwatch-2026-11-22.sqlite', { now: clock.now() });
    const restored = openDatabase(path);
    expect(new SettingsRepo(restored, clock).get().theme).toBe('dark');
    closeDatabase(restored);
  });

  it('"latest" without any backup says so and changes nothing', async () => {
    const t = tempDir();
    cleanups.push(() => t.cleanup());
    const path = join(t.dir, 'lotwatch.sqlite');
    await expect(stageRestore(path, 'latest', { now: 0 })).rejects.toThrow(
      `There is no backup in ${join(t.dir, 'backups')} to restore. Nothing was changed.`,
    );
    expect(readdirSync(t.dir)).toEqual([]);
  });
});
