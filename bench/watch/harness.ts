import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { createCore, type Core } from '../../src/core/app';
import type { Clock } from '../../src/core/clock';
import { openDatabase } from '../../src/core/db/connection';
import { silentLogger } from '../../src/core/log';
import { FileSecretBox } from '../../src/core/secrets';
import {
  createSandbox,
  type Lot,
  type MarketEvent,
  type Sandbox,
  type WireShape,
} from '../../src/sandbox/index';
import { tempDir } from '../../tests/helpers/tmp';

/**
 * The watcher benchmark. The sandbox simulates a market on fake time shared with the watcher; its event log is the
 * ground truth. Four strategies watch the same workload (watched lots with a bid threshold each, saved searches)
 * through the same client, store, diff and alert rules, so only the choice of what to request when differs:
 *
 * - `lotwatch`: Lotwatch's own engine and scheduler (autoStart), the budget from the user's setting or, on a plan
 *   workload, from the service's quota headers;
 * - `naive`: every target (each watch, each saved search with all its pages) at one fixed interval, the one that
 *   spends the budget evenly over the period; below two cycles a period, its requests evenly spaced, in order;
 * - `round_robin`: one request every DAY/budget to the next target in turn (a saved search's run takes its pages'
 *   worth of slots);
 * - `time_to_sale`: each watched lot by its time to sale (soonest first), saved searches on their schedule, one
 *   slot every DAY/budget (pickTimeToSale).
 *
 * No baseline checks a lot again once it is seen sold.
 * The baselines never send more than budget x days requests in total; they drive the engine with `checkNow` and
 * `runNow` (the same saved searches, with Lotwatch's schedule and page limit), and pace themselves, so the engine's
 * own daily gate is opened wide for them (see runWatchBench).
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
export const START = Date.UTC(2026, 5, 1, 6, 0, 0);

export type Strategy = 'lotwatch' | 'naive' | 'round_robin' | 'time_to_sale';
export const STRATEGIES: readonly Strategy[] = ['lotwatch', 'naive', 'round_robin', 'time_to_sale'];

/** A user's watch load. `plan`: the service's quota per period (the budget then comes from its headers). */
export interface Workload {
  name: string;
  lots: number;
  searches: number;
  days: number;
  plan?: { limit: number; periodMs: number };
}

/** The three workloads of the benchmark: a free-plan user, a buyer and a dealer. */
export const WORKLOADS = {
  free: { name: 'free plan', lots: 5, searches: 1, days: 30, plan: { limit: 100, periodMs: 30 * DAY } },
  buyer: { name: 'buyer', lots: 10, searches: 3, days: 7 },
  dealer: { name: 'dealer', lots: 100, searches: 10, days: 7 },
} as const satisfies Record<string, Workload>;
export type WorkloadId = keyof typeof WORKLOADS;

/** Requests a day the buyer and dealer workloads are run at. */
export const BUDGETS = [3, 10, 30, 100, 300, 1000] as const;

/** The event kinds scored, in table order. `threshold`: a watched lot's bid crossing the user's threshold. */
export const KINDS = [
  'sale_result',
  'threshold',
  'buy_now_changed',
  'status_changed',
  'rescheduled',
  'relisted',
  'new_match',
] as const;
export type Kind = (typeof KINDS)[number];

/**
 * What one caught event of each kind is worth in the value-weighted recall. A sale result and a bid-threshold
 * crossing are what the buyer acts on with money (bid, walk away, pay), one a lot: 5. A buy-now change, a
 * reschedule and a relist change when or whether the buyer can act on a lot they chose to watch: 3. A new match is
 * one of hundreds a saved search brings, and going live is seen minutes before the result: 1. With these weights the
 * buyer's week is about half lot events and half new matches by value, where plain recall is about 88 % new matches.
 */
export const KIND_WEIGHTS: Readonly<Record<Kind, number>> = {
  sale_result: 5,
  threshold: 5,
  buy_now_changed: 3,
  status_changed: 1,
  rescheduled: 3,
  relisted: 3,
  new_match: 1,
};

/** Caught events weighted by KIND_WEIGHTS over all events so weighted (1 when there are none). */
export function weightedRecall(kinds: Record<Kind, { events: number; caught: number }>): number {
  let all = 0;
  let got = 0;
  for (const k of KINDS) {
    all += KIND_WEIGHTS[k] * kinds[k].events;
    got += KIND_WEIGHTS[k] * kinds[k].caught;
  }
  return all ? got / all : 1;
}

export interface KindScore {
  events: number;
  caught: number;
  duplicates: number;
  false_alerts: number;
  /** Alert time minus event time, ms, of each caught event. */
  delays_ms: number[];
  delay_p50_ms: number | null;
  delay_p95_ms: number | null;
}

export interface BenchResult {
  workload: string;
  strategy: Strategy;
  shape: WireShape;
  days: number;
  /** Requests a day the strategy was given (a plan's quota spread over its period). */
  budget_per_day: number;
  /** The period's whole budget: budget_per_day x days; on a plan workload, the plan's limit less the setup's lookups. */
  budget_total: number;
  /** Requests sent over the period, after the setup. */
  requests: number;
  /** Requests the setup sent (one lookup per watched lot), before the period starts; not in `requests`. */
  setup_requests: number;
  alerts: number;
  kinds: Record<Kind, KindScore>;
  recall: number;
  /** Recall with each event weighted by its kind (KIND_WEIGHTS). */
  weighted_recall: number;
  duplicates: number;
  false_alerts: number;
  /** The most requests in any 24 hours (setup included): what a daily limit bounds. */
  max_requests_24h: number;
  /** Requests that went to saved-search pages. */
  search_requests: number;
  /**
   * Looks at a watched lot that came with a saved search's page (its make and model matched): each moves that lot's
   * next check on, so at most this many watch requests were saved.
   */
  watch_looks_from_searches: number;
  /** Engine ticks that found work due but could not move time on (a spent budget re-ticking at once). */
  zero_wait_ticks: number;
  watched_lots: number;
  search_sizes: number[];
  wall_ms: number;
}

type Alert = { kind: string; lot_key: string | null; source: string; created_at: number };
type SearchDef = { id: number; make: string; model: string; platform: string; size: number };

const key = (e: { platform: string; lot_number: string }) => `${e.platform}:${e.lot_number}`;
const lotKey = (l: Lot) => `${l.platform}:${l.lotNumber}`;

/**
 * One shared fake clock for every participant of a run: timers fire one instant at a time, in order, and each
 * participant sees it through a view that counts the timers it arms with no delay.
 */
class BenchClock {
  private t: number;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;
  constructor(t: number) {
    this.t = t;
  }
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): () => void {
    const id = this.nextId++;
    this.timers.push({ at: this.t + Math.max(0, ms), fn, id });
    return () => {
      this.timers = this.timers.filter((x) => x.id !== id);
    };
  }
  /** The earliest pending timer after `t` (ms), or null. */
  nextAfter(t: number): number | null {
    let min: number | null = null;
    for (const x of this.timers) if (x.at > t && (min === null || x.at < min)) min = x.at;
    return min;
  }
  nextTimerAt(): number | null {
    return this.timers.reduce<number | null>((m, x) => (m === null || x.at < m ? x.at : m), null);
  }
  /** Sets the time to `t` (never backwards), firing every timer due by then in time order. */
  advanceTo(t: number): void {
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.timers[0];
      if (!next || next.at > t) break;
      this.timers.shift();
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = Math.max(this.t, t);
  }
  view(counter: { zero: number }): Clock {
    return {
      now: () => this.t,
      setTimeout: (fn, ms) => {
        if (ms <= 0) counter.zero++;
        return this.setTimeout(fn, ms);
      },
    };
  }
}

/** Counts the baselines' loops that are working (not asleep until a later time), so the clock waits for them. */
class Activity {
  active = 0;
  private waiters: (() => void)[] = [];
  enter(): void {
    this.active++;
  }
  leave(): void {
    if (--this.active > 0) return;
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
  settled(): Promise<void> {
    return this.active === 0 ? Promise.resolve() : new Promise((r) => this.waiters.push(r));
  }
}

interface Participant {
  strategy: Strategy;
  /** Requests sent while the watchlist was set up (each added lot is looked up once). */
  setup: number;
  budgetPerDay: number;
  budgetTotal: number;
  core: Core;
  dbPath: string;
  counter: { zero: number };
  sandbox: Sandbox;
  cleanup: () => void;
}

/** Options of one workload run: every strategy at every budget, side by side on one market. */
export interface WorkloadOptions {
  workload: Workload;
  strategies?: readonly Strategy[];
  /** Requests a day; ignored on a plan workload (the plan's quota over its period). */
  budgets?: readonly number[];
  /** Overrides the workload's days (the short version in `npm test`). */
  days?: number;
  seed?: number;
  /** Saved-search schedule, minutes (Lotwatch's cron; the baselines run searches at their own pace). */
  searchEveryMin?: number;
  /** The sandbox's wire dialect: the real service's (default) or the specification's. */
  shape?: WireShape;
  /**
   * The order each strategy adds the watched lots in: as picked (default), or `reverse`. The same lots, rules and
   * market either way; what moves is which of two equally valued checks goes first, and from there the rest of the
   * week: how much of a cell is that order rather than the strategy (BENCH_WATCH_ORDER).
   */
  watchOrder?: WatchOrder;
}

/** The order each strategy adds the watched lots in (WorkloadOptions watchOrder). */
export type WatchOrder = 'listed' | 'reverse';

/**
 * Runs every strategy at every budget of one workload over the same simulated period, all at once on one fake
 * clock and one market (each with its own key, database and core, so none sees another's requests), and scores each
 * against the sandbox's ground truth. One market for all keeps the cost of simulating it out of the per-strategy
 * work. Results come in budget order, strategies in the order given.
 */
export async function runWorkload(o: WorkloadOptions): Promise<BenchResult[]> {
  const wall = performance.now();
  const seed = o.seed ?? 2026;
  const every = o.searchEveryMin ?? 15;
  const w = o.workload;
  const days = o.days ?? w.days;
  const end = START + days * DAY;
  const plan = w.plan;
  const strategies = o.strategies ?? STRATEGIES;
  const budgets = plan ? [(plan.limit * DAY) / plan.periodMs] : [...(o.budgets ?? BUDGETS)];
  const clock = new BenchClock(START);
  const shape = o.shape ?? 'real';
  // Lotwatch reads the plan's quota from the headers. The baselines pace themselves to the same number; their keys
  // have ten times the quota so that the engine's daily gate (quota left / days left) never cuts a naive cycle
  // short. The quota is the sandbox's, so a plan workload has two sandboxes (the same market: a function of time).
  const specs = [...budgets.flatMap((b) => strategies.map((s) => ({ strategy: s, budgetPerDay: b })))];
  const quotaOf = (s: Strategy) =>
    plan ? (s === 'lotwatch' ? plan : { limit: plan.limit * 10, periodMs: plan.periodMs }) : undefined;
  const sandboxes = new Map<string, Sandbox>();
  const keys = specs.map((_, i) => `bench-key-${i}`);
  const sandboxFor = async (s: Strategy): Promise<Sandbox> => {
    const q = quotaOf(s);
    const id = JSON.stringify(q ?? null);
    let sb = sandboxes.get(id);
    if (!sb) {
      sb = createSandbox({
        seed,
        lots: 20_000,
        startTime: START,
        speed: 1,
        now: () => clock.now(),
        ratePerSecond: 0,
        shape,
        keys,
        ...(q ? { quota: q } : {}),
      });
      await sb.start(0, '127.0.0.1');
      sandboxes.set(id, sb);
    }
    return sb;
  };
  const parts: Participant[] = [];
  try {
    const first = await sandboxFor(strategies[0] ?? 'lotwatch');
    const { watched, thresholds } = pickWatched(first, w.lots, end);
    const picked = pickSearches(first, w.searches);
    for (const [i, spec] of specs.entries()) {
      const sb = await sandboxFor(spec.strategy);
      const t = tempDir('lotwatch-bench-watch-');
      const dbPath = join(t.dir, 'lotwatch.sqlite');
      const counter = { zero: 0 };
      const core: Core = createCore({
        db: openDatabase(dbPath),
        dbPath,
        dataDir: t.dir,
        clock: clock.view(counter),
        secrets: new FileSecretBox(join(t.dir, 'secret.key')),
        notifier: { notify() {} },
        log: silentLogger,
        shell: 'headless',
        version: 'bench',
        demoService: async () => ({ baseUrl: sb.baseUrl!, apiKey: keys[i]!, ratePerSecond: 1e9 }),
        tzOffsetMinutes: () => 0,
        demoExamples: false,
        autoStart: false,
      });
      const budgetTotal = plan
        ? Math.floor((plan.limit * Math.min(days * DAY, plan.periodMs)) / plan.periodMs)
        : spec.budgetPerDay * days;
      parts.push({
        ...spec,
        setup: 0,
        budgetTotal,
        core,
        dbPath,
        counter,
        sandbox: sb,
        cleanup: () => t.cleanup(),
      });
    }
    const searchesOf = new Map<Participant, SearchDef[]>();
    for (const p of parts) {
      await p.core.ready;
      const ok = async (m: string, i?: unknown) => {
        const r = await p.core.invoke(m, i);
        if (!r.ok) throw new Error(`${m}: ${r.error.message}`);
        return r.value as Record<string, unknown>;
      };
      if (p.strategy !== 'lotwatch') await ok('settings.update', { requestsPerDay: 1_000_000 });
      else if (!plan) await ok('settings.update', { requestsPerDay: p.budgetPerDay });
      for (const l of o.watchOrder === 'reverse' ? [...watched].reverse() : watched)
        await ok('watchlist.add', {
          target: l.lotNumber,
          rules: { bid_above_usd: thresholds.get(lotKey(l)) },
        });
      const defs: SearchDef[] = [];
      for (const s of picked) {
        const r = await ok('searches.create', {
          name: `${s.make} ${s.model} (${s.platform})`,
          params: { make: s.make, model: s.model, platform: s.platform },
          schedule: `*/${every} * * * *`,
        });
        defs.push({ ...s, id: r['id'] as number });
      }
      searchesOf.set(p, defs);
      const db = new BetterSqlite3(p.dbPath);
      p.setup = (db.prepare('SELECT count(*) AS n FROM request_log').get() as { n: number }).n;
      // The watchlist was set up the day before the period: its lookups are outside the period for every strategy
      // (the baselines' budget x days does not count them either), so Lotwatch's rolling day starts empty too. On a
      // plan they still come out of the quota (the service counted them).
      if (!plan) db.prepare('UPDATE request_log SET at = at - ?').run(DAY);
      db.close();
      // On a plan, the lookups came out of the same quota: the baselines get what is left of it.
      if (plan) p.budgetTotal -= p.setup;
    }
    const firstSeq = new Map([...sandboxes.values()].map((sb) => [sb, sb.market.events.at(-1)?.seq ?? 0]));

    const activity = new Activity();
    const loops: Promise<void>[] = [];
    for (const p of parts) {
      if (p.strategy === 'lotwatch') p.core.engine.start();
      else loops.push(baseline(p, searchesOf.get(p)!, clock, activity, end, every));
    }
    const settle = async () => {
      do {
        await activity.settled();
        await Promise.all(parts.map((p) => p.core.engine.idle()));
      } while (activity.active > 0);
    };
    await settle();
    // Time jumps from timer to timer. Timers that fire at once again and again (work due that the budget forbids)
    // would hold time still for ever: after two rounds at one instant, time moves on to the next other timer, at
    // most a minute later.
    let still = 0;
    while (clock.now() < end) {
      const at = clock.now();
      const next = Math.min(clock.nextTimerAt() ?? end, end);
      if (next <= at && ++still >= 2) {
        clock.advanceTo(Math.min(clock.nextAfter(at) ?? end, at + MIN, end));
        still = 0;
      } else {
        if (next > at) still = 0;
        clock.advanceTo(next);
      }
      await settle();
    }
    await Promise.all(loops);
    for (const sb of sandboxes.values()) sb.market.advanceTo(end);
    await settle();

    const results: BenchResult[] = [];
    for (const p of parts) {
      const events = p.sandbox.market
        .eventsSince(firstSeq.get(p.sandbox)!, 100_000_000)
        .filter((e) => e.t <= end);
      // Read the outcome straight from the database file: the inbox and the request log, complete.
      const db = new BetterSqlite3(p.dbPath, { readonly: true });
      const list = db.prepare('SELECT kind, lot_key, source, created_at FROM alerts').all() as Alert[];
      const requests =
        (db.prepare('SELECT count(*) AS n FROM request_log').get() as { n: number }).n - p.setup;
      const searchRequests = (
        db.prepare("SELECT count(*) AS n FROM request_log WHERE endpoint = '/vehicles'").get() as {
          n: number;
        }
      ).n;
      const looksFromSearches = (
        db
          .prepare(
            "SELECT count(*) AS n FROM observations WHERE source LIKE 'search:%' AND lot_key IN (SELECT lot_key FROM watches WHERE lot_key IS NOT NULL)",
          )
          .get() as { n: number }
      ).n;
      const times = (db.prepare('SELECT at FROM request_log ORDER BY at').all() as { at: number }[]).map(
        (x) => x.at,
      );
      let max24h = 0;
      for (let i = 0, j = 0; i < times.length; i++) {
        while (times[i]! - times[j]! >= DAY) j++;
        max24h = Math.max(max24h, i - j + 1);
      }
      db.close();
      const searches = searchesOf.get(p)!;
      results.push({
        workload: w.name,
        strategy: p.strategy,
        shape,
        days,
        budget_per_day: Math.round(p.budgetPerDay * 100) / 100,
        budget_total: p.budgetTotal,
        requests,
        setup_requests: p.setup,
        max_requests_24h: max24h,
        search_requests: searchRequests,
        watch_looks_from_searches: looksFromSearches,
        zero_wait_ticks: p.counter.zero,
        watched_lots: watched.length,
        search_sizes: searches.map((s) => s.size),
        ...score(shape, events, list, watched, new Map(thresholds), searches, every, p.sandbox),
        wall_ms: Math.round(performance.now() - wall),
      });
    }
    return results;
  } finally {
    for (const p of parts) await p.core.dispose();
    for (const sb of sandboxes.values()) await sb.dispose();
    for (const p of parts) p.cleanup();
  }
}

/** Runs one strategy at one budget (a workload run with one participant). */
export async function runWatchBench(
  o: { strategy: Strategy; budgetPerDay?: number } & Omit<WorkloadOptions, 'strategies' | 'budgets'>,
): Promise<BenchResult> {
  const [r] = await runWorkload({ ...o, strategies: [o.strategy], budgets: [o.budgetPerDay ?? 1000] });
  return r!;
}

/** What a baseline knows of a watch: its lot as last fetched (outcome, sale time), and when it last looked. */
export type WatchSeen = {
  id: number;
  outcome: string;
  auctionAt: number | null;
  lastChecked: number | null;
};

/**
 * A baseline's loop, paced on the shared clock and never past budget x days in total. No baseline looks at a
 * watched lot again once it is seen sold (its result is final); a lot that ended unsold or on approval is still
 * checked, since its watch follows the VIN into a relist.
 *
 * - `naive`: every target at one fixed interval, the one that spends the budget evenly over the period (the budget
 *   left over the time left, per cycle, recomputed as lots sell), each cycle in the middle of its share of the
 *   period (the setup has just looked every lot up); when the whole period's budget is less than two cycles, its
 *   requests are evenly spaced over the period (each in the middle of its share), the targets in order, round again.
 * - `round_robin`: one request every DAY/budget to the next target in turn (a saved search's run takes its pages'
 *   worth of slots).
 * - `time_to_sale`: one slot every DAY/budget; see pickTimeToSale.
 */
async function baseline(
  p: Participant,
  searches: SearchDef[],
  clock: BenchClock,
  activity: Activity,
  end: number,
  every: number,
): Promise<void> {
  activity.enter();
  const sleepUntil = (at: number): Promise<void> | void => {
    if (at <= clock.now()) return;
    activity.leave();
    return new Promise((r) =>
      clock.setTimeout(() => {
        activity.enter();
        r();
      }, at - clock.now()),
    );
  };
  // What was actually sent (retries and follow-up lookups included), from the request log.
  const log = new BetterSqlite3(p.dbPath, { readonly: true });
  const count = log.prepare('SELECT count(*) AS n FROM request_log');
  const sent = () => (count.get() as { n: number }).n - p.setup;
  const seen = new Map<number, WatchSeen>();
  const refresh = async () => {
    const r = (await p.core.invoke('watchlist.list', undefined)) as {
      ok: true;
      value: {
        id: number;
        last_checked_at: number | null;
        lot: { outcome: string; auction_at: number | null } | null;
      }[];
    };
    for (const x of r.value)
      seen.set(x.id, {
        id: x.id,
        outcome: x.lot?.outcome ?? 'open',
        auctionAt: x.lot?.auction_at ?? null,
        lastChecked: x.last_checked_at,
      });
  };
  try {
    await refresh();
    // A target's cost: the most requests one of its runs has taken; a search starts at the pages its open lots need.
    type Target = {
      run: () => Promise<unknown>;
      cost: number;
      watch?: number;
      search?: number;
      lastRun: number | null;
    };
    const targets: Target[] = [
      ...[...seen.keys()].map((id) => ({
        run: () => p.core.invoke('watchlist.checkNow', { id }),
        cost: 1,
        watch: id,
        lastRun: null,
      })),
      ...searches.map((s) => ({
        run: () => p.core.invoke('searches.runNow', { id: s.id }),
        cost: Math.min(5, Math.max(1, Math.ceil(s.size / 20))),
        search: s.id,
        lastRun: null,
      })),
    ];
    const done = (x: Target) => x.watch !== undefined && seen.get(x.watch)?.outcome === 'sold';
    const live = () => targets.filter((x) => !done(x));
    const fits = (cost: number) => sent() + cost <= p.budgetTotal;
    const runOne = async (x: Target) => {
      const before = sent();
      await x.run();
      x.lastRun = clock.now();
      const n = sent() - before;
      x.cost = Math.max(x.cost, n);
      await refresh();
      return n;
    };
    if (p.strategy === 'naive') {
      const perCycle0 = targets.reduce((n, x) => n + x.cost, 0);
      // Each request (or cycle) in the middle of its equal share of the period: the setup has just looked every lot
      // up, so nothing is spent again at the very start.
      if (p.budgetTotal < 2 * perCycle0) {
        // Fewer than two cycles in the whole period: its requests evenly spaced, the targets in order, round again.
        const gap = (end - START) / Math.max(1, p.budgetTotal);
        for (let i = 0, at = START + gap / 2; at < end; i = (i + 1) % targets.length) {
          const x = targets[i]!;
          if (done(x) || !fits(x.cost)) {
            if (!live().some((y) => fits(y.cost))) break;
            continue;
          }
          await sleepUntil(at);
          const n = await runOne(x);
          at += Math.max(1, n) * gap;
        }
      } else {
        for (let at = START + Math.ceil(((end - START) * perCycle0) / p.budgetTotal / 2); at < end;) {
          await sleepUntil(at);
          let ran = false;
          for (const x of live()) {
            if (!fits(x.cost)) continue;
            await runOne(x);
            ran = true;
          }
          if (!ran) break;
          const perCycle = live().reduce((n, x) => n + x.cost, 0);
          // The budget left spread over the time left, so no part of the period goes without.
          const left = Math.max(1, p.budgetTotal - sent());
          at += Math.max(MIN, Math.ceil(((end - clock.now()) * perCycle) / left));
        }
      }
    } else if (p.strategy === 'round_robin') {
      const slot = DAY / p.budgetPerDay;
      for (let i = 0, at = START; at < end; i = (i + 1) % targets.length) {
        const x = targets[i]!;
        if (done(x)) {
          if (live().length === 0) break;
          continue;
        }
        if (!fits(x.cost)) {
          if (!live().some((y) => fits(y.cost))) break;
          continue;
        }
        await sleepUntil(at);
        const n = await runOne(x);
        at += Math.max(1, n) * slot;
      }
    } else {
      const slot = DAY / p.budgetPerDay;
      for (let at = START; at < end;) {
        await sleepUntil(at);
        const x = pickTimeToSale(live(), seen, clock.now(), every * MIN);
        if (!x) {
          at += slot;
          continue;
        }
        if (!fits(x.cost)) {
          if (!live().some((y) => fits(y.cost))) break;
          at += slot;
          continue;
        }
        const n = await runOne(x);
        at += Math.max(1, n) * slot;
      }
    }
  } finally {
    log.close();
    activity.leave();
  }
}

const TTS_NEAR = HOUR;
const TTS_MIN_GAP = 15 * MIN;
const TTS_MAX_GAP = DAY;
const TTS_RELIST_GAP = 6 * HOUR;
const TTS_RELIST_FOR = 7 * DAY;

/**
 * The time-to-sale baseline's choice for one slot, what an engineer would write in a day from what the client
 * sees (each watched lot's sale time and outcome, each saved search's schedule), with no knowledge of the
 * simulator:
 *
 * - a watched lot still open is due a quarter of its time-to-sale after its last check (15 minutes to a day); past
 *   its sale time without a result, every 15 minutes;
 * - a lot that ended unsold or on approval is checked every 6 hours for a week for its relist (an assumption: the
 *   service's docs say relists are common, not when); a sold lot never again;
 * - a saved search is due on its schedule (every `everyMs`).
 *
 * First any due lot selling within the hour or past its sale time, soonest sale first; else the due target most
 * overdue for its gap (watches before searches on a tie). Null when nothing is due: the slot goes unused.
 */
export function pickTimeToSale<T extends { watch?: number; search?: number; lastRun: number | null }>(
  targets: T[],
  seen: Map<number, WatchSeen>,
  now: number,
  everyMs: number,
): T | null {
  const due: { x: T; urgentAt: number | null; overdue: number }[] = [];
  for (const x of targets) {
    let gap: number;
    let urgentAt: number | null = null;
    if (x.watch !== undefined) {
      const w = seen.get(x.watch);
      if (!w || w.outcome === 'sold') continue;
      const at = w.auctionAt;
      if (w.outcome !== 'open') {
        if (at !== null && now > at + TTS_RELIST_FOR) continue;
        gap = TTS_RELIST_GAP;
      } else if (at === null) gap = TTS_MAX_GAP;
      else if (now >= at) {
        gap = TTS_MIN_GAP;
        urgentAt = at;
      } else {
        gap = Math.min(TTS_MAX_GAP, Math.max(TTS_MIN_GAP, (at - now) / 4));
        if (at - now <= TTS_NEAR) urgentAt = at;
      }
      const last = w.lastChecked ?? x.lastRun;
      const overdue = last === null ? Infinity : (now - last - gap) / gap;
      if (overdue >= 0) due.push({ x, urgentAt, overdue });
    } else {
      const overdue = x.lastRun === null ? Infinity : (now - x.lastRun - everyMs) / everyMs;
      if (overdue >= 0) due.push({ x, urgentAt: null, overdue });
    }
  }
  const urgent = due.filter((d) => d.urgentAt !== null).sort((a, b) => a.urgentAt! - b.urgentAt!);
  if (urgent[0]) return urgent[0].x;
  due.sort(
    (a, b) =>
      (a.overdue === b.overdue ? 0 : b.overdue - a.overdue) ||
      Number(a.x.watch === undefined) - Number(b.x.watch === undefined),
  );
  return due[0]?.x ?? null;
}

/**
 * `n` watched lots, drawn only from what is listed at the start (the market's future plan is not looked at): open
 * lots whose listed sale time falls in the period (at least 20 minutes away, and 10 hours before its end so the
 * result can come in), taken evenly along the sale-time order so the watchlist covers the whole period. Each gets
 * a bid threshold $400 above its current bid. Which of them are relisted or rescheduled is the market's business.
 */
function pickWatched(
  sb: Sandbox,
  n: number,
  end: number,
): { watched: Lot[]; thresholds: Map<string, number> } {
  const m = sb.market;
  const horizon = START + Math.max(14 * HOUR, end - START - 10 * HOUR);
  const open = m.sorted
    .filter((l) => l.subStatus === 'Open' && l.auctionAt > START + 20 * MIN && l.auctionAt < horizon)
    .sort((a, b) => a.auctionAt - b.auctionAt || lotKey(a).localeCompare(lotKey(b)));
  const step = open.length / n;
  const watched = Array.from(
    { length: Math.min(n, open.length) },
    (_, i) => open[Math.floor((i + 0.5) * step)]!,
  );
  const thresholds = new Map<string, number>();
  for (const l of watched) thresholds.set(lotKey(l), Math.round((l.currentBid + 400) / 100) * 100);
  return { watched, thresholds };
}

/**
 * `n` saved searches (make, model, platform) sized like the market's: their open-lot counts at the start are drawn
 * nearest to targets spread evenly on a log scale from half to twice 90 lots, so the median is about 90.
 */
function pickSearches(sb: Sandbox, n: number): Omit<SearchDef, 'id'>[] {
  const counts = new Map<string, number>();
  for (const l of sb.market.sorted) {
    if (l.subStatus !== 'Open') continue;
    const k = `${l.v.spec.make}|${l.v.spec.model}|${l.platform}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const pool = [...counts.entries()].sort((a, b) => a[0].localeCompare(b[0]));
  const out: Omit<SearchDef, 'id'>[] = [];
  for (let i = 0; i < n; i++) {
    const target = 90 * 2 ** (n === 1 ? 0 : -1 + (2 * i) / (n - 1));
    let best = -1;
    for (let j = 0; j < pool.length; j++) {
      if (best < 0 || Math.abs(Math.log(pool[j]![1] / target)) < Math.abs(Math.log(pool[best]![1] / target)))
        best = j;
    }
    const [k, size] = pool.splice(best, 1)[0]!;
    const [make, model, platform] = k.split('|') as [string, string, string];
    out.push({ make, model, platform, size });
  }
  return out;
}

function score(
  shape: WireShape,
  events: MarketEvent[],
  alerts: Alert[],
  watched: Lot[],
  thresholds: Map<string, number>,
  searches: SearchDef[],
  every: number,
  sb: Sandbox,
): Pick<BenchResult, 'alerts' | 'kinds' | 'recall' | 'weighted_recall' | 'duplicates' | 'false_alerts'> {
  const lots = new Set(watched.map(lotKey));
  // A watch follows its vehicle into a relist, rules and all: the relisted lot's threshold is the watched lot's.
  for (const e of events) {
    const prev = `${e.data['previous_platform']}:${e.data['previous_lot_number']}`;
    if (e.kind !== 'relist' || !lots.has(prev)) continue;
    lots.add(key(e));
    const x = thresholds.get(prev);
    if (x !== undefined) thresholds.set(key(e), x);
  }
  const expected: { kind: Kind; lot: string; t: number; source?: string }[] = [];
  // New lots that match a search but sell within one search interval of their listing: no strategy is required to
  // catch them (they are not events), but an alert for one is true, not false.
  const optional = new Set<string>();
  for (const e of events) {
    const k = key(e);
    if (e.kind === 'state' && lots.has(k)) {
      // The end of an auction is one event for the buyer: its sale result (sold, on approval or not sold). Going
      // live is a status change, scored only where the wire shows it (the real service's state stays "open").
      if (e.data['lot_sub_status'] === 'Ended') expected.push({ kind: 'sale_result', lot: k, t: e.t });
      else if (shape === 'spec' || e.data['visible_in_real_shape'] === true)
        expected.push({ kind: 'status_changed', lot: k, t: e.t });
      // A lot offered at a buy-now price loses it when it goes live: a buy-now change on the wire too.
      if (e.data['lot_sub_status'] === 'Live' && sb.market.findLot(e.lot_number)?.lotStatus === 'Buy Now')
        expected.push({ kind: 'buy_now_changed', lot: k, t: e.t });
    }
    if (e.kind === 'buy_now' && lots.has(k)) expected.push({ kind: 'buy_now_changed', lot: k, t: e.t });
    if (e.kind === 'reschedule' && lots.has(k)) expected.push({ kind: 'rescheduled', lot: k, t: e.t });
    if (e.kind === 'relist' && lots.has(`${e.data['previous_platform']}:${e.data['previous_lot_number']}`))
      expected.push({ kind: 'relisted', lot: k, t: e.t });
    const x = thresholds.get(k);
    if (
      e.kind === 'bid' &&
      x !== undefined &&
      (e.data['from'] as number) < x &&
      (e.data['to'] as number) >= x
    )
      expected.push({ kind: 'threshold', lot: k, t: e.t });
    if (e.kind === 'new_lot' || e.kind === 'relist') {
      const lot = sb.market.findLot(e.lot_number);
      for (const s of searches) {
        if (
          lot &&
          lot.v.spec.make === s.make &&
          lot.v.spec.model === s.model &&
          lot.platform === s.platform &&
          lot.auctionAt > e.t + every * MIN
        ) {
          expected.push({ kind: 'new_match', lot: k, t: e.t, source: `search:${s.id}` });
        } else if (
          lot &&
          lot.v.spec.make === s.make &&
          lot.v.spec.model === s.model &&
          lot.platform === s.platform
        ) {
          optional.add(`${k}|search:${s.id}`);
        }
      }
    }
  }
  const kinds = {} as Record<Kind, KindScore>;
  for (const kind of KINDS) {
    const exp = expected.filter((e) => e.kind === kind).sort((a, b) => a.t - b.t);
    const got = alerts.filter((a) => a.kind === kind).sort((a, b) => a.created_at - b.created_at);
    const used = new Set<Alert>();
    const s: KindScore = {
      events: exp.length,
      caught: 0,
      duplicates: 0,
      false_alerts: 0,
      delays_ms: [],
      delay_p50_ms: null,
      delay_p95_ms: null,
    };
    const optionalSeen = new Set<string>();
    for (const e of exp) {
      const a = got.find(
        (x) =>
          !used.has(x) && x.lot_key === e.lot && x.created_at >= e.t && (!e.source || x.source === e.source),
      );
      if (a) {
        used.add(a);
        s.caught++;
        s.delays_ms.push(a.created_at - e.t);
      }
    }
    for (const a of got) {
      if (used.has(a)) continue;
      const opt = `${a.lot_key}|${a.source}`;
      if (kind === 'new_match' && optional.has(opt)) {
        // The first alert for an optional new lot is true; another one for it is a duplicate.
        if (optionalSeen.has(opt)) s.duplicates++;
        optionalSeen.add(opt);
        continue;
      }
      if (exp.some((e) => e.lot === a.lot_key && (!e.source || e.source === a.source))) s.duplicates++;
      else s.false_alerts++;
    }
    s.delay_p50_ms = pct(s.delays_ms, 0.5) ?? null;
    s.delay_p95_ms = pct(s.delays_ms, 0.95) ?? null;
    kinds[kind] = s;
  }
  const all = Object.values(kinds);
  const total = all.reduce((n, k) => n + k.events, 0);
  const caught = all.reduce((n, k) => n + k.caught, 0);
  return {
    alerts: alerts.length,
    kinds,
    recall: total ? caught / total : 1,
    weighted_recall: weightedRecall(kinds),
    duplicates: all.reduce((n, k) => n + k.duplicates, 0),
    false_alerts: all.reduce((n, k) => n + k.false_alerts, 0),
  };
}

/** The p-quantile (0..1) of `xs` by nearest rank below, or undefined for an empty list. */
export const pct = (xs: number[], p: number): number | undefined =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

/** A delay for people: seconds under a minute, minutes under an hour, else hours; '–' when there is none. */
export const fmt = (ms: number | null | undefined): string =>
  ms === undefined || ms === null
    ? '–'
    : ms < 60_000
      ? `${Math.round(ms / 1000)} s`
      : ms < 3_600_000
        ? `${(ms / 60_000).toFixed(1)} min`
        : `${(ms / 3_600_000).toFixed(1)} h`;

const LABEL: Record<Kind, string> = {
  sale_result: 'sale result',
  threshold: 'bid threshold',
  buy_now_changed: 'buy now',
  status_changed: 'live state',
  rescheduled: 'rescheduled',
  relisted: 'relisted',
  new_match: 'new match',
};

/**
 * One Markdown table of one workload: a row per budget and strategy with recall, requests, duplicates, false
 * alerts, and per event kind "caught/events p50 / p95" of the alert delay. Kinds without events anywhere are left out.
 */
export function workloadTable(results: BenchResult[]): string {
  const kinds = KINDS.filter((k) => results.some((r) => r.kinds[k].events > 0));
  const head = [
    'budget/day',
    'strategy',
    'recall',
    'weighted',
    'requests',
    'dup',
    'false',
    ...kinds.map((k) => `${LABEL[k]} (caught · p50 / p95)`),
  ];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const r of results) {
    const cells = kinds.map((k) => {
      const s = r.kinds[k];
      return s.events ? `${s.caught}/${s.events} · ${fmt(s.delay_p50_ms)} / ${fmt(s.delay_p95_ms)}` : '–';
    });
    lines.push(
      `| ${r.budget_per_day} | ${r.strategy} | ${(100 * r.recall).toFixed(1)}% | ${(100 * r.weighted_recall).toFixed(1)}% | ${r.requests} (${r.search_requests} search${r.watch_looks_from_searches ? `; ${r.watch_looks_from_searches} watched-lot looks came with them` : ''}) | ${r.duplicates} | ${r.false_alerts} | ${cells.join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

/** A result without its per-event delay lists, for the JSON file. */
export function compact(
  r: BenchResult,
): Omit<BenchResult, 'kinds'> & { kinds: Record<Kind, Omit<KindScore, 'delays_ms'>> } {
  const kinds = Object.fromEntries(
    Object.entries(r.kinds).map(([k, v]) => [k, { ...v, delays_ms: undefined }]),
  ) as unknown as Record<Kind, Omit<KindScore, 'delays_ms'>>;
  return { ...r, kinds };
}

/**
 * The results of one workload run on several market seeds, pooled per strategy and budget: per event kind the
 * events, catches, duplicates and false alerts summed and the delays concatenated (p50 and p95 recomputed over
 * them), recall recomputed from the sums; requests, setup and search requests, alerts, budget_total, zero-wait
 * ticks, watched lots and wall time summed; max_requests_24h the largest of the seeds; search_sizes concatenated.
 * `runs`: one result list per seed, each in runWorkload's order (budget, then strategy).
 * @throws Error when the runs do not hold the same strategies and budgets.
 */
export function poolResults(runs: BenchResult[][]): BenchResult[] {
  const [first, ...rest] = runs;
  if (!first) return [];
  return first.map((r0, i) => {
    const all = [r0, ...rest.map((run) => run[i])];
    for (const r of all) {
      if (!r || r.strategy !== r0.strategy || r.budget_per_day !== r0.budget_per_day)
        throw new Error('The seeds ran different strategies or budgets.');
    }
    const rs = all as BenchResult[];
    const sum = (f: (r: BenchResult) => number) => rs.reduce((n, r) => n + f(r), 0);
    const kinds = {} as Record<Kind, KindScore>;
    for (const k of KINDS) {
      const delays = rs.flatMap((r) => r.kinds[k].delays_ms);
      kinds[k] = {
        events: sum((r) => r.kinds[k].events),
        caught: sum((r) => r.kinds[k].caught),
        duplicates: sum((r) => r.kinds[k].duplicates),
        false_alerts: sum((r) => r.kinds[k].false_alerts),
        delays_ms: delays,
        delay_p50_ms: pct(delays, 0.5) ?? null,
        delay_p95_ms: pct(delays, 0.95) ?? null,
      };
    }
    const ks = Object.values(kinds);
    const events = ks.reduce((n, k) => n + k.events, 0);
    return {
      ...r0,
      budget_total: sum((r) => r.budget_total),
      requests: sum((r) => r.requests),
      setup_requests: sum((r) => r.setup_requests),
      alerts: sum((r) => r.alerts),
      kinds,
      recall: events ? ks.reduce((n, k) => n + k.caught, 0) / events : 1,
      weighted_recall: weightedRecall(kinds),
      duplicates: ks.reduce((n, k) => n + k.duplicates, 0),
      false_alerts: ks.reduce((n, k) => n + k.false_alerts, 0),
      max_requests_24h: Math.max(...rs.map((r) => r.max_requests_24h)),
      search_requests: sum((r) => r.search_requests),
      watch_looks_from_searches: sum((r) => r.watch_looks_from_searches),
      zero_wait_ticks: sum((r) => r.zero_wait_ticks),
      watched_lots: sum((r) => r.watched_lots),
      search_sizes: rs.flatMap((r) => r.search_sizes),
      wall_ms: sum((r) => r.wall_ms),
    };
  });
}

/**
 * Where Lotwatch falls short of a baseline, one line per cell: at each budget, against each baseline, overall and
 * weighted recall lower or equal (a tie), and per event kind fewer caught, or as many caught with a longer p50 or
 * p95 delay. Equal recall with every caught event no later counts as a tie only on the recall lines. Empty when
 * Lotwatch is ahead everywhere. `results`: runWorkload's or poolResults' list.
 */
export function shortfalls(results: BenchResult[]): string[] {
  const out: string[] = [];
  const pctOf = (x: number) => `${(100 * x).toFixed(1)}%`;
  for (const lw of results.filter((r) => r.strategy === 'lotwatch')) {
    for (const b of results.filter(
      (r) => r.strategy !== 'lotwatch' && r.budget_per_day === lw.budget_per_day,
    )) {
      const at = `${lw.budget_per_day}/day vs ${b.strategy}`;
      for (const [name, x, y] of [
        ['recall', lw.recall, b.recall],
        ['weighted recall', lw.weighted_recall, b.weighted_recall],
      ] as const) {
        if (x < y) out.push(`${at}: ${name} LOSS ${pctOf(x)} < ${pctOf(y)}`);
        else if (x === y) out.push(`${at}: ${name} tie ${pctOf(x)}`);
      }
      for (const k of KINDS) {
        const s = lw.kinds[k];
        const t = b.kinds[k];
        if (!s.events) continue;
        if (s.caught < t.caught)
          out.push(`${at}: ${LABEL[k]} LOSS caught ${s.caught} < ${t.caught} of ${s.events}`);
        const slow = (['delay_p50_ms', 'delay_p95_ms'] as const).filter(
          (q) => s[q] !== null && t[q] !== null && s[q]! > t[q]!,
        );
        if (slow.length)
          out.push(
            `${at}: ${LABEL[k]} slower ${slow.map((q) => `${q === 'delay_p50_ms' ? 'p50' : 'p95'} ${fmt(s[q])} > ${fmt(t[q])}`).join(', ')}`,
          );
      }
    }
  }
  return out;
}

/**
 * The benchmark's claim, cell by cell: at each budget Lotwatch's overall recall is at least each baseline's; its
 * bid-threshold recall is at least each baseline's and, from 30 requests a day up, its p50 delay no longer than the
 * best baseline's; its sale-result p95 delay is no longer than any baseline's; and it raises no duplicate and no
 * false alert. One line per failing cell; empty when the claim holds. `results`: runWorkload's or poolResults' list.
 */
export function claimFailures(results: BenchResult[]): string[] {
  const out: string[] = [];
  const pctOf = (x: number) => `${(100 * x).toFixed(1)}%`;
  for (const lw of results.filter((r) => r.strategy === 'lotwatch')) {
    const at = `${lw.budget_per_day}/day`;
    const bases = results.filter((r) => r.strategy !== 'lotwatch' && r.budget_per_day === lw.budget_per_day);
    if (lw.duplicates || lw.false_alerts)
      out.push(`${at}: ${lw.duplicates} duplicates, ${lw.false_alerts} false alerts`);
    for (const b of bases) {
      if (lw.recall < b.recall)
        out.push(`${at} vs ${b.strategy}: recall ${pctOf(lw.recall)} < ${pctOf(b.recall)}`);
      const t = lw.kinds.threshold;
      if (t.caught < b.kinds.threshold.caught)
        out.push(`${at} vs ${b.strategy}: bid thresholds caught ${t.caught} < ${b.kinds.threshold.caught}`);
      const s = lw.kinds.sale_result.delay_p95_ms;
      const bs = b.kinds.sale_result.delay_p95_ms;
      if (s !== null && bs !== null && s > bs)
        out.push(`${at} vs ${b.strategy}: sale-result p95 ${fmt(s)} > ${fmt(bs)}`);
      if (s === null && bs !== null) out.push(`${at} vs ${b.strategy}: no sale result caught`);
    }
    const p50s = bases.map((b) => b.kinds.threshold.delay_p50_ms).filter((x): x is number => x !== null);
    const mine = lw.kinds.threshold.delay_p50_ms;
    if (lw.budget_per_day >= 30 && p50s.length && mine !== null && mine > Math.min(...p50s))
      out.push(`${at}: bid-threshold p50 ${fmt(mine)} > best baseline ${fmt(Math.min(...p50s))}`);
  }
  return out;
}
