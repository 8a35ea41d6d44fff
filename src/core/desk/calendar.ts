import ical, { escape as escapeText, ICalAlarmType } from 'ical-generator';
import type { Platform } from '../../shared/vehicle';
import type { LotKey } from '../../shared/watch';
import { usd } from '../alerts/format';
import { qualified, type CostGap, type CostPart } from '../../shared/shipping';

/**
 * The watched lots' sales as an iCalendar file (RFC 5545), so a buyer sees them in their own calendar. Pure: no I/O,
 * no clock (the export time comes in as `opts.now`), and the same input always gives the same text.
 *
 * A sale that is rescheduled must MOVE in the buyer's calendar, not appear twice, whether the buyer imports a fresh
 * export or subscribes to Lotwatch's address. RFC 5545 gives the means, and this module keeps to them:
 * - UID (§3.8.4.7) names the event, not one version of it: it is `<lot_key>@lotwatch`, the same on every export;
 * - SEQUENCE (§3.8.7.4) and LAST-MODIFIED (§3.8.7.3) say which of two versions of that UID is the newer one;
 * - DTSTAMP (§3.8.7.2) is when this file was made.
 */

/** One watched lot's sale, as the calendar needs it. Times are ms since the epoch; amounts are US dollars. */
export interface CalendarSale {
  /** `platform:lot_number`, e.g. `copart:45416833`: gives the event its stable UID. */
  lot_key: LotKey;
  platform: Platform;
  lot_number: string;
  vin: string | null;
  /** What the lot is, e.g. `2018 HONDA CIVIC`. */
  title: string;
  /** The sale time (ms since the epoch), or null while the platform has not scheduled the lot: then it is left out. */
  auction_at: number | null;
  /** The yard, e.g. `DALLAS, TX`. */
  location: string | null;
  current_bid_usd: number | null;
  max_bid_usd: number | null;
  /** What the max bid's landed cost left out (src/shared/shipping.ts); absent or empty: nothing. */
  max_bid_excludes?: readonly CostPart[];
  landed_cost_usd: number | null;
  /** What the landed cost leaves out; absent or empty: nothing. */
  landed_excludes?: readonly CostGap[];
  /** The buyer's own notes; may hold any text, line breaks included. */
  notes: string;
  /** The lot's page on the platform. */
  url: string | null;
  /** When Lotwatch last saw this sale time or the lot change (ms since the epoch): LAST-MODIFIED and SEQUENCE. */
  updated_at: number;
  /**
   * The watch's reminders (its rules' `remind_minutes_before`, whole minutes before the sale, 1..10080): one VALARM
   * each, so the buyer's calendar reminds them as Lotwatch would. Absent or empty: no alarm.
   */
  remind_minutes_before?: readonly number[];
}

/** Options of watchedSalesCalendar. */
export interface CalendarOptions {
  /** When the file is made (ms since the epoch): the DTSTAMP of every event. */
  now: number;
  /** The calendar's name as a calendar app shows it (NAME, X-WR-CALNAME); `Lotwatch: watched sales` by default. */
  name?: string;
}

export const DEFAULT_CALENDAR_NAME = 'Lotwatch: watched sales';

/** How long an event lasts: a sale has no announced end, and 30 minutes covers a lot's bidding. */
const SALE_DURATION_MS = 30 * 60_000;

/** The zero of SEQUENCE: 2020-01-01T00:00:00Z, before any lot Lotwatch has seen. */
const SEQUENCE_EPOCH_MS = Date.UTC(2020, 0, 1);

/** RFC 5545 DATE-TIME has a four-digit year, so a time outside years 1..9999 cannot be written. */
const MIN_MS = Date.UTC(1, 0, 1);
const MAX_MS = Date.UTC(9999, 11, 31);

/** Whether a sale has a time to put in a calendar: null (and NaN or an infinity, like the diff's "unknown") has not. */
function hasSaleTime(sale: CalendarSale): sale is CalendarSale & { auction_at: number } {
  return sale.auction_at !== null && Number.isFinite(sale.auction_at);
}

/** Throws a RangeError naming `what` unless `ms` is a finite time that RFC 5545 can write. */
function checkTime(ms: number, what: string): Date {
  if (!Number.isFinite(ms) || ms < MIN_MS || ms > MAX_MS) {
    throw new RangeError(`${what} must be a time in ms since the epoch within years 1..9999, got ${ms}`);
  }
  return new Date(ms);
}

/**
 * The SEQUENCE of a version of an event: whole seconds from 2020-01-01 to `updatedAt`, 0 before that.
 *
 * Why it is derived from the time instead of counted: calendar clients take, of two versions of one UID, the one with
 * the higher SEQUENCE as the newer one (RFC 5545 §3.8.7.4; some ignore a changed DTSTART whose SEQUENCE did not go
 * up). Lotwatch keeps no revision counter per lot, and an export must not depend on earlier exports, so the number
 * has to come from the lot itself: its updated_at grows each time Lotwatch sees the sale move, and so does this.
 * Seconds, not ms, keep it below 2^31 (clients store it as a 32-bit integer) until the year 2088.
 */
function sequenceOf(updatedAt: number): number {
  return Math.max(0, Math.floor((updatedAt - SEQUENCE_EPOCH_MS) / 1000));
}

/**
 * Whether `url` may go into the URL property as it is. ical-generator escapes `,` `;` and `\` in it as if it were
 * TEXT, but a URI value is never escaped (RFC 5545 §3.3.13), so such a URL would reach the client altered; it then
 * stays in DESCRIPTION only, where it is text and round-trips.
 */
function uriPropertyOf(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  return /[,;\\]/.test(parsed.href) ? null : parsed.href;
}

/** The alarms' minutes before the sale: whole, positive, each once, longest first (as the watch's rules allow). */
function alarmMinutes(sale: CalendarSale): number[] {
  const ok = (sale.remind_minutes_before ?? []).filter((m) => Number.isInteger(m) && m >= 1 && m <= 10_080);
  return [...new Set(ok)].sort((a, b) => b - a);
}

/** `60` → `1 hour`, `15` → `15 minutes`, `1440` → `1 day`: how long before the sale an alarm rings. */
function leadText(m: number): string {
  const unit = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  if (m % 1440 === 0) return unit(m / 1440, 'day');
  if (m % 60 === 0) return unit(m / 60, 'hour');
  return unit(m, 'minute');
}

/** `2018 HONDA CIVIC` → `Sale: 2018 HONDA CIVIC · copart lot 45416833`. */
function summaryOf(sale: CalendarSale): string {
  const lot = `${sale.platform} lot ${sale.lot_number}`;
  const title = sale.title.trim();
  return title === '' ? `Sale: ${lot}` : `Sale: ${title} · ${lot}`;
}

/** The event's text: the facts a buyer wants before the sale, one a line, and the notes last (they may span lines). */
function descriptionOf(sale: CalendarSale): string {
  const lines = [`${sale.platform} lot ${sale.lot_number}`];
  if (sale.vin !== null && sale.vin.trim() !== '') lines.push(`VIN: ${sale.vin}`);
  // A max bid or landed cost without a shipping price says so on its line ("Landed cost: $2,070 excluding shipping").
  const money = (label: string, n: number | null, excludes: readonly (CostGap | CostPart)[] = []): void => {
    if (n !== null && Number.isFinite(n)) lines.push(`${label}: ${qualified(usd(n), excludes)}`);
  };
  money('Current bid', sale.current_bid_usd);
  money('Max bid', sale.max_bid_usd, sale.max_bid_excludes);
  money('Landed cost', sale.landed_cost_usd, sale.landed_excludes);
  if (sale.url !== null && sale.url.trim() !== '') lines.push(sale.url);
  if (sale.notes.trim() !== '') lines.push('', 'Notes:', sale.notes);
  return lines.join('\n');
}

/**
 * The sales that watchedSalesCalendar leaves out because they have no sale time yet (`auction_at` null, NaN or
 * infinite), in input order, so the caller can say "2 watched lots have no sale time yet" with the same rule the
 * calendar applies.
 *
 * @param sales the watched lots' sales (times in ms since the epoch, amounts in USD).
 * @returns the sales left out; empty when every sale has a time. Throws nothing.
 */
export function calendarSkipped(sales: readonly CalendarSale[]): CalendarSale[] {
  return sales.filter((s) => !hasSaleTime(s));
}

/**
 * The watched lots' sales as iCalendar text (RFC 5545), for a .ics export or a calendar subscription.
 *
 * One VEVENT per sale that has a time (the others are left out: see calendarSkipped), ordered by sale time then lot
 * key so the same sales give the same text:
 * - UID `<lot_key>@lotwatch`, stable per lot, so a re-export or a subscription updates the event instead of adding
 *   a second one;
 * - DTSTART the sale time in UTC and DTEND 30 minutes later. DATE-TIME has whole seconds: a fraction is dropped;
 * - SUMMARY `Sale: 2018 HONDA CIVIC · copart lot 45416833`, LOCATION the yard;
 * - DESCRIPTION the lot number, VIN, current bid, max bid, landed cost (`$12,300`, rounded to the dollar), the lot's
 *   URL and the notes; an absent fact is left out. Text round-trips through the RFC's escaping (`,` `;` `\` and line
 *   breaks), except that a CRLF or CR line break comes back as LF;
 * - URL the lot's page when it is an http(s) URL that needs no escaping;
 * - one VALARM (ACTION:DISPLAY, TRIGGER that many minutes before DTSTART) per minute count in
 *   `remind_minutes_before`, the watch's own reminders, longest first; counts outside 1..10080 are left out;
 * - DTSTAMP `opts.now`, LAST-MODIFIED `updated_at`, SEQUENCE whole seconds from 2020-01-01 to `updated_at`, so a
 *   moved sale (whose updated_at grew) wins over the version a client already has.
 * The calendar carries PRODID `-//Lotwatch//Lotwatch//EN` and NAME / X-WR-CALNAME `opts.name`. Lines end in CRLF and
 * are folded at 75 octets, never inside a character.
 *
 * @param sales the watched lots' sales; times in ms since the epoch, amounts in USD.
 * @param opts `now`: when the file is made (ms since the epoch); `name`: the calendar's name, `Lotwatch: watched
 *   sales` when absent or blank (line breaks in it become spaces).
 * @returns the .ics text, a VCALENDAR with no events when no sale has a time.
 * @throws RangeError when `opts.now`, a sale's `updated_at` or a present `auction_at` is not a time within years
 *   1..9999, or when two sales with a time share a lot_key (one UID names one event).
 */
export function watchedSalesCalendar(sales: readonly CalendarSale[], opts: CalendarOptions): string {
  const stamp = checkTime(opts.now, 'opts.now');
  const name = opts.name?.replace(/[\r\n\t]+/g, ' ').trim() || DEFAULT_CALENDAR_NAME;
  // ical-generator writes NAME / X-WR-CALNAME and UID as given, without the TEXT escaping of RFC 5545 §3.3.11, so
  // both are escaped here with its own TEXT escaper.
  const calendar = ical({
    name: escapeText(name, false),
    prodId: { company: 'Lotwatch', product: 'Lotwatch', language: 'EN' },
  });

  const seen = new Set<string>();
  const dated = sales
    .filter(hasSaleTime)
    .toSorted(
      (a, b) => a.auction_at - b.auction_at || (a.lot_key < b.lot_key ? -1 : a.lot_key > b.lot_key ? 1 : 0),
    );
  for (const sale of dated) {
    if (seen.has(sale.lot_key)) throw new RangeError(`two sales share lot_key ${sale.lot_key}`);
    seen.add(sale.lot_key);
    const start = checkTime(sale.auction_at, `auction_at of ${sale.lot_key}`);
    const updated = checkTime(sale.updated_at, `updated_at of ${sale.lot_key}`);
    const event = calendar.createEvent({
      id: escapeText(`${sale.lot_key}@lotwatch`, false),
      sequence: sequenceOf(sale.updated_at),
      stamp,
      lastModified: updated,
      start,
      end: new Date(start.getTime() + SALE_DURATION_MS),
      summary: summaryOf(sale),
      location: sale.location !== null && sale.location.trim() !== '' ? sale.location : null,
      description: descriptionOf(sale),
      url: sale.url === null ? null : uriPropertyOf(sale.url),
    });
    // RFC 5545 §3.6.6: a DISPLAY alarm needs a DESCRIPTION; TRIGGER -PT<m>M is relative to the sale's start.
    for (const m of alarmMinutes(sale)) {
      event.createAlarm({
        type: ICalAlarmType.display,
        triggerBefore: m * 60,
        description: `${summaryOf(sale)} starts in ${leadText(m)}`,
      });
    }
  }
  // ical-generator ends the text without the CRLF that closes every content line, END:VCALENDAR included (§3.1).
  return calendar.toString() + '\r\n';
}
