import { ENDED_STATE_WORDS, saleOutcomeOf, type SaleFacts, type SaleOutcome } from '../../shared/saleOutcome';
import type { Vehicle } from '../../shared/vehicle';
import { lotKeyOf, type Change, type LotKey, type LotState } from '../../shared/watch';

/**
 * The diff of the watch engine (docs/architecture.md "The domain": Observation, Change). Pure and deterministic: no
 * I/O, no clock (times come in as ms since the epoch), and the same input always gives the same changes in the same
 * order, so the timeline of a lot is reproducible from its stored observations.
 */

/**
 * auction.state words that mean the sale is over, in either dialect (src/shared/saleOutcome.ts): the real service's
 * `finished`, and the specification dialect's plausible words. An unknown word is "not ended", because wrongly
 * ending a lot would stop its reminders and close its timeline, while a missed ending is still caught by
 * lot_sub_status `Ended`, a sale price or a last_sold_status.
 */
export const ENDED_STATES: readonly string[] = ENDED_STATE_WORDS;

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
 * Projects a normalised Vehicle (src/shared/vehicle.ts) onto the fields the diff compares
 * (docs/architecture.md "The domain": Observation). Strings are kept as received (a case-only change of a status is
 * a real change on the wire); blank strings and non-finite numbers become null.
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
    last_sold_status: textOrNull(v.auction.last_sold_status),
    auction_at: parseAuctionAt(v.auction.auction_at),
    observed_at: observedAt,
  };
}

/** The lot key of a state (`platform:lot_number`). */
export function keyOf(s: LotState): LotKey {
  return lotKeyOf(s.platform, s.lot_number);
}

/** The sale facts of a LotState. */
function factsOf(s: LotState): SaleFacts {
  return {
    state: s.state,
    lot_sub_status: s.lot_sub_status,
    last_sold_status: s.last_sold_status,
    sale_price_usd: s.sale_price_usd,
  };
}

/**
 * The lot's sale outcome from either dialect: open, sold, sold on approval, ended unsold (saleOutcomeOf in
 * src/shared/saleOutcome.ts, docs/service-contract.md "Sale results").
 *
 * @returns the outcome. Throws nothing.
 */
export function outcomeOf(s: LotState): SaleOutcome {
  return saleOutcomeOf(factsOf(s));
}

/**
 * The lot's auction is over, whatever its result (see outcomeOf).
 *
 * @returns true when ended. Throws nothing. docs/architecture.md "The domain" (a sale result: the lot ends).
 */
export function isEnded(s: LotState): boolean {
  return outcomeOf(s) !== 'open';
}

/**
 * The vehicle may come back under a new lot or date: the auction ended unsold, or sold on approval (the seller may
 * refuse the bid, and such lots often return as a relist within days, docs/service-contract.md "Sale results"). A
 * plain `sold` lot whose VIN appears again is a resale, not a relist.
 *
 * @returns true when a relist may follow. Throws nothing. docs/architecture.md "The domain" (`relisted`).
 */
export function mayBeRelisted(s: LotState): boolean {
  const o = outcomeOf(s);
  return o === 'ended_unsold' || o === 'sold_on_approval';
}

type Scalar = string | number | boolean | null;

/** Exact equality, except that NaN equals NaN (a NaN that stays NaN is no change). */
function same(a: Scalar, b: Scalar): boolean {
  return a === b || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b));
}

/**
 * Among the other lots of the VIN, the one `next` relists: a different key, the same VIN, ended unsold or sold on
 * approval (mayBeRelisted), and
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
    if (o.vin !== next.vin || keyOf(o) === key || !mayBeRelisted(o)) continue;
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
 * The typed changes between two observations of one lot (docs/architecture.md "The domain": Change), in a fixed
 * order: bid_changed, buy_now_changed, status_changed (at most one: the first that moved of auction.lot_sub_status,
 * auction.state, auction.lot_status), rescheduled or relisted, sale_result. A null->value or value->null transition
 * is a change; numbers compare exactly.
 *
 * - `prev` null (first observation): nothing, except `relisted` when `ctx.otherLotsOfVin` holds an earlier lot of
 *   the same VIN that ended unsold or sold on approval (see relistSource; the most recent wins): related_lot_key =
 *   that lot, field `auction_at`, before = its auction_at, after = next.auction_at.
 * - `rescheduled` (field `auction_at`): the date moved while prev had not ended. After the lot ended, a date that
 *   moves later while it may be relisted is `relisted` (related_lot_key = the same key); other date moves of an
 *   ended lot are not reported (the sale is over; the date is noise).
 * - `sale_result` (field `sale_price_usd`): the auction is over, with `outcome` sold | sold_on_approval |
 *   ended_unsold (outcomeOf, either dialect). Emitted when next is over and prev was open (once per ending), or
 *   when the seller accepts a bid that was on approval (sold on approval -> sold). A price published after the
 *   ending is not a second result. before =
 *   prev.sale_price_usd, after = next.sale_price_usd (USD, null when no price is published). The ending is ONE
 *   event for the buyer: the status fields that moved with it give no separate status_changed.
 *   A lot that ends, reopens (a relist under the same key) and ends again has two endings, so two sale_result.
 *
 * Every change has observed_at = next.observed_at and vin = next.vin ?? prev.vin; `outcome` is null except on
 * sale_result.
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
    outcome: Change['outcome'] = null,
  ): Change => ({
    kind,
    lot_key: key,
    vin,
    field,
    before: b,
    after: a,
    related_lot_key: related,
    outcome,
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
  const was = outcomeOf(before);
  const now = outcomeOf(next);
  // Once per ending; and again only when the seller accepts a bid that was on approval (news the buyer waits for).
  const saleResult = now !== 'open' && (was === 'open' || (was === 'sold_on_approval' && now === 'sold'));
  // One auction event (a lot going live, ending) moves several status fields at once; it is one change for the
  // user and must be one alert, so only the most telling field that moved is reported, and none when the move is
  // the ending itself (the sale result says it).
  const moved = STATUS_FIELDS.find(([prop]) => !same(before[prop], next[prop]));
  if (moved && !saleResult) out.push(change('status_changed', moved[1], before[moved[0]], next[moved[0]]));
  const prevEnded = was !== 'open';
  if (!same(before.auction_at, next.auction_at)) {
    if (!prevEnded) {
      out.push(change('rescheduled', 'auction_at', before.auction_at, next.auction_at));
    } else if (
      mayBeRelisted(before) &&
      next.auction_at !== null &&
      (before.auction_at === null || next.auction_at > before.auction_at)
    ) {
      out.push(change('relisted', 'auction_at', before.auction_at, next.auction_at, key));
    }
  }
  if (saleResult) {
    out.push(change('sale_result', 'sale_price_usd', before.sale_price_usd, next.sale_price_usd, null, now));
  }
  return out;
}

/**
 * Membership changes of one run of a saved search (docs/architecture.md "The domain": new_match, dropped_out).
 *
 * - `new_match` for each key of `current` not in `prevKeys`, in the order of `current`; when `baseline` (no
 *   complete reading of the list yet, so what exists is still being established), only for lots whose auction_at
 *   is known and below `coveredUntil`: the part of the list, ordered by auction date, that earlier complete page
 *   sequences read (docs/architecture.md "Saved searches and new matches"). A lot beyond it is first seen, not new;
 *   so is a lot whose auction_at is already past at `observedAt` (listed and sold between two runs: nothing to bid
 *   on any more).
 * - `dropped_out` for each key of `prevKeys` absent from `current`, sorted by key; only when `complete` (every
 *   page was read), because a lot missing from a partial run may simply be on a page not fetched.
 * A lot present twice in `current` (it moved between pages) counts once. field, before, after and
 * related_lot_key are null (membership itself is the change); observed_at = opts.observedAt.
 *
 * @param prevKeys lot keys that were members before this run.
 * @param current the lots this run returned (any order, duplicates allowed).
 * @param opts.observedAt when the run finished, ms since the epoch.
 * @param opts.coveredUntil auction time (ms) below which a baseline run still reports new matches; null or absent:
 *   none.
 * @returns the changes, possibly empty. Throws nothing.
 */
export function diffSearch(
  prevKeys: ReadonlySet<LotKey>,
  current: readonly LotState[],
  opts: { complete: boolean; baseline: boolean; observedAt: number; coveredUntil?: number | null },
): Change[] {
  const membership = (kind: 'new_match' | 'dropped_out', key: LotKey, vin: string | null): Change => ({
    kind,
    lot_key: key,
    vin,
    field: null,
    before: null,
    after: null,
    related_lot_key: null,
    outcome: null,
    observed_at: opts.observedAt,
  });
  const seen = new Set<LotKey>();
  const out: Change[] = [];
  for (const s of current) {
    const key = keyOf(s);
    if (seen.has(key)) continue;
    seen.add(key);
    if (prevKeys.has(key)) continue;
    const covered =
      !opts.baseline ||
      (s.auction_at !== null && opts.coveredUntil != null && s.auction_at < opts.coveredUntil);
    // First seen after its sale time: too late to bid on, so not news (a member from now on, never alerted).
    const biddable = s.auction_at === null || s.auction_at > opts.observedAt;
    if (covered && biddable) out.push(membership('new_match', key, s.vin));
  }
  if (opts.complete) {
    const gone = [...prevKeys].filter((k) => !seen.has(k)).sort();
    for (const k of gone) out.push(membership('dropped_out', k, null));
  }
  return out;
}
