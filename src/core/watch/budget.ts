import type { QuotaSnapshot } from '../../shared/vehicle';
import { keptFromSearches, projectedChecks, type ProjectedLot } from './planner';
import { pagesPerRun } from '../../shared/watch';

const HOUR = 3_600_000;
export const DAY = 86_400_000;

/**
 * Requests that may go out together after a quiet spell at `perDay` requests/day: half an hour's share, at least 3
 * (a saved search's run of a few pages goes out whole). Throws nothing.
 */
export function burstOf(perDay: number): number {
  return Math.max(3, Math.ceil(perDay / 48));
}

/** Where the budget's numbers come from, for the UI. */
export type BudgetBasis = 'quota' | 'setting' | 'default';

/** The request plan the Usage page shows ("at this pace: 640 of 1,000 requests today"). */
export interface BudgetPlan {
  /** Requests allowed in the rolling 24 hours ending now. */
  allowedPerDay: number;
  /** Requests spent in the rolling 24 hours ending now. */
  spentLast24h: number;
  /** Requests the current schedule is expected to spend over the next 24 hours. */
  projectedNext24h: number;
  basis: BudgetBasis;
  /** Requests left in the plan's period, when the service reported it. */
  periodRemaining: number | null;
  periodEnd: number | null;
}

/**
 * The request budget (docs/architecture.md "Request budget"): the plan's quota spread over what is left of its
 * period, capped by the user's own daily limit, enforced over a rolling 24-hour window so that Lotwatch never spends
 * more than its share of a day and never goes past the plan's remaining requests. Within the day it paces: the
 * allowance accrues continuously (perDay / 24 h) into a bucket of `burstOf(perDay)` requests, so a day's requests
 * are spread over the day instead of spent in its first hours. `spentSince(t)` counts requests actually sent (the
 * request log), so retries count too, and the pacing needs no state of its own: a restart keeps it.
 */
export class RequestBudget {
  constructor(
    private readonly opts: {
      /** Requests sent at or after `t` (ms). */
      spentSince: (t: number) => number;
      /** When each request at or after `t` was sent (ms), oldest first: the pacing's history. */
      sentSince: (t: number) => number[];
      /** The last quota snapshot from the service's headers, or null. */
      quota: () => QuotaSnapshot | null;
      /** The user's "at most N requests a day", or null. */
      userPerDay: () => number | null;
      /** Used when neither the service nor the user says: the free plan's 100 a month, about 3 a day. */
      defaultPerDay?: number;
    },
  ) {}

  /** Requests allowed per rolling day at `now`, and what that number rests on. */
  allowance(now: number): { perDay: number; basis: BudgetBasis; q: QuotaSnapshot | null } {
    const q = this.opts.quota();
    const user = this.opts.userPerDay();
    let perDay = Infinity;
    let basis: BudgetBasis = 'default';
    if (q && q.remaining !== null && q.periodEnd !== null && q.periodEnd > now) {
      const daysLeft = Math.max(1, (q.periodEnd - now) / DAY);
      // What was already spent today came out of `remaining`, so add it back before sharing out the rest.
      perDay = Math.floor((q.remaining + this.opts.spentSince(now - DAY)) / daysLeft);
      basis = 'quota';
    }
    if (user !== null && user < perDay) {
      perDay = user;
      basis = 'setting';
    }
    if (!Number.isFinite(perDay)) perDay = this.opts.defaultPerDay ?? 3;
    return { perDay: Math.max(0, perDay), basis, q };
  }

  /**
   * True when `n` more requests fit: within the rolling day's allowance after keeping `reserve` for work that
   * matters more, and within the plan's remaining requests. `runFloor` (requests) raises the day's cap to one whole
   * saved-search run when the allowance comes from a plan's quota: a day's share of 3 would otherwise cut every
   * 5-page run short, and a list read in scraps never makes a baseline (docs/architecture.md "Request budget"); the
   * plan bounds the period's total, and the share of the days left shrinks after a larger day. A user's own daily
   * limit is never raised.
   */
  canSpend(n: number, now: number, reserve = 0, runFloor = 0): boolean {
    const { perDay: share, basis, q } = this.allowance(now);
    const perDay = basis === 'quota' ? Math.max(share, runFloor) : share;
    // The plan's own count wins: a fresh snapshot, or one that says nothing is left before its period ends (a spent
    // quota stays spent until then, however old the snapshot).
    const current =
      q !== null && (q.at > now - DAY || (q.remaining === 0 && q.periodEnd !== null && q.periodEnd > now));
    if (q && q.remaining !== null && current && q.remaining - n < 0) return false;
    return this.opts.spentSince(now - DAY) + n + reserve <= perDay;
  }

  /**
   * True when `n` requests sent at `now` (ms) still leave a place in the rolling day for each of the first `most`
   * looks projected at `times` (ms, ascending) and the ones before it: a request sent now holds its place for 24
   * hours, so a saved search's pages at the first hour can fill the day a sale result needs at the tenth. Places
   * free as the requests sent before `now` age out of each look's own rolling day. Judged against the day's
   * allowance (perDay); a plan's quota lets sale results past the share, so there the plan's count decides.
   * Throws only database errors.
   */
  leavesPlaces(n: number, now: number, times: number[], most: number): boolean {
    const { perDay } = this.allowance(now);
    const sent = this.opts.sentSince(now - DAY);
    let aged = 0;
    for (let i = 0; i < Math.min(most, times.length); i++) {
      const t = Math.max(now, times[i]!);
      // Requests sent at or before t - 24 h have left t's rolling day.
      while (aged < sent.length && sent[aged]! <= t - DAY) aged++;
      if (sent.length - aged + n + i + 1 > perDay) return false;
    }
    return true;
  }

  /** Requests sent in the rolling 24 hours ending at `now` (the request log). Throws only database errors. */
  spentLastDay(now: number): number {
    return this.opts.spentSince(now - DAY);
  }

  /**
   * True when `n` more requests fit (canSpend) and keep the pace: a token bucket of `burstOf(perDay)` requests
   * that refills at perDay / 24 h, replayed over the rolling day's requests (the request log), so the allowance is
   * spread over the day instead of spent in its first hours, and a burst (the user's own searches, a saved search's
   * pages) is paid back before background work goes on. The scheduler asks this before it starts background work;
   * what the user asks for (Run now, Check now) and the pages of a run already started are held to canSpend only.
   * `runFloor`: see canSpend.
   */
  paced(n: number, now: number, reserve = 0, runFloor = 0): boolean {
    if (!this.canSpend(n, now, reserve, runFloor)) return false;
    return this.nextPacedAt(n + reserve, now, this.allowance(now).perDay) <= now;
  }

  /**
   * The first time (ms, >= now, to the second) at which `n` more requests fit at the pace (`paced`) with `reserve`
   * kept back, if nothing else is sent before. Null when they do not fit within a day (a spent plan, an allowance
   * or a burst smaller than `n + reserve`). `runFloor`: see canSpend. Throws only database errors.
   */
  nextFitAt(n: number, now: number, reserve = 0, runFloor = 0): number | null {
    if (this.paced(n, now, reserve, runFloor)) return now;
    const { perDay: share, basis, q } = this.allowance(now);
    const perDay = basis === 'quota' ? Math.max(share, runFloor) : share;
    // A plan's count that says no: the pause (until the period's end) or the next answer's headers decide.
    const current =
      q !== null && (q.at > now - DAY || (q.remaining === 0 && q.periodEnd !== null && q.periodEnd > now));
    if (q && q.remaining !== null && current && q.remaining - n < 0) return null;
    const need = n + reserve;
    if (need > perDay) return null;
    let at = this.nextPacedAt(need, now, share);
    // The rolling day: enough of its requests must have aged out.
    const times = this.opts.sentSince(now - DAY);
    const over = times.length - (perDay - need);
    if (over > 0) at = Math.max(at, times[over - 1]! + DAY + 1);
    return Number.isFinite(at) ? Math.max(now, Math.ceil(at / 1000) * 1000) : null;
  }

  /**
   * The first time (ms, >= now) at which a saved search's run of `n` requests (its pages and what is kept back) is
   * paid for at the pace: a bucket as large as the run (at least the burst) refilling at perDay / 24 h, replayed
   * over the requests of the days it takes to refill twice. On a plan's quota the rolling day lets a whole run
   * through (canSpend's runFloor) and forgets it a day later; without this a 5-page run went out every day at 3 a
   * day and the month's quota ran short for a week. With `lastRun` (ms, the list's last run), the runs the plan's
   * remaining requests allow (of `n` each) also share the time from it to an hour before the period's reset, so the
   * last one reads the list just before the reset instead of a day early. The watchlist's projected needs are left
   * out of that count: the projection assumes every lot ends unsold and is looked for as a relist, and counting it
   * spread the runs too thin (pooled recall on six benchmark seeds 85.9 % against 87.6 % without it). Infinity when
   * nothing is allowed. Throws only database errors.
   */
  paidAt(n: number, now: number, lastRun?: number): number {
    const { perDay, basis, q } = this.allowance(now);
    const cap = Math.max(burstOf(perDay), n);
    if (perDay <= 0) return Infinity;
    const paced = this.nextPacedAt(n, now, perDay, cap, Math.max(DAY, (2 * cap * DAY) / perDay));
    if (
      lastRun === undefined ||
      basis !== 'quota' ||
      !q ||
      q.remaining === null ||
      q.periodEnd === null ||
      q.periodEnd <= now
    )
      return paced;
    // The period's last runs spread to its end: the runs the plan has left share the time from this list's last run
    // to an hour before the reset, so the last one reads the list just before it, and the list is not left unread
    // through the month's last day because the day's share was spent early.
    const runsLeft = Math.max(1, Math.floor(q.remaining / Math.max(1, n)));
    const lastLook = q.periodEnd - HOUR;
    if (lastRun >= lastLook) return paced;
    return Math.max(paced, Math.min(lastLook, lastRun + (lastLook - lastRun) / runsLeft));
  }

  /**
   * The token bucket (ms): the first time at which `need` tokens are there, from the requests of the last `memory`
   * ms (the rolling day). The level at t is min over each request time s of burst + rate x (t - s) - (requests since
   * s), capped at `burst`.
   */
  private nextPacedAt(
    need: number,
    now: number,
    perDay: number,
    burst = burstOf(perDay),
    memory = DAY,
  ): number {
    if (need > burst || perDay <= 0) return Infinity;
    const rate = perDay / DAY;
    const times = this.opts.sentSince(now - memory);
    let at = now;
    for (let i = 0; i < times.length; i++) {
      const since = times.length - i;
      at = Math.max(at, times[i]! + (since + need - burst) / rate);
    }
    return at;
  }

  /** The plan for the Usage page; `projectedNext24h` comes from the scheduler. */
  plan(now: number, projectedNext24h: number): BudgetPlan {
    const { perDay, basis, q } = this.allowance(now);
    return {
      allowedPerDay: perDay,
      spentLast24h: this.opts.spentSince(now - DAY),
      projectedNext24h,
      basis,
      periodRemaining: q?.remaining ?? null,
      periodEnd: q?.periodEnd ?? null,
    };
  }
}

/** One watched lot as the budget maths sees it: the projections' own shape (planner.ts ProjectedLot). */
export type WatchLoad = ProjectedLot;

/** What a saved search's schedule costs: enough of its row to count pages. */
export interface SearchLoad {
  id: number;
  paused: boolean;
  max_pages: number;
  /** Records the last run found, or null before the first run. */
  last_result_count: number | null;
  /** Whether the last run read the whole list (null before the first run). */
  last_complete?: boolean | null;
}

/** Pages one run is expected to fetch: shared with the Usage page, so both count the same way. */
export { pagesPerRun };

/**
 * Requests per day the saved searches' schedules are expected to spend: runs a day times pages a run, over the
 * searches that are not paused and have a valid schedule (`runsPerDay` answers null for the others). Throws nothing.
 */
export function searchDemandPerDay(
  searches: SearchLoad[],
  runsPerDay: (id: number) => number | null,
): number {
  let demand = 0;
  for (const s of searches) {
    const runs = s.paused ? null : runsPerDay(s.id);
    if (runs !== null) demand += runs * pagesPerRun(s);
  }
  return demand;
}

/**
 * The watchlist's share of `perDay` requests (requests/day): all of it without saved searches, a third while any
 * runs (`searching`), since new matches are most of what a buyer's saved searches bring and they come only from search
 * pages. The scale fits the watchlist's projected day into it (scaleToFit), and on a tight budget relist look-ups go
 * before a page only within it (planner.ts relistLookGap). Throws nothing.
 */
export function watchlistShare(perDay: number, searching: boolean): number {
  return searching ? perDay / 3 : perDay;
}

/**
 * The stretch of the watchlist's background intervals (1, 2, 4 ... at most 64) needed for the projected day of
 * watch checks plus `searchDemand` (requests/day) to fit `allowancePerDay` (requests/day), so a tight quota slows
 * the watchlist down instead of running out. Throws nothing.
 */
export function scaleToFit(
  lots: WatchLoad[],
  now: number,
  searchDemand: number,
  allowancePerDay: number,
): number {
  let scale = 1;
  while (scale < 64 && projectedChecks(lots, now, DAY, scale) + searchDemand > allowancePerDay) scale *= 2;
  return scale;
}

/**
 * Requests the watchlist needs over the next `horizon` ms (default an hour) at this `scale`: kept back from
 * scheduled searches so a lot about to sell is never starved by a search. On a tight budget (planner.ts
 * relistsYield) the relist look-ups are not counted: they go after a saved search's page. Throws nothing.
 */
export function watchReserve(lots: WatchLoad[], now: number, scale: number, horizon = HOUR): number {
  return projectedChecks(lots, now, horizon, scale, keptFromSearches(scale));
}

/**
 * Tokens of the pacing bucket to keep back now for the watchlist's projected checks at `times` (ms, ascending): the
 * most by which the checks up to any of those times outrun what the bucket refills by then (perDay / 24 h), at most
 * all but one of the burst. A check 2 hours away at 3 requests a day needs its token kept now; one 10 hours away
 * does not (the bucket refills one by then). Throws nothing.
 */
export function keepFor(times: number[], now: number, perDay: number): number {
  const rate = perDay / DAY;
  let keep = 0;
  times.forEach((t, i) => {
    keep = Math.max(keep, i + 1 - rate * Math.max(0, t - now));
  });
  return Math.max(0, Math.min(Math.ceil(keep - 1e-9), burstOf(perDay) - 1));
}

/**
 * How far ahead the requests kept back for the watchlist look (ms): the time the bucket takes to refill (burst /
 * rate), at least an hour. At 3 requests a day a token spent on a search now is missing for the next 7 hours, so a
 * sale in those hours must be counted now. Throws nothing.
 */
export function reserveHorizon(perDay: number): number {
  return perDay > 0 ? Math.max(HOUR, (burstOf(perDay) / perDay) * DAY) : HOUR;
}

/** Requests expected over the next 24 hours: the watchlist at this `scale` plus `searchDemand`. Throws nothing. */
export function projectedDay(lots: WatchLoad[], now: number, scale: number, searchDemand: number): number {
  return projectedChecks(lots, now, DAY, scale) + searchDemand;
}
