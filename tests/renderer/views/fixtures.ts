/**
 * Realistic answers for the fake bridge, built through the contract's own zod output schemas, so a fixture that
 * drifts from the contract fails loudly instead of testing a shape core never sends.
 */
import { saleOutcomeOf } from '../../../src/shared/saleOutcome';
import {
  ChannelViewSchema,
  DeliveryViewSchema,
  type ChannelView,
  type DeliveryView,
} from '../../../src/shared/alertChannels';
import {
  AlertViewSchema,
  ChangeViewSchema,
  LotDetailSchema,
  LotSummarySchema,
  SavedSearchViewSchema,
  StatusSchema,
  VehicleRowSchema,
  WatchViewSchema,
  type AlertView,
  type LotDetail,
  type LotSummary,
  type MethodOutput,
  type SavedSearchView,
  type Status,
  type VehicleRow,
  type WatchView,
} from '../../../src/shared/ipc/contract';
import { AlertRulesSchema } from '../../../src/shared/watch';
import { feeTableFor } from '../../../src/shared/feeTable';

/** A fixed "now" for tests where relative times matter: Wed 15 Jan 2025, 12:00 UTC. */
export const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export function lotSummary(over: Partial<LotSummary> = {}): LotSummary {
  const base = {
    lot_key: 'copart:45416833',
    platform: 'copart',
    lot_number: '45416833',
    vin: '1HGCM82633A004352',
    title: '2019 TESLA MODEL 3',
    year: 2019,
    make: 'TESLA',
    model: 'MODEL 3',
    location: 'CA - SAN DIEGO',
    current_bid_usd: 12_300,
    buy_now_usd: null,
    sale_price_usd: null,
    state: 'open',
    lot_status: 'Timed',
    lot_sub_status: 'Open',
    last_sold_status: null,
    auction_at: NOW + 26 * HOUR,
    first_seen_at: NOW - 48 * HOUR,
    last_observed_at: NOW - 5 * MINUTE,
    photo: null,
    ...over,
  };
  // Core decides the outcome from the lot's facts; the fixture does the same so an overridden lot stays coherent.
  return LotSummarySchema.parse({ outcome: saleOutcomeOf(base), ...base });
}

export function watch(over: Partial<WatchView> = {}): WatchView {
  return WatchViewSchema.parse({
    id: 1,
    kind: 'lot',
    vin: '1HGCM82633A004352',
    lot_key: 'copart:45416833',
    label: '',
    rules: AlertRulesSchema.parse({}),
    is_example: false,
    last_checked_at: NOW - 10 * MINUTE,
    next_check_at: NOW + 20 * MINUTE,
    last_error: null,
    lot: lotSummary(),
    ...over,
  });
}

export function alert(over: Partial<AlertView> = {}): AlertView {
  return AlertViewSchema.parse({
    id: 1,
    kind: 'bid_changed',
    lot_key: 'copart:45416833',
    title: '2019 TESLA MODEL 3: bid $12,300',
    body: 'The bid rose from $11,800 to $12,300.',
    source: 'watch:1',
    reason: null,
    created_at: NOW - 30 * MINUTE,
    delivery: 'now',
    status: 'delivered',
    read: false,
    ...over,
  });
}

export function savedSearch(over: Partial<SavedSearchView> = {}): SavedSearchView {
  return SavedSearchViewSchema.parse({
    id: 7,
    name: 'Tesla Model 3 2019–2022',
    params: { make: 'TESLA', model: 'MODEL 3', year_from: 2019, year_to: 2022 },
    schedule: '*/30 * * * *',
    rules: AlertRulesSchema.parse({}),
    max_pages: 5,
    paused: false,
    is_example: false,
    last_run_at: NOW - 5 * MINUTE,
    last_ok_at: NOW - 5 * MINUTE,
    next_run_at: NOW + 25 * MINUTE,
    last_result_count: 42,
    last_complete: true,
    consecutive_failures: 0,
    last_error: null,
    new_matches_24h: 3,
    ...over,
  });
}

export function lotDetail(
  over: Partial<LotDetail> & { offline?: boolean } = {},
): MethodOutput<'vehicles.get'> {
  const { offline = false, ...rest } = over;
  const detail = LotDetailSchema.parse({
    summary: lotSummary(),
    record: { year: 2019, make: 'TESLA', model: 'MODEL 3', odometer: 31_250, damage: 'FRONT END' },
    raw: { lot_number: '45416833', make: 'TESLA' },
    timeline: [],
    bids: [],
    observations: 1,
    watch_id: null,
    notes: '',
    ...rest,
  });
  return { ...detail, offline };
}

/**
 * `status.get` as core answers it, by default in Demo mode with no key: no plan quota, the default allowance of 1,000
 * requests a day with nothing spent, running and not paused; `over` replaces whole fields (`budget` merges into the
 * default one).
 */
export function statusView(
  over: Omit<Partial<Status>, 'budget'> & { budget?: Partial<Status['budget']> } = {},
): Status {
  const { budget, ...rest } = over;
  return StatusSchema.parse({
    mode: 'demo',
    key: { set: false, storage: 'the system keychain' },
    quota: null,
    budget: {
      allowedPerDay: 1000,
      spentLast24h: 0,
      projectedNext24h: 0,
      basis: 'default',
      periodRemaining: null,
      periodEnd: null,
      ...budget,
    },
    scale: 1,
    running: true,
    paused_until: null,
    pause_reason: null,
    ...rest,
  });
}

/** An alert channel as `channels.list` shows it: a phone through ntfy, by default, with a stored access token. */
export function channel(over: Partial<ChannelView> = {}): ChannelView {
  return ChannelViewSchema.parse({
    id: 1,
    type: 'ntfy',
    name: 'My phone',
    config: { type: 'ntfy', server: 'https://ntfy.sh', topic: 'lotwatch-k7q2x9', priority: 3 },
    has_secret: true,
    secret_hint: '••••',
    health: { last_sent_at: NOW - 10 * MINUTE, failures: 0, last_error: null, waiting: 0 },
    ...over,
  });
}

/** One alert's delivery to one channel (a row of the delivery log, or of an alert's `deliveries`). */
/** The buyer's office mail channel (id 2): STARTTLS on smtp.example.com:587, with a stored password. */
export const officeEmail = channel({
  id: 2,
  type: 'email',
  name: 'Office email',
  config: {
    type: 'email',
    host: 'smtp.example.com',
    port: 587,
    security: 'starttls',
    username: 'buyer@example.com',
    from: 'buyer@example.com',
    to: 'office@example.com',
  },
  has_secret: true,
  secret_hint: '••••',
});

export function delivery(over: Partial<DeliveryView> = {}): DeliveryView {
  return DeliveryViewSchema.parse({
    id: 1,
    alert_id: 1,
    alert_title: '2019 TESLA MODEL 3: bid $12,300',
    channel_id: 1,
    channel_name: 'My phone',
    status: 'sent',
    attempts: 1,
    at: NOW - 28 * MINUTE,
    next_at: null,
    detail: null,
    ...over,
  });
}

/** One row of a `vehicles.search` page: the lot's summary and the facts the results table shows. */
export function vehicleRow(over: Partial<VehicleRow> = {}): VehicleRow {
  return VehicleRowSchema.parse({
    ...lotSummary(over),
    odometer: 31_250,
    damage: 'FRONT END',
    color: null,
    fuel_type: null,
    transmission: null,
    drive_type: null,
    type: null,
    photos: [],
    ...over,
  });
}

/** One change of a lot's timeline (`vehicles.get`), a bid change by default. */
export function change(over: Partial<LotDetail['timeline'][number]> = {}): LotDetail['timeline'][number] {
  return ChangeViewSchema.parse({
    id: 1,
    kind: 'bid_changed',
    lot_key: 'copart:45416833',
    vin: '1HGCM82633A004352',
    field: 'current_bid_usd',
    before: 1200,
    after: 1450,
    related_lot_key: null,
    outcome: null,
    observed_at: NOW - HOUR,
    search_id: null,
    ...over,
  });
}

/**
 * The fee table core sends with desk.lot for a lot of `platform` with this title document under `membership`
 * (feeTableFor over the real data/fees files): the schedule, its names and the reason, or no table and why.
 */
export function feeTable(
  platform: 'copart' | 'iaai',
  titleDocument: string | null,
  membership: string,
): MethodOutput<'desk.lot'>['fee_table'] {
  const c = feeTableFor(platform, titleDocument, membership);
  return c.ok
    ? {
        schedule: c.schedule,
        table_id: c.table_id,
        label: c.label,
        version: c.version,
        reason: c.reason,
        stricter: c.stricter,
        title_group: c.title_group,
      }
    : {
        schedule: null,
        table_id: null,
        label: null,
        version: null,
        reason: c.reason,
        stricter: false,
        title_group: c.title_group,
      };
}
