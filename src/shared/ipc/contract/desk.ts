import { z } from 'zod';
import { MAX_NOTES_LENGTH, TagsSchema } from '../../desk';
import { FeeSchedule } from '../../fees';
import { TITLE_GROUPS } from '../../titleGroup';
import { LotDeskSchema, LotKeyInput, LotSummarySchema, Void } from './common';

/** The buyer's desk domain of the contract: notes and tags, figures, comparable sales, the calendar, the CSV. */

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
  /** The title document's group (src/shared/titleGroup.ts) and its name as received. */
  title_group: z.enum(TITLE_GROUPS),
  title_document: z.string().nullable(),
  run_condition_label: z.string().nullable(),
  has_key: z.boolean().nullable(),
  same_damage: z.boolean(),
  same_title_group: z.boolean(),
  same_run_condition: z.boolean(),
  same_keys: z.boolean(),
  same_odometer_band: z.boolean(),
  year_delta: z.number().nullable(),
  odometer_delta_mi: z.number().nullable(),
  /** Why it matches, short texts in the ranking's order ("same damage: Front End", "same year"). */
  reasons: z.array(z.string()),
  /** Ended lots of its VIN in the band: a relisted car counts once, as its last price paid. */
  attempts: z.number().int(),
});

export type CompView = z.infer<typeof CompViewSchema>;

/**
 * Comparable sales of a lot, with price statistics over the sold ones (whole USD). The VIN's own earlier lots are
 * not here: they are its attempts (`vehicles.attempts`), the one timeline per VIN.
 */
const PriceStatsSchema = z.object({
  count: z.number().int(),
  median_usd: z.number().nullable(),
  p25_usd: z.number().nullable(),
  p75_usd: z.number().nullable(),
  min_usd: z.number().nullable(),
  max_usd: z.number().nullable(),
});

export const CompsViewSchema = z.object({
  comps: z.array(CompViewSchema),
  /** Over every price paid; `sold` and `sold_on_approval` over each outcome apart. */
  stats: PriceStatsSchema.extend({
    priced: z.number().int(),
    sold: PriceStatsSchema,
    sold_on_approval: PriceStatsSchema,
  }),
  /** Stored rows left out because their record could not be read. */
  skipped: z.number().int(),
});

export type CompsView = z.infer<typeof CompsViewSchema>;

/**
 * A lot's band of market comparables (src/core/desk/market.ts): the platform, make, model and model years an Ended
 * search asks for, and its stored answer: when it came (ms, null never), how many lots it returned and what it
 * spent; `fresh` when younger than a day (a visit costs 0 requests); the last failed attempt's sentence and time.
 */
export const MarketStatusSchema = z.object({
  platform: z.string(),
  make: z.string(),
  model: z.string(),
  year_from: z.number().int(),
  year_to: z.number().int(),
  fetched_at: z.number().nullable(),
  found: z.number().int(),
  requests: z.number().int(),
  fresh: z.boolean(),
  error: z.string().nullable(),
  error_at: z.number().nullable(),
});

/**
 * The range a buyer can bid (src/core/desk/bidRange.ts): low = the 25th percentile of the prices paid for the
 * comparables of the lot's own title group (every comparable when it is unknown), high = their median, each capped
 * by the max bid of the target landed cost when one is set; the landed cost at each end (null without a fee
 * schedule; shipping left out when `shipping_included` is false); the priced comparables it rests on. With fewer
 * than 2 priced comparables of the group every number is null and `refusal` says why.
 */
export const BidRangeSchema = z.object({
  low_usd: z.number().nullable(),
  high_usd: z.number().nullable(),
  landed_low_usd: z.number().nullable(),
  landed_high_usd: z.number().nullable(),
  shipping_included: z.boolean(),
  target_usd: z.number().nullable(),
  capped: z.boolean(),
  rests_on: z.array(z.string()),
  priced: z.number().int(),
  /**
   * The title group the range rests on (the lot's own): a car's title group moves its price more than anything else,
   * so sales of another group never set it. Null when the lot's group is unknown: then every priced sale counts.
   */
  title_group: z.enum(TITLE_GROUPS).nullable().default(null),
  /** Priced comparables left out because their title group is another one or unknown. */
  other_titles_left_out: z.number().int().default(0),
  refusal: z.string().nullable(),
});

/**
 * Estimates of the lot itself, whole USD, null when the record has none: the service's `pricing.estimated_cost`
 * range (the service's own estimate, which reads as a sale price estimate, never a repair cost:
 * docs/service-contract.md "Searching ended lots"), and IAAI's actual cash value and estimated repair cost, all read
 * from the normalised record (src/core/api/parse.ts).
 */
export const LotEstimatesSchema = z.object({
  service_from_usd: z.number().nullable(),
  service_to_usd: z.number().nullable(),
  acv_usd: z.number().nullable(),
  repair_usd: z.number().nullable(),
  /** repair_usd / acv_usd as a ratio (src/shared/estimates.ts repairToValue); null when either is unknown. */
  repair_to_value: z.number().nullable(),
});

/**
 * The fee table the desk charges the lot from (src/shared/feeTable.ts feeTableFor: platform, title document,
 * membership; data/fees/<platform>.json): the table itself (`schedule`, so the lot page works any bid out with the
 * same numbers), its key and label, the schedule version and `reason`, the sentence the breakdown shows ("Copart
 * non-clean title table, because the title document is SALVAGE CERTIFICATE"). `schedule` null: no fee number is
 * given and `reason` says why (a broken fee file, the membership's fees not known). `stricter`: the title document
 * was missing or unplaced and the dearer table was used.
 */
export const FeeTableViewSchema = z.object({
  schedule: FeeSchedule.nullable(),
  table_id: z.string().nullable(),
  label: z.string().nullable(),
  version: z.string().nullable(),
  reason: z.string(),
  stricter: z.boolean(),
  title_group: z.enum(TITLE_GROUPS),
});
export type FeeTableView = z.infer<typeof FeeTableViewSchema>;

/** A shipping price kept with a lot: USD unless `currency` says otherwise; when it was fetched (ms). */
export const KeptShippingSchema = z.object({
  port: z.string(),
  price_usd: z.number().nullable(),
  currency: z.string().nullable(),
  fetched_at: z.number(),
});

/** The methods of this domain; contract.ts joins every domain into the one contract. */
export const deskMethods = {
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
      /** The lot's band of market comparables; null without make, model or year. */
      market: MarketStatusSchema.nullable(),
      bid_range: BidRangeSchema,
      estimates: LotEstimatesSchema,
      fee_table: FeeTableViewSchema,
    }),
  },
  /**
   * Market comparables of a stored lot's band (platform, make, model, year +-1): the stored answer when younger
   * than a day (`requests` 0, `cached`), else GET /vehicles `lot_sub_status=Ended`, 1 request and a second page
   * only when the first was full. `found`: lots in the answer; `warning`: the second page failed (the first kept).
   * Comparable sales are read again with desk.lot after.
   */
  'desk.marketComps': {
    input: LotKeyInput,
    output: z.object({
      requests: z.number().int(),
      cached: z.boolean(),
      fetched_at: z.number(),
      found: z.number().int(),
      pages: z.number().int(),
      warning: z.string().nullable(),
    }),
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
} as const;
