import type { ExportBlock } from '../../shared/exportBlock';
import type {
  AlertKind,
  AlertRules,
  Change,
  ChangeKind,
  Delivery,
  LotState,
  QuietHours,
} from '../../shared/watch';
import { lotLabel, sourceLabel, usd, when } from './format';
import { inQuietHours } from './quietHours';
import { maxBidExcludes, qualified } from '../../shared/shipping';
import { ordinal } from '../diff/signals';
import { isEnded } from '../diff';
import { repairVerdict, type LotEstimates } from './repairRule';

/**
 * What to do about one change or time event (docs/architecture.md "The domain": Alert). The store keeps it in the
 * inbox under `dedup_key` (unique, so one change gives one alert even across crashes) and delivers it per
 * `delivery`.
 */
export interface AlertDecision {
  kind: AlertKind;
  delivery: Delivery;
  /** Why it is not delivered now: `muted`, `snoozed`, `cap`, `quiet_hours`; null when delivered now. */
  reason: string | null;
  title: string;
  body: string;
  dedup_key: string;
  lot_key: string | null;
  /** The link the alert carries (a call watch's new item); absent or null for lot alerts. */
  url?: string | null;
  /**
   * Present (true) when this change is the event the rules were snoozed until (`snooze_until_event`): the
   * snooze is over and the caller should clear `snooze_until_event` and `snooze_until` of the rules.
   */
  lifts_snooze?: true;
}

/** Input of decide(); see there. */
export interface DecideInput {
  change: Change;
  /** The stored change's id: the alert's dedup key is `change:<changeId>`. */
  changeId: number;
  /** The lot before the change (null for a first observation). */
  prev: LotState | null;
  /** The lot after the change (null when unknown, e.g. a dropped_out of a lot never stored). */
  lot: LotState | null;
  /** Already parsed with AlertRulesSchema. */
  rules: AlertRules;
  quiet: QuietHours;
  /** ms since the epoch. */
  now: number;
  /** The user's UTC offset at `now`, minutes (e.g. -300 for US Eastern standard time). */
  tzOffsetMinutes: number;
  /** Alerts already raised for this lot in the hour before `now` (any delivery). */
  alertsForLotLastHour: number;
  /** The vehicle's display title, e.g. `2018 AUDI S5`. */
  title: string;
  source: { kind: 'search' | 'watch'; name: string };
  /**
   * The median price paid for the lot's comparable sales in the store (USD, src/core/db/comps.ts), for a new match
   * under rules with comps_below_percent; null when none is priced, absent when not asked.
   */
  compsMedianUsd?: number | null;
  /**
   * For a `relisted` change under rules with relist_attempt: the attempt number the lot's new sale is for the VIN
   * (src/core/diff/attempts.ts, from the store); null when unknown, absent when not asked.
   */
  attempt?: number | null;
  /**
   * Whether the lot's title blocks export or registration (src/shared/exportBlock.ts exportBlock of its stored
   * record): null when nothing blocks, absent when unknown (no record stored).
   */
  exportBlock?: ExportBlock | null;
  /**
   * The lot's ACV and estimated repair cost (USD, its normalised record's `pricing`), for rules with
   * repair_under_acv_percent; null when the lot's record is not stored, absent when not asked.
   */
  estimates?: LotEstimates | null;
}

/** The words an alert body gives a lot whose title blocks export or registration: `Export blocked: Parts only`. */
export function exportBlockNote(block: ExportBlock): string {
  return `Export blocked: ${block.label}`;
}

/** The delivery part of a decision. */
export interface DeliveryDecision {
  delivery: Delivery;
  reason: string | null;
  liftsSnooze: boolean;
}

/**
 * The delivery policy shared by change alerts and reminders, in order: muted -> suppressed (`muted`); snoozed
 * -> suppressed (`snoozed`): `snooze_until` > now, or `snooze_until_event` set, unless `eventKind` is that event
 * (which lifts the snooze); `alertsForLotLastHour` >= cap -> suppressed (`cap`); inside quiet hours -> digest
 * (`quiet_hours`); else now.
 *
 * @param p.eventKind the change kind, or null for a time event (a reminder never lifts a snooze).
 * @param p.alertsForLotLastHour null to skip the cap (reminders: the caller has no count).
 * @returns the delivery, its reason and whether the snooze is lifted. Throws nothing.
 */
export function deliveryFor(p: {
  rules: AlertRules;
  eventKind: ChangeKind | null;
  now: number;
  quiet: QuietHours;
  tzOffsetMinutes: number;
  alertsForLotLastHour: number | null;
}): DeliveryDecision {
  const { rules } = p;
  // The event the user waited for happened even when muted: report the lift so the snooze does not outlive it.
  const liftsSnooze = rules.snooze_until_event !== null && p.eventKind === rules.snooze_until_event;
  const result = (delivery: Delivery, reason: string | null): DeliveryDecision => ({
    delivery,
    reason,
    liftsSnooze,
  });
  if (rules.muted) return result('suppressed', 'muted');
  if (!liftsSnooze) {
    if (rules.snooze_until !== null && rules.snooze_until > p.now) return result('suppressed', 'snoozed');
    if (rules.snooze_until_event !== null) return result('suppressed', 'snoozed');
  }
  if (p.alertsForLotLastHour !== null && p.alertsForLotLastHour >= rules.cap_per_lot_per_hour) {
    return result('suppressed', 'cap');
  }
  if (inQuietHours(p.now, p.quiet, p.tzOffsetMinutes)) return result('digest', 'quiet_hours');
  return result('now', null);
}

type Threshold =
  | { rule: 'max_bid_passed'; limit: number }
  | { rule: 'max_bid_near'; limit: number; max: number; percent: number }
  | { rule: 'bid_above'; limit: number }
  | { rule: 'bid_below'; limit: number }
  | { rule: 'buy_now_under'; limit: number }
  | { rule: 'relist_attempt'; limit: number; attempt: number };

function num(v: Change['before']): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * The threshold a change crosses, if any. Crossing, not being beyond: a bid that moves from 10,500 to 11,000 with
 * bid_above_usd 10,000 crossed nothing (it alerted when it reached 10,000), so staying above never re-alerts.
 */
function crossedThreshold(change: Change, rules: AlertRules, attempt?: number | null): Threshold | null {
  const n = rules.relist_attempt;
  if (change.kind === 'relisted' && n !== null && attempt != null && attempt >= n)
    return { rule: 'relist_attempt', limit: n, attempt };
  const before = num(change.before);
  const after = num(change.after);
  if (after === null) return null;
  if (change.kind === 'bid_changed') {
    const max = rules.max_bid_usd;
    if (max !== null && after > max && (before === null || before <= max))
      return { rule: 'max_bid_passed', limit: max };
    const pct = rules.max_bid_near_percent;
    if (max !== null && pct !== null) {
      const near = Math.ceil((max * pct) / 100);
      if (after >= near && (before === null || before < near))
        return { rule: 'max_bid_near', limit: near, max, percent: pct };
    }
    const up = rules.bid_above_usd;
    if (up !== null && after >= up && (before === null || before < up))
      return { rule: 'bid_above', limit: up };
    const down = rules.bid_below_usd;
    if (down !== null && after <= down && (before === null || before > down)) {
      return { rule: 'bid_below', limit: down };
    }
  }
  if (change.kind === 'buy_now_changed') {
    const under = rules.buy_now_under_usd;
    if (under !== null && after <= under && (before === null || before > under)) {
      return { rule: 'buy_now_under', limit: under };
    }
  }
  return null;
}

/**
 * A new match is within budget when its current bid or its buy now (whichever is known) is at or under
 * max_price_usd; with neither known there is nothing to filter on, so it notifies.
 */
function withinBudget(lot: LotState | null, max: number | null): boolean {
  if (max === null || lot === null) return true;
  const prices = [lot.current_bid_usd, lot.buy_now_usd].filter(
    (p): p is number => p !== null && Number.isFinite(p),
  );
  return prices.length === 0 || prices.some((p) => p <= max);
}

/**
 * A new match is cheap enough against its comparable sales when its current bid or buy now (whichever is known) is
 * under comps_below_percent of their median price; with no median, or neither price known, it notifies.
 */
function underComps(
  lot: LotState | null,
  percent: number | null,
  median: number | null | undefined,
): boolean {
  if (percent === null || median == null || lot === null) return true;
  const prices = [lot.current_bid_usd, lot.buy_now_usd].filter(
    (p): p is number => p !== null && Number.isFinite(p),
  );
  return prices.length === 0 || prices.some((p) => p < (median * percent) / 100);
}

const STATUS_LABEL: Record<string, string> = {
  'auction.state': 'Auction state',
  'auction.lot_status': 'Lot status',
  'auction.lot_sub_status': 'Sale status',
};

function text(v: Change['before']): string | null {
  return v === null ? null : String(v);
}

/** Title and body of a change alert: the headline after the vehicle title, the detail before the lot and source. */
function describe(
  input: DecideInput,
  threshold: Threshold | null,
): { headline: string; detail: string | null } {
  const { change: c, lot, tzOffsetMinutes: tz } = input;
  const before = num(c.before);
  const after = num(c.after);
  const was = (v: number | null, none: string): string => (v === null ? none : `Was ${usd(v)}`);
  if (threshold?.rule === 'relist_attempt') {
    const date = after === null ? 'date not set' : when(after, tz);
    const earlier =
      c.related_lot_key !== null && c.related_lot_key !== c.lot_key
        ? ` · earlier ${lotLabel(c.related_lot_key)}`
        : '';
    return {
      headline: `back for its ${ordinal(threshold.attempt)} attempt`,
      detail: `Your rule: from the ${ordinal(threshold.limit)} attempt · auction ${date}${earlier}`,
    };
  }
  if (threshold) {
    const wasBid = before === null ? 'no bid before' : `was ${usd(before)}`;
    switch (threshold.rule) {
      // A max bid solved without a shipping price says so ("your max bid $3,555 excluding shipping").
      case 'max_bid_passed':
        return {
          headline: `bid ${usd(after ?? 0)} is past your max bid`,
          detail: `Your max bid ${qualified(usd(threshold.limit), maxBidExcludes(input.rules))} · out of range: no more reminders for this lot · ${wasBid}`,
        };
      case 'max_bid_near':
        return {
          headline: `bid reached ${threshold.percent}% of your max bid`,
          detail: `Bid ${usd(after ?? 0)} · your max bid ${qualified(usd(threshold.max), maxBidExcludes(input.rules))} · ${wasBid}`,
        };
      case 'bid_above':
        return {
          headline: `bid reached ${usd(after ?? 0)}`,
          detail: `At or above your ${usd(threshold.limit)} · ${wasBid}`,
        };
      case 'bid_below':
        return {
          headline: `bid down to ${usd(after ?? 0)}`,
          detail: `At or below your ${usd(threshold.limit)} · ${wasBid}`,
        };
      case 'buy_now_under':
        return {
          headline: `buy now ${usd(after ?? 0)}`,
          detail: `At or under your ${usd(threshold.limit)} · ${before === null ? 'newly offered' : `was ${usd(before)}`}`,
        };
    }
  }
  switch (c.kind) {
    case 'bid_changed':
      return {
        headline: after === null ? 'bid cleared' : `bid ${usd(after)}`,
        detail: was(before, 'No bid before'),
      };
    case 'buy_now_changed':
      return {
        headline: after === null ? 'buy now withdrawn' : `buy now ${usd(after)}`,
        detail: was(before, 'Not offered before'),
      };
    case 'status_changed': {
      const label = STATUS_LABEL[c.field ?? ''] ?? 'Status';
      const a = text(c.after);
      const b = text(c.before);
      return {
        headline: a === null ? `${label} cleared` : `${label}: ${a}`,
        detail: b === null ? null : `Was ${b}`,
      };
    }
    case 'rescheduled':
      return {
        headline: after === null ? 'auction date removed' : `auction moved to ${when(after, tz)}`,
        detail: before === null ? 'No date before' : `Was ${when(before, tz)}`,
      };
    case 'sale_result': {
      // One alert says the whole result: the outcome and, when published, the price. Sold on approval is never
      // announced as sold (the seller may still refuse), and an unsold end never carries a price.
      const price = after !== null && after > 0 ? usd(after) : null;
      switch (c.outcome) {
        case 'sold':
          return { headline: price ? `Sold for ${price}` : 'Sold (price not published yet)', detail: null };
        case 'sold_on_approval':
          return {
            headline: price ? `Sold on approval at ${price}` : 'Sold on approval',
            detail: 'The seller may still refuse; a relist is possible',
          };
        case 'ended_unsold':
        case 'open':
        case null:
          return { headline: 'Auction ended, not sold', detail: 'A relist may follow' };
      }
      break;
    }
    case 'relisted': {
      const date = after === null ? 'date not set' : when(after, tz);
      if (c.related_lot_key !== null && c.related_lot_key !== c.lot_key) {
        return {
          headline: `relisted as ${lotLabel(c.lot_key)}`,
          detail: `Earlier ${lotLabel(c.related_lot_key)} did not sell · auction ${date}`,
        };
      }
      return {
        headline: `relisted for ${date}`,
        detail: `Did not sell${before === null ? '' : `; was ${when(before, tz)}`}`,
      };
    }
    case 'new_match': {
      const parts: string[] = [];
      if (lot?.current_bid_usd != null)
        parts.push(lot.current_bid_usd > 0 ? `Bid ${usd(lot.current_bid_usd)}` : 'No bids yet');
      if (lot?.buy_now_usd != null) parts.push(`Buy now ${usd(lot.buy_now_usd)}`);
      if (lot?.auction_at != null) parts.push(`Auction ${when(lot.auction_at, tz)}`);
      if (input.compsMedianUsd != null) parts.push(`Comps median ${usd(input.compsMedianUsd)}`);
      return { headline: 'new match', detail: parts.length ? parts.join(' · ') : null };
    }
    case 'dropped_out':
      return { headline: 'no longer in the results', detail: null };
  }
}

/**
 * Decides whether one stored change raises an alert, and how it is delivered (docs/architecture.md "The domain":
 * Alert). At most one alert per change, dedup_key `change:<changeId>`. In order:
 * 1. Thresholds, even when the change kind is not in `rules.kinds`, one per change, first match wins: a bid_changed
 *    passing max_bid_usd (before <= M < after, or before null), then one reaching max_bid_near_percent of it (before
 *    < ceil(M x p / 100) <= after), then one crossing bid_above_usd upward
 *    (before < X <= after, or before null and after >= X) or bid_below_usd downward (before > Y >= after, or
 *    before null and after <= Y), or a buy_now_changed to <= buy_now_under_usd from null or above, gives kind
 *    `threshold`; a `relisted` change whose `attempt` is relist_attempt or more keeps its kind `relisted`, with the
 *    title `<vehicle> · back for its 3rd attempt` and the body `Your rule: from the 3rd attempt · auction <date>[ ·
 *    earlier <platform> lot <number>] · <lot> · <source>`.
 * 2. Otherwise a change whose kind is not in `rules.kinds` gives null (recorded only), unless it is the
 *    `snooze_until_event` (the user asked to hear about it).
 * 3. A new_match with max_price_usd gives null unless its current bid or buy now is within budget (see
 *    withinBudget; both unknown notifies), and one with comps_below_percent unless a price is under that share of
 *    `compsMedianUsd` (see underComps; no median notifies; the body names the median when there is one).
 *    With repair_under_acv_percent N, a new match gives null unless its estimated repair cost is known and under N %
 *    of its ACV (repairVerdict: unknown figures never pass); every alert under such rules carries the verdict in its
 *    body after the detail: `Repair 25% of ACV, under your 40%`, `Repair 113% of ACV, not under your 40%` or
 *    `Repair to ACV unknown (no ACV), so not under your 40%`.
 * 4. Delivery per deliveryFor (muted, snoozed, cap, quiet hours); `lifts_snooze: true` when the change is the
 *    event the rules were snoozed until.
 * Before all of these: under rules with exportable_only, a lot whose `exportBlock` is set gives null, whatever the
 * change (thresholds too): the buyer asked never to hear about a car they cannot export.
 * A bid threshold first seen in the observation that also shows the auction over (`lot` ended) says so after its
 * headline, `· seen only with the result`: it came too late to act on and must not read as a warning.
 * Title `<vehicle> · <headline>` (e.g. `2018 AUDI S5 · bid $4,250`), body `<detail> · <platform> lot <number> ·
 * <source>` (e.g. `Was $3,900 · copart lot 45416833 · Saved search “Audi under 10k”`); USD like `$12,300`. A lot
 * whose title blocks export says so before the lot: `Was $3,900 · Export blocked: Certificate of destruction ·
 * copart lot 45416833 · …` (see exportBlockNote).
 *
 * @returns the decision, or null when the change raises no alert. Throws nothing.
 */
export function decide(input: DecideInput): AlertDecision | null {
  const { change, rules } = input;
  const block = input.exportBlock ?? null;
  if (rules.exportable_only && block !== null) return null;
  const threshold = crossedThreshold(change, rules, input.attempt);
  if (!threshold && !rules.kinds.includes(change.kind) && rules.snooze_until_event !== change.kind)
    return null;
  if (!threshold && change.kind === 'new_match' && !withinBudget(input.lot, rules.max_price_usd)) return null;
  if (
    !threshold &&
    change.kind === 'new_match' &&
    !underComps(input.lot, rules.comps_below_percent, input.compsMedianUsd)
  )
    return null;
  const repair =
    rules.repair_under_acv_percent === null
      ? null
      : repairVerdict(rules.repair_under_acv_percent, input.estimates);
  if (!threshold && change.kind === 'new_match' && repair && !repair.passes) return null;
  const d = deliveryFor({
    rules,
    eventKind: change.kind,
    now: input.now,
    quiet: input.quiet,
    tzOffsetMinutes: input.tzOffsetMinutes,
    alertsForLotLastHour: input.alertsForLotLastHour,
  });
  const described = describe(input, threshold);
  // A bid rule crossed in the same observation that brought the sale result is no warning any more: say so.
  const late =
    threshold !== null && change.kind === 'bid_changed' && input.lot !== null && isEnded(input.lot);
  const headline = late ? `${described.headline} · seen only with the result` : described.headline;
  const { detail } = described;
  const vehicle = input.title.trim() || lotLabel(change.lot_key);
  const body = [
    detail,
    block && exportBlockNote(block),
    repair?.text ?? null,
    lotLabel(change.lot_key),
    sourceLabel(input.source),
  ]
    .filter((p) => p !== null)
    .join(' · ');
  const decision: AlertDecision = {
    kind: threshold && threshold.rule !== 'relist_attempt' ? 'threshold' : change.kind,
    delivery: d.delivery,
    reason: d.reason,
    title: `${vehicle} · ${headline}`,
    body,
    dedup_key: `change:${input.changeId}`,
    lot_key: change.lot_key,
  };
  if (d.liftsSnooze) decision.lifts_snooze = true;
  return decision;
}
