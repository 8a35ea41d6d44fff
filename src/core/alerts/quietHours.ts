import type { QuietHours } from '../../shared/watch';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;

/** `22:00` -> ms after local midnight. The schema guarantees HH:MM; anything else reads as 0. */
function clockMs(hhmm: string): number {
  const [h, m] = hhmm.split(':');
  const v = (Number(h) * 60 + Number(m)) * MIN;
  return Number.isFinite(v) ? v : 0;
}

/** ms after local midnight at `now`, for a user at UTC offset `tzOffsetMinutes`. */
function localMs(now: number, tzOffsetMinutes: number): number {
  const t = (now + tzOffsetMinutes * MIN) % DAY;
  return t < 0 ? t + DAY : t;
}

/** The window applies: enabled and not empty (start === end means never quiet, not "always quiet"). */
function active(quiet: QuietHours): boolean {
  return quiet.enabled && clockMs(quiet.start) !== clockMs(quiet.end);
}

/**
 * Whether `now` is inside the quiet hours (QuietHoursSchema; docs/architecture.md "Delivery"). The window is [start,
 * end) in the user's local time: exactly at start is inside, exactly at end is outside. It may cross midnight
 * (22:00–07:00) or not (13:00–14:00); start === end or `enabled: false` is never quiet.
 *
 * @param now ms since the epoch.
 * @param quiet the user's quiet hours.
 * @param tzOffsetMinutes the user's UTC offset at `now`, minutes (e.g. -300 for US Eastern standard time).
 * @returns true inside the window. Throws nothing.
 */
export function inQuietHours(now: number, quiet: QuietHours, tzOffsetMinutes: number): boolean {
  if (!active(quiet)) return false;
  const t = localMs(now, tzOffsetMinutes);
  const start = clockMs(quiet.start);
  const end = clockMs(quiet.end);
  return start < end ? t >= start && t < end : t >= start || t < end;
}

/**
 * The next end of the quiet window: the first instant strictly after `now` at which the local clock reads `end`
 * (inside the window, when it ends; outside, the end of the next window). This is when held (digest) alerts are
 * delivered. When quiet hours are off or empty, returns `now` (nothing is held).
 *
 * @param now ms since the epoch.
 * @param tzOffsetMinutes the user's UTC offset at `now`, minutes; assumed constant until the end (a DST switch
 *   inside the window shifts the end by that hour).
 * @returns ms since the epoch, > now unless quiet hours are off. Throws nothing.
 */
export function quietHoursEnd(now: number, quiet: QuietHours, tzOffsetMinutes: number): number {
  if (!active(quiet)) return now;
  const t = localMs(now, tzOffsetMinutes);
  const end = clockMs(quiet.end);
  const wait = end > t ? end - t : DAY - t + end;
  return now + wait;
}
