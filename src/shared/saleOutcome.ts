/**
 * The sale result of a lot, read from either dialect of the service (docs/service-contract.md "Sale results"):
 * - the specification's: `auction.lot_sub_status` Ended, `auction.state` words, `pricing.sale_price_usd`;
 * - the real service's: `auction.state` "finished" with `auction.last_sold_status` "Sold" | "Sold on Approval" |
 *   null and `pricing.last_sold_price_usd` (docs/service-contract.md "Sale results").
 * Pure and zod-free, so core (the diff, the alert texts) and the renderer (inbox, timeline, sale history, library)
 * decide and name an outcome the same way.
 */

/** Where a lot's auction stands: still open, or over with one of three results. */
export const SALE_OUTCOMES = ['open', 'sold', 'sold_on_approval', 'ended_unsold'] as const;
export type SaleOutcome = (typeof SALE_OUTCOMES)[number];

/**
 * How long after its listed sale time a lot with no result yet is taken to be on the block or just off it (ms): the
 * lots of one sale go on the block one after another from that time, live bids run for minutes, and the service
 * shows the result within about 15 minutes of the end (docs/service-contract.md "Sale results"). The watcher's
 * projections assume the lot has ended by then; the screens say "Sale under way" until then, "Sale time passed"
 * after.
 */
export const ASSUMED_LIVE_SPAN_MS = 20 * 60_000;

/** The three results of an auction that is over. */
export type EndedOutcome = Exclude<SaleOutcome, 'open'>;

/** What a buyer reads for each outcome. "Sold on approval" is never shortened to "Sold". */
export const SALE_OUTCOME_LABEL: Readonly<Record<SaleOutcome, string>> = {
  open: 'Open',
  sold: 'Sold',
  sold_on_approval: 'Sold on approval',
  ended_unsold: 'Ended unsold',
};

/** The facts an outcome is decided from; any may be null. Amounts in USD. */
export interface SaleFacts {
  /** auction.state as received (`open`, `finished`, or a specification-style word such as `sold`). */
  state: string | null;
  /** auction.lot_sub_status (specification dialect: Live, Open, Ended). */
  lot_sub_status: string | null;
  /** auction.last_sold_status (real dialect: "Sold", "Sold on Approval", null). */
  last_sold_status: string | null;
  /** The sale price: pricing.sale_price_usd, else pricing.last_sold_price_usd; 0 already read as null. */
  sale_price_usd: number | null;
}

/** `Not Sold`, `not-sold` and `NOT_SOLD` are one word: sources differ in case and separators. */
export function stateWord(s: string | null | undefined): string {
  return (s ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/**
 * auction.state words that mean the auction is over. `finished` is the real service's word; the others are the
 * specification dialect's plausible words (it shows only `open` and leaves the set open).
 */
export const ENDED_STATE_WORDS: readonly string[] = [
  'finished',
  'sold',
  'ended',
  'closed',
  'not_sold',
  'unsold',
  'on_approval',
  'sold_on_approval',
  'approval',
];

/** auction.state words that say the auction is still running (bidding open, or live now). */
const OPEN_STATE_WORDS: readonly string[] = ['open', 'live', 'upcoming'];

const APPROVAL_WORDS: readonly string[] = ['on_approval', 'sold_on_approval', 'approval'];

/**
 * Decides a lot's sale outcome from either dialect. In order:
 * 1. Over when lot_sub_status is Ended, auction.state is an ended word (`finished`, `sold`, ...), or a sale price
 *    is known (a price above 0: the normaliser reads 0 as no price).
 * 2. Still open when auction.state or lot_sub_status says so (`open`, `live`), whatever last_sold_status says.
 * 3. An unknown state word is "not ended" unless last_sold_status says a sale happened.
 * Once over: "Sold on Approval" (or an approval state word) is `sold_on_approval`; "Sold" (or state `sold`, or a
 * sale price) is `sold`; anything else is `ended_unsold`.
 *
 * @returns the outcome. Throws nothing.
 */
export function saleOutcomeOf(f: SaleFacts): SaleOutcome {
  const state = stateWord(f.state);
  const sub = stateWord(f.lot_sub_status);
  const last = stateWord(f.last_sold_status);
  const lastSaysSold = last === 'sold' || last === 'sold_on_approval';
  const price = f.sale_price_usd !== null && Number.isFinite(f.sale_price_usd) && f.sale_price_usd > 0;
  let ended: boolean;
  if (sub === 'ended' || ENDED_STATE_WORDS.includes(state) || price) ended = true;
  else if (OPEN_STATE_WORDS.includes(state) || sub === 'open' || sub === 'live') ended = false;
  else ended = lastSaysSold;
  if (!ended) return 'open';
  if (last === 'sold_on_approval' || APPROVAL_WORDS.includes(state)) return 'sold_on_approval';
  if (last === 'sold' || state === 'sold' || price) return 'sold';
  return 'ended_unsold';
}

/** True when the auction is over (any of the three results). Throws nothing. */
export function isOver(f: SaleFacts): boolean {
  return saleOutcomeOf(f) !== 'open';
}

/**
 * Reads a sale-history row's status ("Sold", "Sold on Approval", or a specification record's words) as an
 * outcome; null when the text names none (the row then shows its text as received).
 */
export function outcomeOfStatusText(status: string | null): EndedOutcome | null {
  const w = stateWord(status);
  if (w === 'sold') return 'sold';
  if (APPROVAL_WORDS.includes(w)) return 'sold_on_approval';
  if (w === 'not_sold' || w === 'unsold' || w === 'ended_unsold') return 'ended_unsold';
  return null;
}

/** The sale facts of a normalised Vehicle (src/shared/vehicle.ts): auction words and the sale price. */
export function vehicleOutcome(v: {
  auction: { state: string | null; lot_sub_status: string | null; last_sold_status: string | null };
  pricing: { sale_price_usd: number | null };
}): SaleOutcome {
  return saleOutcomeOf({
    state: v.auction.state,
    lot_sub_status: v.auction.lot_sub_status,
    last_sold_status: v.auction.last_sold_status,
    sale_price_usd: v.pricing.sale_price_usd,
  });
}
