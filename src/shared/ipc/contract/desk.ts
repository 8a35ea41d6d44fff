import { z } from 'zod';
import { MAX_NOTES_LENGTH, TagsSchema } from '../../desk';
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
} as const;
