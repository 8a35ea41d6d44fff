import type { ExportBlock } from '../../shared/exportBlock';
import type { AlertRules, LotState, QuietHours } from '../../shared/watch';
import { isEnded, keyOf } from '../diff';
import { deliveryFor, exportBlockNote, type AlertDecision } from './decide';
import { duration, lotLabel, when } from './format';

const MIN = 60_000;

/**
 * Reminders "auction in N minutes" due in the window (sinceExclusive, untilInclusive]
 * (docs/architecture.md "The domain": an alert may be a time event). For each distinct m of
 * `rules.remind_minutes_before` whose time (auction_at - m minutes) falls in the window, while the lot has not ended,
 * its date is known and its bid is not past the rules' max bid (out of range): kind `reminder`, dedup_key
 * `reminder:<lot_key>:<auction_at>:<m>` (a rescheduled auction gets fresh reminders), in order of reminder time.
 * Half-open windows make adjacent calls (a,b] then (b,c] never return one reminder twice.
 *
 * Delivery follows the change policy at `untilInclusive` (the time the caller raises them): muted, snoozed (a
 * `snooze_until_event` is never a reminder, so it keeps reminders silent), quiet hours -> digest; no per-lot cap,
 * since the caller passes no count and there are at most five reminders per auction date.
 *
 * @param lot the lot's last state.
 * @param rules the watch's rules.
 * @param sinceExclusive window start, ms since the epoch (exclusive).
 * @param untilInclusive window end, ms since the epoch (inclusive).
 * @param title the vehicle's display title, e.g. `2018 AUDI S5`.
 * @param opts.quiet quiet hours (omitted: never quiet); opts.tzOffsetMinutes the user's UTC offset (omitted: UTC,
 *   and the time in the body says UTC); opts.exportBlock the lot's title block (src/shared/exportBlock.ts), if any:
 *   under rules with exportable_only it silences the reminders, else the body says it (`Export blocked: …`).
 * @returns the reminders due, possibly none. Throws nothing.
 */
export function dueReminders(
  lot: LotState,
  rules: AlertRules,
  sinceExclusive: number,
  untilInclusive: number,
  title: string,
  opts: { quiet?: QuietHours; tzOffsetMinutes?: number; exportBlock?: ExportBlock | null } = {},
): AlertDecision[] {
  const at = lot.auction_at;
  if (at === null || isEnded(lot) || untilInclusive <= sinceExclusive) return [];
  const block = opts.exportBlock ?? null;
  if (rules.exportable_only && block !== null) return [];
  // A bid past the user's max bid puts the lot out of range: reminding them of its sale would only be noise.
  if (rules.max_bid_usd !== null && lot.current_bid_usd !== null && lot.current_bid_usd > rules.max_bid_usd)
    return [];
  const key = keyOf(lot);
  const quiet = opts.quiet ?? { enabled: false, start: '22:00', end: '07:00' };
  const tz = opts.tzOffsetMinutes ?? 0;
  const starts = opts.tzOffsetMinutes === undefined ? `${when(at, 0)} UTC` : when(at, tz);
  const minutes = [...new Set(rules.remind_minutes_before)].sort((a, b) => b - a);
  const out: AlertDecision[] = [];
  for (const m of minutes) {
    const due = at - m * MIN;
    if (!(due > sinceExclusive && due <= untilInclusive)) continue;
    const d = deliveryFor({
      rules,
      eventKind: null,
      now: untilInclusive,
      quiet,
      tzOffsetMinutes: tz,
      alertsForLotLastHour: null,
    });
    out.push({
      kind: 'reminder',
      delivery: d.delivery,
      reason: d.reason,
      title: `${title.trim() || lotLabel(key)} · auction in ${duration(m)}`,
      body: `Starts ${starts}${block ? ` · ${exportBlockNote(block)}` : ''} · ${lotLabel(key)}`,
      dedup_key: `reminder:${key}:${at}:${m}`,
      lot_key: key,
    });
  }
  return out;
}
