import { format, formatDistanceStrict } from 'date-fns';
import type { LotSummary } from '../../../shared/ipc/contract';
import { ASSUMED_LIVE_SPAN_MS, SALE_OUTCOME_LABEL, type EndedOutcome } from '../../../shared/saleOutcome';

export { lotPageUrl } from '../../../shared/vehicle';

const usdFmt = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});
const intFmt = new Intl.NumberFormat('en-US');

/** "$12,300", or an en dash for unknown. Amounts are US dollars. */
export function usd(n: number | null | undefined): string {
  return n === null || n === undefined ? '–' : usdFmt.format(n);
}

/**
 * A current bid in words: "$4,250", or "No bids yet" when nobody has bid (0 or unknown), never "$0"; "No bids" once
 * the auction is over (`ended`). The one wording of a missing bid for every view (results, related lots,
 * watchlist, timeline).
 */
export function bidText(n: number | null | undefined, ended = false): string {
  if (n === null || n === undefined || !(n > 0)) return ended ? 'No bids' : 'No bids yet';
  return usdFmt.format(n);
}

/**
 * A sale result in words: "Sold for $9,250", "Sold on approval at $6,600", "Ended unsold"; never "Sold" for a lot
 * that ended unsold, and "Sold (price not published)" when the service gives no price.
 */
export function saleResultWords(outcome: EndedOutcome, price: number | null | undefined): string {
  const amount = price !== null && price !== undefined && price > 0 ? usdFmt.format(price) : null;
  switch (outcome) {
    case 'sold':
      return amount ? `Sold for ${amount}` : 'Sold (price not published)';
    case 'sold_on_approval':
      return amount ? `Sold on approval at ${amount}` : SALE_OUTCOME_LABEL.sold_on_approval;
    default:
      return SALE_OUTCOME_LABEL.ended_unsold;
  }
}

/** A status word as received ("open", "not_sold", "Live") read as a word: "Open", "Not sold", "Live". */
export function statusWord(s: string): string {
  const w = s.replace(/_/g, ' ').trim();
  return w ? w.charAt(0).toUpperCase() + w.slice(1) : w;
}

/** "91,351 mi", or an en dash. */
export function miles(n: number | null | undefined): string {
  return n === null || n === undefined ? '–' : `${intFmt.format(Math.round(n))} mi`;
}

/** A local date and time such as "Nov 23, 3:00 PM", or an en dash. `t` in ms since the epoch. */
export function dateTime(t: number | null | undefined): string {
  return t === null || t === undefined ? '–' : format(t, 'MMM d, h:mm a');
}

/** A local calendar day such as "May 14, 2024", or an en dash. `t` in ms since the epoch. */
export function day(t: number | null | undefined): string {
  return t === null || t === undefined ? '–' : format(t, 'MMM d, yyyy');
}

/**
 * A date the service sends as text ("2024-05-14", "2024-05-14T10:00:00Z") read as a date: "May 14, 2024". The
 * calendar day is the one written (no shift by the computer's time zone); an en dash when absent, the text as
 * received when it is not a date.
 */
export function calendarDate(text: string | null | undefined): string {
  if (!text) return '–';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text.trim());
  if (!m) return text;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(d.getTime()) ? text : format(d, 'MMM d, yyyy');
}

/** "in 2 hours" / "5 minutes ago" relative to `now` (ms); "now" / "just now" within 10 seconds. */
export function relative(t: number | null | undefined, now: number): string {
  if (t === null || t === undefined) return '–';
  if (Math.abs(t - now) < 10_000) return t > now ? 'now' : 'just now';
  const d = formatDistanceStrict(t, now);
  return t >= now ? `in ${d}` : `${d} ago`;
}

/** Units of `relative` said short for a narrow cell: "in 4 min", "2 h ago", "in 3 d". */
const SHORT_UNITS: [RegExp, string][] = [
  [/ seconds?\b/, ' s'],
  [/ minutes?\b/, ' min'],
  [/ hours?\b/, ' h'],
  [/ days?\b/, ' d'],
  [/ months?\b/, ' mo'],
  [/ years?\b/, ' y'],
];

/** `relative` with its unit abbreviated ("in 4 min", "2 h ago") for a narrow table cell; its title says it whole. */
export function shortRelative(t: number | null | undefined, now: number): string {
  return SHORT_UNITS.reduce((text, [unit, short]) => text.replace(unit, short), relative(t, now));
}

/**
 * Where the sale of a lot with no result yet stands once its sale time `at` has passed (`now`; both ms since the
 * epoch), said the same on every screen: for ASSUMED_LIVE_SPAN_MS after it "Sale under way" (its lot may be on the
 * block; "result to follow"), then "Sale time passed" ("no result yet"). The real service's state reads "open" while
 * a lot is live, so the time since the sale is what there is to go by. `head` stands alone in a narrow cell, `sub`
 * goes under it, and `line` is both on one line ("Sale under way, result to follow").
 */
export function pastSaleWords(at: number, now: number): { head: string; sub: string; line: string } {
  const [head, sub] =
    now - at < ASSUMED_LIVE_SPAN_MS
      ? ['Sale under way', 'result to follow']
      : ['Sale time passed', 'no result yet'];
  return { head, sub, line: `${head}, ${sub}` };
}

/**
 * When a lot sells, as a results row says it: "in 2 hours" before its sale time; once that time has passed on a lot
 * with no result yet (still open), "Sale under way" then "Sale time passed" (pastSaleWords), never "7 minutes ago"
 * beside "Open", which reads as if it were still for sale; for an ended lot, how long ago it sold ("3 days ago").
 * `t` and `now` in ms since the epoch.
 */
export function saleWhen(t: number | null | undefined, now: number, outcome: LotSummary['outcome']): string {
  if (outcome === 'open' && t !== null && t !== undefined && t <= now) return pastSaleWords(t, now).head;
  return relative(t, now);
}

/** A live countdown "2d 4h", "3h 12m", "4m 05s", or "started". */
export function countdown(t: number | null | undefined, now: number): string {
  if (t === null || t === undefined) return '–';
  let s = Math.floor((t - now) / 1000);
  if (s <= 0) return 'started';
  const d = Math.floor(s / 86400);
  s -= d * 86400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  return `${m}m ${String(s).padStart(2, '0')}s`;
}

/** The platform's display name for a wire value. */
export function platformName(p: string | null | undefined): string {
  return p === 'copart' ? 'Copart' : p === 'iaai' ? 'IAAI' : (p ?? '–');
}

/** Short words for change and alert kinds (timeline rows, inbox labels); unknown kinds show as they are. */
export const KIND_SHORT: Readonly<Record<string, string>> = {
  new_match: 'New match',
  bid_changed: 'Bid',
  buy_now_changed: 'Buy now',
  status_changed: 'Status',
  rescheduled: 'Rescheduled',
  sale_result: 'Sale result',
  relisted: 'Relisted',
  dropped_out: 'Dropped out',
  threshold: 'Threshold',
  reminder: 'Reminder',
  key_rejected: 'API key',
  quota_low: 'Quota',
  search_failing: 'Search failing',
  search_empty: 'Search empty',
  channel_failing: 'Channel failing',
  call_new_item: 'New item',
  call_removed_item: 'Item gone',
  call_value_changed: 'Value changed',
  call_shape_changed: 'Answer changed shape',
  call_failing: 'Call paused',
  digest: 'Digest',
};

/** The facts a lot's auction status is told from, in either dialect of the service. */
export type StatusFacts = Pick<
  LotSummary,
  'outcome' | 'state' | 'lot_status' | 'lot_sub_status' | 'buy_now_usd'
>;

/**
 * A lot's auction status in words, from either dialect (docs/service-contract.md): the sale result once the
 * auction is over ("Sold", "Sold on approval", "Ended unsold"); else the specification's sub-status (Live, Open),
 * else the real service's state word ("open" reads "Open"). `saleType` is the specification's lot status (Timed,
 * Buy Now), else "Buy Now" when a buy-now price is offered.
 */
export function auctionStatus(l: StatusFacts): {
  label: string;
  tone: 'open' | 'live' | 'ended';
  saleType: string | null;
} {
  const saleType = l.lot_status ?? (l.buy_now_usd !== null && l.buy_now_usd > 0 ? 'Buy Now' : null);
  if (l.outcome !== 'open') {
    const label = SALE_OUTCOME_LABEL[l.outcome];
    return {
      label,
      tone: 'ended',
      saleType: saleType?.toLowerCase() === label.toLowerCase() ? null : saleType,
    };
  }
  const word = l.lot_sub_status ?? l.state;
  const live = (word ?? '').toLowerCase() === 'live';
  const label = (word && statusWord(word)) || 'Open';
  return { label, tone: live ? 'live' : 'open', saleType: saleType === label ? null : saleType };
}

const AND_LIST = new Intl.ListFormat('en-GB', { type: 'conjunction' });

/** A list for people, the platform's way: "a", "a and b", "a, b and c" (no serial comma, as Lotwatch writes). */
export function andList(parts: readonly string[]): string {
  return AND_LIST.format(parts);
}
