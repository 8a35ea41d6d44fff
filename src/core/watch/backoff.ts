import type { WatchRow } from '../db/store';
import type { ProjectedLot } from './planner';

const HOUR = 3_600_000;

/** The scheduler's current plan, for the Usage page. */
export interface SchedulePlan {
  /** Stretch of the watchlist's background intervals needed to stay in budget (1 = none). */
  scale: number;
  projectedNext24h: number;
  nextSearchRuns: { id: number; at: number | null }[];
  nextWatchChecks: { id: number; at: number }[];
}

/**
 * A watch with its lot's stored state (null: never fetched), when the lot was last fetched (ms, by any poll), the bid
 * plan's view of a bid rule not reached yet and the wait before a look for its result (planner.ts ProjectedLot).
 */
export interface WatchState extends ProjectedLot {
  watch: WatchRow;
  /** An unsold lot's fair share of relist look-ups on a tight budget (planner.ts relistLookGap), ms. */
  relistGap?: number;
  /**
   * Its sale result yields to the other lots' (due.ts withShares, when the day's sales outnumber its requests): its
   * look is valued VALUE.yieldedResult and waits while it would take a place their results need
   * (spending.ts yieldedResultWaits).
   */
  yieldsResult?: boolean;
}

/** After a tick failed, the loop waits 1, 2, 4 ... minutes before the next one, at most 30 minutes (ms). */
export function tickBackoff(failures: number): number {
  return failures > 0 ? Math.min(30 * 60_000, 60_000 * 2 ** (failures - 1)) : 0;
}

/** A watch that keeps failing waits longer between tries: 1, 2, 4 ... minutes, at most an hour (ms). */
export function failureBackoff(w: WatchRow): number {
  return w.consecutive_failures > 0 ? Math.min(HOUR, 60_000 * 2 ** (w.consecutive_failures - 1)) : 0;
}
