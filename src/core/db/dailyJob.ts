import type { Clock } from '../clock';

/**
 * A piece of upkeep that runs on the injected clock, one run at a time (docs/architecture.md "Data safety",
 * "Retention"): the daily backup and the retention pass. `run` resolves with its outcome, or null when it failed
 * (it logs that itself); `next(outcome, now)` says how long to wait before the following run (ms).
 */
export class DailyJob<T> {
  private cancel: (() => void) | null = null;
  private running: Promise<T | null> | null = null;
  private disposed = false;
  private paused = false;

  constructor(
    private readonly d: {
      clock: Clock;
      run: () => Promise<T | null>;
      next: (outcome: T | null, now: number) => number;
    },
  ) {}

  /** Plans the first run `firstDelayMs` from now (again after `pause`). Idempotent. */
  start(firstDelayMs: number): void {
    this.paused = false;
    if (!this.cancel && !this.running) this.plan(firstDelayMs);
  }

  /**
   * Cancels the plan until `start` is called again (a team server that stopped running the watcher); a run in flight
   * finishes and plans nothing. Resolves once that run ended.
   */
  async pause(): Promise<void> {
    this.paused = true;
    this.cancel?.();
    this.cancel = null;
    await this.running;
  }

  /** Runs now, or joins the run in flight; resolves with its outcome (null: failed, or stopped). */
  runNow(): Promise<T | null> {
    if (this.disposed) return Promise.resolve(null);
    this.running ??= this.d.run().finally(() => (this.running = null));
    return this.running;
  }

  /** Whether dispose was called: a run checks it before it starts work. */
  get stopped(): boolean {
    return this.disposed;
  }

  /** Cancels the plan and waits for the run in flight. Idempotent. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.cancel?.();
    this.cancel = null;
    await this.running;
  }

  private plan(ms: number): void {
    if (this.disposed || this.paused) return;
    this.cancel?.();
    this.cancel = this.d.clock.setTimeout(() => {
      this.cancel = null;
      void this.runNow().then((r) => this.plan(this.d.next(r, this.d.clock.now())));
    }, ms);
  }
}
