import { LOCAL_OWNER, runAs } from '../actor';
import type { Clock } from '../clock';
import { connectionLostOf, databaseErrorOf } from '../errors';
import type { WatchRow, Store } from '../db/store';
import type { Logger } from '../log';
import {
  projectedDay,
  reserveHorizon,
  scaleToFit,
  watchlistShare,
  watchReserve,
  type RequestBudget,
} from './budget';
import { failureBackoff, tickBackoff, type SchedulePlan, type WatchState } from './backoff';
import type { Outbox } from './outbox';
import { nextReminderAt } from './planner';
import { CRITICAL_VALUE, orderQueue, type QueuedRequest } from './value';
import { dueValue, watchDue, withShares } from './due';
import { MAX_SLEEP, watchWakeAt, type WakeContext } from './wake';
import { ScheduledRuns, type CallRunner, type RunItem } from './runs';
import { EMPTY_VIEW, loadWatchView, watchStatesOf, type WatchView } from './view';
import type { Polls, RunOutcome } from './polls';
import type { PauseGate } from './pause';
import type { Recorder } from './recorder';
import {
  firstReadingLooks,
  leavesSaleLooks,
  lookKeep,
  periodKeep,
  searchKeep,
  searchMayStart,
  sendable,
  waitsBehindSearch,
  yieldedResultWaits,
} from './spending';

/** What the scheduler needs; everything with side effects is injected. */
export interface SchedulerDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  budget: RequestBudget;
  pause: PauseGate;
  polls: Polls;
  recorder: Recorder;
  outbox: Outbox;
  /** Whether Demo mode's example watches may be polled; default always. */
  examplesActive?: () => boolean;
  /** Runs call watches on their schedules (runs.ts); absent: none run. */
  calls?: CallRunner | undefined;
  /**
   * Reads the request log and the quota snapshot again (RequestLedger.refresh) at `now` (ms), before each tick plans:
   * what another process wrote (a team's other servers, a benchmark's setup) counts too. Absent: never.
   */
  refreshLedger?: (now: number) => Promise<void>;
}

/**
 * The loop: saved searches on their cron schedules, the watchlist by value, reminders and
 * the outbox, all on the injected clock and one job at a time through one queue, within the request budget.
 * A run missed while the app was closed runs once on the next tick (catch-up); a 429 pauses everything.
 */
export class Scheduler {
  private readonly runs: ScheduledRuns;
  private chain: Promise<unknown> = Promise.resolve();
  private cancelTimer: (() => void) | null = null;
  private lastTick = 0;
  private started = false;
  private disposed = false;
  private scale = 1;
  private scaledAt = -Infinity;
  /** Ticks that failed in a row, and when the loop may tick again after the last failure (ms). */
  private failures = 0;
  private retryAt = 0;
  /** The store as last read for planning (view.ts); read again at each tick, after each run and on `refresh`. */
  private view: WatchView = EMPTY_VIEW;

  constructor(private readonly d: SchedulerDeps) {
    this.runs = new ScheduledRuns(d);
  }

  /**
   * Recovers from a crash (runs left 'running' become 'interrupted'; alerts left claimed get a recovery notice),
   * delivers what is due, and starts the loop.
   */
  start(): void {
    if (this.started) return;
    this.started = true;
    const now = this.d.clock.now();
    this.lastTick = now;
    void this.enqueue(async () => {
      try {
        const n = await this.d.store.searches.interruptRuns(now);
        if (n) this.d.log.warn('watch: poll runs interrupted by a previous stop', { count: n });
        const r = await this.d.outbox.recover();
        if (r)
          this.d.log.warn('watch: alerts left claimed by a previous stop are named in a recovery notice', {
            count: r,
          });
        await this.reload();
      } catch (e) {
        // A store that cannot be written (full disk, read-only, damaged) must not stop the app: the loop backs off.
        this.tickFailed(e, now);
      }
      if (this.failures > 0) this.reschedule();
      else await this.tick();
    });
  }

  /** Stops the loop and waits for the job in flight. Idempotent. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    await this.chain.catch(() => undefined);
    this.runs.dispose();
  }

  /**
   * Re-reads saved searches, call watches and the watchlist after a change (create, edit, pause, delete) and
   * reschedules. Resolves once read; rejects only with the store's errors (the loop keeps its last view).
   */
  async refresh(): Promise<void> {
    this.scaledAt = -Infinity;
    await this.reload();
    this.wake();
  }

  /** Reads the planning view and the scheduled runs again (view.ts, runs.ts sync). */
  private async reload(): Promise<void> {
    this.view = await loadWatchView(this.d.store, this.d.clock.now());
    await this.runs.sync();
  }

  /** Plans the next tick again (after a pause ended) while the loop runs. */
  wake(): void {
    if (this.started && !this.disposed) this.reschedule();
  }

  /** Queues `fn` behind the job in flight (never overlapping); resolves or rejects with it. */
  enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.chain.then(fn, fn);
    this.chain = p.catch(() => undefined);
    return p;
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

  /** The plan shown to the user: scale, projection, next runs, from a fresh read of the store. */
  async plan(): Promise<SchedulePlan> {
    await this.reload();
    return this.planNow();
  }

  /** The plan from the last read view (see `plan`); what `spare` weighs between reads. */
  planNow(): SchedulePlan {
    const now = this.d.clock.now();
    const watches = this.watchStates();
    const searches = this.runs.searchRows();
    const nextSearchRuns: SchedulePlan['nextSearchRuns'] = searches.map((s) => ({
      id: s.id,
      at: this.runs.nextRunAt('search', s.id, s.paused, now),
    }));
    return {
      scale: this.scale,
      projectedNext24h: projectedDay(watches, now, this.scale, this.runs.demand(now)),
      nextSearchRuns,
      nextWatchChecks: watches.map((w) => ({ id: w.watch.id, at: watchDue(w, now, this.scale).at })),
    };
  }

  /**
   * Requests kept back from a scheduled search's pages against the rolling day: what the watchlist is projected to
   * need before the pacing bucket could refill (reserveHorizon: an hour at 1,000 a day, most of a day at 3).
   */
  watchReserve(now: number): number {
    const horizon = reserveHorizon(this.d.budget.allowance(now).perDay);
    return watchReserve(this.watchStates(), now, this.scale, horizon);
  }

  /**
   * Whether one more request of a scheduled saved search's run at `at` (ms) leaves the rolling day's places of the
   * watchlist's projected sale-result looks (spending.ts leavesSaleLooks): a run's later pages are held to it like
   * its first. A list's first reading (`firstReading`, several pages at once, every search at once when they are
   * new) leaves the places of each lot's first look after its sale within 24 hours; a later run, paced over the day,
   * those before the bucket could refill. Throws nothing (the view read last).
   */
  leavesSaleLooks(at: number, firstReading: boolean): boolean {
    if (!firstReading) return true;
    return leavesSaleLooks(this.d.budget, 1, at, this.firstReadingLooks(at, this.watchStates(false)));
  }

  /**
   * The watches to poll (examples only while they may be) with their lots' stored states, from the view read last
   * (view.ts). With `withBids`, also the bid plan's view of a bid rule not reached yet (due.ts bidWatchOf) and the
   * budget's fair shares (due.ts withShares); without, the watchlist's own plan, which updateScale stretches (so the
   * shares, which follow the stretch, cannot move it). Throws nothing.
   */
  watchStates(withBids = true): WatchState[] {
    const now = this.d.clock.now();
    const states = watchStatesOf(this.view, now, this.d.examplesActive?.() ?? true, withBids);
    if (!withBids) return states;
    return withShares(states, this.d.budget.allowance(now).perDay, this.runs, this.scale, now);
  }

  /** The scheduled runs (saved searches and call watches): next runs, runs a day, pages a cycle. */
  scheduled(): Pick<ScheduledRuns, 'nextRunAt' | 'runsPerDay' | 'pagesPerCycle'> {
    return this.runs;
  }

  /** The next due time of a watch (ms): its planned check or bid look, not before its failure backoff ends. */
  private dueAt(w: WatchState, now: number): number {
    return watchDue(w, now, this.scale).at;
  }

  /** Tokens kept back from a saved search's pages for the watchlist (spending.ts searchKeep). */
  private searchKeep(now: number, watches: WatchState[]): number {
    return searchKeep(this.d.budget, watches, now, this.scale);
  }

  /** What a watch check below the sale-critical value leaves (spending.ts lookKeep). */
  private lookKeep(now: number, watches: WatchState[]): { bucket: number; day: number } {
    return lookKeep(this.d.budget, watches, now, this.scale);
  }

  /** The sale-result looks a saved search's first reading leaves places for (spending.ts firstReadingLooks). */
  private firstReadingLooks(now: number, watches: WatchState[]): number[] {
    return firstReadingLooks(this.d.budget, watches, now, this.scale);
  }

  /**
   * When the loop must tick next (ms): the first watch check or search run due, not before the pause ends nor before
   * the budget lets its first request go, the next reminder, and the end of quiet hours for held alerts. Work that
   * was due when the last tick started (`tickStart`, ms) and is still due waits for the budget: with the budget
   * spent the loop sleeps until the next request fits instead of ticking for nothing.
   */
  private nextWork(now: number, tickStart: number | null): number {
    const served = (t: number) => tickStart !== null && t <= tickStart;
    const watches = this.watchStates();
    let next = Infinity;
    for (const w of watches) {
      const r = nextReminderAt(w.lot, w.watch.rules.remind_minutes_before, this.lastTick);
      if (r !== null) next = Math.min(next, r);
    }
    const digest = this.view.nextDigestAt;
    if (digest !== null && !served(digest)) next = Math.min(next, digest);
    // No request goes out before the pause ends or the budget lets one go. Still due since the tick started means
    // the budget held it back (or there was nothing to send it with): if a request fits already, nothing will
    // change by itself.
    const first = Math.max(this.d.pause.end(now), this.d.budget.nextFitAt(1, now) ?? Infinity);
    const onQuota = this.d.budget.allowance(now).basis === 'quota';
    let kept: number | null = null;
    let lookKept: number | null = null;
    const ctx: WakeContext = {
      now,
      tickStart,
      scale: this.scale,
      budget: this.d.budget,
      onQuota,
      pauseEnd: this.d.pause.end(now),
      first,
      lookKeep: () => (lookKept ??= this.lookKeep(now, watches).bucket),
    };
    for (const w of watches)
      next = Math.min(next, watchWakeAt(w, ctx, tickStart === null ? Infinity : this.dueAt(w, tickStart)));
    const keep = () => (kept ??= this.searchKeep(now, watches));
    next = Math.min(next, this.runs.wakeAt(this.d.budget, now, tickStart, first, onQuota, keep));
    return next;
  }

  private reschedule(tickStart: number | null = null): void {
    if (this.disposed) return;
    this.cancelTimer?.();
    const now = this.d.clock.now();
    let next = now + MAX_SLEEP;
    try {
      next = Math.min(next, this.nextWork(now, tickStart));
    } catch (e) {
      // The tick that just failed has already backed off; a planning failure on its own backs off here.
      if (now >= this.retryAt) this.tickFailed(e, now);
    }
    // After a failed tick, nothing is due before the backoff ends: a watch whose check could not be stored stays
    // due, and without this the loop would retry it at once, forever.
    if (now < this.retryAt) next = this.retryAt;
    // Whole milliseconds: every time stored from the clock is an integer.
    const delay = Math.max(0, Math.ceil(next - now));
    this.cancelTimer = this.d.clock.setTimeout(() => {
      this.cancelTimer = null; // The ticks are the watcher's own work, whichever member's call armed the timer.
      void runAs(LOCAL_OWNER, () => this.enqueue(() => this.tick()));
    }, delay);
  }

  private pausedNow(): boolean {
    const now = this.d.clock.now();
    return now < this.d.pause.end(now);
  }

  private async tick(): Promise<void> {
    if (this.disposed) return;
    const now = this.d.clock.now();
    try {
      const from = this.lastTick;
      // What the tick plans from: the request ledger, then the view and the runs.
      await this.d.refreshLedger?.(now);
      await this.reload();
      this.updateScale(now);
      const paused = now < this.d.pause.end(now);
      // One queue: watch checks and saved-search runs that are due, by value per request (value.ts). Sale-critical
      // checks go first and may spend the requests kept back for them; the rest go while the pace allows after
      // keeping back what the watchlist needs before the bucket could refill (docs/architecture.md "Request budget").
      const queue: QueuedRequest<{ watch: WatchRow; lot: WatchState['lot'] } | RunItem>[] = [];
      const states = paused ? [] : this.watchStates();
      if (!paused) {
        for (const w of states) {
          const due = watchDue(w, now, this.scale);
          const at = due.at;
          if (at > now) continue;
          const value = dueValue(w, now, due, this.scale);
          queue.push({
            item: { watch: w.watch, lot: w.lot },
            value,
            cost: 1,
            dueAt: at,
            critical: value >= CRITICAL_VALUE,
          });
        }
        // Saved searches and call watches due on their schedules, with their catch-up (runs.ts due).
        queue.push(...this.runs.due(now));
      }
      // The tokens kept back for the watchlist, worked out once a tick (a projection over every watched lot).
      let kept: number | null = null;
      let lookKept: { bucket: number; day: number } | null = null;
      // A first reading's looks are projected only when one is due, from the same instant as the tick's other keeps.
      let firstLooks: number[] | null = null;
      let lookAt = now;
      let periodKept: number | null = null;
      let searchWaits = false; // a saved search's run could not start (waitsBehindSearch)
      for (const q of orderQueue(queue)) {
        const at = this.d.clock.now();
        if (this.pausedNow()) break;
        const item = q.item;
        const search = 'search' in item ? item : null;
        if ('watch' in item && waitsBehindSearch(searchWaits, q, item.lot, this.scale)) continue;
        // A result that yields takes only the places the other lots' results leave (spending.ts yieldedResultWaits).
        if ('watch' in item && yieldedResultWaits(this.d.budget, states, item.watch.id, at, this.scale))
          continue;
        if (!q.critical && lookKept === null) {
          lookKept = this.lookKeep(at, states);
          lookAt = at;
        }
        const looks = q.critical ? null : lookKept;
        const keep = q.critical ? 0 : search ? (kept ??= this.searchKeep(at, states)) : looks!.bucket;
        // A saved search's run goes whole or waits (spending.ts searchMayStart). Nothing below the sale-critical value
        // takes the day's places kept for sale-result looks: those before the bucket refills, and for a list's first
        // reading each lot's first look within 24 hours (leavesSaleLooks above). A search that waits lets the watch
        // checks behind it go (they need fewer tokens) but for relist look-ups on a tight budget (waitsBehindSearch);
        // a watch check that cannot go stops the tick.
        const held =
          (search !== null &&
            !searchMayStart(
              this.d.budget,
              { cost: q.cost, baselineDone: search.baseline, lastRun: q.dueAt },
              at,
              keep,
              () => (periodKept ??= periodKeep(this.d.budget, this.scale, at, states)),
            )) ||
          (looks !== null &&
            (!this.d.budget.canSpend(1, at, looks.day) ||
              (search?.baseline === true &&
                !leavesSaleLooks(
                  this.d.budget,
                  1,
                  at,
                  (firstLooks ??= this.firstReadingLooks(lookAt, states)),
                )))) ||
          !sendable(this.d.budget, q, at, keep);
        if (held) {
          if (!search) break;
          searchWaits = true;
          continue;
        }
        if ('watch' in q.item) await this.d.polls.pollWatch(q.item.watch, q.critical ? Infinity : 0);
        else await this.runs.execute(q.item);
        // What the run wrote (a lot's state, a check's time, a search's last run) is what the next item's keeps and
        // the next wake are worked out from.
        await this.reload();
      }
      await this.d.recorder.reminders(from, this.d.clock.now(), async () => this.watchStates());
      await this.d.outbox.deliver();
      await this.reload();
      this.lastTick = now;
      if (this.failures > 0) this.d.log.info('watch: ticks work again', { failedInARow: this.failures });
      this.failures = 0;
      this.retryAt = 0;
    } catch (e) {
      this.tickFailed(e, this.d.clock.now());
    } finally {
      this.reschedule(now);
    }
  }

  /**
   * Backs the loop off after a failed tick (1 minute, doubling to 30) and logs one line per run of failures, with the
   * error as the buyer reads it: a full disk or a read-only or damaged file says so (the next start checks the file),
   * never a network problem. Later failures of the same run log at debug level only.
   */
  private tickFailed(e: unknown, now: number): void {
    this.failures++;
    const wait = tickBackoff(this.failures);
    this.retryAt = now + wait;
    const dbError = databaseErrorOf(e) ?? connectionLostOf(e);
    if (dbError) this.d.store.suspect();
    const data = {
      error: (dbError ?? (e as Error))?.message,
      code: dbError?.code ?? 'internal',
      retryInMs: wait,
    };
    if (this.failures === 1) this.d.log.error('watch: tick failed; the next try waits', data);
    else this.d.log.debug('watch: tick failed again', { ...data, failedInARow: this.failures });
  }

  /**
   * Stretches the watchlist's gaps until its own projected day fits its share of the allowance (budget.ts
   * watchlistShare; every 10 min). Sale-critical checks still go first in the queue (value.ts) and may take more;
   * the share keeps the watchlist's background looks and its looks after a sale from leaving the searches nothing.
   */
  private updateScale(now: number): void {
    if (now - this.scaledAt < 10 * 60_000) return;
    this.scaledAt = now;
    const allowance = this.d.budget.allowance(now).perDay;
    const searching = this.runs.anyActive();
    // Bid looks are left out: their widest gap already fits them to their share of the allowance (bidLookGap).
    this.scale = scaleToFit(this.watchStates(false), now, 0, watchlistShare(allowance, searching));
  }
}

export type { RunOutcome, SchedulePlan, WatchState };
export { failureBackoff, tickBackoff };
