import type { Attempt } from './attempts';

/**
 * Seller signals of a VIN (docs/architecture.md "A VIN's attempts"): facts computed from its attempts (mergeAttempts),
 * said as the facts they are, never as advice. Pure; amounts in USD, days whole.
 */

/** How the bid moved from one attempt to the next: `falling`, `stalled` (within STALLED_SHARE), `rising`. */
export type BidTrend = 'falling' | 'stalled' | 'rising';

/** Two attempts' bids within this share of the earlier one are "stalled" (neither side moved the price). */
export const STALLED_SHARE = 0.03;

/** The signals of one vehicle's attempts. */
export interface SellerSignals {
  /** How many attempts are known (the latest attempt's number); 0 without any. */
  attempts: number;
  /** Relists: attempts after the first. */
  relists: number;
  /** Attempts that ended sold on approval and were followed by another attempt (the sale fell through). */
  approval_returns: number;
  /** The bid (or the price, for a sale) of each attempt in turn, USD; null where unknown. */
  bids_usd: (number | null)[];
  /** The move between the last two attempts whose bids are both known; null with fewer than two. */
  bid_trend: BidTrend | null;
  /** Days from the first attempt's first sight or day (the earlier) to the last attempt's sale (or `now` while open). */
  days_on_market: number | null;
  /** The facts as a buyer reads them, e.g. "3rd attempt; last two ended on approval at $6,600 and $6,200". */
  facts: string[];
}

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const usd = (n: number): string => USD.format(n);

/** `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`. Throws nothing. */
export function ordinal(n: number): string {
  const t = n % 100;
  const suffix = t >= 11 && t <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

const WORDS = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const count = (n: number): string => WORDS[n] ?? String(n);

/** What an attempt reached: its price when it sold, else its highest bid; null when neither is known. */
const reached = (a: Attempt): number | null =>
  (a.outcome === 'sold' || a.outcome === 'sold_on_approval' ? (a.price_usd ?? a.bid_usd) : a.bid_usd) ?? null;

const OUTCOME_WORDS: Record<Attempt['outcome'], string> = {
  sold: 'sold',
  sold_on_approval: 'ended on approval',
  ended_unsold: 'ended unsold',
  open: 'is open',
  relisted: 'came back',
  vanished: 'ended with no result seen',
};

/** "at $6,600 and $6,200" / "at $6,600 and a bid not known". */
function atPrices(as: Attempt[]): string {
  const ps = as.map((a) => {
    const p = reached(a);
    return p === null ? 'a bid not known' : usd(p);
  });
  return `at ${ps.length <= 2 ? ps.join(' and ') : `${ps.slice(0, -1).join(', ')} and ${ps[ps.length - 1]}`}`;
}

const DAY_MS = 86_400_000;

/**
 * The seller signals of a vehicle from its attempts (oldest first, as mergeAttempts returns them), at `now` (ms).
 * Facts, in order: the attempt number ("3rd attempt"; once over with its result, "3rd attempt sold at $2,900") with
 * the run of identical outcomes that ended the attempts before the latest ("last two ended on approval at $6,600 and
 * $6,200" while the latest is open, "the one before ended on approval at $3,275" once it is over); sold-on-approval returns; the bid's move
 * between the last two attempts with known bids ("Bid fell from $6,600 to $6,200 between attempts", "Bid stalled at
 * about $6,600", "Bid rose ..."); days on the market, from the first attempt's first sight or sale day (the earlier)
 * to the last attempt's sale (or `now` while it is open). A single attempt gives only "1st attempt" and its days on the market.
 *
 * @returns the signals; `facts` empty without attempts. Throws nothing.
 */
export function sellerSignals(attempts: readonly Attempt[], now: number): SellerSignals {
  const n = attempts.length;
  const bids = attempts.map(reached);
  const known = attempts.filter((a) => reached(a) !== null);
  let trend: BidTrend | null = null;
  const facts: string[] = [];
  if (n === 0)
    return {
      attempts: 0,
      relists: 0,
      approval_returns: 0,
      bids_usd: [],
      bid_trend: null,
      days_on_market: null,
      facts,
    };
  const last = attempts[n - 1]!;
  const before = attempts.slice(0, -1);
  // The latest run of the same outcome among the attempts before the latest one.
  const run: Attempt[] = [];
  for (let i = before.length - 1; i >= 0; i--) {
    if (run.length && before[i]!.outcome !== run[0]!.outcome) break;
    run.unshift(before[i]!);
  }
  // While the latest attempt is open the earlier ones are "the last"; once it is over it says its own result first.
  const open = last.outcome === 'open';
  const own = reached(last);
  let head = `${ordinal(last.number)} attempt`;
  if (!open) head += ` ${OUTCOME_WORDS[last.outcome]}${own === null ? '' : ` ${atPrices([last])}`}`;
  if (run.length) {
    const which = open
      ? run.length === 1
        ? 'last one'
        : `last ${count(run.length)}`
      : run.length === 1
        ? 'the one before'
        : `the ${count(run.length)} before`;
    const prices = run.some((a) => reached(a) !== null) ? ` ${atPrices(run)}` : '';
    head += `; ${which} ${OUTCOME_WORDS[run[0]!.outcome]}${prices}`;
  }
  facts.push(head);
  const approvals = before.filter((a) => a.outcome === 'sold_on_approval').length;
  if (approvals > 0)
    facts.push(`Sold on approval ${approvals === 1 ? 'once' : `${count(approvals)} times`} and listed again`);
  if (known.length >= 2) {
    const a = reached(known[known.length - 2]!)!;
    const b = reached(known[known.length - 1]!)!;
    trend = Math.abs(b - a) <= a * STALLED_SHARE ? 'stalled' : b < a ? 'falling' : 'rising';
    facts.push(
      trend === 'stalled'
        ? `Bid stalled at about ${usd(b)}`
        : `Bid ${trend === 'falling' ? 'fell' : 'rose'} from ${usd(a)} to ${usd(b)} between attempts`,
    );
  }
  const first = attempts[0]!;
  const firstDay = first.day === null ? null : Date.parse(`${first.day}T00:00:00Z`);
  // Listed before its sale day when Lotwatch saw it open; the sale day when only a later source knew it.
  const seen = [first.first_seen_at, firstDay].filter((t): t is number => t !== null && Number.isFinite(t));
  const start = seen.length ? Math.min(...seen) : null;
  const end =
    last.outcome === 'open'
      ? now
      : (last.auction_at ?? (last.day === null ? null : Date.parse(`${last.day}T00:00:00Z`)));
  const days = start !== null && end !== null && end >= start ? Math.floor((end - start) / DAY_MS) : null;
  if (days !== null)
    facts.push(
      `${days} day${days === 1 ? '' : 's'} on the market${last.outcome === 'open' ? ' so far' : ''}`,
    );
  return {
    attempts: last.number,
    relists: n - 1,
    approval_returns: approvals,
    bids_usd: bids,
    bid_trend: trend,
    days_on_market: days,
    facts,
  };
}
