import { z } from 'zod';
import '../zodMessages';
import { MAX_NOTES_LENGTH, TagsSchema } from '../desk';
import { SettingsPatchSchema, SettingsSchema } from '../settings';
import { QuotaSnapshotSchema } from '../vehicle';
import { SALE_OUTCOMES } from '../saleOutcome';
import {
  ChannelSaveSchema,
  ChannelTestResultSchema,
  ChannelViewSchema,
  DeliveryViewSchema,
} from '../alertChannels';
import { AlertRulesSchema, CHANGE_KINDS, ChangeSchema } from '../watch';
import type { EventName, MethodName } from './channels';

/**
 * The one contract between the renderer and core (docs/architecture.md "One contract, two shells"). Each method has
 * a zod input and output; both shells parse the input before core sees it and the output before the renderer does.
 * Types are inferred from here, never restated.
 */

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  /** Which shell hosts core: the Electron desktop app or the headless browser shell. */
  shell: z.enum(['electron', 'headless']),
  /** `demo` while Lotwatch talks to its built-in sandbox, `live` with a real key. */
  mode: z.enum(['demo', 'live']),
  dataDir: z.string(),
  dbPath: z.string(),
  platform: z.string(),
  versions: z.object({ node: z.string(), electron: z.string().nullable(), sqlite: z.string() }),
  /** Database schema version (PRAGMA user_version). */
  schemaVersion: z.number().int(),
  /**
   * Core's clock when it answered (ms since the epoch) and its speed (clock ms per wall ms: 1 in real time, more in
   * an accelerated demo), so the UI's countdowns and "5 minutes ago" agree with the watcher's time.
   */
  clock: z.object({ now: z.number(), speed: z.number().positive() }),
});

const Void = z.undefined().or(z.null()).or(z.object({}).strict()).optional();
const Id = z.object({ id: z.number().int().positive() }).strict();
const Done = z.object({ ok: z.literal(true) });

/** A saved search as the UI sees it. `params` are GET /vehicles parameters with the spec's names. */
export const SavedSearchViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  params: z.record(z.string(), z.unknown()),
  schedule: z.string(),
  rules: AlertRulesSchema,
  max_pages: z.number().int(),
  paused: z.boolean(),
  is_example: z.boolean(),
  last_run_at: z.number().nullable(),
  last_ok_at: z.number().nullable(),
  next_run_at: z.number().nullable(),
  last_result_count: z.number().nullable(),
  last_complete: z.boolean().nullable(),
  consecutive_failures: z.number().int(),
  last_error: z.string().nullable(),
  /** Alerts of kind new_match raised by this search in the last 24 hours. */
  new_matches_24h: z.number().int(),
});
export type SavedSearchView = z.infer<typeof SavedSearchViewSchema>;

const SearchInput = z
  .object({
    name: z.string().trim().min(1, 'Give the search a name.').max(120),
    params: z.record(z.string(), z.unknown()),
    schedule: z.string().trim().min(1, 'Give a schedule, for example */30 * * * *.').default('*/30 * * * *'),
    rules: z.unknown().optional(),
    max_pages: z.number().int().min(1, 'At least 1 page.').max(50, 'At most 50 pages a run.').default(5),
    paused: z.boolean().default(false),
  })
  .strict();

/** A lot in a list: the fields a table shows. Amounts USD; times ms. */
export const LotSummarySchema = z.object({
  lot_key: z.string(),
  platform: z.string(),
  lot_number: z.string(),
  vin: z.string().nullable(),
  title: z.string().nullable(),
  year: z.number().nullable(),
  make: z.string().nullable(),
  model: z.string().nullable(),
  location: z.string().nullable(),
  current_bid_usd: z.number().nullable(),
  buy_now_usd: z.number().nullable(),
  sale_price_usd: z.number().nullable(),
  state: z.string().nullable(),
  lot_status: z.string().nullable(),
  lot_sub_status: z.string().nullable(),
  last_sold_status: z.string().nullable(),
  /** Open, or how the auction ended: decided once in core with saleOutcomeOf (src/shared/saleOutcome.ts). */
  outcome: z.enum(SALE_OUTCOMES),
  auction_at: z.number().nullable(),
  first_seen_at: z.number(),
  last_observed_at: z.number(),
  photo: z.string().nullable(),
  /** The user's notes and tags on the lot (docs/architecture.md "The buyer's desk"); empty for a lot not stored. */
  notes: z.string().default(''),
  tags: z.array(z.string()).default([]),
});
export type LotSummary = z.infer<typeof LotSummarySchema>;

/**
 * The buyer's figures for a lot at its current bid, worked out offline (docs/architecture.md "The buyer's desk"):
 * their notes and tags, the kept shipping price to their port, the landed cost (bid + buyer fees + shipping + their
 * own lines) and their max bid. USD; null where unknown (no bid yet, no shipping price kept, no fee schedule).
 */
export const LotDeskSchema = z.object({
  notes: z.string(),
  tags: z.array(z.string()),
  port: z.string(),
  shipping_usd: z.number().nullable(),
  landed_cost_usd: z.number().nullable(),
  max_bid_usd: z.number().nullable(),
});
export type LotDesk = z.infer<typeof LotDeskSchema>;

export const WatchViewSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['vin', 'lot']),
  vin: z.string().nullable(),
  lot_key: z.string().nullable(),
  label: z.string(),
  rules: AlertRulesSchema,
  is_example: z.boolean(),
  last_checked_at: z.number().nullable(),
  next_check_at: z.number().nullable(),
  last_error: z.string().nullable(),
  lot: LotSummarySchema.nullable(),
  /** The buyer's figures for the watched lot; null before it was first fetched. */
  desk: LotDeskSchema.nullable().default(null),
});
export type WatchView = z.infer<typeof WatchViewSchema>;

/** A comparable sale from the buyer's own store (src/core/db/comps.ts): USD, miles, ms. */
export const CompViewSchema = LotSummarySchema.pick({
  lot_key: true,
  platform: true,
  lot_number: true,
  vin: true,
  title: true,
  year: true,
  location: true,
}).extend({
  odometer: z.number().nullable(),
  damage: z.string().nullable(),
  outcome: z.enum(['sold', 'sold_on_approval', 'ended_unsold']),
  sale_price_usd: z.number().nullable(),
  last_bid_usd: z.number().nullable(),
  sold_at: z.number().nullable(),
  same_damage: z.boolean(),
  year_delta: z.number().nullable(),
  odometer_delta_mi: z.number().nullable(),
});
export type CompView = z.infer<typeof CompViewSchema>;

/** Comparable sales of a lot and its VIN's own history, with price statistics over the sold ones (whole USD). */
export const CompsViewSchema = z.object({
  comps: z.array(CompViewSchema),
  stats: z.object({
    count: z.number().int(),
    priced: z.number().int(),
    median_usd: z.number().nullable(),
    p25_usd: z.number().nullable(),
    p75_usd: z.number().nullable(),
    min_usd: z.number().nullable(),
    max_usd: z.number().nullable(),
  }),
  history: z.array(CompViewSchema),
  /** Stored rows left out because their record could not be read. */
  skipped: z.number().int(),
});
export type CompsView = z.infer<typeof CompsViewSchema>;

/** A shipping price kept with a lot: USD unless `currency` says otherwise; when it was fetched (ms). */
export const KeptShippingSchema = z.object({
  port: z.string(),
  price_usd: z.number().nullable(),
  currency: z.string().nullable(),
  fetched_at: z.number(),
});

const LotKeyInput = z.object({ lot_key: z.string().min(3).max(80) }).strict();

export const AlertViewSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  lot_key: z.string().nullable(),
  title: z.string(),
  body: z.string(),
  source: z.string(),
  reason: z.string().nullable(),
  created_at: z.number(),
  delivery: z.enum(['now', 'digest', 'suppressed']),
  status: z.string(),
  read: z.boolean(),
  /** The user's notes and tags on the alert's lot, shown beside the alert; empty when there are none. */
  lot_notes: z.string().default(''),
  lot_tags: z.array(z.string()).default([]),
  /** Where the alert went besides this inbox: one row per alert channel (email, phone, webhook), oldest first. */
  deliveries: z.array(DeliveryViewSchema).default([]),
});
export type AlertView = z.infer<typeof AlertViewSchema>;

export const ChangeViewSchema = ChangeSchema.extend({
  id: z.number().int(),
  search_id: z.number().nullable(),
});

export const LotDetailSchema = z.object({
  summary: LotSummarySchema,
  record: z.record(z.string(), z.unknown()),
  raw: z.unknown(),
  timeline: z.array(ChangeViewSchema),
  /** Bid over time from stored observations: [observed_at ms, current_bid_usd]. */
  bids: z.array(z.tuple([z.number(), z.number().nullable()])),
  observations: z.number().int(),
  watch_id: z.number().nullable(),
  notes: z.string(),
});
export type LotDetail = z.infer<typeof LotDetailSchema>;

/** A vehicle in a live result list (search, related): a LotSummary plus the columns a buyer scans. */
export const VehicleRowSchema = LotSummarySchema.extend({
  odometer: z.number().nullable(),
  damage: z.string().nullable(),
  color: z.string().nullable(),
  fuel_type: z.string().nullable(),
  transmission: z.string().nullable(),
  drive_type: z.string().nullable(),
  type: z.string().nullable(),
  photos: z.array(z.string()),
});
export type VehicleRow = z.infer<typeof VehicleRowSchema>;

const CursorMetaView = z.object({
  per_page: z.number().nullable(),
  next_cursor: z.string().nullable(),
  prev_cursor: z.string().nullable(),
});

export const SaleViewSchema = z.object({
  platform: z.string().nullable(),
  lot_number: z.string().nullable(),
  date: z.string().nullable(),
  price: z.number().nullable(),
  status: z.string().nullable(),
  /** The status read as an outcome; null when the text names none (shown as received). */
  outcome: z.enum(SALE_OUTCOMES).nullable(),
});

export const LocationViewSchema = z.object({
  platform: z.string().nullable(),
  facility_id: z.string().nullable(),
  name: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});

export const RequestLogRowSchema = z.object({
  at: z.number(),
  endpoint: z.string(),
  status: z.number().nullable(),
  duration_ms: z.number(),
  bytes: z.number(),
  attempt: z.number(),
  error_code: z.string().nullable(),
});

/** One endpoint the API console can call (both specifications). */
export const ConsoleEndpointSchema = z.object({
  /** Stable name, e.g. `GET /vehicles` or `GET /api/v1/vp/vp/video/details`. */
  name: z.string(),
  group: z.enum(['vehicle-auction', 'video-platform']),
  /** Path parameters to fill, e.g. ['slugVin']. */
  path_params: z.array(z.string()),
  /** Query parameter names the specification lists (empty: not shown in the specification). */
  query_params: z.array(z.string()),
  description: z.string(),
});

const RunOutcomeSchema = z.object({
  status: z.enum(['ok', 'partial', 'error', 'skipped']),
  requests: z.number().int(),
  changes: z.number().int(),
  alerts: z.number().int(),
  /** What stopped a failed or partial run: an error code of ERROR_CODES (or `budget`) and its message; else null. */
  error: z.object({ code: z.string(), message: z.string() }).nullable().default(null),
  /** Records of a search run's pages left out because they name no lot number Lotwatch can store; absent when none. */
  skipped: z.number().int().min(0).optional(),
});

export const StatusSchema = z.object({
  mode: z.enum(['demo', 'live']),
  /**
   * `set`: a key is stored for the service URL's origin (only such a key is sent). `stored_for`: the origin a stored
   * key was entered for when the service URL points elsewhere, so Settings can ask for this service's key.
   */
  key: z.object({ set: z.boolean(), storage: z.string(), stored_for: z.string().nullable().optional() }),
  quota: QuotaSnapshotSchema.nullable(),
  budget: z.object({
    allowedPerDay: z.number(),
    spentLast24h: z.number(),
    projectedNext24h: z.number(),
    basis: z.enum(['quota', 'setting', 'default']),
    periodRemaining: z.number().nullable(),
    periodEnd: z.number().nullable(),
  }),
  scale: z.number(),
  running: z.boolean(),
  /** Polling is paused until this time (ms), after the service answered 429 or because the buyer paused it; else null. */
  paused_until: z.number().nullable(),
  pause_reason: z.string().nullable(),
  /**
   * Why: `quota_spent` (the plan's requests are used up until `paused_until`, the period's end: say the date) or
   * `rate_limited` (too many requests a second: a short wait) or `user` (the buyer paused watching from the tray or
   * Settings, until `paused_until`); null when not paused.
   */
  pause_kind: z.enum(['quota_spent', 'rate_limited', 'user']).nullable().default(null),
  /**
   * Whether the service answered the last request Lotwatch sent (any HTTP status counts as an answer; a refused
   * connection, DNS failure or timeout does not); null before the first request. The header says "Offline" on false.
   */
  service_reachable: z.boolean().nullable().default(null),
});
export type Status = z.infer<typeof StatusSchema>;

/** One daily copy of the database (docs/architecture.md "Data safety"). */
export const BackupSchema = z.object({
  /** File name, e.g. `lotwatch-2026-11-23.sqlite.gz` (older versions: `.sqlite`); what `backups.restore` takes. */
  name: z.string(),
  /** The local day it was taken, `YYYY-MM-DD`. */
  date: z.string(),
  /** Bytes. */
  size: z.number().int().min(0),
  path: z.string(),
  /** When it was written, ms since the epoch. */
  created_at: z.number(),
});
export type Backup = z.infer<typeof BackupSchema>;

/** A restore chosen and checked, waiting for the next start to replace the data file. */
const PendingRestoreSchema = z.object({ source: z.string(), requested_at: z.number() });

export const contract = {
  'app.info': { input: Void, output: AppInfoSchema },
  'settings.get': { input: Void, output: SettingsSchema },
  'settings.update': { input: SettingsPatchSchema, output: SettingsSchema },
  'searches.list': { input: Void, output: z.array(SavedSearchViewSchema) },
  'searches.create': { input: SearchInput, output: SavedSearchViewSchema },
  'searches.update': {
    input: SearchInput.extend({ id: z.number().int().positive() }),
    output: SavedSearchViewSchema,
  },
  'searches.remove': { input: Id, output: Done },
  'searches.runNow': { input: Id, output: RunOutcomeSchema },
  'searches.setPaused': { input: Id.extend({ paused: z.boolean() }), output: SavedSearchViewSchema },
  /**
   * What a schedule would cost before it is saved: runs of the cron schedule over the next week (node-cron's own
   * matcher), per day on average, times up to `max_pages` requests a run; against the budget's daily allowance
   * (requests) and what the current searches and watches are already expected to spend in 24 hours.
   */
  'searches.estimate': {
    input: z
      .object({
        schedule: z.string().trim().min(1, 'Give a schedule, for example */30 * * * *.').max(200),
        max_pages: z.number().int().min(1, 'At least 1 page.').max(50, 'At most 50 pages a run.'),
      })
      .strict(),
    output: z.object({
      runs_per_week: z.number().int(),
      /** Average runs a day over the week (may be fractional: weekdays at 8:00 is 5/7). */
      runs_per_day: z.number(),
      /** Requests a day at most: runs_per_day x max_pages. */
      requests_per_day: z.number(),
      /** The budget's daily allowance (requests): the plan's quota shared over its period, or the user's limit. */
      allowed_per_day: z.number(),
      /** Requests the saved searches and watches already scheduled are expected to spend in the next 24 hours. */
      planned_per_day: z.number(),
      basis: z.enum(['quota', 'setting', 'default']),
      /**
       * Why the schedule cannot be counted (not a cron expression), else null; the counts are then 0. An answer,
       * not a refusal: the dialog asks while the user is still typing the expression.
       */
      schedule_error: z.string().nullable(),
    }),
  },
  'watchlist.list': { input: Void, output: z.array(WatchViewSchema) },
  'watchlist.add': {
    input: z
      .object({
        /** A VIN, a lot number, or a Copart/IAAI lot-page URL. */
        target: z.string().trim().min(1, 'Enter a VIN, a lot number or a lot-page URL.').max(500),
        label: z.string().trim().max(120).default(''),
        rules: z.unknown().optional(),
      })
      .strict(),
    output: WatchViewSchema,
  },
  'watchlist.remove': { input: Id, output: Done },
  'watchlist.setRules': {
    input: Id.extend({ rules: z.unknown(), label: z.string().trim().max(120).optional() }),
    output: WatchViewSchema,
  },
  'watchlist.checkNow': { input: Id, output: RunOutcomeSchema },
  'alerts.list': {
    input: z
      .object({
        unread_only: z.boolean().default(false),
        limit: z.number().int().min(1).max(500).default(100),
        before_id: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    output: z.object({ alerts: z.array(AlertViewSchema), unread: z.number().int() }),
  },
  'alerts.markRead': {
    input: z
      .object({ ids: z.array(z.number().int().positive()).max(1000), read: z.boolean().default(true) })
      .strict(),
    output: z.object({ unread: z.number().int() }),
  },
  'alerts.snooze': {
    input: z
      .object({
        lot_key: z.string().min(3),
        /** Until this time (ms), or null to end a snooze. */
        until: z.number().int().nullable().optional(),
        /** Until a change of this kind happens on the lot. */
        until_event: z.enum(CHANGE_KINDS).nullable().optional(),
      })
      .strict(),
    output: WatchViewSchema,
  },
  'alerts.mute': {
    input: z.object({ lot_key: z.string().min(3), muted: z.boolean() }).strict(),
    output: WatchViewSchema,
  },
  /** How many inbox alerts are unread: the count on Alerts in the navigation, the title and the app badge. */
  'alerts.unread': { input: Void, output: z.object({ count: z.number().int().min(0) }) },
  'library.search': {
    input: z
      .object({
        q: z.string().max(200).default(''),
        limit: z.number().int().min(1).max(500).default(100),
        offset: z.number().int().min(0).default(0),
      })
      .strict(),
    output: z.object({ lots: z.array(LotSummarySchema), total: z.number().int() }),
  },
  'lots.get': { input: z.object({ lot_key: z.string().min(3) }).strict(), output: LotDetailSchema },
  'status.get': { input: Void, output: StatusSchema },
  'photos.get': {
    input: z.object({ url: z.string().url().max(2000), lot_key: z.string().optional() }).strict(),
    /** A data: URL of the image; `cached` says it came from disk (no request spent). */
    output: z.object({ data_url: z.string(), content_type: z.string(), cached: z.boolean() }),
  },
  'vehicles.search': {
    input: z
      .object({ params: z.record(z.string(), z.unknown()), cursor: z.string().max(4000).optional() })
      .strict(),
    output: z.object({
      lots: z.array(VehicleRowSchema),
      meta: CursorMetaView.nullable(),
      warnings: z.array(z.string()),
      /** Records of the page left out because they name no lot number Lotwatch can store (their warnings say which). */
      skipped: z.number().int().min(0).optional(),
    }),
  },
  'vehicles.filters': {
    input: Void,
    output: z.object({
      data: z.record(z.string(), z.unknown()),
      fetched_at: z.number(),
      cached: z.boolean(),
    }),
  },
  'vehicles.get': {
    input: z.object({ id: z.string().trim().min(1).max(200), refresh: z.boolean().default(true) }).strict(),
    output: LotDetailSchema.extend({ offline: z.boolean() }),
  },
  'vehicles.history': {
    input: z.object({ id: z.string().min(1).max(200), cursor: z.string().max(4000).optional() }).strict(),
    output: z.object({ sales: z.array(SaleViewSchema), meta: CursorMetaView.nullable() }),
  },
  'vehicles.related': {
    input: z.object({ id: z.string().min(1).max(200) }).strict(),
    output: z.object({ lots: z.array(VehicleRowSchema) }),
  },
  'shipping.get': {
    input: z
      .object({
        /** `vehicle`: GET /vehicles/{slugVin}/shipping; `auction-to-port`: GET /shipping/auction-to-port. */
        endpoint: z.enum(['vehicle', 'auction-to-port']),
        id: z.string().max(200).optional(),
        vin: z.string().max(17).optional(),
        lot_number: z.string().max(12).optional(),
        ports: z.array(z.string().max(40)).max(20).optional(),
        /** The stored lot the prices are for: they are kept with it for the landed cost (docs/architecture.md "The buyer's desk"). */
        lot_key: z.string().min(3).max(80).optional(),
      })
      .strict(),
    output: z.object({
      prices: z.array(
        z.object({
          port: z.string().nullable(),
          price: z.number().nullable(),
          currency: z.string().nullable(),
        }),
      ),
    }),
  },
  'locations.list': {
    input: z.object({ params: z.record(z.string(), z.unknown()) }).strict(),
    output: z.object({ locations: z.array(LocationViewSchema), meta: CursorMetaView.nullable() }),
  },
  'usage.fetch': { input: Void, output: z.object({ usage: z.record(z.string(), z.unknown()) }) },
  'requests.list': {
    input: z
      .object({ limit: z.number().int().min(1).max(1000).default(200) })
      .strict()
      .optional(),
    output: z.object({ rows: z.array(RequestLogRowSchema), last24h: z.number().int() }),
  },
  'console.endpoints': { input: Void, output: z.array(ConsoleEndpointSchema) },
  'console.call': {
    input: z
      .object({
        name: z.string().min(1).max(200),
        path: z.record(z.string(), z.string().max(2000)).default({}),
        query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).default({}),
      })
      .strict(),
    output: z.object({
      status: z.number(),
      json: z.unknown(),
      duration_ms: z.number(),
      /** Requests this call spent (retries included), and the quota left after it when the service said. */
      requests: z.number().int(),
      remaining: z.number().nullable(),
    }),
  },
  'lots.setNotes': {
    input: z
      .object({
        lot_key: z.string().min(3).max(80),
        notes: z
          .string()
          .max(MAX_NOTES_LENGTH, `Keep notes to ${MAX_NOTES_LENGTH.toLocaleString('en-US')} characters.`),
        tags: TagsSchema,
      })
      .strict(),
    output: z.object({ notes: z.string(), tags: z.array(z.string()) }),
  },
  'desk.lot': {
    input: LotKeyInput,
    output: z.object({
      desk: LotDeskSchema,
      /** Every tag in use on any lot: suggestions beside the tag field. */
      tags_in_use: z.array(z.string()),
      shipping: z.array(KeptShippingSchema),
      comps: CompsViewSchema,
    }),
  },
  'desk.moreComps': {
    input: LotKeyInput,
    /**
     * `requests`: what the search spent; `stored`: the lots it brought into the store; `ended`: how many of them had
     * ended (the ones that can be comparable sales; comps are read again after).
     */
    output: z.object({ requests: z.number().int(), stored: z.number().int(), ended: z.number().int() }),
  },
  'plan.calendar': {
    input: Void,
    output: z.object({
      /** The .ics text (RFC 5545) of the watched lots' sales. */
      ics: z.string(),
      events: z.number().int(),
      /** Watched lots left out: no sale time yet. */
      skipped: z.number().int(),
      /**
       * An address a calendar app on this computer can subscribe to (the headless shell's `/calendar.ics` with the
       * calendar's own read-only secret, never the page's token), or null in the desktop app.
       */
      address: z.string().nullable(),
      /** True when the shell was started on a chosen port (`--port`), so the address is the same after a restart. */
      port_fixed: z.boolean(),
    }),
  },
  /**
   * Makes a new calendar address (a new secret): the old one answers 401 from now on, for a buyer who shared it or
   * no longer wants a calendar app to read the sales. The headless shell only (bad_input in the desktop app).
   */
  'plan.renewCalendar': {
    input: Void,
    output: z.object({ address: z.string(), port_fixed: z.boolean() }),
  },
  'library.export': {
    input: z
      .object({ lot_keys: z.array(z.string()).max(200_000).optional(), q: z.string().max(200).optional() })
      .strict(),
    output: z.object({ csv: z.string(), rows: z.number().int() }),
  },
  'examples.remove': {
    input: Void,
    output: z.object({ searches: z.number().int(), watches: z.number().int() }),
  },
  'key.set': {
    input: z
      .object({ key: z.string().trim().min(8, 'That is too short to be an API key.').max(500) })
      .strict(),
    output: Done,
  },
  'key.test': {
    input: Void,
    output: z.object({ ok: z.boolean(), usage: z.record(z.string(), z.unknown()).nullable() }),
  },
  'key.clear': { input: Void, output: Done },
  'backups.list': {
    input: Void,
    output: z.object({
      folder: z.string(),
      backups: z.array(BackupSchema),
      pending: PendingRestoreSchema.nullable(),
    }),
  },
  /**
   * Checks the chosen backup (a copy of it passes SQLite's quick_check) and stages it: it replaces the data file when
   * Lotwatch next starts, the current file kept beside it. Nothing changes until then.
   */
  'backups.restore': {
    input: z
      .object({
        name: z.string().regex(/^lotwatch-\d{4}-\d{2}-\d{2}\.sqlite(\.gz)?$/, 'Choose one of the listed backups.'),
      })
      .strict(),
    output: z.object({ pending: PendingRestoreSchema }),
  },
  /** The alert channels (email, ntfy, webhook) with their health, and the newest 100 rows of the delivery log. */
  'channels.list': {
    input: Void,
    output: z.object({ channels: z.array(ChannelViewSchema), log: z.array(DeliveryViewSchema) }),
  },
  /** Creates or changes a channel; its secret is stored encrypted and never returned. */
  'channels.save': { input: ChannelSaveSchema, output: ChannelViewSchema },
  /** Deletes a channel, its secret and its delivery log. */
  'channels.remove': { input: Id, output: Done },
  /** Sends one test message through a saved channel now (outside the outbox) and says what happened. */
  'channels.test': { input: Id, output: ChannelTestResultSchema },
  /** The watched lot whose sale comes next (the tray's tooltip), or null. */
  'watchlist.nextSale': {
    input: Void,
    output: z.object({ lot_key: z.string(), title: z.string(), auction_at: z.number() }).nullable(),
  },
} as const satisfies Record<MethodName, { input: z.ZodType; output: z.ZodType }>;

export const events = {
  'settings.changed': SettingsSchema,
  /** The user clicked a native notification; the renderer opens the lot. */
  'notification.clicked': z.object({ lotKey: z.string() }),
  /** A poll of `search:<id>` or `watch:<id>` began. */
  'poll.started': z.object({ target: z.string(), at: z.number() }),
  'poll.finished': z.object({
    target: z.string(),
    at: z.number(),
    status: z.enum(['ok', 'partial', 'error', 'skipped']),
    requests: z.number().int(),
    changes: z.number().int(),
    alerts: z.number().int(),
  }),
  /** An alert landed in the inbox (the inbox refreshes). Whether it is also shown as a notification is core's call. */
  'alert.raised': z.object({
    id: z.number().int(),
    kind: z.string(),
    title: z.string(),
    body: z.string(),
    lot_key: z.string().nullable(),
  }),
  'quota.changed': QuotaSnapshotSchema,
  /** The number of unread inbox alerts changed (an alert arrived, or some were read). */
  'unread.changed': z.object({ count: z.number().int().min(0) }),
  /**
   * The browser shell's notification channel: core decided to show this notification now (settings, mute, snooze,
   * quiet hours and the digest already applied), and the page shows it as a browser Notification. Never sent in
   * the desktop app, which shows native notifications from its main process.
   */
  'notification.posted': z.object({
    /** Stable tag: the browser shows one notification per tag, so a second tab does not show it twice. */
    tag: z.string(),
    title: z.string(),
    body: z.string(),
    lot_key: z.string().nullable(),
  }),
  /** The service became reachable or unreachable (see StatusSchema.service_reachable). */
  'reachability.changed': z.object({ reachable: z.boolean(), at: z.number() }),
  /** A delivery to an alert channel was queued, sent, retried or given up (Settings and the inbox refresh). */
  'deliveries.changed': z.object({ at: z.number() }),
} as const satisfies Record<EventName, z.ZodType>;

export type Contract = typeof contract;
export type Method = keyof Contract;
export type MethodInput<M extends Method> = z.input<Contract[M]['input']>;
export type MethodOutput<M extends Method> = z.output<Contract[M]['output']>;
export type Events = typeof events;
export type EventPayload<E extends keyof Events> = z.output<Events[E]>;
/** One event as it travels from core to a shell to the renderer. */
export type ContractEvent = { [E in keyof Events]: { name: E; payload: EventPayload<E> } }[keyof Events];
export type AppInfo = z.infer<typeof AppInfoSchema>;
