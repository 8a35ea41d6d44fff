import { test as base, _electron, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { electronBinary } from './env';
import { AppFrame } from './pages/AppFrame';

export interface AppHandle {
  page: Page;
  dataDir: string;
  /** Messages the page logged as errors, and uncaught page errors. */
  consoleErrors: string[];
  shell: 'headless' | 'electron';
  /** The address the headless shell printed (with its token), or null in the desktop app. */
  url: string | null;
  /** The demo sandbox's address, when the shell was started with --demo-control (its test-only routes). */
  demoUrl: string | null;
}

/**
 * Starts `node out/main/headless.js` on a free port with `dataDir`; resolves with its printed URL (and the demo
 * sandbox's, when `extraArgs` has --demo-control).
 */
export function startHeadlessShell(
  dataDir: string,
  extraArgs: string[] = [],
): Promise<{ url: string; demoUrl: string | null; proc: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ['out/main/headless.js', '--port', '0', '--data-dir', dataDir, ...extraArgs],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, LOTWATCH_DATA_DIR: dataDir },
      },
    );
    let out = '';
    let errText = '';
    const timer = setTimeout(
      () => reject(new Error(`headless shell did not start: ${out}${errText}`)),
      20_000,
    );
    proc.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /Open: (http:\/\/\S+)/.exec(out);
      const demo = /Demo service: (http:\/\/\S+)/.exec(out);
      const wantsDemo = extraArgs.includes('--demo-control');
      if (m?.[1] && (!wantsDemo || demo?.[1])) {
        clearTimeout(timer);
        resolve({ url: m[1], demoUrl: demo?.[1] ?? null, proc });
      }
    });
    proc.stderr?.on('data', (c: Buffer) => (errText += c.toString()));
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`headless shell exited with ${code}: ${errText}`));
    });
  });
}

/** SIGTERM, and SIGKILL when the process has not exited 5 s later (a test never waits on a stuck shutdown). */
function stop(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    const kill = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    proc.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    proc.kill('SIGTERM');
  });
}

/**
 * `app`: a fresh data folder per test and the app's page, in the shell of the project: the headless shell
 * driven by Chromium, or the Electron app through _electron.launch (skipped when no binary exists).
 */
/** Starts the standalone sandbox (`out/main/sandbox.js`) with `args`; resolves with its base URL and key. */
export function startSandbox(
  args: string[] = [],
): Promise<{ baseUrl: string; key: string; proc: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['out/main/sandbox.js', '--port', '0', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${out}`)), 20_000);
    proc.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const base = /Base URL: (\S+)/.exec(out)?.[1];
      const key = /API key:\s+(\S+)/.exec(out)?.[1];
      if (base && key) {
        clearTimeout(timer);
        resolve({ baseUrl: base, key, proc });
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}: ${out}`));
    });
  });
}

/** Stops a child process and waits for it. */
export const stopProcess = (proc: ChildProcess): Promise<void> => stop(proc);

/**
 * Replaces the page's Notification with a recorder that is always granted, so a spec can read what the app
 * showed: `await page.evaluate(() => window.__notifications)`.
 */
export const NOTIFICATION_RECORDER = `
  window.__notifications = [];
  class RecordingNotification {
    static permission = 'granted';
    static requestPermission() { return Promise.resolve('granted'); }
    constructor(title, options) { window.__notifications.push({ title, body: (options && options.body) || '' }); }
    close() {}
  }
  window.Notification = RecordingNotification;
`;

export const test = base.extend<{ app: AppHandle; shellArgs: string[] }>({
  /** Extra command-line arguments for the headless shell (e.g. ['--demo-speed', '600']). */
  shellArgs: [[], { option: true }],
  app: async ({ playwright, launchOptions, viewport, shellArgs }, use, testInfo) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lotwatch-e2e-'));
    const consoleErrors: string[] = [];
    const watch = (p: Page) => {
      p.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(`${m.text()} (${m.location().url})`);
      });
      p.on('pageerror', (e) => consoleErrors.push(e.message));
    };
    try {
      if (testInfo.project.name === 'electron') {
        const bin = electronBinary();
        if ('reason' in bin) {
          testInfo.skip(true, `No Electron binary on this machine: ${bin.reason}`);
          return;
        }
        const electronApp = await _electron.launch({
          executablePath: bin.path,
          args: ['out/main/index.js'],
          env: { ...process.env, LOTWATCH_DATA_DIR: dataDir } as Record<string, string>,
        });
        const win = await electronApp.firstWindow();
        watch(win);
        await use({ page: win, dataDir, consoleErrors, shell: 'electron', url: null, demoUrl: null });
        await electronApp.close();
      } else {
        // Launched here rather than through the `page` fixture, so the Electron project never starts a browser.
        const { url, demoUrl, proc } = await startHeadlessShell(dataDir, shellArgs);
        const browser = await playwright.chromium.launch(launchOptions);
        try {
          const context = await browser.newContext({ viewport });
          await context.addInitScript(NOTIFICATION_RECORDER);
          const page = await context.newPage();
          watch(page);
          await page.goto(url);
          await use({ page, dataDir, consoleErrors, shell: 'headless', url, demoUrl });
        } finally {
          await browser.close();
          await stop(proc);
        }
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
});

export { expect } from '@playwright/test';

/** Opens a view through its navigation link, as a user would, and waits for its heading. */
export async function openView(page: Page, label: string): Promise<void> {
  await new AppFrame(page).open(label);
}
