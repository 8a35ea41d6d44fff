import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBackup } from '../../src/core/db/backup';
import { closeDatabase, openDatabase } from '../../src/core/db/connection';
import { SettingsRepo } from '../../src/core/db/settingsRepo';
import { silentLogger } from '../../src/core/log';
import { corruptPage, fillDatabase, makeUnwritable, rootPageOf, sha } from '../helpers/damage';
import { FakeClock } from '../helpers/fakeClock';
import { childScript } from '../helpers/children';
import { tempDir } from '../helpers/tmp';
import { rendererFolder, runCliProcess } from './shellFolders';

// The browser shell's command line on a data folder it cannot use (docs/architecture.md "Data safety"): one clear
// line on stderr, no stack trace, exit status 1, the file untouched; and --restore-backup to get going again.

let cliJs: string;
let renderer: { dir: string; cleanup(): void };
const dirs: { cleanup(): void }[] = [];

beforeAll(async () => {
  renderer = rendererFolder();
  // The real command-line entry, built as `npm run serve` builds it, run as its own process.
  cliJs = childScript('cli');
}, 120_000);
afterAll(() => {
  renderer.cleanup();
  for (const d of dirs) d.cleanup();
});

/** Runs the command line on a data folder; resolves with its exit code and output once it exits or has started. */
function runCli(
  dataDir: string,
  extra: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runCliProcess(cliJs, [
    '--data-dir',
    dataDir,
    '--port',
    '0',
    '--renderer-dir',
    renderer.dir,
    ...extra,
  ]);
}

/** A data folder whose file holds the theme "dark", with a backup of that, then the theme "light". */
async function folderWithBackup(): Promise<{ dir: string; path: string }> {
  const t = tempDir();
  dirs.push(t);
  const path = join(t.dir, 'lotwatch.sqlite');
  fillDatabase(path);
  const clock = new FakeClock();
  const db = openDatabase(path);
  new SettingsRepo(db, clock).update({ theme: 'dark' });
  await makeBackup({ db, dataDir: t.dir, clock, log: silentLogger });
  new SettingsRepo(db, clock).update({ theme: 'light' });
  closeDatabase(db);
  return { dir: t.dir, path };
}

/** Exactly one non-empty line, with no stack frame in it. */
function oneLine(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.trim() !== '');
  expect(lines).toHaveLength(1);
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toMatch(/SqliteError|node:internal/);
  return lines[0]!;
}

describe('the command line on a data file it cannot use', () => {
  it('a damaged file: one line that points to the newest backup and --restore-backup, exit 1, file untouched', async () => {
    const { dir, path } = await folderWithBackup();
    corruptPage(path, rootPageOf(path, 'settings'));
    const before = sha(path);
    const r = await runCli(dir);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('Open: ');
    const line = oneLine(r.stderr);
    expect(line).toMatch(
      new RegExp(
        `^lotwatch: The data file ${path} is damaged \\(SQLite's integrity check failed: .+\\)\\. Lotwatch did not change it\\.`,
      ),
    );
    expect(line).toContain(`The newest backup is ${join(dir, 'backups')}/lotwatch-`);
    expect(line).toMatch(/To restore it, start again with --restore-backup latest\.$/);
    expect(sha(path)).toBe(before);
  }, 60_000);

  it('an empty file: one line, exit 1, still 0 bytes', async () => {
    const t = tempDir();
    dirs.push(t);
    writeFileSync(join(t.dir, 'lotwatch.sqlite'), '');
    const r = await runCli(t.dir);
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toContain(`The data file ${join(t.dir, 'lotwatch.sqlite')} is empty (0 bytes)`);
    expect(readdirSync(t.dir).sort()).toEqual(['lotwatch.sqlite']);
  }, 60_000);

  it('a read-only file: one line naming the file to fix, exit 1, before the address is printed', async (ctx) => {
    const { dir, path } = await folderWithBackup();
    const undo = makeUnwritable(path);
    if (!undo) return ctx.skip();
    try {
      const r = await runCli(dir);
      expect(r.code).toBe(1);
      expect(r.stdout).not.toContain('Open: ');
      expect(oneLine(r.stderr)).toContain(
        `Lotwatch cannot write to its data file ${path}: the file or its folder is read-only`,
      );
    } finally {
      undo();
    }
  }, 60_000);

  it('--restore-backup latest puts the newest backup in place, keeps the damaged file, and starts', async () => {
    const { dir, path } = await folderWithBackup();
    corruptPage(path, rootPageOf(path, 'settings'));
    const damaged = sha(path);
    const r = await runCli(dir, ['--restore-backup', 'latest']);
    expect(r.stdout).toMatch(
      /^Restored the backup .*\/backups\/lotwatch-\d{4}-\d{2}-\d{2}\.sqlite\.gz; the replaced data file is kept in /m,
    );
    expect(r.stdout).toContain('Open: ');
    const kept = readdirSync(dir).find((f) => /^lotwatch\.sqlite\.replaced-/.test(f))!;
    expect(sha(join(dir, kept))).toBe(damaged);
    const db = openDatabase(path);
    expect(new SettingsRepo(db, new FakeClock()).get().theme).toBe('dark');
    closeDatabase(db);
  }, 60_000);
});
