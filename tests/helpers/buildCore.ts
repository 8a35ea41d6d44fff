import type { Database } from 'better-sqlite3';
import { join } from 'node:path';
import { createCore, type Core, type CoreDeps } from '../../src/core/app';
import type { Clock } from '../../src/core/clock';
import { openDatabase } from '../../src/core/db/connection';
import { silentLogger } from '../../src/core/log';
import { FileSecretBox } from '../../src/core/secrets';
import { DEMO_KEY, type Sandbox } from '../../src/sandbox/index';
import type { Result } from '../../src/shared/ipc/errors';
import { clientClockOf, FakeClock } from './fakeClock';
import { tempDir } from './tmp';

/**
 * How every test and every test child process builds core: one function over a real SQLite file, no vitest import
 * (the crash and kill tests' child programs use it outside the runner). Test files import it through ./core.
 */
export type { Core } from '../../src/core/app';

/** What a test builds core with: any of core's own ports, and where its files and its service come from. */
export interface MakeCoreOptions<C extends Clock = FakeClock> extends Partial<Omit<CoreDeps, 'clock'>> {
  /** The clock (default a FakeClock at the sandbox's market time, or at the FakeClock's default without one). */
  clock?: C;
  /**
   * An existing data folder to open, as an app restart does (its lotwatch.sqlite and secret.key); cleanup then leaves
   * it in place. Default a fresh temp folder that cleanup removes.
   */
  dir?: string;
  /**
   * A started sandbox that serves Demo mode over real HTTP (DEMO_KEY, no rate spacing). With it the defaults are
   * those of a test that drives time itself: the engine not auto-started, no Demo examples, UTC, and the client's
   * short retry waits at once (`clientClockOf`).
   */
  sandbox?: Sandbox;
}

/** A core built by `makeCore`, with the untyped contract calls tests make and its files. */
export interface TestCore<C extends Clock = FakeClock> {
  /** The running core; `restart` replaces it. */
  core: Core;
  /** The connection the current core owns (tests make its writes fail with pragmas). */
  db: Database;
  dir: string;
  dbPath: string;
  clock: C;
  /** Every desktop notification shown so far (unless `notifier` was given). */
  shown: { title: string; body: string }[];
  /** `core.invoke` with a method name and input as a renderer would send them; the result as it comes. */
  call<T = Record<string, unknown>>(method: string, input?: unknown): Promise<Result<T>>;
  /**
   * `call`'s value.
   * @throws Error naming the method, the error code and its message when the call fails.
   */
  value<T = Record<string, unknown>>(method: string, input?: unknown): Promise<T>;
  /** Disposes core and opens a new one over the same files with the same options: an app restart. Resolves when ready. */
  restart(): Promise<void>;
  /** Disposes core (idempotent) and removes the temp folder it made. */
  cleanup(): Promise<void>;
}

/**
 * A core over a real SQLite file (a fresh temp folder unless `dir` is given), on fake time unless a clock is given,
 * silent, as the headless shell builds it. Not awaited: `core.ready` is the caller's (see `startCore`).
 */
export function makeCore<C extends Clock = FakeClock>(opts: MakeCoreOptions<C> = {}): TestCore<C> {
  const { dir: given, sandbox, clock: givenClock, ...deps } = opts;
  const t = given === undefined ? tempDir() : { dir: given, cleanup() {} };
  const dbPath = join(t.dir, 'lotwatch.sqlite');
  const clock = givenClock ?? (new FakeClock(sandbox?.marketNow()) as unknown as C);
  const shown: { title: string; body: string }[] = [];
  const served: Partial<CoreDeps> = sandbox
    ? {
        demoService: async () => ({ baseUrl: sandbox.baseUrl!, apiKey: DEMO_KEY, ratePerSecond: 1e9 }),
        clientClock: clientClockOf(clock),
        autoStart: false,
        demoExamples: false,
        tzOffsetMinutes: () => 0,
      }
    : {};
  // A database on another engine (coreDatabase.ts) is the test's own; otherwise a real SQLite file in the folder.
  let db = deps.database ? null : (deps.db ?? openDatabase(dbPath));
  const build = (): Core =>
    createCore({
      dbPath,
      dataDir: t.dir,
      secrets: new FileSecretBox(join(t.dir, 'secret.key')),
      notifier: { notify: (n) => void shown.push({ title: n.title, body: n.body }) },
      log: silentLogger,
      shell: 'headless',
      version: '0.0.0-test',
      ...served,
      ...deps,
      ...(db ? { db } : {}),
      clock,
    });
  const made: TestCore<C> = {
    core: build(),
    get db() {
      if (!db) throw new Error('This core runs on PostgreSQL: it has no SQLite connection.');
      return db;
    },
    dir: t.dir,
    dbPath,
    clock,
    shown,
    call: (method, input) => made.core.invoke(method, input) as never,
    async value<T>(method: string, input?: unknown): Promise<T> {
      const r = await made.core.invoke(method, input);
      if (!r.ok) throw new Error(`${method}: ${r.error.code}: ${r.error.message}`);
      return r.value as T;
    },
    async restart() {
      if (deps.database)
        throw new Error('restart reopens the SQLite file; this core runs on another database.');
      await made.core.dispose();
      db = openDatabase(dbPath);
      made.core = build();
      await made.core.ready;
    },
    async cleanup() {
      await made.core.dispose();
      t.cleanup();
    },
  };
  return made;
}

/** Where `startCore` points core when a test wants live mode: the service's URL and the buyer's key for it. */
export interface LiveService {
  baseUrl: string;
  key: string;
}

/**
 * `makeCore`, ready, and optionally in live mode: Demo mode off, the service at `live.baseUrl`, and `live.key` saved
 * for it, as a buyer sets them in Settings.
 * @throws Error when core does not start or a settings call fails.
 */
export async function startCore<C extends Clock = FakeClock>(
  opts: MakeCoreOptions<C> & { live?: LiveService } = {},
): Promise<TestCore<C>> {
  const { live, ...rest } = opts;
  return whenReady(makeCore(rest), live);
}

/**
 * Puts a running core in live mode as a buyer does in Settings: Demo mode off, the service at `live.baseUrl`, and
 * `live.key` saved for that service's origin.
 * @throws Error when a settings call fails.
 */
export async function goLive(made: Pick<TestCore<Clock>, 'value'>, live: LiveService): Promise<void> {
  await made.value('settings.update', { demoMode: false, serviceUrl: live.baseUrl });
  await made.value('key.set', { key: live.key });
}

/** `made` once its core is ready, put in live mode first when `live` is given. @throws Error when a settings call fails. */
export async function whenReady<C extends Clock>(
  made: TestCore<C>,
  live: LiveService | undefined,
): Promise<TestCore<C>> {
  await made.core.ready;
  if (live) await goLive(made, live);
  return made;
}
