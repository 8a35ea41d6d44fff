import type { LotState } from '../../shared/watch';

/*
 * A lot's state as the lots table holds it: the columns the diff compares, written from the diff's projection
 * (toLotState in src/core/diff) and read back without copying the lot's JSON records.
 */

/** The state columns of a lot row, as its write statements name them (amounts in USD, auction_at in ms). */
export interface StateParams {
  vin: string | null;
  current_bid_usd: number | null;
  buy_now_usd: number | null;
  sale_price_usd: number | null;
  state: string | null;
  lot_status: string | null;
  lot_sub_status: string | null;
  last_sold_status: string | null;
  auction_at: number | null;
}

/** The columns of a LotState (and the raw record's hash): reading a lot's state need not copy its JSON records. */
export interface StateRow extends StateParams {
  platform: string;
  lot_number: string;
  raw_hash: string;
  /** sha256 of the normalised record; NULL for a row stored before schema 90. */
  content_hash: string | null;
  last_observed_at: number;
}

/** The `lots` columns of a StateRow, in their order (for a query builder). */
export const STATE_COLUMN_NAMES = [
  'platform',
  'lot_number',
  'vin',
  'current_bid_usd',
  'buy_now_usd',
  'sale_price_usd',
  'state',
  'lot_status',
  'lot_sub_status',
  'last_sold_status',
  'auction_at',
  'raw_hash',
  'content_hash',
  'last_observed_at',
] as const satisfies readonly (keyof StateRow)[];

/** The SELECT list of a StateRow (the `lots` columns above, in their order). */
export const STATE_COLUMNS = STATE_COLUMN_NAMES.join(', ');

/**
 * The LotState of a stored row, as the diff reads it for `prev` and for relist detection; `observed_at` is when the
 * lot was last seen (ms). A NULL column is null. Pure; throws nothing.
 */
export function rowToLotState(r: StateRow): LotState {
  return {
    platform: r.platform,
    lot_number: r.lot_number,
    vin: r.vin ?? null,
    current_bid_usd: r.current_bid_usd ?? null,
    buy_now_usd: r.buy_now_usd ?? null,
    sale_price_usd: r.sale_price_usd ?? null,
    state: r.state ?? null,
    lot_status: r.lot_status ?? null,
    lot_sub_status: r.lot_sub_status ?? null,
    last_sold_status: r.last_sold_status ?? null,
    auction_at: r.auction_at ?? null,
    observed_at: r.last_observed_at,
  };
}

/**
 * The state columns to write for a LotState: the diff's projection of the record being stored (toLotState), so the
 * columns hold exactly what the diff compares next time. Pure; throws nothing.
 */
export function stateParams(s: LotState): StateParams {
  return {
    vin: s.vin,
    current_bid_usd: s.current_bid_usd,
    buy_now_usd: s.buy_now_usd,
    sale_price_usd: s.sale_price_usd,
    state: s.state,
    lot_status: s.lot_status,
    lot_sub_status: s.lot_sub_status,
    last_sold_status: s.last_sold_status,
    auction_at: s.auction_at,
  };
}

/**
 * Whether two states agree on every column the diff compares (observed_at aside): false for a row an older
 * projection wrote, which LotsRepo.observe then writes again. Pure; throws nothing.
 */
export function sameState(a: LotState, b: LotState): boolean {
  const x = stateParams(a);
  const y = stateParams(b);
  return (Object.keys(x) as (keyof StateParams)[]).every((k) => x[k] === y[k]);
}
