import type { WatchRow } from '../db/store';
import type { WatchState } from './backoff';
import { DAY, keepFor, reserveHorizon, watchReserve, type RequestBudget } from './budget';
import { auctionOver, keptFromSearches, projectedCheckTimes, relistsYield } from './planner';
import { isResultLook, SEARCH_PAGE_CAP, type QueuedRequest } from './value';

/*
 * The scheduler's spending decisions for the head of its queue (docs/architecture.md "Request budget"): pure reads of
 * the budget, so the loop in scheduler.ts only orders and runs work.
 */

/**
 * Whether the queue's head may go now. At the pace (budget.paced) after keeping `keep` tokens for the watchlist;
 * a saved search's run may take the day up to one whole run on a plan's quota (canSpend's runFloor). A sale-critical
 * check skips the bucket: after a search's first reading (several pages at once) the bucket is in debt for hours,
 * and a sale result must not wait for it. On the buyer's own daily limit it stays within the rolling day; on a
 * plan's quota it skips the day's share too (the plan bounds the period's total anyway). `at` in ms.
 */
export function sendable(
  budget: RequestBudget,
  q: QueuedRequest<{ watch: WatchRow } | { search: number; baseline: boolean }>,
  at: number,
  keep: number,
): boolean {
  if (q.critical) return budget.canSpend(1, at, 0, budget.allowance(at).basis === 'quota' ? Infinity : 0);
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

/**
 * Tokens of the pacing bucket kept back from a saved search's pages when it starts: what the watchlist's projected
 * checks before the bucket could refill (reserveHorizon) need beyond what it refills by each of their times
 * (keepFor), at most all but one of the burst; on a tight budget without the relist look-ups, which go after a
 * saved search's page there (planner.ts relistsYield). Saved-search pages yield to watch checks when requests are
 * scarce; a run once started goes on within the daily allowance less the watchlist's reserve (its pages are one
 * result), and the pace catches up after it. `now` in ms; `scale` the watchlist's stretch. Throws only database errors.
 */
export function searchKeep(budget: RequestBudget, watches: WatchState[], now: number, scale: number): number {
  const perDay = budget.allowance(now).perDay;
  const times = projectedCheckTimes(watches, now, reserveHorizon(perDay), scale, keptFromSearches(scale));
  return keepFor(times, now, perDay);
}

/**
 * What a watch check below the sale-critical value leaves for the sale-result looks projected before the bucket
 * could refill (projectedCheckTimes `saleResults`): `bucket`, their tokens (keepFor); `day`, their places in the
 * rolling day, which frees a request only as an old one ages out, not at the bucket's refill rate (every such look,
 * at most half the day). A bid look or a background look may spend the rest of what is kept for the watchlist (it is
 * part of what was kept for), never a sale result's; a saved search's page leaves the day's places too. Throws only
 * database errors.
 */
export function lookKeep(
  budget: RequestBudget,
  watches: WatchState[],
  now: number,
  scale: number,
): { bucket: number; day: number } {
  const perDay = budget.allowance(now).perDay;
  const times = projectedCheckTimes(watches, now, reserveHorizon(perDay), scale, 'saleResults');
  return { bucket: keepFor(times, now, perDay), day: Math.min(times.length, Math.floor(perDay / 2)) };
}

/**
 * The sale-result looks a saved search's first reading must leave places for (leavesSaleLooks), ms ascending: every
 * look before the bucket could refill, and beyond that each lot's first look after its sale within 24 hours (the
 * later ones are projected as if the first found nothing, and the day they would hold is the searches' next runs).
 * Worked out only while a first reading is due. Throws only database errors.
 */
export function firstReadingLooks(
  budget: RequestBudget,
  watches: WatchState[],
  now: number,
  scale: number,
): number[] {
  const horizon = now + reserveHorizon(budget.allowance(now).perDay);
  return watches
    .flatMap((w) =>
      projectedCheckTimes([w], now, DAY, scale, 'saleResults').filter((t, i) => i === 0 || t <= horizon),
    )
    .sort((a, b) => a - b);
}

/**
 * Whether `n` requests of a saved search's first reading may go at `at` (ms) and leave the rolling day's places of
 * the projected sale-result looks (firstReadingLooks): a request sent now holds its place for 24 hours, and a
 * first reading is the one burst the pace does not spread. Counts at most half the day's allowance of the looks, so
 * the searches always keep the other half. Always true on a plan's quota, where a sale result may go past the day's
 * share: holding the first readings there only cost the free plan's new matches. Throws only database errors.
 */
export function leavesSaleLooks(budget: RequestBudget, n: number, at: number, saleLooks: number[]): boolean {
  const { perDay, basis } = budget.allowance(at);
  // On a plan's quota a sale result skips the day's share (sendable), so there are no places to keep.
  if (basis === 'quota') return true;
  return budget.leavesPlaces(n, at, saleLooks, Math.floor(perDay / 2));
}

/**
 * How many whole runs of every saved search (and call watch) a day's allowance must pay for before a run the budget
 * cuts short reads the head of its list as well as its sweep (readsListsOften). ASSUMPTION, measured in the watcher
 * benchmark (docs/architecture.md, its table of timing assumptions): the sandbox lists a tenth of its new lots to sell
 * within 12 hours, and those are only ever on the head. New matches a week on three seed pairs, reading the head on
 * every run cut short against never: the dealer's ten searches at 300 a day (6 whole runs a day) +12, +18, +10, at
 * 1,000 (20) +11, +1, -6; the buyer's three at 100 (6.7) +5, +4, -2, at 300 -2, +1, +2, at 1,000 +3, 0, 0; at 30
 * (2) -10, +9, -18 (a sweep that comes round every half day finds lots no other run would reach before their sale);
 * at 10 -19, -28, -24. 4 lies between 2 and 6.
 */
const LIST_READS_PER_DAY = 4;

/**
 * Whether `perDay` requests a day pay for every saved search's and call watch's whole run (`pagesPerCycle` requests
 * in all: runs.ts pagesPerCycle) at least LIST_READS_PER_DAY times a day. Then a sweep comes round within hours, so a
 * page of it mostly finds a lot sooner, while the head of a list holds the lots listed to sell before the sweep comes
 * round (polls.ts runSearch reads it on a run the budget cuts short); otherwise a sweep goes on from its cursor
 * (sweepCursors.ts) rather than re-reading its window. False with no scheduled run. Throws nothing.
 */
export function readsListsOften(perDay: number, pagesPerCycle: number): boolean {
  return pagesPerCycle > 0 && perDay >= LIST_READS_PER_DAY * pagesPerCycle;
}

/** Pages of a saved search's run (its baseline done) that must fit for it to start on the buyer's own daily limit. */
const FIRST_PAGES_ON_A_DAILY_LIMIT = 2;

/**
 * Whether a saved search's run of `cost` pages, last run at `lastRun` (ms), may start at `at` (ms) with `keep` tokens
 * kept for the watchlist. It goes whole (or as much as a day allows) or waits; on a daily limit, once its baseline is
 * done (`baselineDone`), at least two pages of it: a long list is read as a sweep of windows that each run continues
 * (coverage.ts), so a 5-page list on 10 requests a day is read over a few runs instead of never fitting beside the
 * watchlist's checks. On a plan's quota it leaves what the watchlist is projected to need until the period ends
 * (`periodKept`, worked out only when asked) and goes once the pace has paid for it (paidAt, which also spreads the
 * period's last runs from `lastRun` to the reset), so runs spread over the period; the first reading of a list (its
 * baseline) goes as soon as the day allows: every later new match depends on it. Throws only database errors.
 */
export function searchMayStart(
  budget: RequestBudget,
  { cost, baselineDone, lastRun }: { cost: number; baselineDone: boolean; lastRun: number },
  at: number,
  keep: number,
  periodKept: () => number,
): boolean {
  const { perDay, basis } = budget.allowance(at);
  const whole = Math.max(
    1,
    Math.min(cost, perDay - keep, basis === 'quota' ? Infinity : FIRST_PAGES_ON_A_DAILY_LIMIT),
  );
  if (!budget.canSpend(whole, at, keep, cost + keep)) return false;
  if (leavesTooLittle(budget, cost, at, periodKept())) return false;
  return !(basis === 'quota' && baselineDone && budget.paidAt(cost + keep, at, lastRun) > at);
}

/**
 * Whether the look for the sale result of watch `id` among `states` waits at `at` (ms) because its result yields
 * (due.ts resultYielders): sent now it would hold for 24 hours a place in the rolling day that another lot's first look
 * for its result needs (budget.leavesPlaces; the watches whose results do not yield, their first projected result
 * look at the watchlist's `scale`) before the next place frees at the day's pace (24 h / perDay): further on, places
 * free as the day's requests age out. A yielding result takes only what the others leave, so the day's few looks go
 * to the results that also answer the buyer's bid rule. False for any other check. Throws only database errors.
 */
export function yieldedResultWaits(
  budget: RequestBudget,
  states: WatchState[],
  id: number,
  at: number,
  scale: number,
): boolean {
  const w = states.find((x) => x.watch.id === id);
  if (!w?.yieldsResult || !isResultLook(w.lot, at)) return false;
  const perDay = budget.allowance(at).perDay;
  if (perDay <= 0) return true;
  const times = states
    .filter((x) => !x.yieldsResult && x !== w)
    .flatMap((x) => projectedCheckTimes([x], at, DAY / perDay, scale, 'saleResults').slice(0, 1))
    .sort((a, b) => a - b);
  return !budget.leavesPlaces(1, at, times, perDay);
}

/**
 * Whether a watch check waits behind a saved search's run that could not start this tick (`searchWaits`): on a tight
 * budget (planner.ts relistsYield) a relist look-up (`lot` over, `value` no more than a search's page) would spend
 * the tokens the run waits for, so it waits too, until it has waited long enough to outrank the page (value.ts
 * watchValue). A sale-critical check never waits here. Throws nothing.
 */
export function waitsBehindSearch(
  searchWaits: boolean,
  q: { critical: boolean; value: number },
  lot: WatchState['lot'],
  scale: number,
): boolean {
  return (
    searchWaits &&
    relistsYield(scale) &&
    !q.critical &&
    q.value <= SEARCH_PAGE_CAP &&
    lot !== null &&
    auctionOver(lot)
  );
}
