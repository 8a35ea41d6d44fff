import type { ApiClient } from '../api';
import type { Clock } from '../clock';
import type { Store } from '../db/store';
import type { Logger } from '../log';
import type { ContractEvent } from '../../shared/ipc/contract';
import type { QuotaSnapshot, Vehicle } from '../../shared/vehicle';
import type { QuietHours } from '../../shared/watch';
import type { RequestBudget } from './budget';
import type { Notifier } from '../alerts/notifier';
import { Outbox } from './outbox';
import { Polls, type RunOutcome } from './polls';
import { Recorder } from './recorder';
import { PauseGate, type PauseKind } from './pause';
import { Scheduler, type SchedulePlan } from './scheduler';
import { readsListsOften } from './spending';
import type { CallRunner } from './runs';

export type { PauseKind, RunOutcome, SchedulePlan };

/** What the engine needs; everything with side effects is injected (docs/architecture.md "The parts"). */
export interface EngineDeps {
  store: Store;
  /** The client for the current key and mode, or null when there is none (no key outside Demo mode). */
  client: () => ApiClient | null;
  clock: Clock;
  log: Logger;
  budget: RequestBudget;
  /** The last quota snapshot (RequestLedger.quota): a spent quota's pause and the period a 429 names. */
  quota: () => QuotaSnapshot | null;
  /** The shell's notification channel (the one notifier port). */
  notifier: Notifier;
  /** Settings' notifications switch: off, alerts land in the inbox only. */
  notificationsEnabled: () => boolean;
  /** Called after each delivery round (every poll and tick): new inbox rows may have arrived. */
  afterDeliver?: () => void;
  emit: (e: ContractEvent) => void;
  quiet: () => QuietHours;
  /** The user's UTC offset in minutes at time t (e.g. -300 for US Eastern winter). */
  tzOffsetMinutes: (t: number) => number;
  /**
   * Whether Demo mode's example watches may be polled (true in Demo mode). Outside it they would spend the user's
   * real quota on lots they never chose, so they wait; default always.
   */
  examplesActive?: () => boolean;
  /** Until when the buyer paused watching (ms; Settings.watchPausedUntil), or null; default never paused. */
  userPausedUntil?: () => number | null;
  /**
   * Builds the call watches' runner from the engine's own parts (its pause gate, recorder and outbox), so a call
   * watch's failures, alerts and delivery are a saved search's (src/core/calls/runner.ts); absent: none run.
   */
  calls?: (parts: { pause: PauseGate; recorder: Recorder; outbox: Outbox }) => CallRunner;
  /** Reads the request log and the quota snapshot again before each tick (RequestLedger.refresh); absent: never. */
  refreshLedger?: (now: number) => Promise<void>;
}

/**
 * The watch engine, the one object callers hold: it wires the scheduler (loop, queue,
 * pause), the polls (search runs, watch checks, ingest), the recorder (changes to alerts) and the outbox
 * (delivery), and forwards to them. Each poll's writes are one transaction; alerts are delivered from the outbox,
 * claimed before they are shown, so none is ever shown twice.
 */
export class WatchEngine {
  private scheduler: Scheduler;
  /** A new loop over the same parts: the first, and another after each `stop`. */
  private readonly newScheduler: () => Scheduler;
  private readonly polls: Polls;
  private readonly recorder: Recorder;
  private readonly gate: PauseGate;
  private readonly store: Store;
  private readonly outbox: Outbox;
  private readonly delivered = new Set<() => void>();
  private readonly budget: RequestBudget;
  private readonly clock: EngineDeps['clock'];
  private readonly calls: CallRunner | undefined;
  private readonly log: Logger;

  constructor(d: EngineDeps) {
    this.log = d.log;
    this.store = d.store;
    this.budget = d.budget;
    this.clock = d.clock;
    this.gate = new PauseGate(d.clock, d.quota, d.userPausedUntil);
    const outbox = (this.outbox = new Outbox({
      store: d.store.alerts,
      clock: d.clock,
      log: d.log,
      notifier: d.notifier,
      notificationsEnabled: d.notificationsEnabled,
      emit: d.emit,
      transaction: d.store.transaction,
      afterDeliver: () => {
        d.afterDeliver?.();
        for (const l of this.delivered) l();
      },
    }));
    this.recorder = new Recorder({
      store: d.store,
      quota: d.quota,
      clock: d.clock,
      quiet: d.quiet,
      tzOffsetMinutes: d.tzOffsetMinutes,
    });
    this.polls = new Polls({
      ...d,
      pause: this.gate,
      recorder: this.recorder,
      outbox,
      watchReserve: (now) => this.scheduler.watchReserve(now),
      leavesSaleLooks: (now, firstReading) => this.scheduler.leavesSaleLooks(now, firstReading),
      readsListsOften: (now) =>
        readsListsOften(d.budget.allowance(now).perDay, this.scheduler.scheduled().pagesPerCycle()),
    });
    this.calls = d.calls?.({ pause: this.gate, recorder: this.recorder, outbox });
    this.newScheduler = () =>
      new Scheduler({
        ...d,
        calls: this.calls,
        pause: this.gate,
        polls: this.polls,
        recorder: this.recorder,
        outbox,
      });
    this.scheduler = this.newScheduler();
  }

  /**
   * Subscribes to the end of each delivery round (every poll and tick), after `afterDeliver`: what is built after the
   * engine (the unread badge, the alert channels) follows new inbox rows without the engine knowing it. Listeners
   * must not throw. Returns the unsubscribe function.
   */
  onDelivered(listener: () => void): () => void {
    this.delivered.add(listener);
    return () => this.delivered.delete(listener);
  }

  /** Recovers from a crash (runs left 'running' become 'interrupted'), delivers what is due, and starts the loop. */
  start(): void {
    this.scheduler.start();
  }

  /** Stops the loop and waits for the job in flight. Idempotent. */
  dispose(): Promise<void> {
    return this.scheduler.dispose();
  }

  /**
   * Stops the loop and waits for the job in flight, leaving the engine able to `start` again: a team's server that
   * lost the scheduler's lock (docs/architecture.md "Several servers, one watcher"), since another server watches now.
   * The next `start` begins a fresh loop that recovers and reads everything again, as a first start does. Calls made
   * meanwhile (Check now, Run now) still run, one at a time. Rejects only with the job in flight's errors.
   */
  async stop(): Promise<void> {
    const old = this.scheduler;
    await old.dispose();
    if (this.scheduler === old) this.scheduler = this.newScheduler();
  }

  /**
   * Re-reads saved searches, call watches and the watchlist after a change (create, edit, pause, delete) and
   * reschedules. Resolves once read; rejects only with the store's errors.
   */
  refresh(): Promise<void> {
    return this.scheduler.refresh();
  }

  /** Runs a saved search now, queued behind the job in flight (never overlapping). Paused searches run too. */
  runSearchNow(id: number): Promise<RunOutcome> {
    return this.scheduler.enqueue(() => this.polls.runSearch(id, true));
  }

  /** Runs a call watch now, queued like a search run (a paused one too); `skipped` without call watches. */
  runCallNow(id: number): Promise<RunOutcome> {
    return this.scheduler.enqueue(async () =>
      this.calls
        ? this.calls.run(id, true)
        : { status: 'skipped', requests: 0, changes: 0, alerts: 0, error: null },
    );
  }

  /** A call watch's next scheduled run (ms) and its runs a day (null without a valid schedule or while paused). */
  callSchedule(id: number, paused: boolean): { next: number | null; runsPerDay: number | null } {
    const now = this.clock.now();
    const s = this.scheduler.scheduled();
    return { next: s.nextRunAt('call', id, paused, now), runsPerDay: s.runsPerDay('call', id, now) };
  }

  /** Checks one watch now, queued like a search run; `skipped` when the watch is gone. */
  checkWatchNow(id: number): Promise<RunOutcome> {
    return this.scheduler.enqueue(async () => {
      const w = await this.store.watches.getWatch(id);
      return w
        ? this.polls.pollWatch(w)
        : { status: 'skipped', requests: 0, changes: 0, alerts: 0, error: null };
    });
  }

  /**
   * Delivers the alert outbox now, queued behind the job in flight: an alert raised outside a poll (an alert channel
   * that keeps failing) is shown without waiting for the next tick. Rejects only with database errors.
   */
  deliverNow(): Promise<void> {
    return this.scheduler.enqueue(() => this.outbox.deliver());
  }

  /** Runs everything due now (searches, watches, reminders, outbox); the loop calls this, tests may too. */
  runDue(): Promise<void> {
    return this.scheduler.runDue();
  }

  /** Resolves when the job in flight (if any) and everything queued behind it are done. */
  idle(): Promise<void> {
    return this.scheduler.idle();
  }

  /**
   * Stores records fetched outside the schedule like a poll does (see Polls.ingest). One transaction. Rejects only
   * with the store's errors.
   */
  ingest(vehicles: Vehicle[], source: string): Promise<void> {
    return this.polls.ingest(vehicles, source);
  }

  /**
   * Stores records like `ingest`, inside the caller's open transaction (Store.transaction), and leaves the alerts they
   * raise to `deliverIngested` once that transaction has ended (no delivery, which may wait on the network, inside a
   * transaction): for records that must land with the caller's own writes. Rejects only with the store's errors.
   */
  ingestWithin(vehicles: Vehicle[], source: string): Promise<void> {
    return this.polls.ingest(vehicles, source, false);
  }

  /** Delivers the alert outbox at once, as `ingest` does after storing (see ingestWithin). Rejects only with database errors. */
  deliverIngested(): Promise<void> {
    return this.outbox.deliver();
  }

  /**
   * Whether `n` requests of low value (work nobody asked for and no alert waits on, such as market comparables of
   * watched lots) may go now (docs/architecture.md "Request budget"): not paused, and within the rolling day's
   * allowance after what the watchlist and the saved searches are projected to spend in the next 24 hours, at the
   * pace, from the loop's last read of the store. Throws nothing.
   */
  spare(n: number): boolean {
    const now = this.clock.now();
    if (now < this.gate.end(now)) return false;
    return (
      this.budget.canSpend(n, now, this.scheduler.planNow().projectedNext24h) && this.budget.paced(n, now)
    );
  }

  /** The plan shown to the user: scale, projection, next runs, from a fresh read of the store. */
  plan(): Promise<SchedulePlan> {
    return this.scheduler.plan();
  }

  /**
   * Raises the quota alerts of a snapshot, whoever's request brought it (see Recorder.onQuota); requests left again
   * end a spent quota's pause. The alerts are stored behind (a store that fails is logged); throws nothing.
   */
  onQuota(q: QuotaSnapshot | null): void {
    this.recorder.onQuota(q).catch((e: unknown) => {
      this.log.warn('watch: could not store a quota alert', { error: (e as Error)?.message ?? String(e) });
    });
    if (this.gate.onQuota(q)) this.scheduler.wake();
  }

  /** Whether polling is paused after a 429 (quota spent or rate limit), until when (ms) and why. */
  pause(): { until: number | null; reason: string | null; kind: PauseKind | null } {
    return this.gate.state();
  }

  /**
   * Plans the loop's next tick again after a change it cannot see by itself (a new client, another daily limit or
   * quiet hours): the loop sleeps until its next work is due, so it must be told.
   */
  wake(): void {
    this.scheduler.wake();
  }

  /** Ends a pause after a 429: a new key, service or mode has its own quota. */
  resetPause(): void {
    this.gate.reset();
    this.scheduler.wake();
  }
}
