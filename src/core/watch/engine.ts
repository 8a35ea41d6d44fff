import type { ApiClient } from '../api';
import { ApiError, QuotaSpentError, RateLimitedError, UnauthorizedError } from '../api/errors';
import {
  buildDigest,
  decide,
  dueReminders,
  quietHoursEnd,
  keyRejectedAlert,
  quotaLowAlert,
  quotaSpentAlert,
  searchEmptyAlert,
  searchFailingAlert,
  type AlertDecision,
} from '../alerts';
import { diffLot, diffSearch } from '../diff';
import type { Clock } from '../clock';
import type { AlertRow, NewAlert, SavedSearchRow, WatchRow, WatchStore } from '../db/watchStore';
import type { Logger } from '../log';
import type { ContractEvent } from '../../shared/ipc/contract';
import type { QuotaSnapshot, Vehicle } from '../../shared/vehicle';
import { quotaSpentSentence } from '../../shared/quota';
import { lotKeyOf, type AlertRules, type Change, type LotState, type QuietHours } from '../../shared/watch';
import type { RequestBudget } from './budget';
import { CronTrigger } from './cron';
import { auctionOver, nextCheckAt, projectedChecks } from './planner';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** What the engine needs; everything with side effects is injected (DESIGN.md "Conventions"). */
export interface EngineDeps {
  store: WatchStore;
  /** The client for the current key and mode, or null when there is none (no key outside Demo mode). */
  client: () => ApiClient | null;
  clock: Clock;
  log: Logger;
  budget: RequestBudget;
  /** Shows one alert as a native/browser notification. */
  notify: (a: { id: number; title: string; body: string; lot_key: string | null; kind: string }) => void;
  emit: (e: ContractEvent) => void;
  quiet: () => QuietHours;
  /** The user's UTC offset in minutes at time t (e.g. -300 for US Eastern winter). */
  tzOffsetMinutes: (t: number) => number;
  /**
   * Whether Demo mode's example watches may be polled (true in Demo mode). Outside it they would spend the user's
   * real quota on lots they never chose, so they wait; default always.
   */
  examplesActive?: () => boolean;
}

/** Why polling is paused: the plan's requests are used up for the period, or the per-second rate limit. */
export type PauseKind = 'quota_spent' | 'rate_limited';

/** The scheduler's current plan, for the Usage page. */
export interface SchedulePlan {
  /** Stretch of the watchlist's background intervals needed to stay in budget (1 = none). */
  scale: number;
  projectedNext24h: number;
  nextSearchRuns: { id: number; at: number | null }[];
  nextWatchChecks: { id: number; at: number }[];
}

type RunOutcome = { status: 'ok' | 'partial' | 'error' | 'skipped'; requests: number; changes: number; alerts: number };

/**
 * The watch engine (issue 5 "Scheduler"): runs saved searches on their cron schedules and the watchlist by value,
 * all on the injected clock, one job at a time, within the request budget. Each poll's writes (observations,
 * changes, alerts) are one transaction, so a crash keeps all of a poll or none; alerts are then delivered from the
 * outbox, claimed before they are shown, so none is ever shown twice.
 */
export class WatchEngine {
  private triggers = new Map<number, CronTrigger>();
  private chain: Promise<unknown> = Promise.resolve();
  private cancelTimer: (() => void) | null = null;
  private lastTick = 0;
  private started = false;
  private disposed = false;
  private scale = 1;
  /** After a 429: no polling until then (ms), and why. */
  private pausedUntil = 0;
  private pauseReason: string | null = null;
  private pauseKind: PauseKind | null = null;
  private scaledAt = -Infinity;

  constructor(private readonly d: EngineDeps) {}

  /** Recovers from a crash (runs left 'running' become 'interrupted'), delivers what is due, and starts the loop. */
  start(): void {
    if (this.started) return;
    this.started = true;
    const now = this.d.clock.now();
    const n = this.d.store.interruptRuns(now);
    if (n) this.d.log.warn('watch: poll runs interrupted by a previous stop', { count: n });
    this.lastTick = now;
    this.syncTriggers();
    void this.enqueue(() => this.tick());
  }

  /** Stops the loop and waits for the job in flight. Idempotent. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    await this.chain.catch(() => undefined);
    for (const t of this.triggers.values()) t.dispose();
    this.triggers.clear();
  }

  /** Re-reads saved searches after a change (create, edit, pause, delete) and reschedules. */
  refresh(): void {
    this.scaledAt = -Infinity;
    this.syncTriggers();
    if (this.started && !this.disposed) this.reschedule();
  }

  /** Runs a saved search now, queued behind the job in flight (never overlapping). Paused searches run too. */
  runSearchNow(id: number): Promise<RunOutcome> {
    return this.enqueue(() => this.runSearch(id, true));
  }

  /** Checks one watch now. */
  checkWatchNow(id: number): Promise<RunOutcome> {
    return this.enqueue(async () => {
      const w = this.d.store.getWatch(id);
      return w ? this.pollWatch(w) : { status: 'skipped', requests: 0, changes: 0, alerts: 0 };
    });
  }

  /** Runs everything due now (searches, watches, reminders, outbox); the loop calls this, tests may too. */
  runDue(): Promise<void> {
    return this.enqueue(() => this.tick());
  }

  /** Resolves when the job in flight (if any) and everything queued behind it are done. */
  async idle(): Promise<void> {
    let seen: Promise<unknown>;
    do {
      seen = this.chain;
      await seen;
    } while (seen !== this.chain);
  }

  /**
   * Stores records fetched outside the schedule (a manual search, a lot opened, related lots) the same way a poll
   * does: observation, diff against the stored state, timeline, and alerts for watched lots. Without this, a
   * change first seen by a manual fetch would be missing from the timeline. One transaction; never awaits.
   */
  ingest(vehicles: Vehicle[], source: string): void {
    const now = this.d.clock.now();
    this.d.store.transaction(() => {
      const prevOf = new Map<string, LotState | null>();
      const changes: Change[] = [];
      for (const v of vehicles) {
        const o = this.d.store.observe(v, now, source);
        if (!o) continue;
        const key = lotKeyOf(o.next.platform, o.next.lot_number);
        if (prevOf.has(key)) continue;
        prevOf.set(key, o.prev);
        changes.push(...this.lotDiff(o.prev, o.next));
      }
      this.recordChanges(changes, now, (k) => prevOf.get(k) ?? null, null);
    });
    this.deliver();
  }

  /** The plan shown to the user: scale, projection, next runs. */
  plan(): SchedulePlan {
    const now = this.d.clock.now();
    const watches = this.watchStates();
    const projectedWatch = projectedChecks(
      watches.map((w) => ({ lot: w.lot, lastChecked: w.lastChecked })),
      now,
      DAY,
      this.scale,
    );
    let projectedSearch = 0;
    const nextSearchRuns: SchedulePlan['nextSearchRuns'] = [];
    for (const s of this.d.store.listSearches()) {
      const t = this.triggers.get(s.id);
      const next = s.paused || !t ? null : t.nextAfter(now);
      nextSearchRuns.push({ id: s.id, at: next });
      if (t && !s.paused) projectedSearch += this.runsPerDay(t, now) * this.pagesPerRun(s);
    }
    return {
      scale: this.scale,
      projectedNext24h: projectedWatch + projectedSearch,
      nextSearchRuns,
      nextWatchChecks: watches.map((w) => ({ id: w.watch.id, at: nextCheckAt(w.lot, w.lastChecked, now, this.scale) })),
    };
  }

  // ---- loop ----------------------------------------------------------------------------------------------------

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.chain.then(fn, fn);
    this.chain = p.catch(() => undefined);
    return p;
  }

  private syncTriggers(): void {
    const searches = this.d.store.listSearches();
    const ids = new Set(searches.map((s) => s.id));
    for (const [id, t] of this.triggers) {
      const s = searches.find((x) => x.id === id);
      if (!ids.has(id) || s?.schedule !== t.expression) {
        t.dispose();
        this.triggers.delete(id);
      }
    }
    for (const s of searches) {
      if (this.triggers.has(s.id)) continue;
      try {
        this.triggers.set(s.id, new CronTrigger(s.schedule, async () => void (await this.runSearch(s.id, false))));
      } catch (e) {
        this.d.log.warn('watch: saved search has an invalid schedule', { id: s.id, error: (e as Error).message });
      }
    }
  }

  private reschedule(): void {
    if (this.disposed) return;
    this.cancelTimer?.();
    const now = this.d.clock.now();
    let next = Math.floor(now / 60_000) * 60_000 + 60_000;
    for (const w of this.watchStates()) {
      next = Math.min(next, Math.max(nextCheckAt(w.lot, w.lastChecked, now, this.scale), (w.watch.last_checked_at ?? 0) + this.failureBackoff(w.watch)));
    }
    const pausedTo = this.pauseEnd(now);
    if (now < pausedTo) next = Math.max(next, Math.min(pausedTo, now + 60_000));
    const delay = Math.max(0, next - now);
    this.cancelTimer = this.d.clock.setTimeout(() => {
      this.cancelTimer = null;
      void this.enqueue(() => this.tick());
    }, delay);
  }

  private async tick(): Promise<void> {
    if (this.disposed) return;
    try {
      const now = this.d.clock.now();
      const from = this.lastTick;
      this.updateScale(now);
      const paused = now < this.pauseEnd(now);
      // Watches first: lots close to their sale matter most (DESIGN.md "Request budget").
      const due = paused
        ? []
        : this.watchStates()
            .map((w) => ({
              ...w,
              at: Math.max(
                nextCheckAt(w.lot, w.lastChecked, now, this.scale),
                (w.watch.last_checked_at ?? 0) + this.failureBackoff(w.watch),
              ),
            }))
            .filter((w) => w.at <= now)
            .sort((a, b) => a.at - b.at);
      for (const w of due) {
        if (this.d.clock.now() < this.pauseEnd(this.d.clock.now())) break;
        await this.pollWatch(w.watch);
      }
      for (const s of this.d.store.listSearches()) {
        if (s.paused || this.d.clock.now() < this.pauseEnd(this.d.clock.now())) continue;
        const t = this.triggers.get(s.id);
        // From the last run, not the last tick: a run missed while the app was closed or the machine slept runs
        // once on the next tick (catch-up), never once per missed minute.
        const since = s.last_run_at ?? s.created_at;
        if (t?.dueBetween(since, now)) await t.execute();
      }
      this.reminders(from, this.d.clock.now());
      this.deliver();
      this.lastTick = now;
    } catch (e) {
      this.d.log.error('watch: tick failed', { error: (e as Error).message });
    } finally {
      this.reschedule();
    }
  }

  // ---- budget --------------------------------------------------------------------------------------------------

  private runsPerDay(t: CronTrigger, now: number): number {
    return t.runsPerDay(now);
  }

  private pagesPerRun(s: SavedSearchRow): number {
    if (s.last_result_count === null) return s.max_pages;
    return Math.min(s.max_pages, Math.max(1, Math.ceil(s.last_result_count / 20)));
  }

  /** Stretches the watchlist's background intervals until the projected day fits the allowance (every 10 min). */
  private updateScale(now: number): void {
    if (now - this.scaledAt < 10 * 60_000) return;
    this.scaledAt = now;
    const allowance = this.d.budget.allowance(now).perDay;
    const lots = this.watchStates().map((w) => ({ lot: w.lot, lastChecked: w.lastChecked }));
    let searchDemand = 0;
    for (const s of this.d.store.listSearches()) {
      const t = this.triggers.get(s.id);
      if (t && !s.paused) searchDemand += this.runsPerDay(t, now) * this.pagesPerRun(s);
    }
    let scale = 1;
    while (scale < 64 && projectedChecks(lots, now, DAY, scale) + searchDemand > allowance) scale *= 2;
    this.scale = scale;
  }

  /** Requests the watchlist's anchors need in the next hour: kept back from searches. */
  private watchReserve(now: number): number {
    return projectedChecks(
      this.watchStates().map((w) => ({ lot: w.lot, lastChecked: w.lastChecked })),
      now,
      HOUR,
      this.scale,
    );
  }

  // ---- polls ---------------------------------------------------------------------------------------------------

  private watchStates(): { watch: WatchRow; lot: LotState | null; lastChecked: number | null }[] {
    const examples = this.d.examplesActive?.() ?? true;
    return this.d.store.listWatches().filter((w) => examples || !w.is_example).map((watch) => {
      const lot = watch.lot_key ? this.d.store.getLotState(watch.lot_key) : null;
      // A saved-search page that refreshed the lot counts as a check (no second fetch).
      const lastChecked =
        lot && watch.last_checked_at !== null
          ? Math.max(watch.last_checked_at, lot.observed_at)
          : (watch.last_checked_at ?? null);
      return { watch, lot, lastChecked: lot ? lastChecked : null };
    });
  }

  /**
   * Raises the quota alerts of a snapshot, whoever's request brought it (a poll, a search in the UI, the console):
   * "used up" when nothing remains, else "running low" at 10% or less. Each is keyed by the quota period, so it is
   * raised once a period however many answers carry the same numbers. Throws nothing but database errors.
   */
  onQuota(q: QuotaSnapshot | null): void {
    if (!q) return;
    const now = this.d.clock.now();
    // A 429 may come without the period headers; the period of the last full snapshot still names the period.
    const stored = this.d.store.loadQuota();
    const periodEnd = q.periodEnd ?? (stored?.periodEnd !== null && stored?.periodEnd !== undefined && stored.periodEnd > now ? stored.periodEnd : null);
    if (q.remaining === 0) {
      this.storeAlerts([quotaSpentAlert(periodEnd, now)], now);
      return;
    }
    if (q.limit !== null && q.remaining !== null && periodEnd !== null) {
      const a = quotaLowAlert({ limit: q.limit, remaining: q.remaining, periodEnd }, now);
      if (a) this.storeAlerts([a], now);
    }
  }

  /**
   * The end of the current pause (ms; <= now when not paused): after a 429, or while the last quota snapshot says
   * the plan has no requests left before its period ends. The snapshot is stored, so a restart keeps the pause.
   */
  private pauseEnd(now: number): number {
    return Math.max(this.pausedUntil, this.spentUntil(now) ?? 0);
  }

  /** The period end while the stored snapshot says no requests remain, else null. */
  private spentUntil(now: number): number | null {
    const q = this.d.store.loadQuota();
    return q && q.remaining === 0 && q.periodEnd !== null && q.periodEnd > now ? q.periodEnd : null;
  }

  /**
   * Whether polling is paused after the service said 429 (quota spent or rate limit), until when (ms) and why: for a
   * spent quota, the period's end and "used up until 12 December", never a count of seconds.
   */
  pause(): { until: number | null; reason: string | null; kind: PauseKind | null } {
    const now = this.d.clock.now();
    const spent = this.spentUntil(now);
    if (spent !== null && spent >= this.pausedUntil) {
      return { until: spent, reason: quotaSpentSentence(spent), kind: 'quota_spent' };
    }
    return this.pausedUntil > now
      ? { until: this.pausedUntil, reason: this.pauseReason, kind: this.pauseKind }
      : { until: null, reason: null, kind: null };
  }

  /** Ends a pause after a 429: a new key, service or mode has its own quota. */
  resetPause(): void {
    this.pausedUntil = 0;
    this.pauseReason = null;
    this.pauseKind = null;
    if (this.started && !this.disposed) this.reschedule();
  }

  /** A watch that keeps failing waits longer between tries: 1, 2, 4 ... minutes, at most an hour. */
  private failureBackoff(w: WatchRow): number {
    return w.consecutive_failures > 0 ? Math.min(HOUR, 60_000 * 2 ** (w.consecutive_failures - 1)) : 0;
  }

  private failed(e: unknown, now: number): { code: string; message: string } {
    if (e instanceof QuotaSpentError) {
      // The plan's requests are used up until its period ends: nothing is sent before then. Without a known end,
      // look again in an hour (one request), not every minute.
      this.pausedUntil = e.periodEnd ?? now + Math.max(HOUR, e.retryAfterMs ?? HOUR);
      this.pauseReason = e.message;
      this.pauseKind = 'quota_spent';
      this.storeAlerts([quotaSpentAlert(e.periodEnd, now)], now);
    } else if (e instanceof RateLimitedError) {
      // The service said stop: every poll waits for Retry-After (or a minute) instead of spending more.
      this.pausedUntil = now + Math.max(60_000, e.retryAfterMs ?? 60_000);
      this.pauseReason = e.message;
      this.pauseKind = 'rate_limited';
    }
    if (e instanceof UnauthorizedError) this.storeAlerts([keyRejectedAlert(now)], now);
    if (e instanceof ApiError || (e instanceof Error && 'code' in e)) {
      return { code: String((e as { code: unknown }).code), message: (e as Error).message };
    }
    return { code: 'internal', message: (e as Error)?.message ?? String(e) };
  }

  /** One run of a saved search: pages until the end, max_pages, the budget or an error; then one transaction. */
  private async runSearch(id: number, manual: boolean): Promise<RunOutcome> {
    const s = this.d.store.getSearch(id);
    const client = this.d.client();
    if (!s || (s.paused && !manual) || !client) return { status: 'skipped', requests: 0, changes: 0, alerts: 0 };
    const target = `search:${id}`;
    const started = this.d.clock.now();
    const runId = this.d.store.startRun(target, started);
    this.d.emit({ name: 'poll.started', payload: { target, at: started } });
    const vehicles: Vehicle[] = [];
    let complete = false;
    let requests = 0;
    let error: { code: string; message: string } | null = null;
    let cursor: string | undefined;
    for (let page = 0; page < s.max_pages; page++) {
      const now = this.d.clock.now();
      if (!this.d.budget.canSpend(1, now, manual ? 0 : this.watchReserve(now))) {
        error = { code: 'budget', message: 'Paused by the request budget; the next run continues.' };
        break;
      }
      try {
        requests++;
        const r = await client.searchVehicles({ ...(s.params as object), ...(cursor ? { cursor } : {}), per_page: 20 });
        vehicles.push(...r.data);
        this.onQuota(client.quota());
        const next = r.meta?.next_cursor ?? null;
        if (!next) {
          complete = true;
          break;
        }
        cursor = next;
      } catch (e) {
        this.onQuota(client.quota());
        error = this.failed(e, this.d.clock.now());
        break;
      }
    }
    const now = this.d.clock.now();
    let changes = 0;
    let alerts = 0;
    this.d.store.transaction(() => {
      const states: LotState[] = [];
      const lotChanges: Change[] = [];
      const prevOf = new Map<string, LotState | null>();
      for (const v of vehicles) {
        const o = this.d.store.observe(v, now, target);
        if (!o) continue;
        const key = lotKeyOf(o.next.platform, o.next.lot_number);
        // The same lot twice in one run (it moved between pages): diff against the first state only once.
        if (prevOf.has(key)) continue;
        prevOf.set(key, o.prev);
        states.push(o.next);
        lotChanges.push(...this.lotDiff(o.prev, o.next));
      }
      const fetchedSomething = vehicles.length > 0 || complete;
      const members = this.d.store.memberKeys(id);
      const searchChanges = fetchedSomething
        ? diffSearch(members, states, { complete, baseline: !s.baseline_done, observedAt: now })
        : [];
      const r = this.recordChanges([...searchChanges, ...lotChanges], now, (k) => prevOf.get(k) ?? null, s);
      changes = r.changes;
      alerts = r.alerts;
      const seen = states.map((x) => lotKeyOf(x.platform, x.lot_number));
      const dropped = searchChanges.filter((c) => c.kind === 'dropped_out').map((c) => c.lot_key);
      this.d.store.updateMembers(id, seen, dropped, now);
      if (error && !fetchedSomething) {
        this.d.store.searchRunFailed(id, now, error.code, error.message);
        const after = this.d.store.getSearch(id);
        if (after && error.code !== 'budget') {
          const a = searchFailingAlert({ id, name: s.name }, after.consecutive_failures, error.message, now);
          if (a) alerts += this.storeAlerts([a], now);
        }
      } else {
        if (complete) {
          const counts = this.d.store.recentResultCounts(id, 3);
          const a = searchEmptyAlert({ id, name: s.name }, [...counts, seen.length], now);
          if (a) alerts += this.storeAlerts([a], now);
        }
        this.d.store.searchRunOk(id, now, seen.length, complete);
      }
      this.d.store.finishRun(runId, now, {
        status: error ? (fetchedSomething ? 'partial' : 'error') : 'ok',
        requests,
        records: vehicles.length,
        changes,
        complete,
        error_code: error?.code ?? null,
        error_message: error?.message ?? null,
      });
    });
    const status: RunOutcome['status'] = error ? (vehicles.length ? 'partial' : 'error') : 'ok';
    this.d.emit({ name: 'poll.finished', payload: { target, at: now, status, requests, changes, alerts } });
    this.deliver();
    return { status, requests, changes, alerts };
  }

  /** One check of a watch: the lot by lot number, or by VIN (a VIN watch, or a lot that ended unsold: relists). */
  private async pollWatch(w: WatchRow): Promise<RunOutcome> {
    const client = this.d.client();
    if (!client) return { status: 'skipped', requests: 0, changes: 0, alerts: 0 };
    const now0 = this.d.clock.now();
    if (!this.d.budget.canSpend(1, now0)) return { status: 'skipped', requests: 0, changes: 0, alerts: 0 };
    const lot = w.lot_key ? this.d.store.getLotState(w.lot_key) : null;
    const vin = w.vin ?? lot?.vin ?? null;
    const byVin = w.kind === 'vin' || (lot !== null && auctionOver(lot) && vin !== null);
    const id = byVin && vin ? vin : (w.lot_key?.split(':')[1] ?? vin);
    if (!id) return { status: 'skipped', requests: 0, changes: 0, alerts: 0 };
    const target = `watch:${w.id}`;
    const runId = this.d.store.startRun(target, now0);
    this.d.emit({ name: 'poll.started', payload: { target, at: now0 } });
    let v: Vehicle | null = null;
    let error: { code: string; message: string } | null = null;
    try {
      v = (await client.getVehicle(id)).data;
    } catch (e) {
      error = this.failed(e, this.d.clock.now());
    }
    this.onQuota(client.quota());
    const now = this.d.clock.now();
    let changes = 0;
    let alerts = 0;
    this.d.store.transaction(() => {
      if (v) {
        const o = this.d.store.observe(v, now, target);
        if (o) {
          const key = lotKeyOf(o.next.platform, o.next.lot_number);
          const r = this.recordChanges(this.lotDiff(o.prev, o.next), now, () => o.prev, null, w);
          changes = r.changes;
          alerts = r.alerts;
          // A relisted vehicle: the watch follows it to its new lot.
          this.d.store.watchChecked(w.id, now, key, o.next.vin);
        } else {
          this.d.store.watchChecked(w.id, now, null, null);
        }
      } else if (error) {
        this.d.store.watchFailed(w.id, now, error.message);
      }
      this.d.store.finishRun(runId, now, {
        status: error ? 'error' : 'ok',
        requests: 1,
        records: v ? 1 : 0,
        changes,
        complete: null,
        error_code: error?.code ?? null,
        error_message: error?.message ?? null,
      });
    });
    const status = error ? 'error' : 'ok';
    this.d.emit({ name: 'poll.finished', payload: { target, at: now, status, requests: 1, changes, alerts } });
    this.deliver();
    return { status, requests: 1, changes, alerts };
  }

  private lotDiff(prev: LotState | null, next: LotState): Change[] {
    const others = next.vin ? this.d.store.otherLotsOfVin(next.vin, lotKeyOf(next.platform, next.lot_number)) : [];
    return diffLot(prev, next, { otherLotsOfVin: others });
  }

  /** The watch that covers a lot: by its lot key, or by its VIN. */
  private watchFor(lotKey: string, vin: string | null): WatchRow | null {
    for (const w of this.d.store.listWatches()) {
      if (w.lot_key === lotKey || (vin !== null && w.vin === vin)) return w;
    }
    return null;
  }

  /**
   * Stores changes on the timeline and turns them into alerts: a watched lot's changes under the watch's rules;
   * a saved search's new matches (and other changes of its lots, where its rules ask) under the search's rules.
   */
  private recordChanges(
    changes: Change[],
    now: number,
    prevOf: (lotKey: string) => LotState | null,
    search: SavedSearchRow | null,
    watch?: WatchRow,
  ): { changes: number; alerts: number } {
    let alerts = 0;
    for (const c of changes) {
      const changeId = this.d.store.insertChange(c, search?.id ?? null);
      const w = watch ?? this.watchFor(c.lot_key, c.vin);
      const rules: AlertRules | null = w && c.kind !== 'new_match' && c.kind !== 'dropped_out' ? w.rules : search?.rules ?? null;
      if (!rules) continue;
      const source =
        w && rules === w.rules
          ? { kind: 'watch' as const, name: w.label || w.vin || w.lot_key || 'Watched lot' }
          : { kind: 'search' as const, name: search?.name ?? '' };
      const record = this.d.store.getLotRecord(c.lot_key);
      const title = record?.title ?? ([record?.year, record?.make, record?.model].filter(Boolean).join(' ') || c.lot_key);
      const lot = this.d.store.getLotState(c.lot_key);
      const decision = decide({
        change: c,
        changeId,
        prev: prevOf(c.lot_key),
        lot,
        rules,
        quiet: this.d.quiet(),
        now,
        tzOffsetMinutes: this.d.tzOffsetMinutes(now),
        alertsForLotLastHour: this.d.store.alertsForLotSince(c.lot_key, now - HOUR),
        title,
        source,
      });
      if (decision?.lifts_snooze && w) {
        // The event the user snoozed for has happened: the snooze ends with this alert.
        this.d.store.updateWatchRules(w.id, { ...w.rules, snooze_until: null, snooze_until_event: null }, w.label, now);
      }
      if (decision) {
        const tag = source.kind === 'watch' && w ? `watch:${w.id}` : `search:${search?.id ?? 0}`;
        alerts += this.storeAlerts([decision], now, changeId, tag);
      }
    }
    return { changes: changes.length, alerts };
  }

  private storeAlerts(decisions: AlertDecision[], now: number, changeId: number | null = null, source = ''): number {
    let n = 0;
    for (const a of decisions) {
      const row: NewAlert = {
        dedup_key: a.dedup_key,
        kind: a.kind,
        lot_key: a.lot_key,
        change_id: changeId,
        source,
        title: a.title,
        body: a.body,
        reason: a.reason,
        delivery: a.delivery,
        deliver_after:
          a.delivery === 'digest' ? quietHoursEnd(now, this.d.quiet(), this.d.tzOffsetMinutes(now)) : null,
      };
      if (this.d.store.insertAlert(row, now) !== null) n++;
    }
    return n;
  }

  /** Reminders "auction in N minutes" for watched lots, in (from, to]. */
  private reminders(from: number, to: number): void {
    if (to <= from) return;
    for (const { watch, lot } of this.watchStates()) {
      if (!lot || watch.rules.remind_minutes_before.length === 0) continue;
      const rec = this.d.store.getLotRecord(lotKeyOf(lot.platform, lot.lot_number));
      const title = rec?.title ?? lotKeyOf(lot.platform, lot.lot_number);
      const due = dueReminders(lot, watch.rules, from, to, title, {
        quiet: this.d.quiet(),
        tzOffsetMinutes: this.d.tzOffsetMinutes(to),
      });
      if (due.length) this.d.store.transaction(() => this.storeAlerts(due, to));
    }
  }

  /**
   * Delivers the outbox: each pending alert is claimed, then shown, then marked delivered; digest alerts whose
   * quiet hours ended go out as one notification. A crash between claim and show loses the notification, never
   * the alert (it is in the inbox), and never shows it twice.
   */
  private deliver(): void {
    const now = this.d.clock.now();
    const rows = this.d.store.dueAlerts(now);
    const digest: AlertRow[] = [];
    for (const a of rows) {
      if (!this.d.store.claimAlert(a.id)) continue;
      if (a.status === 'digest') {
        digest.push(a);
        continue;
      }
      this.show(a);
      this.d.store.markDelivered(a.id, this.d.clock.now());
    }
    if (digest.length) {
      const d = buildDigest(digest, now);
      this.d.notify({ id: digest[0]!.id, title: d.title, body: d.body, lot_key: null, kind: 'digest' });
      for (const a of digest) {
        this.d.store.markDelivered(a.id, now);
        this.d.emit({ name: 'alert.raised', payload: { id: a.id, kind: a.kind, title: a.title, body: a.body, lot_key: a.lot_key } });
      }
    }
  }

  private show(a: AlertRow): void {
    try {
      this.d.notify({ id: a.id, title: a.title, body: a.body, lot_key: a.lot_key, kind: a.kind });
    } catch (e) {
      this.d.log.warn('watch: notification failed', { id: a.id, error: (e as Error).message });
    }
    this.d.emit({ name: 'alert.raised', payload: { id: a.id, kind: a.kind, title: a.title, body: a.body, lot_key: a.lot_key } });
  }
}
