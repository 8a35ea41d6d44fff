import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDataLock, AlreadyRunningError, LOCK_FILE, processStartOf } from '../../src/core/instanceLock';
import { silentLogger } from '../../src/core/log';
import { startHeadless, type RunningHeadless } from '../../src/headless/start';
import { childScript } from '../helpers/children';
import { tempDir } from '../helpers/tmp';
import { rendererFolder, runCliProcess } from './shellFolders';

// One Lotwatch per data folder: two on one folder would both poll (the quota spent twice) and both notify. The
// second start, of either shell, says where the first one runs and exits non-zero without touching the data.

let cliJs: string;
let renderer: { dir: string; cleanup(): void };

beforeAll(async () => {
  renderer = rendererFolder();
  // The real command-line entry, built as `npm run serve` builds it, run as its own process.
  cliJs = childScript('cli');
}, 120_000);
afterAll(() => renderer.cleanup());

/** Runs the browser shell's command line on a data folder; resolves with its exit code and output. */
function runCli(dataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runCliProcess(cliJs, ['--data-dir', dataDir, '--port', '0', '--renderer-dir', renderer.dir]);
}

/** Starts the browser shell in this process on `dataDir` (taking its lock); the caller disposes it. */
function startOn(dataDir: string): Promise<RunningHeadless> {
  return startHeadless({ dataDir, rendererDir: renderer.dir, version: '0.0.0', log: silentLogger });
}

/** Every file of the folder with its size and modification time: what "untouched" means here. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir).map((f) => [f, `${statSync(join(dir, f)).size}:${statSync(join(dir, f)).mtimeMs}`]),
  );
}

describe('one Lotwatch per data folder', () => {
  it('a second browser shell on a folder in use exits 1, says where the first runs, and changes nothing', async () => {
    const d = tempDir();
    const first = await startOn(d.dir);
    try {
      const r = await runCli(d.dir);
      expect(r.code).toBe(1);
      expect(r.stdout).not.toContain('Open: ');
      expect(r.stderr).toContain(`Lotwatch is already running on the data folder ${d.dir}`);
      expect(r.stderr).toContain('the browser shell');
      expect(r.stderr).toContain(`process ${process.pid}`);
      // It points to the first one's address, never to its token.
      const u = new URL(first.url);
      expect(r.stderr).toContain(`http://127.0.0.1:${u.port}/`);
      expect(r.stderr).not.toContain(u.searchParams.get('token')!);
      // The first one still answers.
      const info = await first.core.invoke('app.info', undefined);
      expect(info.ok).toBe(true);
    } finally {
      await first.dispose();
      d.cleanup();
    }
  }, 60_000);

  it('leaves every file of the folder as it was', async () => {
    const d = tempDir();
    // A folder a previous run filled, now held by a Lotwatch that is idle (so any change would be the second's).
    const prior = await startOn(d.dir);
    await prior.dispose();
    const lock = acquireDataLock(d.dir, { shell: 'headless', now: Date.now() });
    lock.setUrl('http://127.0.0.1:5199/');
    try {
      const before = snapshot(d.dir);
      const r = await runCli(d.dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('at http://127.0.0.1:5199/ (open the address it printed, with its token)');
      expect(snapshot(d.dir)).toEqual(before);
    } finally {
      lock.release();
      d.cleanup();
    }
  }, 60_000);

  it('takes over the lock a crashed Lotwatch left behind', async () => {
    const d = tempDir();
    // A process that has ended: its id is free (a lock left by kill -9 or a power cut looks like this).
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const pid = Number(dead.stdout.toString());
    writeFileSync(
      join(d.dir, LOCK_FILE),
      JSON.stringify({
        pid,
        shell: 'electron',
        started_at: 0,
        host: (await import('node:os')).hostname(),
        url: null,
      }),
    );
    const r = await runCli(d.dir);
    expect(r.stdout).toContain('Open: ');
    expect(r.stderr).not.toContain('already running');
    d.cleanup();
  }, 60_000);

  it('frees the folder on quit, so the next start succeeds', async () => {
    const d = tempDir();
    const first = await startOn(d.dir);
    expect(JSON.parse(readFileSync(join(d.dir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: process.pid,
      shell: 'headless',
    });
    await first.dispose();
    expect(readdirSync(d.dir)).not.toContain(LOCK_FILE);
    const second = await startOn(d.dir);
    await second.dispose();
    d.cleanup();
  });

  it('refuses a second holder in the same process, naming the first', () => {
    const d = tempDir();
    mkdirSync(d.dir, { recursive: true });
    const lock = acquireDataLock(d.dir, { shell: 'electron', now: Date.UTC(2026, 10, 23, 9, 30) });
    try {
      expect(() => acquireDataLock(d.dir, { shell: 'headless', now: 0 })).toThrow(AlreadyRunningError);
      expect(() => acquireDataLock(d.dir, { shell: 'headless', now: 0 })).toThrow(
        /the desktop app, process \d+, started Nov 23, 2026 at 09:30 UTC\. Use that one, or quit it first\. Nothing was changed\./,
      );
    } finally {
      lock.release();
    }
    acquireDataLock(d.dir, { shell: 'headless', now: 0 }).release();
    d.cleanup();
  });
});

describe('a lock whose process id now belongs to another program', () => {
  const lockOf = (dir: string, holder: Record<string, unknown>) =>
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({ shell: 'headless', started_at: 0, host: hostname(), url: null, ...holder }),
    );

  it.runIf(process.platform === 'linux')(
    'is taken over when the live process started at another time than the lock says',
    () => {
      const d = tempDir();
      // The parent process runs, but it is not the Lotwatch that wrote this lock: that one started at another tick.
      const running = processStartOf(process.ppid);
      expect(running).toMatch(/^linux:/);
      lockOf(d.dir, { pid: process.ppid, proc_start: `${running}0` });
      const lock = acquireDataLock(d.dir, { shell: 'headless', now: 1 });
      expect(JSON.parse(readFileSync(join(d.dir, LOCK_FILE), 'utf8'))).toMatchObject({
        pid: process.pid,
        proc_start: processStartOf(process.pid),
      });
      lock.release();
      d.cleanup();
    },
  );

  it.runIf(process.platform === 'linux')('is honoured when the live process is the one that took it', () => {
    const d = tempDir();
    lockOf(d.dir, { pid: process.ppid, proc_start: processStartOf(process.ppid) });
    expect(() => acquireDataLock(d.dir, { shell: 'headless', now: 1 })).toThrow(AlreadyRunningError);
    d.cleanup();
  });

  it('names the lock file and how to remove it safely when it cannot tell (no start time recorded)', () => {
    const d = tempDir();
    lockOf(d.dir, { pid: process.ppid });
    const path = join(d.dir, LOCK_FILE);
    let message = '';
    try {
      acquireDataLock(d.dir, { shell: 'headless', now: 1 });
    } catch (e) {
      expect(e).toBeInstanceOf(AlreadyRunningError);
      message = (e as Error).message;
    }
    expect(message).toContain(path);
    expect(message).toMatch(
      new RegExp(
        `If process ${process.ppid} is not Lotwatch.*delete the file ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
      ),
    );
    expect(readFileSync(path, 'utf8')).toContain(`"pid":${process.ppid}`);
    d.cleanup();
  });
});
