import { z } from 'zod';
import { AlertRulesPatchSchema, AlertRulesSchema, DEFAULT_SCHEDULE } from '../../watch';
import { CALL_PAUSE_REASONS, CallTargetSchema, CallWatchConfigSchema, JsonPathSchema } from '../../callWatch';
import { Done, Id, RunOutcomeSchema, Void } from './common';
import { CreatedBySchema } from './members';

/** The call-watches domain of the contract: any console call on a schedule, its answers diffed (src/shared/callWatch.ts). */

/** A call watch as the UI lists it beside the saved searches. Times ms; `requests_per_day` requests. */
export const CallWatchViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  target: CallTargetSchema,
  config: CallWatchConfigSchema,
  schedule: z.string(),
  /** The same rules as a lot's (mute, snooze, cap); the lot-only thresholds do not apply. */
  rules: AlertRulesSchema,
  paused: z.boolean(),
  /** Why it is paused (null while it runs): by the buyer, or by itself after repeated 4xx answers. */
  paused_reason: z.enum(CALL_PAUSE_REASONS).nullable(),
  is_example: z.boolean(),
  /**
   * A Demo example while Demo mode is off: it runs only in Demo mode (it would spend the buyer's quota on a call they
   * never chose), so it has no next run and costs nothing, whatever `paused` says.
   */
  waits_for_demo: z.boolean().default(false),
  created_at: z.number(),
  last_run_at: z.number().nullable(),
  last_ok_at: z.number().nullable(),
  next_run_at: z.number().nullable(),
  /** HTTP status of the last answer (null before the first run or when nothing came back). */
  last_status: z.number().int().nullable(),
  consecutive_failures: z.number().int(),
  last_error: z.string().nullable(),
  /**
   * Query parameters the service refused (a 422 names them when it can; every typed parameter when it does not):
   * the Watched calls list marks them. Empty when none.
   */
  refused_params: z.array(z.string()).default([]),
  /** The list its items were read from in the last good answer (the chosen one or the one found); null: none. */
  list_path: JsonPathSchema.nullable(),
  /** The item field that named the items in the last good answer (`id`, `videoId`, `url`), or null: the whole item. */
  item_key: z.string().nullable(),
  /** Items in the last good answer's list (null before the first good answer or without a list). */
  items: z.number().int().nullable(),
  /** Requests a day its schedule spends (one a run), as a saved search's cost is counted. */
  requests_per_day: z.number(),
  /** Alerts this call watch raised in the last 24 hours. */
  alerts_24h: z.number().int(),
  /** The team member who made it; null: the local owner, or made before the team. */
  created_by: CreatedBySchema,
});
export type CallWatchView = z.infer<typeof CallWatchViewSchema>;

export const CallWatchInput = z
  .object({
    name: z.string().trim().min(1, 'Give the call watch a name.').max(120),
    target: CallTargetSchema,
    config: CallWatchConfigSchema.default(() => CallWatchConfigSchema.parse({})),
    schedule: z
      .string()
      .trim()
      .min(1, `Give a schedule, for example ${DEFAULT_SCHEDULE}.`)
      .max(200)
      .default(DEFAULT_SCHEDULE),
    rules: AlertRulesPatchSchema.optional(),
    paused: z.boolean().default(false),
  })
  .strict();

/** The methods of this domain; contract.ts joins every domain into the one contract. */
export const callWatchMethods = {
  'callWatches.list': { input: Void, output: z.array(CallWatchViewSchema) },
  /** Saves the call; its first run (at once, when the budget lets it) is the baseline: nothing in it alerts. */
  'callWatches.create': { input: CallWatchInput, output: CallWatchViewSchema },
  'callWatches.update': {
    input: CallWatchInput.extend({ id: z.number().int().positive() }),
    output: CallWatchViewSchema,
  },
  'callWatches.remove': { input: Id, output: Done },
  'callWatches.runNow': { input: Id, output: RunOutcomeSchema },
  /** Pausing is the buyer's; resuming clears a pause the watch put on itself (and its failure count). */
  'callWatches.setPaused': { input: Id.extend({ paused: z.boolean() }), output: CallWatchViewSchema },
  /** The last good answer stored (the JSON as received), to pick another list, key or values from. */
  'callWatches.answer': {
    input: Id,
    output: z.object({ at: z.number().nullable(), status: z.number().int().nullable(), json: z.unknown() }),
  },
} as const;
