import type { SavedSearchRow, Store } from '../db/store';
import type { Logger } from '../log';
import { pagesPerRun, searchDemandPerDay, type RequestBudget } from './budget';
import { CronTrigger } from './cron';
import type { Polls, RunOutcome } from './polls';
import { searchValue, type QueuedRequest } from './value';
import { wakeWhenFits } from './wake';

/*
 * The scheduled runs (docs/architecture.md "Call watches"): saved searches and call watches, each on its own cron
 * schedule, queued with the watchlist's checks by value and paced the same way. A saved search's run costs its pages
 * (pagesPerRun); a call watch's run costs one request. The scheduler (scheduler.ts) orders and spends; this module
 * keeps the triggers, says what is due and when, and runs it.
 */

/** Runs one call watch (src/core/calls/runner.ts); `manual`: "Run now", which also runs a paused one. */
export interface CallRunner {
  run(id: number, manual: boolean): Promise<RunOutcome>;
}

/**
 * A scheduled run in the queue. `baseline` is true once the run's first reading is done (a saved search's
 * baseline_done; a call watch's first good answer), as spending.ts reads it; `call` marks a call watch's run.
 */
export interface RunItem {
  search: number;
  baseline: boolean;
  call?: true;
}

/** One schedulable run as the loop sees it: a saved search's or a call watch's. */
interface RunRow {
  key: string;
  id: number;
  call: boolean;
  schedule: string;
  paused: boolean;
  /** The run's first reading is done (see RunItem.baseline). */
  baseline: boolean;
  since: number;
  cost: number;
  /** A call watch never run: its first run (the baseline) is due at once, when the budget lets it. */
  first: boolean;
}

/** What the scheduled runs need. */
export interface RunsDeps {
  store: Store;
  log: Logger;
  polls: Polls;
  /** Runs call watches; absent: call watches are not run (a core without them). */
  calls?: CallRunner | undefined;
  /** Whether Demo mode's examples may run; default always. */
  examplesActive?: () => boolean;
}

/** The triggers of the saved searches and call watches, and what is due of them. */
export class ScheduledRuns {
  private triggers = new Map<string, CronTrigger>();
  /** The saved searches and call watches as last read (`sync`), for planning without a store read. */
  private searches: SavedSearchRow[] = [];
  private calls: Awaited<ReturnType<Store['calls']['list']>> = [];

  constructor(private readonly d: RunsDeps) {}

  /** Every saved search, then every call watch, as the loop schedules them (as last read by `sync`). */
  private rows(): RunRow[] {
    const examples = this.d.examplesActive?.() ?? true;
    const out: RunRow[] = this.searches.map((s) => ({
      key: `search:${s.id}`,
      id: s.id,
      call: false,
      schedule: s.schedule,
      paused: s.paused,
      baseline: s.baseline_done,
      since: s.last_run_at ?? s.created_at,
      cost: pagesPerRun(s),
      first: false,
    }));
    if (!this.d.calls) return out;
    for (const c of this.calls) {
      out.push({
        key: `call:${c.id}`,
        id: c.id,
        call: true,
        schedule: c.schedule,
        // Outside Demo mode an example would spend the buyer's quota on a call they never chose.
        paused: c.paused || (c.is_example && !examples),
        baseline: c.last_ok_at !== null,
        since: c.last_run_at ?? c.created_at,
        cost: 1,
        first: c.last_run_at === null,
      });
    }
    return out;
  }

  /**
   * Re-reads the saved searches and call watches and their schedules: a trigger per one with a valid schedule.
   * Rejects only with the store's errors (the last read stays).
   */
  async sync(): Promise<void> {
    const searches = await this.d.store.searches.listSearches();
    const calls = this.d.calls ? await this.d.store.calls.list() : [];
    this.searches = searches;
    this.calls = calls;
    const rows = this.rows();
    const byKey = new Map(rows.map((r) => [r.key, r]));
    for (const [key, t] of this.triggers) {
      if (byKey.get(key)?.schedule !== t.expression) {
        t.dispose();
        this.triggers.delete(key);
      }
    }
    for (const r of rows) {
      if (this.triggers.has(r.key)) continue;
      const calls = this.d.calls;
      const run =
        r.call && calls
          ? async () => void (await calls.run(r.id, false))
          : async () => void (await this.d.polls.runSearch(r.id, false));
      try {
        this.triggers.set(r.key, new CronTrigger(r.schedule, run));
      } catch (e) {
        this.d.log.warn(
          r.call
            ? 'watch: call watch has an invalid schedule'
            : 'watch: saved search has an invalid schedule',
          { id: r.id, error: (e as Error).message },
        );
      }
    }
  }

  /** The saved searches as last read by `sync`. */
  searchRows(): readonly SavedSearchRow[] {
    return this.searches;
  }

  /** Stops every trigger. */
  dispose(): void {
    for (const t of this.triggers.values()) t.dispose();
    this.triggers.clear();
  }

  /** The next scheduled run of a saved search or call watch (ms), or null (paused, no valid schedule). */
  nextRunAt(kind: 'search' | 'call', id: number, paused: boolean, now: number): number | null {
    const t = this.triggers.get(`${kind}:${id}`);
    return paused || !t ? null : t.nextAfter(now);
  }

  /** Runs a day of a schedule (for the cost shown beside it), or null without a valid one. */
  runsPerDay(kind: 'search' | 'call', id: number, now: number): number | null {
    return this.triggers.get(`${kind}:${id}`)?.runsPerDay(now) ?? null;
  }

  /**
   * Requests a day the scheduled runs are expected to spend: the saved searches' (budget.ts searchDemandPerDay) and
   * one a run of each call watch that runs (as last read by `sync`). Throws nothing.
   */
  demand(now: number): number {
    let demand = searchDemandPerDay(this.searches, (id) => this.runsPerDay('search', id, now));
    for (const r of this.rows())
      if (r.call && !r.paused) demand += (this.runsPerDay('call', r.id, now) ?? 0) * r.cost;
    return demand;
  }

  /** Requests one run of every active saved search and call watch costs (its pages; a call one). */
  pagesPerCycle(): number {
    return this.rows().reduce((n, r) => n + (r.paused ? 0 : r.cost), 0);
  }

  /** Whether any scheduled run is active (not paused). */
  anyActive(): boolean {
    return this.rows().some((r) => !r.paused);
  }

  /**
   * The runs due at `now`, valued by how overdue they are against their schedule's gap (value.ts searchValue). From
   * the last run, not the last tick: a run missed while the app was closed, the machine slept or the budget held it
   * back runs once when it can (catch-up), never once per missed minute.
   */
  due(now: number): QueuedRequest<RunItem>[] {
    const out: QueuedRequest<RunItem>[] = [];
    for (const r of this.rows()) {
      const trigger = this.triggers.get(r.key);
      if (r.paused || !trigger || !(r.first || trigger.dueBetween(r.since, now))) continue;
      const value = searchValue(now - r.since, 86_400_000 / Math.max(1, trigger.runsPerDay(now)), r.cost);
      out.push({
        item: { search: r.id, baseline: r.baseline, ...(r.call ? { call: true as const } : {}) },
        value,
        cost: r.cost,
        dueAt: r.since,
        critical: false,
      });
    }
    return out;
  }

  /**
   * When the first scheduled run is due (ms), not before `first` (the pause's end, the first request that fits).
   * A run still due since the tick started (`tickStart`) waits for the budget to let its whole cost go after `keep()`
   * tokens (on a plan's quota, for a run past its first reading, until the day has paid for it).
   */
  wakeAt(
    budget: RequestBudget,
    now: number,
    tickStart: number | null,
    first: number,
    onQuota: boolean,
    keep: () => number,
  ): number {
    let next = Infinity;
    for (const r of this.rows()) {
      const trigger = this.triggers.get(r.key);
      if (r.paused || !trigger) continue;
      let t = r.first || trigger.dueBetween(r.since, now) ? now : (trigger.nextAfter(now) ?? Infinity);
      if (tickStart !== null && (r.first || trigger.dueBetween(r.since, tickStart))) {
        const k = keep();
        const run = r.cost + k;
        t = wakeWhenFits(budget.nextFitAt(1, now, k, run), now);
        if (onQuota && r.baseline) t = Math.max(t, budget.paidAt(run, now, r.since));
      }
      next = Math.min(next, Math.max(t, first));
    }
    return next;
  }

  /** Runs a queued item through its trigger (no overlap with the same run). */
  async execute(item: RunItem): Promise<void> {
    await this.triggers.get(`${item.call ? 'call' : 'search'}:${item.search}`)?.execute();
  }
}
