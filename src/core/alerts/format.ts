/**
 * Wording helpers of alert texts (so that a person understands a notification at a glance). Pure: dates are
 * formatted by hand from an explicit UTC offset, never in the machine's zone.
 */

const USD = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

/** `12300` -> `$12,300` (US dollars, no cents; rounded to the dollar). */
export function usd(n: number): string {
  return USD.format(n);
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * `Tue May 14, 10:00 AM` at the given UTC offset (minutes, e.g. -300 for US Eastern winter time). The offset is
 * the user's offset at the time of the alert; a date on the other side of a DST switch is off by that hour, which
 * is acceptable for a notification (the detail view shows exact times).
 */
export function when(ms: number, tzOffsetMinutes: number): string {
  const d = new Date(ms + tzOffsetMinutes * 60_000);
  const h24 = d.getUTCHours();
  const h12 = h24 % 12 === 0 ? 12 : h24 % 12;
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${h12}:${mm} ${h24 < 12 ? 'AM' : 'PM'}`;
}

/** `May 31, 2025` (UTC), for period ends. */
export function utcDate(ms: number): string {
  const d = new Date(ms);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

/** `30 min`, `2 h`, `1 h 30 min`, `1 day`, `2 days 3 h`. */
export function duration(minutes: number): string {
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const parts: string[] = [];
  if (days) parts.push(`${days} day${days === 1 ? '' : 's'}`);
  if (hours) parts.push(`${hours} h`);
  if (mins || parts.length === 0) parts.push(`${mins} min`);
  return parts.join(' ');
}

/** `copart:45416833` -> `copart lot 45416833`; a key without a colon is shown as is. */
export function lotLabel(lotKey: string): string {
  const i = lotKey.indexOf(':');
  return i < 0 ? lotKey : `${lotKey.slice(0, i)} lot ${lotKey.slice(i + 1)}`;
}

/** Where the alert comes from: `Saved search “Audi under 10k”` or `Watch “My S5”`. */
export function sourceLabel(source: { kind: 'search' | 'watch'; name: string }): string {
  const what = source.kind === 'search' ? 'Saved search' : 'Watch';
  const name = source.name.trim();
  return name ? `${what} “${name}”` : what;
}
