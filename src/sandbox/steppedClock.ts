/**
 * A clock that moves only when told: market time, ms since the epoch, for a stepped Demo (end-to-end tests drive the
 * market and the watcher through it instead of waiting on an accelerated wall clock). Its timers fire in time order
 * while a step passes their time, each after the work the last one started has settled, so a watcher's poll at a
 * given market time reads the market at that time however loaded the machine is.
 */
export class SteppedClock {
  private t: number;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  /** Wall time when `t` last changed, and the last time `netNow` returned. */
  private wallAt: number;
  private lastNet = -Infinity;

  /**
   * @param start market time to start at, ms since the epoch.
   * @param maxFires the most timers one step may fire (a guard against a timer that keeps setting itself for now).
   * @param wallNow the wall clock, ms (default Date.now): only `netNow` reads it.
   */
  constructor(
    start: number,
    private readonly maxFires = 100_000,
    private readonly wallNow: () => number = Date.now,
  ) {
    this.t = Math.floor(start);
    this.wallAt = wallNow();
  }

  /** Market time, ms since the epoch: changes only in `step`. */
  now(): number {
    return this.t;
  }

  /**
   * The time of the network's own waits (a service client's rate spacing and timeouts, which run on wall timers):
   * market time plus the wall time since it last changed, never going back. Between steps it runs at wall speed, so a
   * client spacing its requests by it waits real milliseconds rather than forever on a clock that stands still.
   */
  netNow(): number {
    this.lastNet = Math.max(this.lastNet, this.t + (this.wallNow() - this.wallAt));
    return this.lastNet;
  }

  /** Runs `fn` once a step passes `ms` from now (a negative ms is now); returns a cancel function. */
  setTimeout(fn: () => void, ms: number): () => void {
    const id = this.nextId++;
    this.timers.push({ at: this.t + Math.max(0, ms), fn, id });
    return () => {
      this.timers = this.timers.filter((x) => x.id !== id);
    };
  }

  /** Timers waiting, for tests and the control route's answer. */
  get pending(): number {
    return this.timers.length;
  }

  /**
   * Moves the time forward by `ms` (a whole number, at least 0; 0 runs only what is due now). Each timer due by then
   * fires at its own time, in time order (set order at one time), after `settle()` resolved for the work before it;
   * `settle` runs once more at the end. Steps queue behind one another, never overlapping.
   *
   * @returns the time reached, ms since the epoch.
   * @throws RangeError when `ms` is not a whole number of at least 0, or when one step fired more than `maxFires`
   *   timers (the time then stays where that timer was due); whatever `settle` or a timer throws.
   */
  step(ms: number, settle: () => Promise<void>): Promise<number> {
    if (!(Number.isInteger(ms) && ms >= 0))
      return Promise.reject(new RangeError(`a step is a whole number of ms of at least 0, not ${ms}`));
    const run = async (): Promise<number> => {
      const end = this.t + ms;
      let fired = 0;
      for (;;) {
        await settle();
        let next: { at: number; fn: () => void; id: number } | undefined;
        for (const x of this.timers)
          if (x.at <= end && (!next || x.at < next.at || (x.at === next.at && x.id < next.id))) next = x;
        if (!next) break;
        if (++fired > this.maxFires)
          throw new RangeError(`more than ${this.maxFires} timers came due in one step`);
        const due = next;
        this.timers = this.timers.filter((x) => x !== due);
        this.moveTo(due.at);
        due.fn();
      }
      this.moveTo(end);
      return end;
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => undefined);
    return p;
  }

  private moveTo(t: number): void {
    if (t <= this.t) return;
    this.t = t;
    this.wallAt = this.wallNow();
  }
}
