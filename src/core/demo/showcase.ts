import type { DemoLiveBid } from '../../shared/demoShowcase';
import { LIVE_BID_REFRESH } from '../watch/bidPlan';

const S = 1000;

/**
 * When the watcher is expected to raise the "bid reached" alert of an example watch on `lot` whose rule is the
 * lot's next bid on the block (ms since the epoch): the bid, plus the service's live-bid refresh (15 s,
 * docs/service-contract.md "Plans and quota"), plus the gap between the bid plan's looks while it waits for the lot
 * to go on the block (bidPlan.ts nextBidLookAt: an eighth of the time since the sale time, at least 30 s). Throws
 * nothing.
 */
export function expectedAlertAt(lot: DemoLiveBid): number {
  const waitGap = Math.max(2 * LIVE_BID_REFRESH, (lot.bid_at - lot.auction_at) / 8);
  return lot.bid_at + LIVE_BID_REFRESH + waitGap;
}

/**
 * Demo mode's example watches: the `count` lots of `candidates` (the Demo market's next bids on the block) whose
 * alert is expected soonest (expectedAlertAt), each at least `leadMs` (ms) after `now` so the watch's first fetch
 * sees the bid before it moves, one lot per lot number, soonest first. Empty when there are no candidates.
 * Throws nothing.
 */
export function pickShowcase(
  candidates: readonly DemoLiveBid[],
  now: number,
  count = 3,
  leadMs = 20 * S,
): DemoLiveBid[] {
  const sorted = candidates
    .filter((c) => c.bid_at >= now + leadMs && c.bid_at < c.end_at)
    .map((c) => ({ c, at: expectedAlertAt(c) }))
    .sort((a, b) => a.at - b.at || a.c.lot_number.localeCompare(b.c.lot_number));
  const picks: DemoLiveBid[] = [];
  for (const { c } of sorted) {
    if (picks.length >= count) break;
    if (!picks.some((p) => p.lot_number === c.lot_number)) picks.push(c);
  }
  return picks;
}

/** The earliest expected alert among `picks` (ms since the epoch), or null when there are none. Throws nothing. */
export function firstAlertAt(picks: readonly DemoLiveBid[]): number | null {
  return picks.length ? Math.min(...picks.map(expectedAlertAt)) : null;
}
