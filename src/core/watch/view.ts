import type { BidChangeRow, SaleEstimate } from '../db/lotsRepo';
import type { Store, WatchRow } from '../db/store';
import type { LotKey, LotState } from '../../shared/watch';
import type { WatchState } from './backoff';
import { BID_HISTORY_MS, nextBidLevel } from './bidPlan';
import { bidWatchOf } from './due';
import { auctionOver } from './planner';

/*
 * What the scheduler plans from, read from the store in one go (docs/architecture.md "Two engines: one store"): the
 * store answers with promises, while planning (the budget's keeps, the value order, the next wake) is pure and
 * synchronous. The view is read again at each tick's start, after each run of the tick, and when the buyer changes
 * something, so a plan never works from data older than the last write of this process.
 */

/** One watch as the planner sees it: its row, its lot's stored state, and the lot's recent bid changes. */
export interface WatchViewEntry {
  watch: WatchRow;
  lot: LotState | null;
  /**
   * The lot's bid changes observed at or after `bidFrom` (ms), oldest first, when its rules have a bid level above
   * its bid and the lot is still open (the bid plan's input, due.ts bidWatchOf); null otherwise.
   */
  bidChanges: BidChangeRow[] | null;
  /**
   * The service's estimate of the lot's sale price (USD, the middle of its record's band: LotsRepo.saleEstimate),
   * read with `bidChanges` and null when they are not read or the record has none.
   */
  estimate: number | null;
}

/** The scheduler's view of the store at `at` (ms). */
export interface WatchView {
  at: number;
  watches: WatchViewEntry[];
  /** When the first held (digest) alert is due (ms), or null. */
  nextDigestAt: number | null;
}

/** The view before the first read: nothing to plan. */
export const EMPTY_VIEW: WatchView = { at: 0, watches: [], nextDigestAt: null };

/**
 * Reads the scheduler's view at `now` (ms): every watch (paused and examples too; the scheduler filters), its lot's
 * state, the bid history the bid plan needs (BID_HISTORY_MS back from `now`, not before the watch was made) with the
 * service's estimate of the sale price, and the next digest time. The lots are read in batches (LotsRepo.lotStates,
 * bidChangesSinceOf, saleEstimates): a few statements for the whole watchlist, not three a lot, since the view is
 * read again at every tick and on PostgreSQL each statement is a round trip. Rejects only with the store's errors.
 */
export async function loadWatchView(
  store: Pick<Store, 'watches' | 'lots' | 'alerts'>,
  now: number,
): Promise<WatchView> {
  const rows = await store.watches.listWatches();
  const keys = rows.flatMap((w) => (w.lot_key ? [w.lot_key] : []));
  const states = keys.length ? await store.lots.lotStates(keys) : new Map<LotKey, LotState>();
  const fromOf = (w: WatchRow) => Math.max(w.created_at, now - BID_HISTORY_MS);
  const bidding = rows.filter((w) => {
    const lot = w.lot_key ? states.get(w.lot_key) : undefined;
    return !!lot && !auctionOver(lot) && nextBidLevel(w.rules, lot.current_bid_usd) !== null;
  });
  const bidKeys = bidding.map((w) => w.lot_key!);
  const from = Math.min(...bidding.map(fromOf));
  const changes = bidKeys.length
    ? await store.lots.bidChangesSinceOf(bidKeys, from)
    : new Map<LotKey, BidChangeRow[]>();
  const bands = bidKeys.length ? await store.lots.saleEstimates(bidKeys) : new Map<LotKey, SaleEstimate>();
  const wantsBids = new Set(bidding);
  const watches: WatchViewEntry[] = rows.map((watch) => {
    const lot = watch.lot_key ? (states.get(watch.lot_key) ?? null) : null;
    if (!wantsBids.has(watch)) return { watch, lot, bidChanges: null, estimate: null };
    const since = fromOf(watch);
    const bidChanges = (changes.get(watch.lot_key!) ?? []).filter((c) => c.observed_at >= since);
    const band = bands.get(watch.lot_key!);
    return { watch, lot, bidChanges, estimate: band ? (band.from + band.to) / 2 : null };
  });
  return { at: now, watches, nextDigestAt: await store.alerts.nextDigestAt() };
}

/**
 * The watches to poll at `now` (ms) from `view`: not paused, examples only while `examples`; each with its lot's
 * state, when it was last checked (a saved-search page that refreshed the lot counts as a check) and, with
 * `withBids`, the bid plan's view of a lot whose bid rule is not reached yet (due.ts bidWatchOf, without its widest
 * gap: the scheduler sets it). Pure.
 */
export function watchStatesOf(
  view: WatchView,
  now: number,
  examples: boolean,
  withBids: boolean,
): WatchState[] {
  return (
    view.watches
      // A paused watch spends no request until the buyer resumes it.
      .filter(({ watch: w }) => (examples || !w.is_example) && !w.paused)
      .map(({ watch, lot, bidChanges, estimate }) => {
        const lastChecked =
          lot && watch.last_checked_at !== null
            ? Math.max(watch.last_checked_at, lot.observed_at)
            : (watch.last_checked_at ?? null);
        const bids =
          bidChanges && withBids
            ? bidWatchOf(watch, lot, (from) => bidChanges.filter((c) => c.observed_at >= from), now, estimate)
            : null;
        return { watch, lot, lastChecked: lot ? lastChecked : null, bids };
      })
  );
}
