import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DemoLiveBid } from '../shared/demoShowcase';
import { DEMO_KEY, createSandbox, type Sandbox, type SandboxOptions } from './index';
import { SteppedClock } from './steppedClock';

/** The Demo's example call watch (a channel that uploads every few minutes) and its channel: see video.ts. */
export { DEMO_CALL_EXAMPLE, DEMO_CHANNEL_ID } from './video';

const DAY = 86_400_000;
const MIN = 60_000;

/**
 * What `<dataDir>/demo-market.json` keeps of the Demo world: its start time, and the market time an accelerated
 * run may have reached (ms since the epoch; absent when only real-time runs used the world).
 */
interface SavedWorld {
  startTime: number;
  reached?: number;
}

const worldFile = (dataDir: string): string => join(dataDir, 'demo-market.json');

/** The saved world, or null when there is none or it cannot be read. Throws nothing. */
function readWorld(dataDir: string): SavedWorld | null {
  try {
    const w = JSON.parse(readFileSync(worldFile(dataDir), 'utf8')) as Partial<SavedWorld> | null;
    if (!w || typeof w.startTime !== 'number' || !Number.isFinite(w.startTime)) return null;
    // Beyond about 250,000 years a date has no ISO form: a damaged file, not a time reached.
    const reached =
      typeof w.reached === 'number' && Number.isFinite(w.reached) && w.reached < 8e15 ? w.reached : undefined;
    return reached === undefined ? { startTime: w.startTime } : { startTime: w.startTime, reached };
  } catch {
    return null;
  }
}

/**
 * Replaces the saved world (write, then rename: a crash leaves the old file or the new one). Throws nothing: a
 * read-only folder only means the next start begins a new world.
 */
function writeWorld(dataDir: string, w: SavedWorld): void {
  const file = worldFile(dataDir);
  try {
    writeFileSync(`${file}.tmp`, JSON.stringify(w), { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  } catch {
    // A read-only data folder: the world simply starts anew next time.
  }
}

/**
 * Gives several data folders one Demo world (start time ms since the epoch, floored to the minute as
 * `demoWorldStart` floors it): the servers of a team each serve the Demo market from their own folder, and only one
 * world keeps what one server's watcher saw true for another's buyer. Overwrites any world the folders held. Throws
 * nothing (as writeWorld).
 */
export function shareDemoWorld(dataDirs: readonly string[], startTime: number): void {
  const w = { startTime: Math.floor(startTime / MIN) * MIN };
  for (const d of dataDirs) writeWorld(d, w);
}

/**
 * How long before the first start a new real-time Demo world begins (ms): 30 minutes, so the simulated market has
 * been running when the user first looks, with lots on the block and bidding, instead of a world whose first live
 * bid is minutes away (its earliest sales are at least 2 minutes after its start, each lot going on the block some
 * minutes after its sale time: timing.ts startDelay).
 */
export const DEMO_WORLD_LEAD_MS = 30 * MIN;

/**
 * The start time of the Demo market kept in `<dataDir>/demo-market.json`, so that a restarted app finds the same
 * simulated world moved on to the present (the same lots, sold or not) rather than a new world that reuses the
 * old lot numbers. A world older than `maxAgeMs` (7 days by default; advancing costs about half a second a day),
 * an unreadable file, or a world an accelerated run (`demoMarketClock`) took past `now` (real time cannot go back
 * to it without selling its lots again) starts a new world `leadMs` before `now` (ms, floored to the minute; the
 * shells pass DEMO_WORLD_LEAD_MS) and records it.
 *
 * @returns the market start time, ms since the epoch. Throws nothing: a file that cannot be written only means the
 *   next start begins a new world.
 */
export function demoWorldStart(dataDir: string, now: number, maxAgeMs = 7 * DAY, leadMs = 0): number {
  const saved = readWorld(dataDir);
  if (saved && saved.startTime <= now && now - saved.startTime <= maxAgeMs && (saved.reached ?? now) <= now)
    return saved.startTime;
  const startTime = Math.floor((now - leadMs) / MIN) * MIN;
  writeWorld(dataDir, { startTime });
  return startTime;
}

/** The accelerated Demo market's time, resumed where the last run on the data folder left it. */
export interface DemoMarketClock {
  /** The Demo world's start time (ms since the epoch): the sandbox's `startTime`. */
  readonly startTime: number;
  /** Market time, ms since the epoch: never less than any time read before, in this run or an earlier one. */
  now(): number;
  /** Records the market time reached, for the next run. Call after the watcher and the market have stopped. */
  close(): void;
}

/**
 * The clock of an accelerated Demo (`--demo-speed`): market time = base + (wall - wall at start) x speed, where
 * base is the market time the last run reached (kept in `<dataDir>/demo-market.json`) or the wall clock if that is
 * later. So a restart continues the same world from where it stood and never earlier: no lot sells twice, no alert
 * comes again. Before `now()` passes the time recorded in the file it records `leaseMs` of wall time further
 * (a small write every `leaseMs`), so a run that is killed still left a time at or past every time it read; `close`
 * records the exact time. A world older than `maxAgeMs` of market time starts anew at base (ms, floored to the
 * minute), as `demoWorldStart` does. Throws nothing (a folder that cannot be written loses only the resumption).
 * @param opts.speed market ms per wall ms (above 1); opts.wallNow the wall clock (default Date.now; tests fake it).
 */
export function demoMarketClock(
  dataDir: string,
  opts: { speed: number; wallNow?: () => number; maxAgeMs?: number; leaseMs?: number },
): DemoMarketClock {
  const wallNow = opts.wallNow ?? Date.now;
  const lease = (opts.leaseMs ?? 10_000) * opts.speed;
  const t0 = wallNow();
  const saved = readWorld(dataDir);
  const base = Math.max(saved?.reached ?? t0, t0);
  const keep =
    saved !== null && saved.startTime <= base && base - saved.startTime <= (opts.maxAgeMs ?? 7 * DAY);
  const startTime = keep ? saved.startTime : Math.floor(base / MIN) * MIN;
  let last = base;
  let recorded = base + lease;
  writeWorld(dataDir, { startTime, reached: recorded });
  let closed = false;
  return {
    startTime,
    now() {
      // Monotonic even if the wall clock is set back.
      last = Math.max(last, Math.floor(base + (wallNow() - t0) * opts.speed));
      if (last > recorded && !closed) {
        recorded = last + lease;
        writeWorld(dataDir, { startTime, reached: recorded });
      }
      return last;
    },
    close() {
      if (closed) return;
      closed = true;
      writeWorld(dataDir, { startTime, reached: last });
    },
  };
}

/** A stepped Demo's market clock: a DemoMarketClock that moves only in `step`, with timers on market time. */
export interface SteppedDemoClock extends DemoMarketClock {
  /** Runs `fn` once a step passes `ms` of market time from now; returns a cancel function. */
  setTimeout(fn: () => void, ms: number): () => void;
  /** The time of the service client's own (wall-timed) waits: see SteppedClock.netNow. */
  netNow(): number;
  /** Moves market time forward by `ms` (see SteppedClock.step) and records it for the next run; resolves to the time. */
  step(ms: number, settle: () => Promise<void>): Promise<number>;
}

/**
 * The clock of a stepped Demo (`--demo-clock stepped`, test-only): market time stands still until a test steps it
 * (the control route POST /__sandbox/clock), and the watcher's timers run on it. It starts where the last run on the
 * data folder left the market (`<dataDir>/demo-market.json`) or at the wall clock if that is later, as
 * `demoMarketClock` does, and records the time reached after each step and on `close`. Throws nothing (a folder that
 * cannot be written loses only the resumption).
 * @param opts.wallNow the wall clock (default Date.now); opts.maxAgeMs as demoMarketClock's.
 */
export function demoSteppedClock(
  dataDir: string,
  opts: { wallNow?: () => number; maxAgeMs?: number } = {},
): SteppedDemoClock {
  const t0 = (opts.wallNow ?? Date.now)();
  const saved = readWorld(dataDir);
  const base = Math.max(saved?.reached ?? t0, t0);
  const keep =
    saved !== null && saved.startTime <= base && base - saved.startTime <= (opts.maxAgeMs ?? 7 * DAY);
  const startTime = keep ? saved.startTime : Math.floor(base / MIN) * MIN;
  const clock = new SteppedClock(base);
  writeWorld(dataDir, { startTime, reached: base });
  let closed = false;
  return {
    startTime,
    now: () => clock.now(),
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    netNow: () => clock.netNow(),
    async step(ms, settle) {
      const t = await clock.step(ms, settle);
      if (!closed) writeWorld(dataDir, { startTime, reached: t });
      return t;
    },
    close() {
      if (closed) return;
      closed = true;
      writeWorld(dataDir, { startTime, reached: clock.now() });
    },
  };
}

/** The built-in sandbox as Demo mode uses it: started on first use, on 127.0.0.1 and a free port. */
export interface DemoService {
  /**
   * Starts the sandbox once (about half a second for 20,000 lots) and returns its base URL and key, and `liveBids`:
   * the market's next bids on the block from now to 3 minutes on (ground truth, at most 30, soonest first), from
   * which Demo mode picks its first start's example watches; none on an accelerated market (`speed` above 1).
   */
  get(): Promise<{ baseUrl: string; apiKey: string; liveBids: () => DemoLiveBid[] }>;
  /** Stops the sandbox if it was started. */
  dispose(): Promise<void>;
}

/**
 * Creates the lazily started demo service for a shell (Electron or headless). The market runs at real time
 * (speed 1) by default, with auctions every few minutes, so a new user sees alerts soon. `align` returns the
 * watcher's current time; the market is moved forward to it once started, so their clocks agree to the ms.
 * Demo mode answers in the real service's shapes (`shape` 'real', the default), so the app meets in Demo what it
 * meets against the real service. The specification's dialect, for tests of it, comes from `shape: 'spec'` or,
 * for a shell started as is (headless, end-to-end runs), from the environment: LOTWATCH_SANDBOX_SHAPE=spec. An
 * unknown value makes `get()` reject with createSandbox's RangeError. LOTWATCH_DEMO_QUOTA (requests per 30 days, a
 * positive whole number) replaces the Demo plan's 100,000 for load runs (bench/storage), whose accelerated market would
 * spend the default plan's daily share in minutes; any other value is ignored. With `marketNow` (an accelerated Demo's
 * `demoMarketClock`) the market reads that clock itself, so `align` is not needed.
 */
export function createDemoService(opts: SandboxOptions & { align?: () => number } = {}): DemoService {
  const { align, ...rest } = opts;
  const fromEnv = process.env['LOTWATCH_SANDBOX_SHAPE'];
  const quota = Number(process.env['LOTWATCH_DEMO_QUOTA']);
  const sandboxOptions: SandboxOptions = {
    ...rest,
    shape: rest.shape ?? ((fromEnv || 'real') as SandboxOptions['shape']),
    ...(Number.isInteger(quota) && quota > 0 && !rest.quota
      ? { quota: { limit: quota, periodMs: 30 * DAY } }
      : {}),
  };
  let sb: Sandbox | undefined;
  let starting: Promise<{ baseUrl: string; apiKey: string; liveBids: () => DemoLiveBid[] }> | undefined;
  return {
    get() {
      starting ??= (async () => {
        sb = createSandbox({ ...sandboxOptions });
        await sb.start(0, '127.0.0.1');
        // The market's clock must read what the watcher's clock reads (both advance at the same speed after this).
        if (align && !rest.marketNow) {
          const ahead = align() - sb.marketNow();
          if (ahead > 0) sb.advance(ahead);
        }
        const market = sb;
        // Only at real speed: on an accelerated market the next minutes pass before a watch's first fetch.
        const liveBids = (): DemoLiveBid[] => {
          if ((rest.speed ?? 1) > 1) return [];
          return demoLiveBids(market);
        };
        return { baseUrl: sb.baseUrl as string, apiKey: sb.keys[0] ?? DEMO_KEY, liveBids };
      })();
      return starting;
    },
    async dispose() {
      if (starting) await starting.catch(() => undefined);
      await sb?.dispose();
    },
  };
}

/**
 * The Demo market's next bids on the block in the 3 minutes from its present (at most 30, soonest first), as core's
 * first start picks its example watches from them (DemoLiveBid: lot number, title, sale time, and when the bid of
 * how many USD comes). Ground truth from the simulated market's own plan (Market.upcomingLiveBids); throws nothing.
 */
export function demoLiveBids(sb: Sandbox): DemoLiveBid[] {
  const now = sb.marketNow();
  return sb.market.upcomingLiveBids(now, now + 3 * MIN, 30).map((b) => ({
    lot_number: b.lotNumber,
    title: b.title,
    auction_at: b.auctionAt,
    bid_at: b.bidAt,
    bid_usd: b.bidUsd,
    end_at: b.endAt,
  }));
}
