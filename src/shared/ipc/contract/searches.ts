import { z } from 'zod';
import { AlertRulesPatchSchema, AlertRulesSchema, DEFAULT_SCHEDULE } from '../../watch';
import { Done, Id, RunOutcomeSchema, Void } from './common';
import { SearchParamsSchema, StoredSearchParamsSchema } from '../../queryParams';
import { LocalRefinementsSchema } from '../../localRefinements';
import { CreatedBySchema } from './members';

/** The saved-searches domain of the contract. */

/**
 * A saved search as the UI sees it. `params` are GET /vehicles parameters with the spec's names, as they were
 * checked when the search was saved (StoredSearchParamsSchema: a search saved under older rules still lists, and
 * its run says what is refused).
 */
export const SavedSearchViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  params: StoredSearchParamsSchema,
  /**
   * What Lotwatch filters itself among the lots the search returns, never sent (src/shared/localRefinements): a lot
   * that does not pass is no member of the search, so it is neither a new match nor alerted for it. Absent reads as
   * none.
   */
  refine: LocalRefinementsSchema.default({}),
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
  /** The team member who made it; null: the local owner, or made before the team. */
  created_by: CreatedBySchema,
  /**
   * When it was last changed (ms): what `searches.update` sends back as `expected_updated_at`, so that a save made
   * on an older copy is refused rather than overwriting another member's change. 0 only in an answer that lacks it.
   */
  updated_at: z.number().default(0),
});

export type SavedSearchView = z.infer<typeof SavedSearchViewSchema>;

export const SearchInput = z
  .object({
    name: z.string().trim().min(1, 'Give the search a name.').max(120),
    params: SearchParamsSchema,
    /** Local refinements (never sent); left out: none for a new search, unchanged for an update. */
    refine: LocalRefinementsSchema.optional(),
    schedule: z
      .string()
      .trim()
      .min(1, `Give a schedule, for example ${DEFAULT_SCHEDULE}.`)
      .default(DEFAULT_SCHEDULE),
    rules: AlertRulesPatchSchema.optional(),
    max_pages: z.number().int().min(1, 'At least 1 page.').max(50, 'At most 50 pages a run.').default(5),
    paused: z.boolean().default(false),
  })
  .strict();

/** The methods of this domain; contract.ts joins every domain into the one contract. */
export const searchMethods = {
  'searches.list': { input: Void, output: z.array(SavedSearchViewSchema) },
  'searches.create': { input: SearchInput, output: SavedSearchViewSchema },
  /**
   * Saves an edit. With `expected_updated_at` (the `updated_at` of the copy edited, ms) a search changed since is
   * not written: the call fails with code `conflict`, saying who changed it and when.
   */
  'searches.update': {
    input: SearchInput.extend({
      id: z.number().int().positive(),
      expected_updated_at: z.number().int().nonnegative().optional(),
    }),
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
        schedule: z.string().trim().min(1, `Give a schedule, for example ${DEFAULT_SCHEDULE}.`).max(200),
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
} as const;
