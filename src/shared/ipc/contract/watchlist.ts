import { z } from 'zod';
import { TagsSchema } from '../../desk';
import { PLATFORMS } from '../../vehicle';
import { AlertRulesPatchSchema, AlertRulesSchema } from '../../watch';
import { Done, Id, LotDeskSchema, LotSummarySchema, RunOutcomeSchema, Void } from './common';
import { CreatedBySchema } from './members';

/** The watchlist domain of the contract. */

export const WatchViewSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['vin', 'lot']),
  vin: z.string().nullable(),
  lot_key: z.string().nullable(),
  label: z.string(),
  rules: AlertRulesSchema,
  is_example: z.boolean(),
  /** A Demo example while Demo mode is off: the engine does not check it, so it has no next check (as a call's). */
  waits_for_demo: z.boolean().default(false),
  last_checked_at: z.number().nullable(),
  next_check_at: z.number().nullable(),
  last_error: z.string().nullable(),
  /** Paused by the buyer: the watcher does not check it (no request spent) until it is resumed. */
  paused: z.boolean().default(false),
  lot: LotSummarySchema.nullable(),
  /** The buyer's figures for the watched lot; null before it was first fetched. */
  desk: LotDeskSchema.nullable().default(null),
  /** The team member who added it; null: the local owner, or added before the team. */
  created_by: CreatedBySchema,
  /**
   * When its rules, label or pause last changed (ms): what `watchlist.setRules` sends back as `expected_updated_at`.
   * 0 only in an answer that lacks it.
   */
  updated_at: z.number().default(0),
});

export type WatchView = z.infer<typeof WatchViewSchema>;

/** The most watches one bulk action names (the watchlist's selection; far above any real watchlist). */
export const MAX_BULK_WATCHES = 1000;

/**
 * One action on many watches at once (the watchlist's selection): pause or resume their checks, remove them, or add
 * tags to their lots (the buyer's desk tags, merged with the tags a lot has).
 */
export const WatchBulkInputSchema = z.discriminatedUnion('action', [
  z
    .object({
      action: z.enum(['pause', 'resume', 'remove']),
      ids: z.array(z.number().int()).min(1, 'Select at least one watch.').max(MAX_BULK_WATCHES),
    })
    .strict(),
  z
    .object({
      action: z.literal('tag'),
      ids: z.array(z.number().int()).min(1, 'Select at least one watch.').max(MAX_BULK_WATCHES),
      tags: TagsSchema.refine((t) => t.length > 0, 'Enter at least one tag.'),
    })
    .strict(),
]);
export type WatchBulkInput = z.infer<typeof WatchBulkInputSchema>;

/** The methods of this domain; contract.ts joins every domain into the one contract. */
export const watchlistMethods = {
  'watchlist.list': { input: Void, output: z.array(WatchViewSchema) },
  'watchlist.add': {
    input: z
      .object({
        /** A VIN, a lot number, or a Copart/IAAI lot-page URL. */
        target: z.string().trim().min(1, 'Enter a VIN, a lot number or a lot-page URL.').max(500),
        /**
         * The platform of a lot number the caller already knows (the lot page's): the lot of that number on the
         * other platform is not the one meant, and a copy of it read in the last minutes is used as it is.
         */
        platform: z.enum(PLATFORMS).optional(),
        label: z.string().trim().max(120).default(''),
        rules: AlertRulesPatchSchema.optional(),
      })
      .strict(),
    output: WatchViewSchema,
  },
  'watchlist.remove': { input: Id, output: Done },
  /**
   * Replaces a watch's rules and label. With `expected_updated_at` (the `updated_at` of the copy edited, ms) a watch
   * changed since is not written: the call fails with code `conflict`, saying who changed it and when.
   */
  'watchlist.setRules': {
    input: Id.extend({
      rules: AlertRulesPatchSchema.optional(),
      label: z.string().trim().max(120).optional(),
      expected_updated_at: z.number().int().nonnegative().optional(),
    }),
    output: WatchViewSchema,
  },
  'watchlist.checkNow': { input: Id, output: RunOutcomeSchema },
  /**
   * A bulk action on the selected watches. `changed`: watches it applied to; `skipped`: ids that are gone, and for
   * `tag` watches with no stored lot yet (a VIN watch before its lot is found) or whose lot would pass MAX_TAGS.
   */
  'watchlist.bulk': {
    input: WatchBulkInputSchema,
    output: z.object({ changed: z.number().int(), skipped: z.number().int() }),
  },
  'watchlist.nextSale': {
    input: Void,
    output: z.object({ lot_key: z.string(), title: z.string(), auction_at: z.number() }).nullable(),
  },
} as const;
