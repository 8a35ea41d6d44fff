import { z } from 'zod';
import { AlertRulesPatchSchema, AlertRulesSchema } from '../../watch';
import { Done, Id, LotDeskSchema, LotSummarySchema, RunOutcomeSchema, Void } from './common';

/** The watchlist domain of the contract. */

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

/** The methods of this domain; contract.ts joins every domain into the one contract. */
export const watchlistMethods = {
  'watchlist.list': { input: Void, output: z.array(WatchViewSchema) },
  'watchlist.add': {
    input: z
      .object({
        /** A VIN, a lot number, or a Copart/IAAI lot-page URL. */
        target: z.string().trim().min(1, 'Enter a VIN, a lot number or a lot-page URL.').max(500),
        label: z.string().trim().max(120).default(''),
        rules: AlertRulesPatchSchema.optional(),
      })
      .strict(),
    output: WatchViewSchema,
  },
  'watchlist.remove': { input: Id, output: Done },
  'watchlist.setRules': {
    input: Id.extend({
      rules: AlertRulesPatchSchema.optional(),
      label: z.string().trim().max(120).optional(),
    }),
    output: WatchViewSchema,
  },
  'watchlist.checkNow': { input: Id, output: RunOutcomeSchema },
  'watchlist.nextSale': {
    input: Void,
    output: z.object({ lot_key: z.string(), title: z.string(), auction_at: z.number() }).nullable(),
  },
} as const;
