import type { RequestBudget } from './budget';
import type { WatchState } from './backoff';
import { dueValue, watchDue } from './due';
import { CRITICAL_VALUE } from './value';

/** The longest the loop sleeps with nothing due: a safety net for changes nobody woke it for (ms). */
export const MAX_SLEEP = 3_600_000;

/**
 * When work held back since the tick started can go (ms): at `fit`, the time the budget lets it go; but when it
 * fits already (or never will within a day: null), nothing changes by itself, so MAX_SLEEP after `now`.
 */
export function wakeWhenFits(fit: number | null, now: number): number {
  return fit === null || fit <= now ? now + MAX_SLEEP : fit;
}

/** What the loop's wake-up planning knows at `now` (ms), worked out once per plan (Scheduler.nextWork). */
export interface WakeContext {
  now: number;
  /** When the tick that just ran started (ms), or null when none did. */
  tickStart: number | null;
  scale: number;
  budget: RequestBudget;
  onQuota: boolean;
  /** When the pause ends (ms; <= now when there is none). */
  pauseEnd: number;
  /** The first time a request may go at the pace, not before the pause ends (ms; Infinity: not within a day). */
  first: number;
  /** The tokens a check below the sale-critical value leaves (spending.ts lookKeep), worked out when asked. */
  lookKeep: () => number;
}

/**
 * When the loop must wake for one watch (ms): its next check or bid look (due.ts watchDue), not before the bucket or
 * the pause lets it go. A sale-critical check skips the bucket (on a plan's quota the day too: spending.ts
 * sendable). A check still due since the tick started was held back: one below the sale-critical value goes when the
 * bucket holds what it must leave too, not when one request fits (else at most MAX_SLEEP later), and a bid look held
 * back does not hold back the planner's own later check. A look held back for the bucket becomes sale-critical at
 * the lot's sale time, and a bid look due first must not hide the planner's own check on the block: the loop also
 * wakes then (20 s after the sale time), when such a look may skip the bucket. Throws only database errors.
 */
export function watchWakeAt(w: WatchState, c: WakeContext, dueAtTickStart: number): number {
  const { now, tickStart } = c;
  const blocked = (fit: number | null) => wakeWhenFits(fit, now);
  const d = watchDue(w, now, c.scale);
  const critical = dueValue(w, now, d, c.scale) >= CRITICAL_VALUE;
  const gateCritical = c.onQuota || c.budget.canSpend(1, now) ? c.pauseEnd : c.first;
  let t = d.at;
  if (tickStart !== null && dueAtTickStart <= tickStart) {
    const keep = critical ? 0 : c.lookKeep();
    t = critical ? blocked(null) : blocked(keep > 0 ? c.budget.nextFitAt(1 + keep, now) : c.first);
    if (d.planned > tickStart) t = Math.min(t, d.planned);
  }
  let next = Math.max(t, critical ? gateCritical : c.first);
  const sale = w.lot?.auction_at ?? null;
  if (!critical && sale !== null) {
    const own = d.bidOnly && d.planned > now ? d.planned : sale + 20_000 > now ? sale + 20_000 : null;
    if (own !== null) next = Math.min(next, Math.max(own, gateCritical));
  }
  return next;
}
