import { z } from 'zod';
import { ExportBlockSchema } from '../../exportBlock';
import { SALE_OUTCOMES } from '../../saleOutcome';
import { COST_PARTS, CostGapSchema } from '../../shipping';

/** Schemas several domains of the contract share: empty and id inputs, a lot in a list, its desk figures, paging, a run. */

export const Void = z.undefined().or(z.null()).or(z.object({}).strict()).optional();

export const Id = z.object({ id: z.number().int().positive() }).strict();

export const Done = z.object({ ok: z.literal(true) });

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
  /**
   * Whether the lot's title blocks export or registration, and why (src/shared/exportBlock.ts exportBlock of its
   * record): the mark every list and the lot page show; null when nothing blocks.
   */
  export_block: ExportBlockSchema.nullable().default(null),
  /**
   * The stored record's repair to value (its estimated repair cost / ACV, a ratio: src/shared/estimates.ts); null
   * when either figure is unknown, absent where the view does not carry it.
   */
  repair_to_value: z.number().nullable().optional(),
});

export type LotSummary = z.infer<typeof LotSummarySchema>;

/**
 * The buyer's figures for a lot at its current bid, worked out offline (docs/architecture.md "The buyer's desk"):
 * their notes and tags, the kept shipping price to their port, the landed cost (bid + buyer fees + shipping + their
 * own lines, ocean freight and duty of the port's destination) and their max bid. USD; null where unknown (no bid
 * yet, no fee schedule); a number that leaves a part out says which (`landed_excludes`, `max_bid_excludes`).
 */
export const LotDeskSchema = z.object({
  notes: z.string(),
  tags: z.array(z.string()),
  /** The port the landed cost uses (the buyer's, or the lot's cheapest); null: cheapest wanted, none priced yet. */
  port: z.string().nullable(),
  shipping_usd: z.number().nullable(),
  landed_cost_usd: z.number().nullable(),
  /** What the landed cost leaves out, each naming its port (src/shared/shipping.ts); empty: nothing. */
  landed_excludes: z.array(CostGapSchema),
  max_bid_usd: z.number().nullable(),
  /** What the landed cost the max bid was solved with left out (maxBidExcludes); empty: nothing. */
  max_bid_excludes: z.array(z.enum(COST_PARTS)),
});

export type LotDesk = z.infer<typeof LotDeskSchema>;

export const LotKeyInput = z.object({ lot_key: z.string().min(3).max(80) }).strict();

export const CursorMetaView = z.object({
  per_page: z.number().nullable(),
  next_cursor: z.string().nullable(),
  prev_cursor: z.string().nullable(),
});

export const RunOutcomeSchema = z.object({
  status: z.enum(['ok', 'partial', 'error', 'skipped']),
  requests: z.number().int(),
  changes: z.number().int(),
  alerts: z.number().int(),
  /** What stopped a failed or partial run: an error code of ERROR_CODES (or `budget`) and its message; else null. */
  error: z.object({ code: z.string(), message: z.string() }).nullable().default(null),
  /** Records of a search run's pages left out because they name no lot number Lotwatch can store; absent when none. */
  skipped: z.number().int().min(0).optional(),
});
