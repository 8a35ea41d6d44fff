import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { tempDir } from '../helpers/tmp';

/**
 * A renderer folder with a page holding the app's root element, as the built renderer would be: what the browser
 * shell serves in tests that start it as its own process. The caller removes it with `cleanup()`.
 */
export function rendererFolder(): { dir: string; cleanup(): void } {
  const renderer = tempDir('lotwatch-renderer-');
  writeFileSync(
    join(renderer.dir, 'index.html'),
    '<!doctype html><title>Lotwatch</title><div id="root"></div>',
  );
  return renderer;
}

/**
 * Runs the browser shell's built command line (`cliJs`) with `args` as its own process; resolves with its exit code
 * and output once it exits. A shell that starts after all (prints "Open: ", so the test failed) is stopped with
 * SIGTERM so the test ends instead of hanging. Never rejects.
 */
export function runCliProcess(
  cliJs: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const p = spawn(process.execPath, [cliJs, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (stdout.includes('Open: ')) p.kill('SIGTERM');
    });
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    p.on('exit', (code) => res({ code, stdout, stderr }));
  });
}

/**
 * Per-test folders for tests that start the headless shell in-process. Registers an `afterEach` (call once at the
 * top level of a test file) that runs `cleanups` newest first, awaiting each; tests push their own disposals
 * (a started shell, a sandbox) there too.
 */
export function shellFolders(): {
  cleanups: (() => Promise<void> | void)[];
  /** A temp folder; removed after the test. */
  folder(): string;
  /** A renderer folder with a page (and an `assets` folder), as the headless shell serves. */
  renderer(): string;
} {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  const folder = (): string => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    return t.dir;
  };
  const renderer = (): string => {
    const dir = folder();
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Lotwatch</title>');
    return dir;
  };
  return { cleanups, folder, renderer };
}
