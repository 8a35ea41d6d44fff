import { z } from 'zod';

/*
 * A call watch: any endpoint of either specification (the API console's list), called on a schedule, its answer
 * diffed with the last one. The video-platform specification shows no parameters or fields ("not shown"), so
 * Lotwatch guesses no schema: it watches what the answer says (docs/architecture.md "Call watches").
 */

/** One step into a JSON answer: an object's key or an array's index. */
export const JsonStepSchema = z.union([z.string().max(200), z.number().int().min(0).max(100_000)]);

/** A path into a JSON answer from its root (or from one list item), e.g. ['data', 'items'] or ['playable']. */
export const JsonPathSchema = z.array(JsonStepSchema).max(20);
export type JsonPath = z.infer<typeof JsonPathSchema>;

/**
 * The call a watch repeats, exactly as the buyer entered it in the API console: the console's endpoint name (e.g.
 * `GET /api/v1/vp/channel/videos`, `GET /vehicles`), its path parameters and its query. Sent as typed: the
 * specification shows no video-platform parameter to validate against, and a 422 marks them.
 */
export const CallTargetSchema = z
  .object({
    endpoint: z.string().trim().min(1, 'Choose an endpoint.').max(200),
    path: z.record(z.string().max(100), z.string().max(2000)).default({}),
    query: z
      .record(z.string().max(100), z.union([z.string().max(2000), z.array(z.string().max(2000)).max(50)]))
      .default({}),
  })
  .strict();
export type CallTarget = z.infer<typeof CallTargetSchema>;

/**
 * A value the buyer picked by clicking it in the JSON viewer. `in_items`: the path is relative to each list item
 * (a view count of every video), else from the answer's root (a video's `playable`). `crosses`: alert only when a
 * number goes from one side of this value to the other (either way); null: alert on any change.
 */
export const WatchedFieldSchema = z
  .object({
    path: JsonPathSchema.min(1, 'Pick a value in the answer.'),
    in_items: z.boolean().default(false),
    label: z.string().trim().max(120).nullable().default(null),
    crosses: z.number().finite().nullable().default(null),
  })
  .strict();
export type WatchedField = z.infer<typeof WatchedFieldSchema>;

/**
 * What a call watch diffs in each answer. `list_path`: the array its items are read from; null: found
 * automatically (the largest array in the answer). `item_key`: the item field that names an item; null: automatic
 * (`id`, `videoId`, `url`, else the whole item). New items alert by default; removed items when asked.
 */
export const CallWatchConfigSchema = z
  .object({
    list_path: JsonPathSchema.nullable().default(null),
    item_key: z.string().trim().min(1).max(200).nullable().default(null),
    alert_new: z.boolean().default(true),
    alert_removed: z.boolean().default(false),
    fields: z.array(WatchedFieldSchema).max(20, 'At most 20 watched values.').default([]),
  })
  .strict();
export type CallWatchConfig = z.infer<typeof CallWatchConfigSchema>;

/** The field names tried, in order, to name a list item when the buyer chose none. */
export const AUTO_ITEM_KEYS = ['id', 'videoId', 'url'] as const;

/**
 * A failing call pauses itself after this many failures in a row that the service answered with a 4xx (a bad
 * parameter, a path that does not exist): repeating it only spends the quota.
 */
export const CALL_FAILURES_BEFORE_PAUSE = 3;

/** Full answers kept per call watch; older answers keep only the parts the diff reads (items' keys, watched values). */
export const CALL_ANSWERS_KEPT = 5;

/** Why a call watch is paused: by the buyer, or by itself after CALL_FAILURES_BEFORE_PAUSE 4xx answers in a row. */
export const CALL_PAUSE_REASONS = ['buyer', 'failing'] as const;
export type CallPauseReason = (typeof CALL_PAUSE_REASONS)[number];

/** The alert kinds a call watch raises (ALERT_KINDS in watch.ts includes them; this file imports nothing of it). */
export const CALL_ALERT_KINDS = [
  /** A new item in the watched list. */
  'call_new_item',
  /** An item gone from the watched list. */
  'call_removed_item',
  /** A watched value changed (or a number crossed the buyer's value). */
  'call_value_changed',
  /** The answer is not JSON, or its watched list or value is gone: the last good answer is kept. */
  'call_shape_changed',
  /** The call failed CALL_FAILURES_BEFORE_PAUSE times in a row with a 4xx and paused itself. */
  'call_failing',
] as const;
export type CallAlertKind = (typeof CALL_ALERT_KINDS)[number];
