/**
 * Time and scheduling, injected everywhere so tests run on fake time (docs/architecture.md "Conventions"). All times
 * are integer milliseconds since the Unix epoch.
 */
export interface Clock {
  /** Current time, ms since the epoch. */
  now(): number;
  /** Runs `fn` after `ms` milliseconds; returns a cancel function. */
  setTimeout(fn: () => void, ms: number): () => void;
  /** Clock milliseconds per wall-clock millisecond: 1 (or absent) for real time, more for an accelerated demo. */
  speed?: number;
}

/** The real wall clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};
