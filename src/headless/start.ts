import { join } from 'node:path';
import { createCore, type Core } from '../core/app';
import { systemClock, type Clock } from '../core/clock';
import { openDatabase } from '../core/db/connection';
import { postgresDatabase, sqliteDatabase, type CoreDatabase } from '../core/coreDatabase';
import { databaseTarget } from '../core/db/target';
import { stageRestore } from '../core/db/restore';
import { BadInputError, DemoSpeedError } from '../core/errors';
import { createLogger, type Logger } from '../core/log';
import { acquireDataLock } from '../core/instanceLock';
import { FileSecretBox } from '../core/secrets';
import {
  createDemoService,
  demoMarketClock,
  demoSteppedClock,
  demoWorldStart,
  DEMO_WORLD_LEAD_MS,
  type DemoMarketClock,
  type SteppedDemoClock,
  DEMO_CALL_EXAMPLE,
} from '../sandbox/demo';
import { CalendarFeed } from './calendarFeed';
import { BrowserNotifyChannel } from './notifyChannel';
import { createHeadlessServer, type HeadlessServer } from './server';
import { checkTeamKey, runTeamWatch } from './teamWatch';
import { checkTeamOptions, openTeam, type FirstAdmin, type OpenTeam, type TeamOptions } from './teamStart';

export interface HeadlessOptions {
  dataDir: string;
  rendererDir: string;
  host?: string;
  /**
   * The port to listen on; 0 or none picks a free one at each start. A chosen port keeps the calendar subscription's
   * address the same across restarts (its secret is kept in the data folder).
   */
  port?: number;
  token?: string;
  version: string;
  clock?: Clock;
  log?: Logger;
  /**
   * Runs Demo mode's simulated market this many times faster than real time (1 to 3600; default 1), and the
   * watch engine on the same accelerated clock, so a day of auctions passes in minutes (demos, end-to-end tests).
   * Demo mode only: a data folder with Demo mode off is refused (DemoSpeedError), and so is turning it off. The
   * market's time is kept in the data folder, so a restart resumes it where it stood, never earlier.
   */
  demoSpeed?: number;
  /** The wall clock an accelerated Demo's time is derived from (ms since the epoch; default Date.now; tests fake it). */
  wallNow?: () => number;
  /**
   * Opens the demo sandbox's test-only control routes (ground-truth events, clock, faults, reschedule on demand)
   * for end-to-end tests; `demoUrl()` then gives its address. Off by default.
   */
  demoControl?: boolean;
  /**
   * Test-only: 'stepped' runs the Demo market and the watch engine on one clock that stands still until a test steps
   * it through the control routes (POST /__sandbox/clock {advance_ms}: the watcher's timers due by then run in time
   * order, each after the work before it has finished), so an end-to-end test moves the market when it says instead
   * of waiting on an accelerated wall clock. Needs `demoControl` and Demo mode; excludes `demoSpeed` above 1.
   * Default 'wall' (real or accelerated time).
   */
  demoClock?: 'wall' | 'stepped';
  /**
   * Restores a backup before opening the data file (`--restore-backup`): `latest`, a backup's file name in
   * `<dataDir>/backups`, or the path of a Lotwatch data file. The current file is kept beside it.
   */
  restoreBackup?: string;
  /**
   * The database (`--database`; else LOTWATCH_DATABASE_URL; db/target.ts databaseTarget): a `postgres://` address
   * keeps the data on a team's PostgreSQL server, a path another SQLite file; default `<dataDir>/lotwatch.sqlite`.
   */
  database?: string;
  /** The environment LOTWATCH_DATABASE_URL is read from (default process.env; tests pass their own). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Team mode (`--team`, docs/team.md): members sign in, each call runs as its member, and the server may listen
   * beyond this computer. Needs a PostgreSQL `database`.
   */
  team?: TeamOptions;
  /**
   * A team server's watcher, started once the server listens (default runTeamWatch, teamWatch.ts): it runs the
   * scheduler only while this server holds the team's leadership, and is stopped before core. A team server's core
   * starts without its own schedule (`autoStart: false`), so that only the leader watches. Tests pass their own.
   */
  teamWatch?: (core: Core, database: CoreDatabase) => { stop(): Promise<void> };
  /**
   * The key file that seals the API key and the channels' secrets (`--secret-key-file`; default
   * `<dataDir>/secret.key`). Every server of a team must use the same one (checkTeamKey refuses another).
   */
  secretKeyFile?: string;
  /** Where a team server says what an operator reads (its watcher's standing); default stdout. */
  say?: (line: string) => void;
}

export interface RunningHeadless {
  url: string;
  /** The demo sandbox's base URL (starting it if need be), for its test control routes. */
  demoUrl(): Promise<string>;
  core: Core;
  server: HeadlessServer;
  /** The backup restored at this start (its path), or null. */
  restored: string | null;
  /** Where the data is, as said at start: the data folder, or the PostgreSQL address without its password. */
  dataAt: string;
  /** A team server's first admin made at this start (the password when generated, to print once), or null. */
  firstAdmin: FirstAdmin;
  /** Stops the server, then core (which closes the database). */
  dispose(): Promise<void>;
}

/**
 * Starts the headless shell: core over `<dataDir>/lotwatch.sqlite` (or the database `opts.database` names: a team's
 * PostgreSQL, coreDatabase.ts postgresDatabase) with a key-file secret box, and the HTTP server. Notifications core decides to show reach the open pages as `notification.posted` events (see BrowserNotifyChannel).
 * @throws AlreadyRunningError when another Lotwatch runs on the data folder (nothing touched); DatabaseAddressError,
 *   DatabaseUnreachableError or DatabaseFromFutureError for a PostgreSQL database (one line, the address without its
 *   password); BadInputError for `restoreBackup` with one;
 *   DatabaseFromFutureError / DatabaseUnavailableError from openDatabase or the restore; DemoSpeedError when
 *   `demoSpeed` is above 1 and the folder has Demo mode off (nothing started); BadInputError when `demoClock` is
 *   'stepped' without `demoControl`, with `demoSpeed` above 1 or with Demo mode off (nothing started); listen errors
 *   (EADDRINUSE).
 */
export async function startHeadless(opts: HeadlessOptions): Promise<RunningHeadless> {
  const log = opts.log ?? createLogger();
  const target = databaseTarget(opts.database, opts.env, join(opts.dataDir, 'lotwatch.sqlite'));
  const dbPath = target.kind === 'sqlite' ? target.path : join(opts.dataDir, 'lotwatch.sqlite');
  checkTeamOptions({ team: opts.team, databaseKind: target.kind, host: opts.host });
  if (target.kind === 'postgres' && opts.restoreBackup)
    throw new BadInputError(
      "--restore-backup restores a data file; a team's PostgreSQL database is restored from the server's own backups.",
    );
  // One Lotwatch per data folder: before the database is opened, so a second start changes nothing.
  const lock = acquireDataLock(opts.dataDir, { shell: 'headless', now: Date.now() });
  let database: CoreDatabase;
  let restored: string | null = null;
  let team: OpenTeam | null = null;
  try {
    if (target.kind === 'postgres') {
      database = await postgresDatabase(target.url, {
        dataDir: opts.dataDir,
        clock: systemClock,
        pool: { logger: log },
      });
      // The team's accounts, once the database is at this version's schema (postgresDatabase migrated it).
      if (opts.team)
        team = await openTeam(target.url, opts.team, log).catch(async (e: unknown) => {
          await database.close();
          throw e;
        });
    } else {
      if (opts.restoreBackup)
        restored = await stageRestore(dbPath, opts.restoreBackup, { now: Date.now(), allowPath: true });
      database = sqliteDatabase(openDatabase(dbPath), { dbPath, dataDir: opts.dataDir, clock: systemClock });
    }
  } catch (e) {
    lock.release();
    throw e;
  }
  const speed = Math.min(3600, Math.max(1, opts.demoSpeed ?? 1));
  const stepped = opts.demoClock === 'stepped';
  const settingsRepo = database.settings;
  // The accelerated clock drives the Demo market only: with Demo mode off the watcher would ask the real service
  // with the buyer's key that many times faster. A stepped clock is a test's, on the Demo market and its control
  // routes only. Refused before anything starts.
  const refusal =
    steppedRefusal(opts, speed, () => settingsRepo.get().demoMode) ??
    (speed > 1 && !settingsRepo.get().demoMode ? new DemoSpeedError(speed, 'start', opts.dataDir) : null);
  if (refusal) {
    await database.close();
    await team?.close();
    lock.release();
    throw refusal;
  }
  // With an accelerated demo, market time runs `speed` times faster than the wall clock for both the sandbox and
  // the engine, resumed from the time the last run reached (kept in the data folder), so a restart never replays
  // sales; the client's own waits (timeouts, backoff) stay in real time, since the network is not accelerated.
  // An injected clock (tests) owns time itself.
  const market: DemoMarketClock | undefined =
    speed > 1 && !opts.clock
      ? demoMarketClock(opts.dataDir, { speed, ...(opts.wallNow ? { wallNow: opts.wallNow } : {}) })
      : undefined;
  const marketClock: Clock | undefined = market
    ? {
        now: () => market.now(),
        speed,
        setTimeout: (fn, ms) => {
          const h = setTimeout(fn, Math.max(0, ms / speed));
          return () => clearTimeout(h);
        },
      }
    : undefined;
  const steppedMarket: SteppedDemoClock | undefined =
    stepped && !opts.clock
      ? demoSteppedClock(opts.dataDir, opts.wallNow ? { wallNow: opts.wallNow } : {})
      : undefined;
  const steppedEngineClock: Clock | undefined = steppedMarket
    ? { now: () => steppedMarket.now(), setTimeout: (fn, ms) => steppedMarket.setTimeout(fn, ms) }
    : undefined;
  const engineClock = opts.clock ?? marketClock ?? steppedEngineClock ?? systemClock;
  const kept = market ?? steppedMarket;
  // The Demo world persists across restarts: the accelerated one through its clock, the real-time one by its start.
  const demo = createDemoService({
    speed,
    ...(kept
      ? { startTime: kept.startTime, marketNow: () => kept.now() }
      : { startTime: demoWorldStart(opts.dataDir, Date.now(), undefined, DEMO_WORLD_LEAD_MS) }),
    // A stepped market moves with the watcher: a step runs the watcher's work that comes due, in time order. Only in
    // Demo mode: with it turned off, the watcher would run on the test's clock against the real service.
    ...(steppedMarket
      ? {
          step: async (ms: number) => {
            if (!settingsRepo.get().demoMode)
              throw Object.assign(
                new Error('Demo mode is off: the stepped Demo market no longer drives the watcher.'),
                { statusCode: 409 },
              );
            await steppedMarket.step(ms, () => core.engine.idle());
          },
        }
      : {}),
    align: () => engineClock.now(),
    testControl: opts.demoControl === true,
    // An injected clock (tests) drives the market too, so a lot sells when the watcher's clock says it does.
    ...(opts.clock ? { now: () => engineClock.now() } : {}),
  });
  // The browser shell's notification channel: open tabs show what core decided to notify; a closed browser gets a
  // summary when a tab next opens.
  const channel = new BrowserNotifyChannel(
    { broadcast: (e) => server.broadcast(e) },
    () => settingsRepo.get().notificationsEnabled,
  );
  // The calendar subscription's own secret, kept in the data folder: its address survives a restart (on the same
  // port) and opens the calendar only. Known once the server listens: the server's origin.
  const keyFile = opts.secretKeyFile ?? join(opts.dataDir, 'secret.key');
  const secrets = new FileSecretBox(keyFile);
  if (team)
    await checkTeamKey(database.store, secrets, keyFile, Date.now()).catch(async (e: unknown) => {
      await database.close();
      await team?.close();
      lock.release();
      throw e;
    });
  const feed = new CalendarFeed({
    rows: database.store.requests,
    box: secrets,
    now: () => Date.now(),
    onLost: (e) =>
      log.warn('the calendar address was made anew: its stored secret could not be read', {
        error: e.message,
      }),
  });
  let origin: string | null = null;
  const calendarAt = (secret: string) => (origin === null ? null : `${origin}/calendar.ics?feed=${secret}`);
  // The port the server listens on, once it does: no alert channel may send there.
  let ownPort: number | null = null;
  const core = createCore({
    marketAuto: true,
    ownPorts: () => (ownPort === null ? [] : [ownPort]),
    calendar: {
      address: () => calendarAt(feed.current()),
      portFixed: () => (opts.port ?? 0) !== 0,
      renew: async () => calendarAt(await feed.renew()),
    },
    // Demo mode's example call watch is one of the Demo service's own video calls.
    demoService: async () => ({ ...(await demo.get()), callExample: DEMO_CALL_EXAMPLE }),
    // The network is not accelerated nor faked: the client's own waits (timeouts, backoff) run on real timers.
    // A stepped market's client reads market time moved on by the wall time since the last step, so its rate spacing
    // waits real milliseconds instead of piling up on a clock that stands still between steps.
    ...(engineClock !== systemClock
      ? {
          clientClock: {
            now: steppedMarket ? () => steppedMarket.netNow() : () => engineClock.now(),
            setTimeout: systemClock.setTimeout,
          },
        }
      : {}),
    database,
    dbPath,
    dataDir: opts.dataDir,
    clock: engineClock,
    secrets,
    notifier: { notify: (n) => channel.notify(n) },
    log,
    shell: 'headless',
    version: opts.version,
    ...(team ? { team: team.mode.accounts } : {}),
    // A team server with a watcher hook watches only while it leads (the hook starts the schedule then).
    ...(team ? { autoStart: false } : {}),
  });
  const server: HeadlessServer = createHeadlessServer({
    core,
    rendererDir: opts.rendererDir,
    log,
    onPageOpened: () => channel.takeMissed(),
    ...(opts.host !== undefined ? { host: opts.host } : {}),
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(opts.token !== undefined ? { token: opts.token } : {}),
    calendar: feed,
    ...(team ? { team: team.mode } : {}),
  });
  let url: string;
  try {
    await feed.load();
    url = await server.start();
  } catch (e) {
    await core.dispose();
    await demo.dispose();
    await team?.close();
    kept?.close();
    lock.release();
    throw e;
  }
  // The spot where a team server starts its watcher: it runs the scheduler only while it holds the leadership.
  const say = opts.say ?? ((line: string) => console.log(line));
  const watch = !team
    ? null
    : opts.teamWatch
      ? opts.teamWatch(core, database)
      : runTeamWatch({
          core,
          store: database.store,
          url: target.kind === 'postgres' ? target.url : '',
          log,
          broadcast: (e) => server.broadcast(e),
          say,
        });
  ownPort = server.port || null;
  lock.setUrl(url.replace(/\?token=.*$/, ''));
  origin = new URL(url).origin;
  return {
    url,
    demoUrl: async () => (await demo.get()).baseUrl.replace(/\/api\/v1\/vehicle-auction\/?$/, ''),
    core,
    server,
    restored,
    dataAt: target.kind === 'postgres' ? database.location : opts.dataDir,
    firstAdmin: team?.firstAdmin ?? null,
    async dispose() {
      await server.dispose();
      await watch?.stop();
      await core.dispose();
      await team?.close();
      await demo.dispose();
      // After the watcher and the market stopped: the time reached, for the next run to resume from.
      kept?.close();
      lock.release();
    },
  };
}

/**
 * Why a stepped Demo clock (`demoClock: 'stepped'`) may not start, or null: it needs the control routes that step it,
 * cannot be accelerated as well, and drives the Demo market only (`demoMode` reads the data folder's setting).
 */
function steppedRefusal(opts: HeadlessOptions, speed: number, demoMode: () => boolean): BadInputError | null {
  if (opts.demoClock !== 'stepped') return null;
  if (!opts.demoControl)
    return new BadInputError(
      '--demo-clock stepped needs --demo-control: only the control routes move a stepped market.',
    );
  if (speed > 1)
    return new BadInputError(
      '--demo-clock stepped and --demo-speed exclude each other: a stepped market moves only when a test steps it.',
    );
  if (!demoMode()) {
    return new BadInputError(
      `--demo-clock stepped only applies to Demo mode, and Demo mode is off in the data folder ${opts.dataDir}. Use another --data-dir.`,
    );
  }
  return null;
}
