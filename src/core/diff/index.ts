import type { Vehicle } from '../../shared/vehicle';
import { lotKeyOf, type Change, type LotKey, type LotState } from '../../shared/watch';

/**
 * The diff of the watch engine (issue 5; DESIGN.md "The domain": Observation, Change). Pure and deterministic:
 * no I/O, no clock (times come in as ms since the epoch), and the same input always gives the same changes in the
 * same order, so the timeline of a lot is reproducible from its stored observations.
 */

/**
 * auction.state words that mean the sale is over. The specification does not enumerate the state values (it shows
 * `open` and says values depend on the source), so this is the set seen or plausible for both platforms:
 * - `sold`, `sold_on_approval`: a sale happened (the price may be published later);
 * - `not_sold`, `unsold`: the lot ended without a sale (a relist may follow);
 * - `ended`, `closed`: bidding is over, result not stated;
 * - `on_approval` (and the bare `approval` the scheduler also knows): bidding is over, the seller decides.
 * An unknown word is treated as "not ended", because wrongly ending a lot would stop its reminders and close its
 * timeline, while a missed ending is still caught by lot_sub_status `Ended` or a sale price.
 */
export const ENDED_STATES: readonly string[] = [
  'sold',
  'ended',
  'closed',
  'not_sold',
  'unsold',
  'on_approval',
  'sold_on_approval',
  'approval',
];

/** auction.state words that say the vehicle was sold even when no price is published. */
const SOLD_STATES: readonly string[] = ['sold', 'sold_on_approval'];

/** `Not Sold`, `not-sold` and `NOT_SOLD` are one word: sources differ in case and separators. */
function stateWord(s: string | null): string {
  return (s ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** A number the diff can compare: NaN and infinities are "unknown", like an absent field. */
function finiteOrNull(n: number | null): number | null {
  return n !== null && Number.isFinite(n) ? n : null;
}

/** An empty or blank string carries no information; the diff treats it as absent. */
function textOrNull(s: string | null): string | null {
  return s !== null && s.trim() !== '' ? s : null;
}

const ISO_WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Parses an ISO 8601 date-time WITH an offset (`2024-05-14T10:00:00-04:00`, `...Z`, `+0530`, `+05`) to ms since
 * the epoch; null when absent, out of range, or without an offset. `Date.parse` is not used because it reads a
 * string without an offset in the machine's local zone, which would make the diff depend on where it runs.
 *
 * @returns ms since the epoch, or null. Throws nothing.
 */
export function parseAuctionAt(iso: string | null): number | null {
  if (iso === null) return null;
  const m = ISO_WITH_OFFSET.exec(iso.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, off] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = frac === undefined ? 0 : Math.floor(Number(`0.${frac}`) * 1000);
  let offsetMin = 0;
  if (off !== undefined && off.toUpperCase() !== 'Z') {
    const sign = off.startsWith('-') ? -1 : 1;
    const digits = off.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (oh > 23 || om > 59) return null;
    offsetMin = sign * (oh * 60 + om);
  }
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMin * 60_000;
  return Number.isFinite(utc) ? utc : null;
}

/**
 * Projects a normalised Vehicle (src/shared/vehicle.ts) onto the fields the diff compares (DESIGN.md "The domain":
 * Observation). Strings are kept as received (a case-only change of a status is a real change on the wire);
 * blank strings and non-finite numbers become null.
 *
 * @param v the normalised record.
 * @param observedAt when it was fetched, ms since the epoch.
 * @returns the LotState, or null when platform or lot_number is missing (such a record has no lot key).
 *   `auction_at` is ms since the epoch, null when absent or unreadable (see parseAuctionAt). Throws nothing.
 */
export function toLotState(v: Vehicle, observedAt: number): LotState | null {
  const platform = textOrNull(v.platform);
  const lotNumber = textOrNull(v.lot_number);
  if (platform === null || lotNumber === null) return null;
  return {
    platform,
    lot_number: lotNumber,
    vin: textOrNull(v.vin),
    current_bid_usd: finiteOrNull(v.pricing.current_bid_usd),
    buy_now_usd: finiteOrNull(v.pricing.buy_now_usd),
    sale_price_usd: finiteOrNull(v.pricing.sale_price_usd),
    state: textOrNull(v.auction.state),
    lot_status: textOrNull(v.auction.lot_status),
    lot_sub_status: textOrNull(v.auction.lot_sub_status),
    auction_at: parseAuctionAt(v.auction.auction_at),
    observed_at: observedAt,
  };
}

/** The lot key of a state (`platform:lot_number`). */
export function keyOf(s: LotState): LotKey {
  return lotKeyOf(s.platform, s.lot_number);
}

/**
 * The lot's auction is over: lot_sub_status `Ended` (any case), a sale price, or an auction.state in
 * ENDED_STATES (any case; spaces and hyphens read as `_`).
 *
 * @returns true when ended. Throws nothing. DESIGN.md "The domain" (`sold`: the lot ends).
 */
export function isEnded(s: LotState): boolean {
  if (stateWord(s.lot_sub_status) === 'ended') return true;
  if (s.sale_price_usd !== null) return true;
  return ENDED_STATES.includes(stateWord(s.state));
}

/**
 * The lot ended without a sale: ended, no sale price, and auction.state does not say `sold` (a `sold` lot with
 * no published price was sold; its VIN appearing again is a resale, not a relist).
 *
 * @returns true when ended unsold. Throws nothing. DESIGN.md "The domain" (`relisted`).
 */
export function isEndedUnsold(s: LotState): boolean {
  return isEnded(s) && s.sale_price_usd === null && !SOLD_STATES.includes(stateWord(s.state));
}

/**
 * What auction.state says about the result of an ended lot, for wording a `sold` change without a price:
 * `sold` (sold, price not published), `not_sold`, `on_approval` (the seller decides), or `unknown`.
 *
 * @returns the outcome word. Throws nothing.
 */
export function saleOutcome(s: LotState): 'sold' | 'not_sold' | 'on_approval' | 'unknown' {
  const w = stateWord(s.state);
  if (SOLD_STATES.includes(w)) return 'sold';
  if (w === 'not_sold' || w === 'unsold') return 'not_sold';
  if (w === 'on_approval' || w === 'approval') return 'on_approval';
  return 'unknown';
}

type Scalar = string | number | boolean | null;

/** Exact equality, except that NaN equals NaN (a NaN that stays NaN is no change). */
function same(a: Scalar, b: Scalar): boolean {
  return a === b || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b));
}

/**
 * Among the other lots of the VIN, the one `next` relists: a different key, the same VIN, ended unsold, and
 * earlier (its auction_at before next's when both are known; an ended lot with an unknown date is taken as
 * earlier, since it is already over). When several qualify, the most recent wins (latest auction_at, unknown
 * dates last; then latest observed_at; then the greatest key), because the relist continues the latest failed
 * sale, and the order of `others` must not change the answer.
 */
function relistSource(next: LotState, others: readonly LotState[]): LotState | null {
  if (next.vin === null) return null;
  const key = keyOf(next);
  let best: LotState | null = null;
  for (const o of others) {
    if (o.vin !== next.vin || keyOf(o) === key || !isEndedUnsold(o)) continue;
    if (o.auction_at !== null && next.auction_at !== null && !(o.auction_at < next.auction_at)) continue;
    // before = its auction_at, after = next.auction_at: with both unknown there is nothing to show as moved.
    if (same(o.auction_at, next.auction_at)) continue;
    if (best === null || moreRecent(o, best)) best = o;
  }
  return best;
}

function moreRecent(a: LotState, b: LotState): boolean {
  if (a.auction_at !== b.auction_at) {
    if (a.auction_at === null) return false;
    if (b.auction_at === null) return true;
    return a.auction_at > b.auction_at;
  }
  if (a.observed_at !== b.observed_at) return a.observed_at > b.observed_at;
  return keyOf(a) > keyOf(b);
}

/** Status fields, most telling first: one observation gives at most one status_changed, on the first that moved. */
const STATUS_FIELDS = [
  ['lot_sub_status', 'auction.lot_sub_status'],
  ['state', 'auction.state'],
  ['lot_status', 'auction.lot_status'],
] as const;

/**
 * The typed changes between two observations of one lot (DESIGN.md "The domain": Change), in a fixed order:
 * bid_changed, buy_now_changed, status_changed (at most one: the first that moved of auction.lot_sub_status,
 * auction.state, auction.lot_status),
 * rescheduled or relisted, sold. A null->value or value->null transition is a change; numbers compare exactly.
 *
 * - `prev` null (first observation): nothing, except `relisted` when `ctx.otherLotsOfVin` holds an earlier lot of
 *   the same VIN that ended unsold (see relistSource; the most recent wins): related_lot_key = that lot,
 *   field `auction_at`, before = its auction_at, after = next.auction_at.
 * - `rescheduled` (field `auction_at`): the date moved while prev had not ended. After the lot ended, a date that
 *   moves later while it ended unsold is `relisted` (related_lot_key = the same key); other date moves of an
 *   ended lot are not reported (the sale is over; the date is noise).
 * - `sold` (field `sale_price_usd`): "the sale result is in". Emitted when next is ended (isEnded) and prev was
 *   not, so once per ending. before = prev.sale_price_usd, after = next.sale_price_usd: a number is the price;
 *   null means the lot ended unsold or the price is not published (the alert text tells which from the state).
 *   A lot that ends, reopens (a relist under the same key) and ends again has two endings, so two `sold`.
 *
 * Every change has observed_at = next.observed_at and vin = next.vin ?? prev.vin.
 *
 * @param prev the previous observation of the same lot, or null. A prev with another key is treated as null.
 * @param next the new observation.
 * @param ctx.otherLotsOfVin other lots stored for next's VIN (any order).
 * @returns the changes, possibly empty. Throws nothing.
 */
export function diffLot(
  prev: LotState | null,
  next: LotState,
  ctx: { otherLotsOfVin?: readonly LotState[] } = {},
): Change[] {
  const key = keyOf(next);
  const before = prev !== null && keyOf(prev) === key ? prev : null;
  const vin = next.vin ?? before?.vin ?? null;
  const change = (
    kind: Change['kind'],
    field: string,
    b: Scalar,
    a: Scalar,
    related: LotKey | null = null,
  ): Change => ({
    kind,
    lot_key: key,
    vin,
    field,
    before: b,
    after: a,
    related_lot_key: related,
    observed_at: next.observed_at,
  });

  if (before === null) {
    const src = relistSource(next, ctx.otherLotsOfVin ?? []);
    return src ? [change('relisted', 'auction_at', src.auction_at, next.auction_at, keyOf(src))] : [];
  }

  const out: Change[] = [];
  if (!same(before.current_bid_usd, next.current_bid_usd)) {
    out.push(change('bid_changed', 'current_bid_usd', before.current_bid_usd, next.current_bid_usd));
  }
  if (!same(before.buy_now_usd, next.buy_now_usd)) {
    out.push(change('buy_now_changed', 'buy_now_usd', before.buy_now_usd, next.buy_now_usd));
  }
  // One auction event (a lot going live, ending) moves several status fields at once; it is one change for the
  // user and must be one alert, so only the most telling field that moved is reported.
  const moved = STATUS_FIELDS.find(([prop]) => !same(before[prop], next[prop]));
  if (moved) out.push(change('status_changed', moved[1], before[moved[0]], next[moved[0]]));
  const prevEnded = isEnded(before);
  if (!same(before.auction_at, next.auction_at)) {
    if (!prevEnded) {
      out.push(change('rescheduled', 'auction_at', before.auction_at, next.auction_at));
    } else if (
      isEndedUnsold(before) &&
      next.auction_at !== null &&
      (before.auction_at === null || next.auction_at > before.auction_at)
    ) {
      out.push(change('relisted', 'auction_at', before.auction_at, next.auction_at, key));
    }
  }
  if (isEnded(next) && !prevEnded) {
    out.push(change('sold', 'sale_price_usd', before.sale_price_usd, next.sale_price_usd));
  }
  return out;
}

/**
 * Membership changes of one run of a saved search (DESIGN.md "The domain": new_match, dropped_out).
 *
 * - `new_match` for each key of `current` not in `prevKeys`, in the order of `current`; none when `baseline`
 *   (the first run establishes what exists without notifying).
 * - `dropped_out` for each key of `prevKeys` absent from `current`, sorted by key; only when `complete` (every
 *   page was read), because a lot missing from a partial run may simply be on a page not fetched.
 * A lot present twice in `current` (it moved between pages) counts once. field, before, after and
 * related_lot_key are null (membership itself is the change); observed_at = opts.observedAt.
 *
 * @param prevKeys lot keys that were members before this run.
 * @param current the lots this run returned (any order, duplicates allowed).
 * @param opts.observedAt when the run finished, ms since the epoch.
 * @returns the changes, possibly empty. Throws nothing.
 */
export function diffSearch(
  prevKeys: ReadonlySet<LotKey>,
  current: readonly LotState[],
  opts: { complete: boolean; baseline: boolean; observedAt: number },
): Change[] {
  const membership = (kind: 'new_match' | 'dropped_out', key: LotKey, vin: string | null): Change => ({
    kind,
    lot_key: key,
    vin,
    field: null,
    before: null,
    after: null,
    related_lot_key: null,
    observed_at: opts.observedAt,
  });
  const seen = new Set<LotKey>();
  const out: Change[] = [];
  for (const s of current) {
    const key = keyOf(s);
    if (seen.has(key)) continue;
    seen.add(key);
    if (!opts.baseline && !prevKeys.has(key)) out.push(membership('new_match', key, s.vin));
  }
  if (opts.complete) {
    const gone = [...prevKeys].filter((k) => !seen.has(k)).sort();
    for (const k of gone) out.push(membership('dropped_out', k, null));
  }
  return out;
}
