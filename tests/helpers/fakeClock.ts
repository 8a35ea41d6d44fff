import type { Clock } from '../../src/core/clock';

/** A manual clock: time moves only when `advance` is called, and due timers fire in order. */
export class FakeClock implements Clock {
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;
  constructor(private t = Date.UTC(2026, 10, 22, 12, 0, 0)) {}
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): () => void {
    const id = this.nextId++;
    this.timers.push({ at: this.t + ms, fn, id });
    return () => {
      this.timers = this.timers.filter((x) => x.id !== id);
    };
  }
  /** When the earliest pending timer fires, or null when none is pending. */
  nextTimerAt(): number | null {
    let min: number | null = null;
    for (const t of this.timers) if (min === null || t.at < min) min = t.at;
    return min;
  }

  /** Sets the time (never backwards) and fires the timers due by then. */
  advanceTo(t: number): void {
    this.advance(Math.max(0, t - this.t));
  }

  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.t = next.at;
      next.fn();
    }
    this.t = end;
  }
}

/**
 * A clock for the service client's retry waits in tests whose core runs on a FakeClock: it reads the fake time, runs
 * short waits (under 10 s, a retry back-off) at once, and leaves long ones (a Retry-After pause) to real time, never
 * holding the process open. Without it a retried request would wait for a fake clock nobody advances.
 */
export function clientClockOf(clock: Clock): Clock {
  return {
    now: () => clock.now(),
    setTimeout: (fn: () => void, ms: number) => {
      if (ms >= 10_000) {
        const h = setTimeout(fn, ms);
        h.unref();
        return () => clearTimeout(h);
      }
      const h = setImmediate(fn);
      return () => clearImmediate(h);
    },
  };
}
