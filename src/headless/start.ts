import { join } from 'node:path';
import { createCore, type Core } from '../core/app';
import { systemClock, type Clock } from '../core/clock';
import { openDatabase } from '../core/db/connection';
import { stageRestore } from '../core/db/restore';
import { createLogger, type Logger } from '../core/log';
import { acquireDataLock } from '../core/instanceLock';
import { FileSecretBox } from '../core/secrets';
import { createDemoService, demoWorldStart } from '../sandbox/demo';
import { BrowserNotifyChannel } from './notifyChannel';
import { createHeadlessServer, type HeadlessServer } from './server';

export interface HeadlessOptions {
  dataDir: string;
  rendererDir: string;
  host?: string;
  port?: number;
  token?: string;
  version: string;
  clock?: Clock;
  log?: Logger;
  /**
   * Runs Demo mode's simulated market this many times faster than real time (1 to 3600; default 1), and the
   * watch engine on the same accelerated clock, so a day of auctions passes in minutes (demos, end-to-end tests).
   */
  demoSpeed?: number;
  /**
   * Opens the demo sandbox's test-only control routes (ground-truth events, clock, faults, reschedule on demand)
   * for end-to-end tests; `demoUrl()` then gives its address. Off by default.
   */
  demoControl?: boolean;
  /**
   * Restores a backup before opening the data file (`--restore-backup`): `latest`, a backup's file name in
   * `<dataDir>/backups`, or the path of a Lotwatch data file. The current file is kept beside it.
   */
  restoreBackup?: string;
}

export interface RunningHeadless {
  url: string;
  /** The demo sandbox's base URL (starting it if need be), for its test control routes. */
  demoUrl(): Promise<string>;
  core: Core;
  server: HeadlessServer;
  /** The backup restored at this start (its path), or null. */
  restored: string | null;
  /** Stops the server, then core (which closes the database). */
  dispose(): Promise<void>;
}

/**
 * Starts the headless shell: core over `<dataDir>/lotwatch.sqlite` with a key-file secret box, and the HTTP
 * server. Notifications core decides to show reach the open pages as `notification.posted` events (see BrowserNotifyChannel).
 * @throws AlreadyRunningError when another Lotwatch runs on the data folder (nothing touched);
 *   DatabaseFromFutureError / DatabaseUnavailableError from openDatabase or the restore; listen errors (EADDRINUSE).
 */
export async function startHeadless(opts: HeadlessOptions): Promise<RunningHeadless> {
  const log = opts.log ?? createLogger();
  const dbPath = join(opts.dataDir, 'lotwatch.sqlite');
  // One Lotwatch per data folder: before the database is opened, so a second start changes nothing.
  const lock = acquireDataLock(opts.dataDir, { shell: 'headless', now: Date.now() });
  let db;
  let restored: string | null = null;
  try {
    if (opts.restoreBackup) restored = await stageRestore(dbPath, opts.restoreBackup, { now: Date.now(), allowPath: true });
    db = openDatabase(dbPath);
  } catch (e) {
    lock.release();
    throw e;
  }
  const speed = Math.min(3600, Math.max(1, opts.demoSpeed ?? 1));
  // With an accelerated demo, market time is start + (wall - t0) * speed for both the sandbox and the engine; the
  // client's own waits (timeouts, backoff) stay in real time, since the network is not accelerated.
  const t0 = Date.now();
  const start = Math.floor(t0 / 60_000) * 60_000;
  const marketClock: Clock | undefined =
    speed > 1
      ? {
          now: () => Math.floor(start + (Date.now() - t0) * speed),
          speed,
          setTimeout: (fn, ms) => {
            const h = setTimeout(fn, Math.max(0, ms / speed));
            return () => clearTimeout(h);
          },
        }
      : undefined;
  const engineClock = opts.clock ?? marketClock ?? systemClock;
  // In real time the Demo world persists across restarts; an accelerated demo is a fresh world each run.
  const demo = createDemoService({
    speed,
    startTime: speed > 1 ? start : demoWorldStart(opts.dataDir, t0),
    align: () => engineClock.now(),
    testControl: opts.demoControl === true,
    // An injected clock (tests) drives the market too, so a lot sells when the watcher's clock says it does.
    ...(opts.clock ? { now: () => engineClock.now() } : {}),
  });
  // The browser shell's notification channel: open tabs show what core decided to notify; a closed browser gets a
  // summary when a tab next opens.
  const channel = new BrowserNotifyChannel({ broadcast: (e) => server.broadcast(e) });
  const core = createCore({
    demoService: () => demo.get(),
    // The network is not accelerated nor faked: the client's own waits (timeouts, backoff) run on real timers.
    ...(engineClock !== systemClock ? { clientClock: { now: () => engineClock.now(), setTimeout: systemClock.setTimeout } } : {}),
    db,
    dbPath,
    dataDir: opts.dataDir,
    clock: engineClock,
    secrets: new FileSecretBox(join(opts.dataDir, 'secret.key')),
    notifier: { notify: (n) => channel.notify(n) },
    log,
    shell: 'headless',
    version: opts.version,
  });
  const server: HeadlessServer = createHeadlessServer({
    core,
    rendererDir: opts.rendererDir,
    log,
    onPageOpened: () => channel.takeMissed(),
    ...(opts.host !== undefined ? { host: opts.host } : {}),
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(opts.token !== undefined ? { token: opts.token } : {}),
  });
  let url: string;
  try {
    url = await server.start();
  } catch (e) {
    await core.dispose();
    await demo.dispose();
    lock.release();
    throw e;
  }
  lock.setUrl(url.replace(/\?token=.*$/, ''));
  return {
    url,
    demoUrl: async () => (await demo.get()).baseUrl.replace(/\/api\/v1\/vehicle-auction\/?$/, ''),
    core,
    server,
    restored,
    async dispose() {
      await server.dispose();
      await core.dispose();
      await demo.dispose();
      lock.release();
    },
  };
}
