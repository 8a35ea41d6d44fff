import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { createCore, type Core } from '../../src/core/app';
import { openDatabase } from '../../src/core/db/connection';
import { silentLogger } from '../../src/core/log';
import { FileSecretBox } from '../../src/core/secrets';
import { createSandbox, DEMO_KEY, type Lot, type MarketEvent, type Sandbox, type WireShape } from '../../src/sandbox/index';
import { FakeClock } from '../../tests/helpers/fakeClock';
import { tempDir } from '../../tests/helpers/tmp';

/**
 * The watcher benchmark: the sandbox simulates `days` of market on fake time shared with the watcher, with a
 * workload of 10 watched lots (bid thresholds set) and 3 saved searches; the sandbox's event log is the ground
 * truth. `lotwatch` is Lotwatch's own scheduler; `naive` polls every watch and search at one fixed interval chosen
 * to spend the same budget. Both go through the same client, store, diff and alert rules, so only the scheduling
 * differs.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
export const START = Date.UTC(2026, 5, 1, 6, 0, 0);

export type Strategy = 'lotwatch' | 'naive';
export interface BenchOptions {
  strategy: Strategy;
  days: number;
  /** Requests per day for both strategies. */
  budgetPerDay: number;
  seed?: number;
  /** Saved-search schedule, minutes (Lotwatch's cron; the naive poller ignores it). */
  searchEveryMin?: number;
  /** The sandbox's wire dialect: the real service's (default) or the specification's. */
  shape?: WireShape;
}

export interface KindScore {
  events: number;
  caught: number;
  duplicates: number;
  false_alerts: number;
  delays_ms: number[];
}

export interface BenchResult {
  strategy: Strategy;
  shape: WireShape;
  days: number;
  budget_per_day: number;
  requests: number;
  alerts: number;
  kinds: Record<string, KindScore>;
  recall: number;
  duplicates: number;
  false_alerts: number;
  wall_ms: number;
}

type Alert = { kind: string; lot_key: string | null; source: string; created_at: number };

const key = (e: { platform: string; lot_number: string }) => `${e.platform}:${e.lot_number}`;
const lotKey = (l: Lot) => `${l.platform}:${l.lotNumber}`;

/** Runs one strategy over the simulated period and scores it against the sandbox's ground truth. */
export async function runWatchBench(o: BenchOptions): Promise<BenchResult> {
  const wall = performance.now();
  const seed = o.seed ?? 2026;
  const every = o.searchEveryMin ?? 15;
  const end = START + o.days * DAY;
  const clock = new FakeClock(START);
  const sb: Sandbox = createSandbox({ seed, lots: 20_000, startTime: START, speed: 1, now: () => clock.now(), ratePerSecond: 0, shape: o.shape ?? 'real' });
  await sb.start(0, '127.0.0.1');
  const t = tempDir('lotwatch-bench-watch-');
  const dbPath = join(t.dir, 'lotwatch.sqlite');
  const core: Core = createCore({
    db: openDatabase(dbPath),
    dbPath,
    dataDir: t.dir,
    clock,
    secrets: new FileSecretBox(join(t.dir, 'secret.key')),
    notifier: { notify() {} },
    log: silentLogger,
    shell: 'headless',
    version: 'bench',
    demoService: async () => ({ baseUrl: sb.baseUrl!, apiKey: DEMO_KEY, ratePerSecond: 1e9 }),
    tzOffsetMinutes: () => 0,
    demoExamples: false,
    autoStart: o.strategy === 'lotwatch',
  });
  await core.ready;
  const ok = async (m: string, i?: unknown) => {
    const r = await core.invoke(m, i);
    if (!r.ok) throw new Error(`${m}: ${r.error.message}`);
    return r.value as Record<string, unknown>;
  };
  try {
    await ok('settings.update', { requestsPerDay: o.budgetPerDay });
    // Workload: ten lots that sell over the period (some rescheduled or relisted), with a bid threshold each.
    const m = sb.market;
    const horizon = START + Math.max(14 * HOUR, o.days * DAY - 10 * HOUR);
    const open = m.sorted.filter((l) => l.subStatus === 'Open' && l.auctionAt > START + 20 * MIN && l.auctionAt < horizon);
    const step = Math.max(1, Math.floor(open.length / 40));
    const spread = open.filter((_, i) => i % step === 0);
    const relisting = spread.filter((l) => l.steps.some((s) => (s.k as number) === 4)).slice(0, 3);
    const rescheduling = m.sorted
      .filter((l) => l.subStatus === 'Open' && l.steps.some((s) => (s.k as number) === 1 && s.t > START && s.t < end - 6 * HOUR))
      .slice(0, 2);
    const rest = spread.filter((l) => !relisting.includes(l) && !rescheduling.includes(l)).slice(0, 10 - relisting.length - rescheduling.length);
    const watched = [...relisting, ...rescheduling, ...rest];
    const thresholds = new Map<string, number>();
    for (const l of watched) {
      const x = Math.round((l.currentBid + 400) / 100) * 100;
      thresholds.set(lotKey(l), x);
      await ok('watchlist.add', { target: l.lotNumber, rules: { bid_above_usd: x } });
    }
    // Three narrow saved searches.
    const counts = new Map<string, number>();
    for (const l of m.sorted) {
      if (l.subStatus !== 'Open') continue;
      const k = `${l.v.spec.make}|${l.v.spec.model}|${l.platform}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const picks = [...counts.entries()].filter(([, n]) => n >= 30 && n <= 55).sort((a, b) => a[0].localeCompare(b[0])).slice(0, 3);
    const searches: { id: number; make: string; model: string; platform: string }[] = [];
    for (const [mm] of picks) {
      const [make, model, platform] = mm.split('|') as [string, string, string];
      const s = await ok('searches.create', { name: `${make} ${model} (${platform})`, params: { make, model, platform }, schedule: `*/${every} * * * *`, max_pages: 5 });
      searches.push({ id: s['id'] as number, make, model, platform });
    }
    const firstSeq = m.events.at(-1)?.seq ?? 0;

    if (o.strategy === 'lotwatch') {
      for (let guard = 0; clock.now() < end && guard < 10_000_000; guard++) {
        clock.advanceTo(Math.min(clock.nextTimerAt() ?? end, end));
        await core.engine.idle();
      }
    } else {
      // One fixed interval for everything, spending the same budget: each cycle checks every watch once and runs
      // every search through as many pages as it has.
      const pages = searches.length * 3;
      const perCycle = watched.length + pages;
      const interval = Math.max(MIN, Math.floor(DAY / Math.max(1, Math.floor(o.budgetPerDay / perCycle))));
      const watches = (await ok('watchlist.list')) as unknown as { id: number }[];
      for (let at = START; at < end; at += interval) {
        clock.advanceTo(at);
        for (const w of watches) await core.invoke('watchlist.checkNow', { id: w.id });
        for (const s of searches) await core.invoke('searches.runNow', { id: s.id });
      }
      clock.advanceTo(end);
    }

    sb.market.advanceTo(end);
    await core.engine.idle();
    const events = sb.market.eventsSince(firstSeq, 100_000_000).filter((e) => e.t <= end);
    // Read the outcome straight from the database file: the inbox and the request log, complete.
    const db = new BetterSqlite3(dbPath, { readonly: true });
    const list = db.prepare('SELECT kind, lot_key, source, created_at FROM alerts').all() as Alert[];
    const requests = (db.prepare('SELECT count(*) AS n FROM request_log').get() as { n: number }).n;
    db.close();
    return { ...score(o, events, list, watched, thresholds, searches, every, sb), requests, wall_ms: Math.round(performance.now() - wall) };
  } finally {
    await core.dispose();
    await sb.dispose();
    t.cleanup();
  }
}

function score(
  o: BenchOptions,
  events: MarketEvent[],
  alerts: Alert[],
  watched: Lot[],
  thresholds: Map<string, number>,
  searches: { id: number; make: string; model: string; platform: string }[],
  every: number,
  sb: Sandbox,
): Omit<BenchResult, 'requests' | 'wall_ms'> {
  const lots = new Set(watched.map(lotKey));
  // A watch follows its vehicle into a relist, rules and all: the relisted lot's threshold is the watched lot's.
  for (const e of events) {
    const prev = `${e.data['previous_platform']}:${e.data['previous_lot_number']}`;
    if (e.kind !== 'relist' || !lots.has(prev)) continue;
    lots.add(key(e));
    const x = thresholds.get(prev);
    if (x !== undefined) thresholds.set(key(e), x);
  }
  const expected: { kind: string; lot: string; t: number; source?: string }[] = [];
  for (const e of events) {
    const k = key(e);
    if (e.kind === 'state' && lots.has(k)) {
      // The end of an auction is one event for the buyer: its sale result (sold, on approval or not sold). Going
      // live is a status change, scored only where the wire shows it (the real service's state stays "open").
      if (e.data['lot_sub_status'] === 'Ended') expected.push({ kind: 'sale_result', lot: k, t: e.t });
      else if ((o.shape ?? 'real') === 'spec' || e.data['visible_in_real_shape'] === true) expected.push({ kind: 'status_changed', lot: k, t: e.t });
    }
    if (e.kind === 'reschedule' && lots.has(k)) expected.push({ kind: 'rescheduled', lot: k, t: e.t });
    if (e.kind === 'relist' && lots.has(`${e.data['previous_platform']}:${e.data['previous_lot_number']}`)) expected.push({ kind: 'relisted', lot: k, t: e.t });
    const x = thresholds.get(k);
    if (e.kind === 'bid' && x !== undefined && (e.data['from'] as number) < x && (e.data['to'] as number) >= x) expected.push({ kind: 'threshold', lot: k, t: e.t });
    if (e.kind === 'new_lot' || e.kind === 'relist') {
      const lot = sb.market.findLot(e.lot_number);
      for (const s of searches) {
        if (lot && lot.v.spec.make === s.make && lot.v.spec.model === s.model && lot.platform === s.platform && lot.auctionAt > e.t + every * MIN) {
          expected.push({ kind: 'new_match', lot: k, t: e.t, source: `search:${s.id}` });
        }
      }
    }
  }
  const kinds: Record<string, KindScore> = {};
  const scored = ['status_changed', 'sale_result', 'rescheduled', 'relisted', 'threshold', 'new_match'];
  for (const kind of scored) {
    const exp = expected.filter((e) => e.kind === kind).sort((a, b) => a.t - b.t);
    const got = alerts.filter((a) => a.kind === kind).sort((a, b) => a.created_at - b.created_at);
    const used = new Set<Alert>();
    const s: KindScore = { events: exp.length, caught: 0, duplicates: 0, false_alerts: 0, delays_ms: [] };
    for (const e of exp) {
      const a = got.find((x) => !used.has(x) && x.lot_key === e.lot && x.created_at >= e.t && (!e.source || x.source === e.source));
      if (a) {
        used.add(a);
        s.caught++;
        s.delays_ms.push(a.created_at - e.t);
      }
    }
    for (const a of got) {
      if (used.has(a)) continue;
      if (exp.some((e) => e.lot === a.lot_key && (!e.source || e.source === a.source))) s.duplicates++;
      else s.false_alerts++;
    }
    kinds[kind] = s;
  }
  const total = Object.values(kinds).reduce((n, k) => n + k.events, 0);
  const caught = Object.values(kinds).reduce((n, k) => n + k.caught, 0);
  return {
    strategy: o.strategy,
    shape: o.shape ?? 'real',
    days: o.days,
    budget_per_day: o.budgetPerDay,
    alerts: alerts.length,
    kinds,
    recall: total ? caught / total : 1,
    duplicates: Object.values(kinds).reduce((n, k) => n + k.duplicates, 0),
    false_alerts: Object.values(kinds).reduce((n, k) => n + k.false_alerts, 0),
  };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const fmt = (ms: number | undefined) => (ms === undefined ? '–' : ms < 60_000 ? `${Math.round(ms / 1000)} s` : ms < 3_600_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 3_600_000).toFixed(1)} h`);

/** One Markdown table comparing the strategies, per event kind. */
export function table(results: BenchResult[]): string {
  const lines = ['| strategy | kind | events | caught | recall | dup | false | delay p50 | delay p95 |', '|---|---|---|---|---|---|---|---|---|'];
  for (const r of results) {
    for (const [kind, s] of Object.entries(r.kinds)) {
      lines.push(`| ${r.strategy} | ${kind} | ${s.events} | ${s.caught} | ${s.events ? ((100 * s.caught) / s.events).toFixed(1) : '–'}% | ${s.duplicates} | ${s.false_alerts} | ${fmt(pct(s.delays_ms, 0.5))} | ${fmt(pct(s.delays_ms, 0.95))} |`);
    }
    lines.push(`| **${r.strategy}** (${r.shape} shape) | **all** | | | **${(100 * r.recall).toFixed(1)}%** | **${r.duplicates}** | **${r.false_alerts}** | requests ${r.requests} (budget ${r.budget_per_day}/day × ${r.days}) | ${(r.wall_ms / 1000).toFixed(0)} s wall |`);
  }
  return lines.join('\n');
}
