import type { WatchRow } from '../db/store';
import type { WatchState } from './backoff';
import { watchReserve, type RequestBudget } from './budget';
import type { QueuedRequest } from './value';

/*
 * The scheduler's spending decisions for the head of its queue (docs/architecture.md "Request budget"): pure reads of
 * the budget, so the loop in scheduler.ts only orders and runs work.
 */

/**
 * Whether the queue's head may go now. At the pace (budget.paced) after keeping `keep` tokens for the watchlist;
 * a saved search's run may take the day up to one whole run on a plan's quota (canSpend's runFloor). On a plan's
 * quota a sale-critical check skips the bucket and the day's share: after a 5-page run on a 3-a-day plan the
 * bucket is in debt for over a day, and the plan bounds the period's total anyway. `at` in ms.
 */
export function sendable(
  budget: RequestBudget,
  q: QueuedRequest<{ watch: WatchRow } | { search: number; baseline: boolean }>,
  at: number,
  keep: number,
): boolean {
  if (q.critical && budget.allowance(at).basis === 'quota') return budget.canSpend(1, at, 0, Infinity);
  // A saved search's first reading (its baseline) is held to the day's allowance only, like a run the buyer starts:
  // every new match it will ever report depends on it, and waiting for the bucket to refill behind the
  // watchlist's checks held it back for a day on 10 requests a day.
  if ('search' in q.item && !q.item.baseline) return budget.canSpend(1, at, keep, q.cost + keep);
  return budget.paced(1, at, keep, 'search' in q.item ? q.cost + keep : 0);
}

/** On a plan's quota: whether `cost` requests at `at` (ms) would leave less than `periodKeep` of the plan's remaining. */
export function leavesTooLittle(
  budget: RequestBudget,
  cost: number,
  at: number,
  periodKeep: number,
): boolean {
  const { basis, q } = budget.allowance(at);
  return basis === 'quota' && q?.remaining != null && q.remaining - cost < periodKeep;
}

/**
 * Requests the watchlist is projected to need until the plan's period ends (0 without a plan's quota), at the
 * watchlist's current `scale`: kept out of the plan's remaining requests for saved searches, so they cannot spend
 * the month's last requests that a sale result or a relist look needs. Throws only database errors.
 */
export function periodKeep(budget: RequestBudget, scale: number, now: number, states: WatchState[]): number {
  const { basis, q } = budget.allowance(now);
  if (basis !== 'quota' || !q?.periodEnd || q.periodEnd <= now) return 0;
  return watchReserve(states, now, scale, q.periodEnd - now);
}
