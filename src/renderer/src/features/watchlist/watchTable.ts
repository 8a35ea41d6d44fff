import { format, startOfDay } from 'date-fns';
import type { WatchView } from '../../../../shared/ipc/contract';

/**
 * The watchlist table's logic, kept apart from the view so it is tested on its own: the max bid a row shows, the
 * landed cost or why there is none, the sort keys, grouping by sale day and the bulk selection.
 */

/** Where a row's max bid comes from: the watch's own rule, or the buyer's desk (solved from their costs). */
export interface MaxBid {
  usd: number;
  source: 'rule' | 'desk';
}

/**
 * The max bid a watch row shows, in USD: the watch's own "max bid" rule when set (the buyer typed it), else the one
 * the desk solved from the buyer's costs (LotDesk.max_bid_usd); null when neither exists.
 */
export function maxBidOf(w: WatchView): MaxBid | null {
  if (w.rules.max_bid_usd !== null) return { usd: w.rules.max_bid_usd, source: 'rule' };
  if (w.desk?.max_bid_usd != null) return { usd: w.desk.max_bid_usd, source: 'desk' };
  return null;
}

/** Whether the lot's current bid (USD) is already past the row's max bid. False without either. */
export function pastMax(w: WatchView): boolean {
  const max = maxBidOf(w);
  const bid = w.lot?.current_bid_usd ?? null;
  return max !== null && bid !== null && w.lot?.outcome === 'open' && bid > max.usd;
}

/**
 * Why a watch has no landed cost, as the cell's title says it; null when it has one. The desk prices a lot only
 * once it is stored (a VIN watch before its lot is found has none) and only from a bid (an open lot with no bid yet).
 */
export function landedUnknownReason(w: WatchView): string | null {
  if (w.desk?.landed_cost_usd != null) return null;
  if (!w.lot || !w.desk) return 'Unknown: the lot has not been fetched yet, so there is nothing to price.';
  return 'Unknown: there is no bid yet to work the fees and the landed cost out from.';
}

/** Sort keys of the table's columns; a missing value sorts after every real one (see sortKey's callers). */
export const SORT_KEYS = {
  lot: (w: WatchView): string => w.lot?.lot_number ?? w.vin ?? '',
  vehicle: (w: WatchView): string => w.lot?.title ?? w.label ?? w.vin ?? '',
  sale: (w: WatchView): number => w.lot?.auction_at ?? Number.MAX_SAFE_INTEGER,
  bid: (w: WatchView): number => w.lot?.sale_price_usd ?? w.lot?.current_bid_usd ?? -1,
  max: (w: WatchView): number => maxBidOf(w)?.usd ?? -1,
  landed: (w: WatchView): number => w.desk?.landed_cost_usd ?? -1,
  checked: (w: WatchView): number => w.last_checked_at ?? 0,
} as const;

/** One sale day of the grouped table: its key (local midnight, ms; null: no sale time), its heading and rows. */
export interface SaleDayGroup<T> {
  key: number | null;
  label: string;
  items: T[];
}

/**
 * Groups rows by the local calendar day of their sale time (`atOf`, ms since the epoch, or null), days in order
 * and "No sale time" last; rows keep their order inside a day (the table's sort). Pure; throws nothing.
 */
export function groupBySaleDay<T>(items: readonly T[], atOf: (t: T) => number | null): SaleDayGroup<T>[] {
  const byDay = new Map<number | null, T[]>();
  for (const it of items) {
    const at = atOf(it);
    const key = at === null ? null : startOfDay(at).getTime();
    const list = byDay.get(key);
    if (list) list.push(it);
    else byDay.set(key, [it]);
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a - b))
    .map(([key, list]) => ({
      key,
      label: key === null ? 'No sale time' : format(key, 'EEE d MMM yyyy'),
      items: list,
    }));
}

/** The selection kept to the watches still listed (a removed watch leaves it); the same Set when nothing went. */
export function pruneSelection(
  selected: ReadonlySet<number>,
  listed: readonly { id: number }[],
): Set<number> {
  const ids = new Set(listed.map((w) => w.id));
  const kept = [...selected].filter((id) => ids.has(id));
  return kept.length === selected.size ? (selected as Set<number>) : new Set(kept);
}

/** The header checkbox's state for `selected` among `shown` ids: all, some (indeterminate) or none. */
export function selectionState(
  selected: ReadonlySet<number>,
  shown: readonly number[],
): 'all' | 'some' | 'none' {
  const n = shown.filter((id) => selected.has(id)).length;
  return n === 0 ? 'none' : n === shown.length ? 'all' : 'some';
}

/** The header checkbox pressed: every shown id selected, or (when all were) none of them. */
export function toggleAll(selected: ReadonlySet<number>, shown: readonly number[]): Set<number> {
  const next = new Set(selected);
  if (selectionState(selected, shown) === 'all') shown.forEach((id) => next.delete(id));
  else shown.forEach((id) => next.add(id));
  return next;
}

/** One row's checkbox pressed. */
export function toggleOne(selected: ReadonlySet<number>, id: number): Set<number> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** "1 watch", "5 watches". */
export function watchesWord(n: number): string {
  return `${n} watch${n === 1 ? '' : 'es'}`;
}
