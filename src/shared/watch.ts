import { z } from 'zod';
import { SALE_OUTCOMES } from './saleOutcome';
import { COST_PARTS } from './shipping';
import { CALL_ALERT_KINDS } from './callWatch';

/**
 * The watch domain (docs/architecture.md "The domain"): lots as the diff sees them, typed changes, alert rules and
 * alerts. Shared because the UI shows all of them; the logic lives in src/core/diff and src/core/alerts. Times are
 * integer ms since the epoch; amounts are US dollars.
 */

/** `platform:lot_number`, e.g. `copart:45416833`: the key of a lot. */
export type LotKey = string;

/** Builds a LotKey from the wire platform value and the lot number. */
export function lotKeyOf(platform: string, lotNumber: string): LotKey {
  return `${platform}:${lotNumber}`;
}

/** A lot key taken apart: the wire platform value (e.g. `copart`) and the lot number (e.g. `45416833`). */
export interface ParsedLotKey {
  platform: string;
  lot_number: string;
}

/**
 * Takes a lot key apart, so code that needs the lot number (to ask the service for one lot) never splits strings
 * itself. A lot key is `platform:lot_number` with both parts non-empty and exactly one colon.
 *
 * @returns the two parts, or null when `s` is not a lot key (a VIN, a bare lot number, anything else): callers
 *   decide what such an id means, so this never throws.
 */
export function parseLotKey(s: string): ParsedLotKey | null {
  const i = s.indexOf(':');
  if (i <= 0 || i === s.length - 1 || s.indexOf(':', i + 1) !== -1) return null;
  return { platform: s.slice(0, i), lot_number: s.slice(i + 1) };
}

/**
 * The name a watch goes by in its alerts ("Watch “…”"): the buyer's label; else what the buyer watched it by, the
 * VIN for a VIN watch and `lot <number>` for a lot watch (added by lot number or lot link), so an alert names the
 * watch as the buyer knows it; `Watched lot` when neither is known. Throws nothing.
 */
export function watchName(w: {
  kind: 'vin' | 'lot';
  label: string | null;
  vin: string | null;
  lot_key: string | null;
}): string {
  const label = w.label?.trim() ?? '';
  if (label !== '') return label;
  const lotNumber = w.lot_key !== null ? parseLotKey(w.lot_key)?.lot_number : undefined;
  if (w.kind === 'lot' && lotNumber) return `lot ${lotNumber}`;
  return w.vin || (lotNumber ? `lot ${lotNumber}` : '') || 'Watched lot';
}

/**
 * What one poll run is about: a saved search run or a watch check. Stored in `poll_runs.target`, carried by the
 * `poll.started`/`poll.finished` events and used as an alert's `source`, always as its wire string (see
 * pollTargetKey), so stored data and the renderer keep reading `search:<id>` and `watch:<id>`.
 */
export type PollTarget =
  | { kind: 'search'; id: number }
  | { kind: 'watch'; id: number }
  /** A call watch's run (src/shared/callWatch.ts): `call:<id>`. */
  | { kind: 'call'; id: number };

/** The wire string of a poll target: `search:12` or `watch:3`. Throws nothing. */
export function pollTargetKey(t: PollTarget): string {
  return `${t.kind}:${t.id}`;
}

/**
 * Reads a poll target's wire string back (`search:12`, `watch:3`).
 * @returns the target, or null for anything else (another source such as `explore`, or a damaged value); never
 *   throws, because stored rows and event payloads come from older versions too.
 */
export function parsePollTarget(s: string): PollTarget | null {
  const m = /^(search|watch|call):(\d{1,15})$/.exec(s);
  if (!m) return null;
  return { kind: m[1] as PollTarget['kind'], id: Number(m[2]) };
}

/** The kinds of change between two observations (docs/architecture.md "The domain": Change). */
export const CHANGE_KINDS = [
  'new_match',
  'bid_changed',
  'buy_now_changed',
  'status_changed',
  'rescheduled',
  'sale_result',
  'relisted',
  'dropped_out',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** The fields of an observation that the diff compares: a projection of the normalised Vehicle. */
export const LotStateSchema = z.object({
  platform: z.string(),
  lot_number: z.string(),
  vin: z.string().nullable(),
  /** USD. */
  current_bid_usd: z.number().nullable(),
  buy_now_usd: z.number().nullable(),
  sale_price_usd: z.number().nullable(),
  /** auction.state, lowercase word (e.g. open). */
  state: z.string().nullable(),
  /** auction.lot_status (e.g. Timed, Buy Now). */
  lot_status: z.string().nullable(),
  /** auction.lot_sub_status (Live, Open, Ended). */
  lot_sub_status: z.string().nullable(),
  /** auction.last_sold_status as received (real dialect: "Sold", "Sold on Approval"). */
  last_sold_status: z.string().nullable(),
  /** auction.auction_at as ms since the epoch; null when absent or unreadable. */
  auction_at: z.number().nullable(),
  /** When this observation was fetched. */
  observed_at: z.number(),
});
export type LotState = z.infer<typeof LotStateSchema>;

const JsonScalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** One typed difference (docs/architecture.md "The domain": Change), with before and after values. */
export const ChangeSchema = z.object({
  kind: z.enum(CHANGE_KINDS),
  lot_key: z.string(),
  vin: z.string().nullable(),
  /** The field that changed: `current_bid_usd`, `auction.state`, `auction_at`, ...; null for new_match, dropped_out. */
  field: z.string().nullable(),
  before: JsonScalar,
  after: JsonScalar,
  /** For relisted: the earlier lot of the same VIN (or the same lot, when only its date moved). */
  related_lot_key: z.string().nullable(),
  /** For sale_result: how the auction ended (never `open`); null for every other kind. */
  outcome: z.enum(SALE_OUTCOMES).nullable(),
  observed_at: z.number(),
});
export type Change = z.infer<typeof ChangeSchema>;

/** Kinds an alert can have: a change kind, a rule threshold, a reminder, or Lotwatch watching itself. */
export const ALERT_KINDS = [
  ...CHANGE_KINDS,
  'threshold',
  'reminder',
  'key_rejected',
  'quota_low',
  'search_failing',
  'search_empty',
  /** An alert channel (email, phone, webhook) keeps failing: what to fix. */
  'channel_failing',
  'digest',
  /** A call watch's changes and troubles (src/shared/callWatch.ts). */
  ...CALL_ALERT_KINDS,
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

const usd = z.number().finite().nonnegative('Enter an amount of 0 or more (USD).').max(10_000_000).nullable();

/** A saved search's schedule when none is given (cron, every 30 minutes): the contract's default and the form's. */
export const DEFAULT_SCHEDULE = '*/30 * * * *';

/** The schedules the save and edit forms offer by name (cron, label); anything else is a custom cron expression. */
export const SCHEDULE_PRESETS: readonly { readonly cron: string; readonly label: string }[] = [
  { cron: '*/5 * * * *', label: 'Every 5 minutes' },
  { cron: '*/10 * * * *', label: 'Every 10 minutes' },
  { cron: '*/15 * * * *', label: 'Every 15 minutes' },
  { cron: DEFAULT_SCHEDULE, label: 'Every 30 minutes' },
  { cron: '0 * * * *', label: 'Every hour' },
  { cron: '0 */6 * * *', label: 'Every 6 hours' },
  { cron: '0 8 * * *', label: 'Every day at 8:00' },
];

/** The change kinds that notify when a rule set does not say otherwise (dropped_out is recorded only). */
export const DEFAULT_NOTIFY_KINDS: ChangeKind[] = [
  'new_match',
  'status_changed',
  'rescheduled',
  'sale_result',
  'relisted',
  'buy_now_changed',
];

/** The fields of a rule set, each without its default: what a change of rules (a patch) may carry. */
const RULE_FIELDS = {
  /** Change kinds that notify. */
  kinds: z.array(z.enum(CHANGE_KINDS)).max(CHANGE_KINDS.length),
  /** Notify when the current bid rises to or above this (USD), once per crossing. */
  bid_above_usd: usd,
  /** Notify when the current bid is at or below this (USD) and falls below it / first seen below it. */
  bid_below_usd: usd,
  /** Notify when buy now becomes available at or under this (USD). */
  buy_now_under_usd: usd,
  /** A new match notifies only when its current bid or buy now is within this budget (USD). */
  max_price_usd: usd,
  /**
   * The most the user will bid (USD): the highest bid whose landed cost stays within `target_landed_usd`
   * (src/shared/fees.ts maxBid), or one they typed. A bid past it alerts once, and the lot's reminders stop: it is
   * out of range.
   */
  max_bid_usd: usd,
  /** Alert once when the bid reaches this share of max_bid_usd, in percent (e.g. 90), or null. */
  max_bid_near_percent: z
    .number()
    .int('Enter a whole percentage.')
    .min(1, 'Enter 1 to 99 %.')
    .max(99, 'Enter 1 to 99 %.')
    .nullable(),
  /**
   * A new match notifies only when its current bid (or buy now) is under this share of the median price paid for
   * comparable sales in the buyer's store, in percent (e.g. 70); with no comparable sale priced it notifies.
   */
  comps_below_percent: z
    .number()
    .int('Enter a whole percentage.')
    .min(1, 'Enter 1 to 100 %.')
    .max(100, 'Enter 1 to 100 %.')
    .nullable(),
  /**
   * Tell me when a lot comes back for this attempt (2 = its first relist, 3 = "a third time"): a relist of the VIN
   * whose attempt number (every attempt Lotwatch stored, src/core/diff/attempts.ts) is this or more alerts, even
   * when `relisted` is not among `kinds`; or null.
   */
  relist_attempt: z
    .number()
    .int('Enter a whole number of attempts.')
    .min(2, 'Enter 2 to 20 attempts.')
    .max(20, 'Enter 2 to 20 attempts.')
    .nullable(),
  /**
   * Exportable title only: a lot whose title blocks export or registration (src/shared/exportBlock.ts exportBlock:
   * the service marks it not exportable, or a certificate of destruction, parts only, junk or non-repairable
   * document) never alerts under these rules, whatever the change (a new match, a bid, a reminder).
   */
  exportable_only: z.boolean(),
  /**
   * Repair cost under this share of the ACV, in percent (e.g. 40): the platform's estimated repair cost over its actual
   * cash value (src/shared/estimates.ts repairToValue; IAAI's figures, Copart records carry none). A new match alerts
   * only when the ratio is known and under it: a lot without the figures does not pass (a buyer who set it wants
   * lots the insurer's own numbers say are worth repairing, and an unknown repair cost is no such evidence). Every
   * other alert under these rules (a watch's, a threshold's) still alerts and says where the lot stands against it,
   * or that the figure is unknown: a buyer following a lot never loses a sale result or a max bid passed to it.
   * 1 to 200 % (a repair estimate above the ACV is common on salvage titles), or null.
   */
  repair_under_acv_percent: z
    .number()
    .int('Enter a whole percentage.')
    .min(1, 'Enter 1 to 200 %.')
    .max(200, 'Enter 1 to 200 %.')
    .nullable(),
  /** The landed cost the max bid was solved for (USD), kept so the lot page shows and solves it again. */
  target_landed_usd: usd,
  /**
   * What the landed cost the max bid was solved with left out (src/shared/shipping.ts: `shipping`, `destination`),
   * so every place the max bid stands says "excluding shipping" when it does; null: saved before this was recorded.
   */
  max_bid_excludes: z.array(z.enum(COST_PARTS)).max(COST_PARTS.length).nullable(),
  /** Reminders this many minutes before a watched lot's auction (1 minute to 7 days). */
  remind_minutes_before: z.array(z.number().int().min(1).max(10_080)).max(5),
  /** Muted: changes are recorded, nothing notifies. */
  muted: z.boolean(),
  /** Snoozed until this time (ms since the epoch), or null. */
  snooze_until: z.number().int().nullable(),
  /** Snoozed until a change of this kind happens on the lot, or null. */
  snooze_until_event: z.enum(CHANGE_KINDS).nullable(),
  /** At most this many alerts per lot per hour (the rest are kept in the inbox as suppressed). */
  cap_per_lot_per_hour: z.number().int().min(1).max(60),
};

/**
 * Rules of a saved search or a watch: which changes alert, thresholds, reminders. Validated at the boundary: a
 * malformed rule set is a field error and nothing is saved.
 */
export const AlertRulesSchema = z
  .object({
    kinds: RULE_FIELDS.kinds.default(DEFAULT_NOTIFY_KINDS),
    bid_above_usd: RULE_FIELDS.bid_above_usd.default(null),
    bid_below_usd: RULE_FIELDS.bid_below_usd.default(null),
    buy_now_under_usd: RULE_FIELDS.buy_now_under_usd.default(null),
    max_price_usd: RULE_FIELDS.max_price_usd.default(null),
    max_bid_usd: RULE_FIELDS.max_bid_usd.default(null),
    max_bid_near_percent: RULE_FIELDS.max_bid_near_percent.default(null),
    comps_below_percent: RULE_FIELDS.comps_below_percent.default(null),
    relist_attempt: RULE_FIELDS.relist_attempt.default(null),
    exportable_only: RULE_FIELDS.exportable_only.default(false),
    repair_under_acv_percent: RULE_FIELDS.repair_under_acv_percent.default(null),
    target_landed_usd: RULE_FIELDS.target_landed_usd.default(null),
    max_bid_excludes: RULE_FIELDS.max_bid_excludes.default(null),
    remind_minutes_before: RULE_FIELDS.remind_minutes_before.default([]),
    muted: RULE_FIELDS.muted.default(false),
    snooze_until: RULE_FIELDS.snooze_until.default(null),
    snooze_until_event: RULE_FIELDS.snooze_until_event.default(null),
    cap_per_lot_per_hour: RULE_FIELDS.cap_per_lot_per_hour.default(6),
  })
  .strict()
  .refine((r) => r.bid_above_usd === null || r.bid_below_usd === null || r.bid_below_usd < r.bid_above_usd, {
    message: 'The lower bid threshold must be below the upper one.',
    path: ['bid_below_usd'],
  });
export type AlertRules = z.infer<typeof AlertRulesSchema>;

/**
 * A change of rules as the contract takes it (searches.create/update, watchlist.add/setRules): any of the rule
 * fields, none filled with a default, merged over the rules in force and then checked whole (AlertRulesSchema).
 */
export const AlertRulesPatchSchema = z.object(RULE_FIELDS).partial().strict();
export type AlertRulesPatch = z.infer<typeof AlertRulesPatchSchema>;

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a 24-hour time such as 22:00.');

/** Quiet hours: alerts raised inside the window are delivered as one digest when it ends (checks go on). */
export const QuietHoursSchema = z
  .object({
    enabled: z.boolean().default(false),
    start: hhmm.default('22:00'),
    end: hhmm.default('07:00'),
  })
  .strict();
export type QuietHours = z.infer<typeof QuietHoursSchema>;

/** How an alert is delivered: at once, held for the digest after quiet hours, or kept silent in the inbox. */
export const DELIVERIES = ['now', 'digest', 'suppressed'] as const;
export type Delivery = (typeof DELIVERIES)[number];

/**
 * Pages (= requests) one run of a saved search is expected to fetch, as the request budget counts them and the Usage
 * page explains them: its last result count at 20 records a page, at least 1 and at most `max_pages`; `max_pages`
 * before the first run and after a run that did not read the whole list (its count is only what that run read: a
 * list cut short after one page is not a one-page list). Throws nothing.
 */
export function pagesPerRun(s: {
  max_pages: number;
  last_result_count: number | null;
  last_complete?: boolean | null;
}): number {
  if (s.last_result_count === null || s.last_complete === false) return s.max_pages;
  return Math.min(s.max_pages, Math.max(1, Math.ceil(s.last_result_count / 20)));
}
