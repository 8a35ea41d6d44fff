import type { AlertDecision } from './decide';
import { utcDate } from './format';
import { quotaSpentSentence } from '../../shared/quota';

/*
 * Lotwatch watching itself. Every one of these delivers 'now' and ignores quiet hours and mute/snooze: a rejected
 * key or an exhausted quota stops every check, so each hour held back is auctions missed, and a failing or suddenly
 * empty search means the user is blind to it without knowing. They are rare by construction (one per day, per quota
 * period, per failure streak, per empty transition), so they cannot flood a night. lot_key is null: they are about
 * Lotwatch, not a lot.
 */

const system = (
  kind: AlertDecision['kind'],
  title: string,
  body: string,
  dedup_key: string,
): AlertDecision => ({
  kind,
  delivery: 'now',
  reason: null,
  title,
  body,
  dedup_key,
  lot_key: null,
});

/** `YYYY-MM-DD` of `now` in UTC. */
function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/**
 * The service rejected the API key (401/403). At most one per UTC day (dedup `key_rejected:<YYYY-MM-DD>`): every
 * check fails the same way until the key is fixed, and one reminder a day is enough.
 *
 * @param now ms since the epoch.
 * @returns the alert (always). Throws nothing.
 */
export function keyRejectedAlert(now: number): AlertDecision {
  return system(
    'key_rejected',
    'Lotwatch: API key rejected',
    'The auction data service refused the API key, so no checks can run. Enter a valid key in Settings.',
    `key_rejected:${utcDay(now)}`,
  );
}

/**
 * The plan's quota is running low: remaining <= 10% of limit. One per quota period (dedup
 * `quota_low:<periodEnd>`; `quota_low:day:<YYYY-MM-DD>` when the period end is unknown).
 *
 * @param snapshot request counts as last reported (null when the header was absent); periodEnd ms since the epoch.
 * @param now ms since the epoch.
 * @returns the alert, or null when the quota is fine or unknown (no limit, a limit of 0, or no remaining count).
 *   Throws nothing.
 */
export function quotaLowAlert(
  snapshot: { limit: number | null; remaining: number | null; periodEnd: number | null },
  now: number,
): AlertDecision | null {
  const { limit, remaining, periodEnd } = snapshot;
  if (limit === null || remaining === null || !(limit > 0)) return null;
  // remaining * 10 <= limit rather than remaining <= limit * 0.1: no rounding at the edge (100 of 1,000 is low).
  if (remaining * 10 > limit) return null;
  const left = Math.max(0, remaining).toLocaleString('en-US');
  const until = periodEnd === null ? '' : ` until ${utcDate(periodEnd)}`;
  return system(
    'quota_low',
    'Lotwatch: request quota running low',
    `${left} of ${limit.toLocaleString('en-US')} requests left${until}. Checks slow down to stay within the plan.`,
    periodEnd === null ? `quota_low:day:${utcDay(now)}` : `quota_low:${periodEnd}`,
  );
}

/**
 * The plan's requests are used up for the period (remaining 0, or the service's 429 "API request limit reached",
 * docs/service-contract.md "Quota spent (real)"). One per quota period (dedup `quota_spent:<periodEnd>`; once a UTC
 * day, `quota_spent:day:<YYYY-MM-DD>`, when the period end is unknown), however many polls meet the spent quota.
 * Kind `quota_low`: it is the same worry, at its end.
 *
 * @param periodEnd ms since the epoch (X-Subscription-Period-End), or null when unknown.
 * @param now ms since the epoch.
 * @returns the alert (always). Throws nothing.
 */
export function quotaSpentAlert(periodEnd: number | null, now: number): AlertDecision {
  return system(
    'quota_low',
    'Lotwatch: monthly requests used up',
    `${quotaSpentSentence(periodEnd)} Lotwatch checks nothing until then and starts again by itself; everything it stored stays in the Library.`,
    periodEnd === null ? `quota_spent:day:${utcDay(now)}` : `quota_spent:${periodEnd}`,
  );
}

/** How many consecutive failed runs of a saved search make an alert. */
export const SEARCH_FAILING_AFTER = 3;

/**
 * A saved search has failed SEARCH_FAILING_AFTER (3) runs in a row. Only at exactly 3: one or two failures are
 * usually a passing network or service hiccup, and at 4, 5, ... the user already knows, so a streak alerts once;
 * the counter resets on success, so a later streak alerts again. dedup `search_failing:<id>:<now>` (the streak
 * is identified by the time of its third failure).
 *
 * @param lastError the last run's error message, shown to the user.
 * @param now ms since the epoch.
 * @returns the alert, or null unless consecutiveFailures === 3. Throws nothing.
 */
export function searchFailingAlert(
  search: { id: number | string; name: string },
  consecutiveFailures: number,
  lastError: string,
  now: number,
): AlertDecision | null {
  if (consecutiveFailures !== SEARCH_FAILING_AFTER) return null;
  const why = lastError.trim();
  return system(
    'search_failing',
    `Saved search “${search.name}” is failing`,
    `The last ${SEARCH_FAILING_AFTER} checks failed${why ? `: ${why}` : '.'}`,
    `search_failing:${search.id}:${now}`,
  );
}

/**
 * A saved search suddenly returns nothing: the last run returned 0 results while each of the 3 runs before it
 * returned at least 1 (a filter the service no longer understands, or a source outage, looks like this). Needs
 * at least 4 counts; a search that is always empty never alerts. dedup `search_empty:<id>:<now>`.
 *
 * @param recentCounts result counts of recent complete runs, newest last.
 * @param now ms since the epoch.
 * @returns the alert, or null. Throws nothing.
 */
export function searchEmptyAlert(
  search: { id: number | string; name: string },
  recentCounts: readonly number[],
  now: number,
): AlertDecision | null {
  if (recentCounts.length < 4) return null;
  const last = recentCounts[recentCounts.length - 1];
  const before = recentCounts.slice(-4, -1);
  if (last !== 0 || !before.every((n) => n >= 1)) return null;
  return system(
    'search_empty',
    `Saved search “${search.name}” found nothing`,
    'It returned no vehicles after returning some on each of the last 3 checks. Check its filters.',
    `search_empty:${search.id}:${now}`,
  );
}

/** How many failed attempts in a row make an alert channel's self-monitoring alert. */
export const CHANNEL_FAILING_AFTER = 3;

/**
 * An alert channel (email, phone, webhook) failed CHANNEL_FAILING_AFTER (3) attempts in a row: the buyer believes
 * alerts reach them there and they do not. Only at exactly 3 (a streak alerts once; a success resets it), with the
 * last failure's words, which say what to fix. Goes to the inbox, the desktop notification and every other channel,
 * never to the failing one (the outbox skips it there). dedup `channel_failing:<id>:<streak start>`.
 *
 * @param channel the channel's id and the buyer's name for it.
 * @param failures failed attempts in a row, counting this one.
 * @param lastError what the last failure said (ChannelSendError's message).
 * @param since when the streak began (ms since the epoch).
 * @returns the alert, or null unless failures === 3. Throws nothing.
 */
export function channelFailingAlert(
  channel: { id: number; name: string },
  failures: number,
  lastError: string,
  since: number,
): AlertDecision | null {
  if (failures !== CHANNEL_FAILING_AFTER) return null;
  const why = lastError.trim().replace(/\.?$/, '.');
  return system(
    'channel_failing',
    `Alerts are not reaching “${channel.name}”`,
    `The last ${CHANNEL_FAILING_AFTER} tries failed. ${why} Lotwatch keeps the alerts and sends them once it works again.`,
    `channel_failing:${channel.id}:${since}`,
  );
}
