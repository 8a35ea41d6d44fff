import type { FastifyInstance } from 'fastify';
import { Faults, type FaultSettings } from './faults';
import { ImageCache } from './images';
import { Market } from './market';
import { resolveRefresh, type RefreshSetting } from './refresh';
import { hash32 } from './rng';
import type { MarketTiming } from './timing';
import type { WireShape } from './records';
import { CONTROL_PREFIX, VA_PREFIX, VP_PREFIX, buildServer } from './server';

export type { FaultKind, FaultSettings } from './faults';
export type { MarketEvent, Lot } from './market';
export type { MarketReader, RefreshOptions, RefreshSetting } from './refresh';
export { REAL_REFRESH } from './refresh';
export type { DurationDist, MarketTiming } from './timing';
export { DEFAULT_TIMING } from './timing';
export type { WireShape } from './records';
export { Market, VENDOR_SAMPLES } from './market';
export { CONTROL_PREFIX, VA_PREFIX, VP_PREFIX } from './server';
export {
  DEMO_CALL_EXAMPLE,
  DEMO_CHANNEL_ID,
  GONE_PREFIX,
  VIDEO_PATHS,
  unplayableAt,
  videoIdOf,
  viewsAt,
  type VideoClock,
} from './video';

/** The key the sandbox accepts when no keys are given (Demo mode). Not a secret. */
export const DEMO_KEY = 'lotwatch-demo-key';

export interface SandboxOptions {
  /** Market seed; same seed, same start time, same market. Default 42. */
  seed?: number;
  /** Market clock speed over real time, 1 to 3600 (0 freezes the clock, for tests). Default 1. */
  speed?: number;
  /** Lots at start, ended history included. Default 20,000. */
  lots?: number;
  /** Accepted X-API-Key values. Default [DEMO_KEY]. */
  keys?: string[];
  /** Requests per key per period. Default 100,000 per 30 days. */
  quota?: { limit: number; periodMs: number };
  /** Requests per key per second; 0 = unlimited. Default 40. */
  ratePerSecond?: number;
  /** Largest per_page on /vehicles (X-Per-Page-Limit). Default 20, the spec's limit. */
  perPageLimit?: number;
  /** Real-time source, ms since epoch. Default Date.now; tests inject a fake. */
  now?: () => number;
  /** Market time at the sandbox's start, ms since epoch. Default: now() rounded down to the minute. */
  startTime?: number;
  /**
   * The market clock, ms since epoch, when the caller keeps one (an accelerated Demo resumed across restarts);
   * it must never go back. Replaces startTime + (now() - creation) x speed; `now` stays the real time of the rate
   * limit and quota, and test-control advances add to it. Default none.
   */
  marketNow?: () => number;
  /**
   * Steps the caller's market clock (`marketNow`) by ms of market time and resolves once the work that came due has
   * run (a stepped Demo: the watcher's timers fire as the time passes them). POST /__sandbox/clock then moves that
   * clock instead of adding an offset to market time, so the market and the watcher never disagree. Default none.
   */
  step?: (ms: number) => Promise<void>;
  /** Enables the /__sandbox control routes (events, clock, sales, reschedules, relists, faults). Default false. */
  testControl?: boolean;
  /** Initial faults. Default none. */
  faults?: FaultSettings;
  /**
   * The wire dialect of every endpoint. 'real' (default): the real service's records, history, filters and 429
   * bodies (docs/service-contract.md). 'spec': the specification's shapes (flat fields, lot_status/lot_sub_status,
   * state words sold/approval/unsold/live, history as Vehicles, a 429 with `status`), so both dialects can be
   * tested.
   */
  shape?: WireShape;
  /**
   * The service's refresh lag (refresh.ts "RefreshOptions"): 'real' (default) answers each lot as of its last
   * refresh, states and prices within 15 min (each lot on its own 5-15 min cycle), live bids within 10-15 s, as the
   * real service does; 'instant' shows every market change at once (tests that check one change right after
   * making it); or an object with the periods. The ground truth (`market.events`, /__sandbox/events) is never lagged;
   * each event says when the service shows it (`visible_t`).
   */
  refresh?: RefreshSetting;
  /** The market's time distributions (timing.ts "MarketTiming"); the fields given replace DEFAULT_TIMING's. */
  timing?: Partial<MarketTiming>;
}

export interface Sandbox {
  /**
   * Listens on host:port (default 127.0.0.1, port 0 = any free port) and resolves to the host URL, e.g.
   * "http://127.0.0.1:8787"; the vehicle-auction base is that + VA_PREFIX.
   */
  start(port?: number, host?: string): Promise<string>;
  /** Stops listening; waits for requests in flight. */
  dispose(): Promise<void>;
  /** The host URL once started, else null. */
  readonly url: string | null;
  /** {url}/api/v1/vehicle-auction once started, else null. */
  readonly baseUrl: string | null;
  readonly market: Market;
  readonly faults: Faults;
  readonly keys: readonly string[];
  /** The wire dialect chosen at creation. */
  readonly shape: WireShape;
  /** Current market time, ms since epoch (also brings the market up to it). */
  marketNow(): number;
  /** Moves the market clock forward by `ms` of market time. */
  advance(ms: number): void;
  readonly app: FastifyInstance;
}

/**
 * Creates the local Vehicle Auction Data Service (for Demo mode, tests and benchmarks): builds the market
 * synchronously (about a second for 20,000 lots) and the HTTP app; `start` listens.
 * Market time = startTime + (now() - creation) x speed + advances, or marketNow() + advances when given (with
 * `step`, control advances step that clock instead).
 * @throws RangeError when speed is outside 0..3600, lots < 1, shape is neither 'real' nor 'spec', or refresh or
 *   timing is malformed (see resolveRefresh, resolveTiming).
 */
export function createSandbox(opts: SandboxOptions = {}): Sandbox {
  const now = opts.now ?? Date.now;
  const speed = opts.speed ?? 1;
  if (!(speed >= 0 && speed <= 3600)) throw new RangeError(`speed must be from 0 to 3600, not ${speed}`);
  const lots = opts.lots ?? 20_000;
  if (!(lots >= 1)) throw new RangeError(`lots must be at least 1, not ${lots}`);
  const shape = opts.shape ?? 'real';
  if (shape !== 'real' && shape !== 'spec')
    throw new RangeError(`shape must be 'real' or 'spec', not ${String(shape)}`);
  const seed = (opts.seed ?? 42) >>> 0;
  const realStart = now();
  const startTime = opts.startTime ?? Math.floor(realStart / 60_000) * 60_000;
  resolveRefresh(opts.refresh);
  const market = new Market({
    seed,
    lots,
    startTime,
    refresh: opts.refresh ?? 'real',
    ...(opts.timing ? { timing: opts.timing } : {}),
  });
  let offset = 0;
  const source = opts.marketNow;
  const marketNow = source
    ? (): number => source() + offset
    : (): number => market.startTime + (now() - realStart) * speed + offset;
  const keys = opts.keys && opts.keys.length > 0 ? [...opts.keys] : [DEMO_KEY];
  const faults = new Faults(seed, opts.faults ?? {});
  const advance = (ms: number): void => {
    offset += ms;
    market.advanceTo(marketNow());
  };
  const app = buildServer({
    market,
    seed,
    keys: new Set(keys),
    quota: opts.quota ?? { limit: 100_000, periodMs: 30 * 24 * 3600_000 },
    ratePerSecond: opts.ratePerSecond ?? 40,
    perPageLimit: opts.perPageLimit ?? 20,
    shape,
    now,
    marketNow,
    advance: opts.step
      ? (ms) => (opts.step as (ms: number) => Promise<void>)(ms).then(() => market.advanceTo(marketNow()))
      : async (ms) => advance(ms),
    speed,
    testControl: opts.testControl ?? false,
    faults,
    images: new ImageCache(seed),
  });
  let url: string | null = null;
  return {
    async start(port = 0, host = '127.0.0.1') {
      await app.listen({ port, host });
      const addr = app.server.address();
      const p = typeof addr === 'object' && addr ? addr.port : port;
      url = `http://${host.includes(':') ? `[${host}]` : host}:${p}`;
      return url;
    },
    async dispose() {
      await app.close();
    },
    get url() {
      return url;
    },
    get baseUrl() {
      return url ? url + VA_PREFIX : null;
    },
    market,
    faults,
    keys,
    shape,
    marketNow() {
      const t = marketNow();
      market.advanceTo(t);
      return t;
    },
    advance,
    app,
  };
}

/** Paths, for the app's API console: vehicle-auction base, video base, test control. */
export const SANDBOX_PATHS = {
  vehicleAuction: VA_PREFIX,
  video: VP_PREFIX,
  control: CONTROL_PREFIX,
} as const;

/**
 * `count` market seeds for runs over several markets (benchmarks): `first` (default 42, the sandbox's default seed)
 * then seeds derived from it, all distinct and the same on every run. Pass each as SandboxOptions.seed.
 * @throws RangeError when count is not a whole number from 1 to 1000.
 */
export function sandboxSeeds(count: number, first = 42): number[] {
  if (!(Number.isInteger(count) && count >= 1 && count <= 1000))
    throw new RangeError(`count must be a whole number from 1 to 1000, not ${count}`);
  const out = [first >>> 0];
  for (let i = 1; out.length < count; i++) {
    const s = hash32(first, 0x5eed, i);
    if (!out.includes(s)) out.push(s);
  }
  return out;
}
