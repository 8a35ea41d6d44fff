import type { Core, Notifier } from '../../../src/core/app';
import {
  createSandbox,
  DEMO_KEY,
  type Lot,
  type MarketEvent,
  type Sandbox,
  type SandboxOptions,
} from '../../../src/sandbox/index';
import type { FakeClock } from '../../helpers/fakeClock';
import { makeCore } from '../../helpers/buildCore';
import type { CoreDatabase } from '../../../src/core/coreDatabase';
import { tempDir } from '../../helpers/tmp';

export const MIN = 60_000;
export const HOUR = 60 * MIN;
/** The simulated day: 06:00 UTC on 1 June 2026 to the same time the next day (ms since the epoch). */
export const START = Date.UTC(2026, 5, 1, 6, 0, 0);
export const END = START + 24 * HOUR;

/** A lot's key (`platform:lotNumber`), from a sandbox lot or a stored row. */
export const key = (l: { platform: string; lotNumber?: string; lot_number?: string }) =>
  `${l.platform}:${l.lotNumber ?? l.lot_number}`;

/**
 * The engine against the sandbox for a simulated day: a seeded sandbox market of 20,000 lots (plus `sandbox`
 * options) on `clock`, served on 127.0.0.1, and a real core on a temporary data folder in Demo mode pointed at it,
 * on the same clock, so the day runs deterministically in seconds. `ok(method, input)` calls the core and throws
 * the method's error message on an error answer. `dir` is the data folder (its lotwatch.sqlite is the day's data
 * file); `cleanup()` removes it; the caller disposes core and sandbox. Throws what `core.ready` rejects with.
 */
export async function simulatedDayCore(
  clock: FakeClock,
  opts: {
    sandbox?: SandboxOptions;
    notifier?: Notifier;
    /** The day's database on another engine, opened for the data folder (default its SQLite file). */
    database?: (dir: string) => Promise<CoreDatabase>;
  } = {},
): Promise<{
  sb: Sandbox;
  core: Core;
  dir: string;
  cleanup: () => void;
  ok: (m: string, i?: unknown) => Promise<Record<string, unknown>>;
}> {
  const sb = createSandbox({
    seed: 2026,
    lots: 20_000,
    startTime: START,
    speed: 1,
    now: () => clock.now(),
    ratePerSecond: 0,
    ...opts.sandbox,
  });
  await sb.start(0, '127.0.0.1');
  const t = tempDir();
  const database = opts.database ? await opts.database(t.dir) : undefined;
  const { core } = makeCore({
    ...(database ? { database } : {}),
    dir: t.dir,
    clock,
    notifier: opts.notifier ?? { notify() {} },
    version: 'test',
    demoService: async () => ({ baseUrl: sb.baseUrl!, apiKey: DEMO_KEY, ratePerSecond: 1e9 }),
    tzOffsetMinutes: () => 0,
    demoExamples: false,
  });
  await core.ready;
  const ok = async (m: string, i?: unknown) => {
    const r = await core.invoke(m, i);
    if (!r.ok) throw new Error(`${m}: ${r.error.message}`);
    return r.value as Record<string, unknown>;
  };
  return { sb, core, dir: t.dir, cleanup: t.cleanup, ok };
}

/**
 * Three narrow saved searches for the day: make + model on one platform with 30 to 55 open lots (two or three pages
 * of results), the first three such combinations in name order, so the choice is the same on every run of the seed.
 * `name` is `make|model|platform`. Returns fewer than three when the market has fewer such combinations.
 */
export function narrowSearches(
  market: Sandbox['market'],
): { name: string; make: string; model: string; platform: string }[] {
  const counts = new Map<string, number>();
  for (const l of market.sorted) {
    if (l.subStatus !== 'Open') continue;
    const k = `${l.v.spec.make}|${l.v.spec.model}|${l.platform}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts.entries()]
    .filter(([, n]) => n >= 30 && n <= 55)
    .sort((a, b) => a[0].localeCompare(b[0]))
    .slice(0, 3)
    .map(([name]) => {
      const [make, model, platform] = name.split('|') as [string, string, string];
      return { name, make, model, platform };
    });
}

/** A saved search as `searches.create` takes it: its name, parameters, cron schedule and page limit. */
export interface DaySearch {
  name: string;
  params: Record<string, string>;
  schedule: string;
  max_pages?: number;
}

/** The market's open lots listed to sell after `fromHour` and before `toHour` hours past START, in sale order. */
export function sellingBetween(market: Sandbox['market'], fromHour: number, toHour: number): Lot[] {
  return market.sorted.filter(
    (l) =>
      l.subStatus === 'Open' && l.auctionAt > START + fromHour * HOUR && l.auctionAt < START + toHour * HOUR,
  );
}

/** narrowSearches as saved searches on `schedule` (cron text), with `max_pages` when given. */
export function narrowSearchesOn(
  market: Sandbox['market'],
  schedule: string,
  maxPages?: number,
): DaySearch[] {
  return narrowSearches(market).map(({ name, make, model, platform }) => ({
    name,
    params: { make, model, platform },
    schedule,
    ...(maxPages === undefined ? {} : { max_pages: maxPages }),
  }));
}

/**
 * A simulated day on a buyer's own daily limit (simulatedDayCore on `clock`): `budget` requests a day, the lots
 * `watch` picks from the market on the watchlist (by lot number, in that order, each with the alert rules
 * `opts.rules` gives it, the defaults without), then the saved searches `searches` lists; `opts.sandbox` are the
 * market's options (simulatedDayCore). Returns the day, the watched lots and the market's last event sequence number
 * before any driving (driveTo's `fromSeq`). Throws what simulatedDayCore or a rejected call throws.
 */
export async function watchedDay(
  clock: FakeClock,
  budget: number,
  watch: (market: Sandbox['market']) => Lot[],
  searches: (market: Sandbox['market']) => DaySearch[],
  opts: { rules?: (lot: Lot) => Record<string, unknown>; sandbox?: SandboxOptions } = {},
): Promise<Awaited<ReturnType<typeof simulatedDayCore>> & { watched: Lot[]; fromSeq: number }> {
  const { rules, sandbox } = opts;
  const day = await simulatedDayCore(clock, sandbox ? { sandbox } : {});
  await day.ok('settings.update', { requestsPerDay: budget });
  const watched = watch(day.sb.market);
  for (const l of watched)
    await day.ok('watchlist.add', { target: l.lotNumber, ...(rules ? { rules: rules(l) } : {}) });
  for (const s of searches(day.sb.market)) await day.ok('searches.create', s);
  return { ...day, watched, fromSeq: day.sb.market.events.at(-1)?.seq ?? 0 };
}

/**
 * Ends a simulated day: disposes the core, then the sandbox, then removes the data folder. Each part may be missing
 * (a `beforeAll` that failed half-way); what is there is still released, so a failed day leaves no server behind.
 */
export async function endDay(day: { core?: Core; sb?: Sandbox; cleanup?: () => void }): Promise<void> {
  await day.core?.dispose();
  await day.sb?.dispose();
  day.cleanup?.();
}

/**
 * Drives a simulated day to `end` (ms): jumps `clock` to each timer the engine sets and lets the engine finish, at
 * most `maxSteps` times, then brings the market to `end`. Returns the market's events after sequence number
 * `fromSeq` up to `end`, oldest first: the ground truth the day's alerts are held to.
 */
export async function driveTo(
  day: { core: Core; sb: Sandbox },
  clock: FakeClock,
  end: number,
  fromSeq: number,
  maxSteps = 100_000,
): Promise<MarketEvent[]> {
  for (let step = 0; clock.now() < end && step < maxSteps; step++) {
    clock.advanceTo(Math.min(clock.nextTimerAt() ?? end, end));
    await day.core.engine.idle();
  }
  day.sb.market.advanceTo(end);
  return day.sb.market.eventsSince(fromSeq, 10_000_000).filter((e) => e.t <= end);
}
