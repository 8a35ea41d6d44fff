import { createHash } from 'node:crypto';
import type { CallWatchConfig } from '../../shared/callWatch';
import type { AlertRules, QuietHours } from '../../shared/watch';
import { pathText, type AnswerChange, type AnswerItem, type AnswerValue } from '../../shared/callAnswer';
import { deliveryFor, type AlertDecision } from './decide';

/*
 * The alerts of a call watch (docs/architecture.md "Call watches"): what changed in the answer of a repeated
 * console call, in words a buyer reads on a phone, with the item's link when it has one. Pure: time comes in as ms
 * since the epoch. lot_key is null: a call watch is about a call, not a lot.
 */

/** The call watch an alert is about: its id, the buyer's name for it and the console endpoint it repeats. */
export interface CallWatchRef {
  id: number;
  name: string;
  /** The API console's endpoint name, e.g. `GET /api/v1/vp/channel/videos`. */
  endpoint: string;
}

/** A call watch's alert: the alert, and the link of the item it names (null when none). */
export type CallAlertDecision = AlertDecision & { url: string | null };

/** What an item of each endpoint's list is called, by the last step of the endpoint's path. */
const NOUNS: Record<string, string> = {
  videos: 'video',
  shorts: 'short',
  livestreams: 'livestream',
  comments: 'comment',
  replies: 'reply',
  posts: 'post',
  podcasts: 'podcast',
  playlists: 'playlist',
  search: 'result',
  trending: 'result',
  hashtag: 'result',
  vehicles: 'vehicle',
};

/**
 * What one item of an endpoint's list is called: `GET /api/v1/vp/channel/videos` -> `video`, `…/comments` ->
 * `comment`, `…/discovery/search` -> `result`, `GET /vehicles` -> `vehicle`; anything else `item`. Reads the last
 * step of the path that is not a `{parameter}`, without the method or a query. Never throws.
 */
export function itemNoun(endpoint: string): string {
  const path =
    endpoint
      .trim()
      .replace(/^[A-Z]+\s+/, '')
      .split(/[?#]/)[0] ?? '';
  const steps = path.split('/').filter((s) => s !== '' && !s.startsWith('{'));
  const last = (steps[steps.length - 1] ?? '').toLowerCase();
  return Object.prototype.hasOwnProperty.call(NOUNS, last) ? NOUNS[last]! : 'item';
}

/** Longest watched value shown in an alert (characters); a longer one ends with `…`. */
const VALUE_MAX = 80;

/**
 * A watched value for people: a whole number of 10,000 or more with thousands separators (a view count; years and
 * HTTP statuses stay as they are), other numbers, true, false and null as JSON writes them, an empty string as
 * `""`, any other text as it is (cut at 80 characters).
 */
export function valueText(v: AnswerValue): string {
  if (typeof v === 'number')
    return Number.isInteger(v) && Math.abs(v) >= 10_000 && Math.abs(v) < 1e21
      ? v.toLocaleString('en-US')
      : String(v);
  if (typeof v !== 'string') return String(v);
  if (v === '') return '""';
  const t = v.replace(/\s+/g, ' ').trim();
  return t.length <= VALUE_MAX ? t : `${t.slice(0, VALUE_MAX - 1)}…`;
}

/** A part of a dedup key: an item key as it is, or its SHA-1 (hex) when longer than 100 characters. */
function keyPart(key: string): string {
  return key.length > 100 ? createHash('sha1').update(key).digest('hex') : key;
}

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * The alerts of one run's answer changes (diffAnswers), one per change, in their order.
 * - call_new_item: title `New video on “Auction Garage”: copart haul #212` (the noun from itemNoun), body `It was
 *   not in the previous answer of <endpoint>.` and the item's link; dedup `call:<id>:new:<item key>`, so an item
 *   alerts once ever, whatever restarts or a list that drops and brings it back.
 * - call_removed_item: `Video gone from “Auction Garage”: copart haul #212`, body `It was in the previous answer of
 *   <endpoint> and is not in this one.` and its link; dedup `call:<id>:removed:<item key>:<now>`.
 * - call_value_changed: `“Auction Garage”: data.status OK → UNPLAYABLE` (the field's label, else its path; an item's
 *   value names the item first: `“Auction Garage” · copart haul #212: views 999,002 → 1,000,001`); a number crossing
 *   the field's `crosses`: `… views crossed 1,000,000 (999,002 → 1,000,001)`; body `It was <before> in the previous
 *   answer of <endpoint> and is <after> now.` (crossings: `It went up past <x>: …`) and the item's link; dedup
 *   `call:<id>:value:<field index>:<item key or ''>:<now>`.
 * Item keys longer than 100 characters are replaced in dedup keys by their SHA-1 (hex).
 * Delivery per deliveryFor, as a lot's alerts: muted -> suppressed (`muted`); snooze_until after now -> suppressed
 * (`snoozed`); the cap -> suppressed (`cap`), counting `alertsLastHour` plus the alerts before this one in the batch
 * (a run that finds 20 new videos notifies cap_per_lot_per_hour of them and keeps the rest in the inbox); quiet
 * hours -> digest (`quiet_hours`); else now. `snooze_until_event` is a lot's change kind, which a call never
 * raises, so it is not read here: it would keep the watch silent for good.
 *
 * @param input.alertsLastHour alerts this call watch raised in the hour before `now` (any delivery).
 * @param input.now ms since the epoch; input.tzOffsetMinutes the buyer's UTC offset at `now`, minutes.
 * @returns the decisions, each with the item's link (null when none). Throws nothing.
 */
export function callChangeAlerts(input: {
  watch: CallWatchRef;
  changes: AnswerChange[];
  config: CallWatchConfig;
  rules: AlertRules;
  quiet: QuietHours;
  now: number;
  tzOffsetMinutes: number;
  alertsLastHour: number;
}): CallAlertDecision[] {
  const { watch, now } = input;
  const noun = itemNoun(watch.endpoint);
  const rules: AlertRules = { ...input.rules, snooze_until_event: null };
  return input.changes.map((change, i): CallAlertDecision => {
    const d = deliveryFor({
      rules,
      eventKind: null,
      now,
      quiet: input.quiet,
      tzOffsetMinutes: input.tzOffsetMinutes,
      alertsForLotLastHour: input.alertsLastHour + i,
    });
    const text = describe(change, watch, noun, input.config, now);
    return {
      ...text,
      delivery: d.delivery,
      reason: d.reason,
      lot_key: null,
      url: change.item?.url ?? null,
    };
  });
}

function describe(
  change: AnswerChange,
  watch: CallWatchRef,
  noun: string,
  config: CallWatchConfig,
  now: number,
): Pick<AlertDecision, 'kind' | 'title' | 'body' | 'dedup_key'> {
  const { id, name, endpoint } = watch;
  const answer = `the previous answer of ${endpoint}`;
  switch (change.kind) {
    case 'new_item':
      return {
        kind: 'call_new_item',
        title: `New ${noun} on “${name}”: ${change.item.title}`,
        body: `It was not in ${answer}.`,
        dedup_key: `call:${id}:new:${keyPart(change.item.key)}`,
      };
    case 'removed_item':
      return {
        kind: 'call_removed_item',
        title: `${capitalised(noun)} gone from “${name}”: ${change.item.title}`,
        body: `It was in ${answer} and is not in this one.`,
        dedup_key: `call:${id}:removed:${keyPart(change.item.key)}:${now}`,
      };
    case 'value_changed': {
      const field = config.fields[change.field];
      const label = field ? (field.label ?? pathText(field.path)) : `value ${change.field + 1}`;
      const item: AnswerItem | null = change.item;
      const before = valueText(change.before);
      const after = valueText(change.after);
      const x = field?.crosses ?? null;
      const what =
        change.crossed !== null && x !== null
          ? `${label} crossed ${valueText(x)} (${before} → ${after})`
          : `${label} ${before} → ${after}`;
      const sentence =
        change.crossed !== null && x !== null
          ? `It went ${change.crossed} past ${valueText(x)}: ${before} in ${answer}, ${after} now.`
          : `It was ${before} in ${answer} and is ${after} now.`;
      return {
        kind: 'call_value_changed',
        title: item ? `“${name}” · ${item.title}: ${what}` : `“${name}”: ${what}`,
        body: sentence,
        dedup_key: `call:${id}:value:${change.field}:${item ? keyPart(item.key) : ''}:${now}`,
      };
    }
  }
}

/** A system-like call alert: delivered now, whatever the rules (the buyer must know the watch stopped seeing). */
function system(
  kind: AlertDecision['kind'],
  title: string,
  body: string,
  dedup_key: string,
): CallAlertDecision {
  return { kind, delivery: 'now', reason: null, title, body, dedup_key, lot_key: null, url: null };
}

/**
 * The answer of a call watch changed shape: not JSON, or the list or a value the buyer chose is gone (`reason`:
 * extractAnswer's `missing` sentences). The service raises it once per run of bad answers; the last good answer is
 * kept and the watch goes on. Title `The answer of “<name>” changed shape`, body the sentences (or `The answer was
 * not JSON.`) then `Lotwatch keeps the last good answer and goes on checking; pick the list or values again if the
 * service changed its answer.`; dedup `call_shape:<id>:<now>`. Delivered now, whatever the rules: every later change
 * goes unseen until the buyer acts.
 *
 * @param now ms since the epoch.
 * @returns the alert (always). Throws nothing.
 */
export function callShapeAlert(
  watch: { id: number; name: string },
  reason: string[] | 'not_json',
  now: number,
): CallAlertDecision {
  const what =
    reason === 'not_json'
      ? 'The answer was not JSON.'
      : reason.length > 0
        ? reason.join(' ')
        : 'The answer no longer has what this watch reads.';
  return system(
    'call_shape_changed',
    `The answer of “${watch.name}” changed shape`,
    `${what} Lotwatch keeps the last good answer and goes on checking; pick the list or values again if the service changed its answer.`,
    `call_shape:${watch.id}:${now}`,
  );
}

/**
 * A call watch paused itself: the service refused it `failures` times in a row with a 4xx (CALL_FAILURES_BEFORE_PAUSE
 * in src/shared/callWatch.ts), so repeating it would only spend the quota. Title `Call watch “<name>” paused
 * itself`, body `The last <n> calls were refused (HTTP <status>): <message>. Check its parameters, then resume it.`;
 * dedup `call_failing:<id>:<now>`. Delivered now, whatever the rules (as the other alerts about Lotwatch itself).
 *
 * @param message the service's words for the last refusal (a trailing full stop is not doubled).
 * @param now ms since the epoch.
 * @returns the alert (always). Throws nothing.
 */
export function callFailingAlert(
  watch: { id: number; name: string },
  failures: number,
  status: number,
  message: string,
  now: number,
): CallAlertDecision {
  const why = message.trim().replace(/\.+$/, '') || 'no reason given';
  return system(
    'call_failing',
    `Call watch “${watch.name}” paused itself`,
    `The last ${failures} calls were refused (HTTP ${status}): ${why}. Check its parameters, then resume it.`,
    `call_failing:${watch.id}:${now}`,
  );
}
