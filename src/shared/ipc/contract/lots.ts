import { z } from 'zod';
import { FacetCountsSchema, FacetSelectionSchema } from '../../libraryFacets';
import { SALE_OUTCOMES } from '../../saleOutcome';
import { ChangeSchema } from '../../watch';
import { CursorMetaView, LotSummarySchema } from './common';

/** The lots domain of the contract: the stored lot page, photos, the live lot calls and the offline library. */

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

export const SaleViewSchema = z.object({
  platform: z.string().nullable(),
  lot_number: z.string().nullable(),
  date: z.string().nullable(),
  price: z.number().nullable(),
  status: z.string().nullable(),
  /** The status read as an outcome; null when the text names none (shown as received). */
  outcome: z.enum(SALE_OUTCOMES).nullable(),
});

/** One auction attempt of a VIN (src/core/diff/attempts.ts Attempt): USD amounts, ms times, a UTC day. */
export const AttemptViewSchema = z.object({
  number: z.number().int(),
  platform: z.string().nullable(),
  lot_number: z.string().nullable(),
  /** `platform:lot_number` when both are known and Lotwatch stored that lot (it opens), else null. */
  lot_key: z.string().nullable(),
  day: z.string().nullable(),
  auction_at: z.number().nullable(),
  bid_usd: z.number().nullable(),
  price_usd: z.number().nullable(),
  outcome: z.enum(['sold', 'sold_on_approval', 'ended_unsold', 'open', 'relisted', 'vanished']),
  basis: z.enum(['confirmed', 'inferred']),
  sources: z.array(z.enum(['store', 'history', 'ended_search'])),
});
export type AttemptView = z.infer<typeof AttemptViewSchema>;

/** A VIN's every attempt with its seller signals (docs/architecture.md "A VIN's attempts"). */
export const AttemptsSchema = z.object({
  vin: z.string().nullable(),
  attempts: z.array(AttemptViewSchema),
  signals: z.object({
    attempts: z.number().int(),
    relists: z.number().int(),
    approval_returns: z.number().int(),
    bid_trend: z.enum(['falling', 'stalled', 'rising']).nullable(),
    days_on_market: z.number().int().nullable(),
    facts: z.array(z.string()),
  }),
  /** What was asked of the service this time: the history, and the Ended search by VIN when the history was empty. */
  asked: z.object({ history: z.boolean(), ended_search: z.boolean() }),
  /** Requests this call spent (0 offline). */
  requests: z.number().int(),
  /** Why the service's part is missing (no VIN, the service failed), or null. */
  notice: z.string().nullable(),
});
export type Attempts = z.infer<typeof AttemptsSchema>;

/** The methods of this domain; contract.ts joins every domain into the one contract. */
export const lotMethods = {
  'library.search': {
    input: z
      .object({
        q: z.string().max(200).default(''),
        limit: z.number().int().min(1).max(500).default(100),
        offset: z.number().int().min(0).default(0),
        /**
         * Only lots whose repair to value (the platform's estimated repair cost / its ACV) is at most this many
         * percent; a lot whose figures are unknown is left out. Null: no such filter.
         */
        repair_to_value_max_percent: z
          .number()
          .int('Enter a whole percentage.')
          .min(1, 'Enter 1 to 1,000 %.')
          .max(1000, 'Enter 1 to 1,000 %.')
          .nullable()
          .default(null),
        /** Only lots whose record carries an ACV (IAAI's actual cash value). */
        has_acv: z.boolean().default(false),
        /** Only lots carrying one of the picked values of every facet with a pick (src/shared/libraryFacets.ts). */
        facets: FacetSelectionSchema.default({}),
        /** Also count the facets' values over this query (`facets` in the answer). */
        with_facets: z.boolean().default(false),
      })
      .strict(),
    output: z.object({
      lots: z.array(LotSummarySchema),
      total: z.number().int(),
      /** With `with_facets`: every facet's values and how many lots of the query carry each. */
      facets: FacetCountsSchema.optional(),
    }),
  },
  'lots.get': { input: z.object({ lot_key: z.string().min(3) }).strict(), output: LotDetailSchema },
  'photos.get': {
    input: z.object({ url: z.string().url().max(2000), lot_key: z.string().optional() }).strict(),
    /** A data: URL of the image; `cached` says it came from disk (no request spent). */
    output: z.object({ data_url: z.string(), content_type: z.string(), cached: z.boolean() }),
  },
  'vehicles.get': {
    input: z.object({ id: z.string().trim().min(1).max(200), refresh: z.boolean().default(true) }).strict(),
    output: LotDetailSchema.extend({ offline: z.boolean() }),
  },
  'vehicles.history': {
    input: z.object({ id: z.string().min(1).max(200), cursor: z.string().max(4000).optional() }).strict(),
    output: z.object({ sales: z.array(SaleViewSchema), meta: CursorMetaView.nullable() }),
  },
  /**
   * A VIN's every attempt across its lots and both platforms, from the store; with `ask`, also from
   * GET /vehicles/{slugVin}/history and, when that is empty, an Ended search by VIN (1 or 2 requests).
   */
  'vehicles.attempts': {
    input: z.object({ id: z.string().trim().min(1).max(200), ask: z.boolean().default(false) }).strict(),
    output: AttemptsSchema,
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
        /** Asked for in one request, comma-separated: the documented ports, the buyer's port and destinations' ports. */
        ports: z.array(z.string().max(40)).max(40).optional(),
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
      /** The ports asked for that came back without a price (unknown to the service, or not priced): named, never dropped. */
      unpriced: z.array(z.string()),
    }),
  },
} as const;
