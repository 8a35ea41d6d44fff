/**
 * The Usage page's words about dates and counts (docs/writing-guide.md rules 6 and 7): the plan period as dates,
 * the service's /usage answer without ISO text, and why Lotwatch's own request count and the service's differ.
 * Pure functions; times are ms since the epoch, read in this computer's time zone.
 */
import { format, isValid, parseISO } from 'date-fns';
import type { MethodOutput, Status } from '../../../../shared/ipc/contract';
import { dayMonth } from '../../../../shared/quota';
import { integer, requests } from '../../lib/quantity';

type LogRow = MethodOutput<'requests.list'>['rows'][number];

const DAY = 86_400_000;

/**
 * Two dates as one span, said once where they share a month or year: "1 – 31 December 2026", "25 November – 24
 * December 2026", "15 December 2026 – 14 January 2027". Throws nothing.
 */
export function dateRange(start: number, end: number): string {
  const sameYear = format(start, 'yyyy') === format(end, 'yyyy');
  const sameMonth = sameYear && format(start, 'MM') === format(end, 'MM');
  const from = format(start, sameMonth ? 'd' : sameYear ? 'd MMMM' : 'd MMMM yyyy');
  return `${from} – ${format(end, 'd MMMM yyyy')}`;
}

/** Date-only (`2026-12-12`) or date-time (`2026-12-12T00:00:00Z`, `2026-12-12 10:00:00+01:00`) text. */
const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** ISO text as the time it names (a date alone is that day's start here), or null when it is not ISO text. */
function isoTime(v: unknown): number | null {
  if (typeof v !== 'string' || !ISO.test(v.trim())) return null;
  const d = parseISO(v.trim());
  return isValid(d) ? d.getTime() : null;
}

/** ISO text as a date ("12 December 2026", or "12 December 2026, 2:30 PM" with a time of day); else null. */
export function isoAsDate(v: unknown): string | null {
  const t = isoTime(v);
  if (t === null) return null;
  return (v as string).trim().length === 10 ? format(t, 'd MMMM yyyy') : format(t, 'd MMMM yyyy, h:mm a');
}

/** `periodStart`, `period_end`, `billing-period-start` -> `periodstart` ... for matching names whatever their case. */
const squash = (k: string): string => k.toLowerCase().replace(/[^a-z]/g, '');
const START = /(start|begin|from)/;
const END = /(end|until|to$|reset)/;

/** The start and end of the plan period in a /usage answer, and the answer without them. */
function periodOf(
  usage: Record<string, unknown>,
): { start: number; end: number; rest: Record<string, unknown> } | null {
  const named = (k: string) => /period|cycle/.test(squash(k));
  const bound = (k: string, re: RegExp) => re.test(squash(k).replace(/period|cycle/, ''));
  // `period: { start, end }` (the sandbox's shape), or `billing_period: { starts_at, ends_at, days }` ...
  for (const [k, v] of Object.entries(usage)) {
    if (!named(k) || typeof v !== 'object' || v === null || Array.isArray(v)) continue;
    const inner = Object.entries(v as Record<string, unknown>).filter(([, iv]) => isoTime(iv) !== null);
    const start = inner.find(([ik]) => bound(ik, START));
    const end = inner.find(([ik]) => bound(ik, END) && ik !== start?.[0]);
    if (!start || !end) continue;
    const others = Object.entries(v as Record<string, unknown>).filter(
      ([ik]) => ik !== start[0] && ik !== end[0],
    );
    const rest = Object.fromEntries(Object.entries(usage).filter(([ok]) => ok !== k));
    if (others.length > 0) rest[k] = Object.fromEntries(others);
    return { start: isoTime(start[1])!, end: isoTime(end[1])!, rest };
  }
  // ... or `period_start` and `period_end` side by side.
  const flat = Object.entries(usage).filter(([k, v]) => named(k) && isoTime(v) !== null);
  const start = flat.find(([k]) => bound(k, START));
  const end = flat.find(([k]) => bound(k, END) && k !== start?.[0]);
  if (!start || !end) return null;
  const rest = Object.fromEntries(Object.entries(usage).filter(([k]) => k !== start[0] && k !== end[0]));
  return { start: isoTime(start[1])!, end: isoTime(end[1])!, rest };
}

/** Every ISO text in a value, at any depth, replaced by its date. */
function datesAsDates(v: unknown): unknown {
  const date = isoAsDate(v);
  if (date !== null) return date;
  if (Array.isArray(v)) return v.map(datesAsDates);
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, datesAsDates(x)]),
    );
  }
  return v;
}

/**
 * The service's /usage answer ready to show: its plan period as one sentence ("Plan period: 1 – 31 December
 * 2026.", null when the answer has none) and the other fields with every ISO text as a date. The body's fields are
 * not specified (docs/service-contract.md "Usage and the rest"), so the period is looked for by name: an object
 * named like `period` with a start and an end, or `period_start` and `period_end` side by side. Throws nothing.
 */
export function readableUsage(usage: Record<string, unknown>): {
  period: string | null;
  details: Record<string, unknown>;
} {
  const p = periodOf(usage);
  return {
    period: p ? `Plan period: ${dateRange(p.start, p.end)}.` : null,
    details: datesAsDates(p ? p.rest : usage) as Record<string, unknown>,
  };
}

/** Whether the service will not have counted a request: no answer, a refused key (401) or too many a second (429). */
function uncounted(r: LogRow): boolean {
  return r.status === null || r.status === 401 || r.status === 429;
}

/** Whose requests the current quota counts, in words: "with this key", or "in Demo mode". */
const thisQuotaWords = (mode: 'demo' | 'live') => (mode === 'demo' ? 'in Demo mode' : 'with this key');

/**
 * What "Sent in the last 24 hours" counts (docs/writing-guide.md rule 7: two numbers that look alike say how they
 * differ): the requests that spent the current quota, as the request budget counts them (another key's, or Demo
 * mode's, spend another quota). "Sent with this key in the last 24 hours: 232 requests, Lotwatch's own count (retries
 * and failed requests included)."; in Demo mode "Sent in Demo mode in the last 24 hours: …". Throws nothing.
 */
export function sentSentence(spentLast24h: number, mode: 'demo' | 'live'): string {
  return `Sent ${thisQuotaWords(mode)} in the last 24 hours: ${requests(spentLast24h)}, Lotwatch's own count (retries and failed requests included).`;
}

/**
 * The hourly chart's summary: "120 requests in the last 24 hours, 3 failed; busiest hour 14:00 with 12." The chart
 * draws every request in the log, whichever key or mode spent it, while the budget counts only the current
 * quota's (`thisQuota`): when the log holds more, the summary says how many were this key's (or Demo mode's) so the
 * two numbers on one page do not seem to disagree. "No requests in the last 24 hours." for none. Throws nothing.
 */
export function chartSummary(
  buckets: { label: string; ok: number; failed: number }[],
  thisQuota: number,
  mode: 'demo' | 'live',
): string {
  const total = buckets.reduce((n, b) => n + b.ok + b.failed, 0);
  if (total === 0) return 'No requests in the last 24 hours.';
  const failed = buckets.reduce((n, b) => n + b.failed, 0);
  const busiest = buckets.reduce((m, b) => (b.ok + b.failed > m.ok + m.failed ? b : m), buckets[0]!);
  const whose =
    thisQuota < total
      ? ` (${integer(thisQuota)} of them ${thisQuotaWords(mode)}; the rest ${mode === 'demo' ? 'with a key' : 'with another key or in Demo mode'})`
      : '';
  return `${requests(total)} in the last 24 hours${whose}${failed ? `, ${integer(failed)} failed` : ''}; busiest hour ${busiest.label} with ${integer(busiest.ok + busiest.failed)}.`;
}

/**
 * What "Used this period" counts: "Used this period: 45 requests, the service's own count since the period began
 * on 1 December." (with "for this period" when its start is unknown), and the limit's extra requests. Null when
 * the service did not say. Throws nothing.
 */
export function usedSentence(q: NonNullable<Status['quota']>): string | null {
  if (q.used === null) return null;
  const since =
    q.periodStart !== null ? `since the period began on ${dayMonth(q.periodStart)}` : 'for this period';
  const extra = q.extraLimit ? ` The limit includes ${integer(q.extraLimit)} extra.` : '';
  return `Used this period: ${requests(q.used)}, the service's own count ${since}.${extra}`;
}

/**
 * Why the service's count is below Lotwatch's own count of the last 24 hours, when it is: only what is true of the
 * request log `rows` (newest 1,000) and the snapshot. Each cause that applies, in order: the period began less than
 * a day ago (requests before it are not in its count); requests that got no answer, a refused key (401) or a "too
 * many a second" (429), as the service counts only the requests it accepted; otherwise requests to another key or
 * service, such as Demo mode's (the log keeps them all). Null when the service's count is not lower. Throws nothing.
 */
export function countsDifferSentence(
  spentLast24h: number,
  q: NonNullable<Status['quota']>,
  rows: LogRow[],
  now: number,
): string | null {
  if (q.used === null || spentLast24h <= q.used) return null;
  const causes: string[] = [];
  const dayAgo = now - DAY;
  if (q.periodStart !== null && q.periodStart > dayAgo) {
    const before = rows.filter((r) => r.at >= dayAgo && r.at < q.periodStart!).length;
    causes.push(
      `the period began ${format(q.periodStart, 'd MMMM, h:mm a')}, less than a day ago${before ? `, and ${requests(before)} went out before it` : ''}`,
    );
  }
  const from = Math.max(dayAgo, q.periodStart ?? dayAgo);
  const refused = rows.filter((r) => r.at >= from && uncounted(r)).length;
  if (refused > 0) {
    causes.push(
      `${requests(refused)} got no answer or were refused (the key, or too many a second), and the service counts only the requests it accepted`,
    );
  }
  if (causes.length === 0) causes.push('the rest went to another key or service, such as Demo mode');
  return `The service counts fewer than the ${integer(spentLast24h)} sent in the last 24 hours: ${causes.join('; ')}.`;
}
