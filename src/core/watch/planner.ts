import type { LotState } from '../../shared/watch';
import { isEnded, mayBeRelisted } from '../diff';

const S = 1000;
const MIN = 60 * S;
const HOUR = 60 * MIN;

/** A lot's auction is over: the diff's own rule, so the scheduler and the timeline never disagree. */
export const auctionOver = isEnded;

function isLive(s: LotState): boolean {
  return (s.lot_sub_status ?? '').toLowerCase() === 'live' || (s.state ?? '').toLowerCase() === 'live';
}

/**
 * When a watched lot should next be fetched, spending requests where they are worth most. Fixed anchors catch the
 * events that matter at the moment they happen: shortly before the sale (a last reschedule or state check), just
 * after it starts (live), and just after it must have ended (the result); while live, every 30 s until it ends.
 * Between anchors a background interval that shrinks as the sale nears catches bids, buy-now changes and
 * reschedules; `scale` (>= 1) stretches only that interval when the budget is tight. An ended unsold lot (or sold on
 * approval) is checked for a relist (by VIN) over the following day, then rarely.
 *
 * @param lot the last stored state, or null when never fetched (fetch now).
 * @param lastChecked ms of the last fetch of this lot (by any poll), or null.
 * @returns the time of the next fetch, ms since the epoch (may be <= now: due).
 */
export function nextCheckAt(lot: LotState | null, lastChecked: number | null, now: number, scale = 1): number {
  if (!lot || lastChecked === null) return now;
  const last = lastChecked;
  if (auctionOver(lot)) {
    const endedAt = Math.max(lot.auction_at ?? last, 0);
    if (mayBeRelisted(lot) && last < endedAt + 14 * HOUR) {
      // Relists come a few hours after an unsold end: look at 1, 3, 6, 9 and 13 hours.
      for (const h of [1, 3, 6, 9, 13]) if (endedAt + h * HOUR > last) return endedAt + h * HOUR;
    }
    return last + 24 * HOUR * scale;
  }
  if (isLive(lot)) return last + 30 * S;
  const at = lot.auction_at;
  if (at === null) return last + 6 * HOUR * scale;
  const anchors = [at - 2 * HOUR, at - 10 * MIN, at + 20 * S, at + 4 * MIN + 30 * S];
  const anchor = anchors.find((a) => a > last) ?? last + 30 * S;
  const until = at - last;
  const background =
    until > 3 * 24 * HOUR ? 12 * HOUR : until > 24 * HOUR ? 6 * HOUR : until > 6 * HOUR ? 2 * HOUR : 30 * MIN;
  // Past the sale time without having seen it live or ended: keep looking every 30 s.
  if (until <= 0) return Math.min(anchor, last + 30 * S);
  return Math.min(anchor, last + background * scale);
}

/** How long after its sale time (or after now, for a lot already live) a projection assumes a lot has ended. */
const ASSUMED_LIVE_SPAN = 5 * MIN;

/**
 * The state a projection assumes for `lot` at time `t`: unchanged until its auction must be over, then ended
 * unsold (the dearest outcome: it keeps the relist checks). Without this a lot a few minutes from its sale
 * would be projected as "past its sale time, not yet seen ended" for the whole day, at one check every 30 s.
 */
function projectedState(lot: LotState, t: number, now: number): LotState {
  if (auctionOver(lot)) return lot;
  const start = isLive(lot) ? Math.max(lot.auction_at ?? now, now) : lot.auction_at;
  if (start === null || t < start + ASSUMED_LIVE_SPAN) return lot;
  return { ...lot, lot_sub_status: 'Ended', state: 'not_sold', auction_at: start };
}

/**
 * Requests the watchlist is expected to need over the next `horizon` ms (ms) at this `scale` (for the plan shown
 * to the user and for choosing the scale): simulates nextCheckAt forward for each lot, assuming nothing changes
 * but the end of each auction (see projectedState).
 *
 * @returns a count of requests. Throws nothing.
 */
export function projectedChecks(
  lots: { lot: LotState | null; lastChecked: number | null }[],
  now: number,
  horizon: number,
  scale = 1,
): number {
  let n = 0;
  for (const { lot, lastChecked } of lots) {
    // Never fetched: one fetch now; what follows depends on what it returns.
    if (lot === null || lastChecked === null) {
      n++;
      continue;
    }
    let last = lastChecked;
    let guard = 0;
    for (;;) {
      const t = nextCheckAt(projectedState(lot, last, now), last, now, scale);
      const at = Math.max(t, last + 1);
      if (at > now + horizon || guard++ > 5000) break;
      n++;
      last = at;
    }
  }
  return n;
}

/**
 * Whether a watched lot's next check is one the budget gives up last: the lot is live, its sale time is within
 * 15 minutes or past without a result, or it ended unsold and its relist checks (the first day) are running. These
 * checks catch the sale result and the relist; they go before background checks and saved-search pages.
 *
 * @param lot the last stored state, or null when never fetched (not urgent: nothing is known about its sale).
 * @param now ms since the epoch. Throws nothing.
 */
export function saleCritical(lot: LotState | null, now: number): boolean {
  if (!lot) return false;
  if (auctionOver(lot)) return mayBeRelisted(lot) && lot.auction_at !== null && now < lot.auction_at + 14 * HOUR;
  if (isLive(lot)) return true;
  return lot.auction_at !== null && lot.auction_at - 15 * MIN <= now;
}

/**
 * The next reminder time (ms) after `after` among `remindMinutesBefore` for a lot not yet ended with a known sale
 * time: the moment the scheduler must wake to raise "auction in N minutes" on time. Null when there is none.
 * Throws nothing.
 */
export function nextReminderAt(lot: LotState | null, remindMinutesBefore: number[], after: number): number | null {
  if (!lot || lot.auction_at === null || auctionOver(lot)) return null;
  let next: number | null = null;
  for (const m of remindMinutesBefore) {
    const t = lot.auction_at - m * MIN;
    if (t > after && (next === null || t < next)) next = t;
  }
  return next;
}
