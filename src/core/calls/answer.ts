import type { CallWatchConfig, JsonPath } from '../../shared/callWatch';

/*
 * What a call watch reads from one answer, and what changed between two answers. Pure: no clock, no store. The
 * video-platform specification shows no fields ("Resources and their fields: not shown"), so nothing here assumes
 * a schema: the list is the largest array in the answer unless the buyer chose one, an item is named by `id`,
 * `videoId` or `url` unless the buyer chose a field (else by the whole item), and the watched values are the
 * paths the buyer clicked (src/shared/callWatch.ts).
 *
 * INTERFACE ONLY in this commit: the implementation lands with its fast-check properties.
 */

/** One list item as the diff keeps it: its key, and what an alert names it by and links to. */
export interface AnswerItem {
  /** The item's key: the chosen or found key field's value as a string, else the canonical JSON of the whole item. */
  key: string;
  /** A human name: the item's `title`, `name`, `text` or `snippet` (first string found), else its key (≤ 200 chars). */
  title: string;
  /** The item's `url` or `link` when it is an http(s) URL, else null. */
  url: string | null;
  /** Watched per-item values (fields with `in_items`), by the field's index in config.fields, JSON scalars. */
  values: Record<number, string | number | boolean | null>;
}

/**
 * The parts of an answer the diff reads (what is kept of an answer older than the last CALL_ANSWERS_KEPT). `list`
 * null: the answer has no list (a single record such as playability), or the chosen list is gone (`missing`).
 */
export interface AnswerExtract {
  /** The list's path in this answer (the chosen one, or the largest array found), or null when there is none. */
  list_path: JsonPath | null;
  /** The key field used (`id`, `videoId`, `url`, or the buyer's), or null: whole items. */
  item_key: string | null;
  items: AnswerItem[] | null;
  /** Root-level watched values (fields without `in_items`), by the field's index in config.fields. */
  values: Record<number, string | number | boolean | null>;
  /**
   * What the buyer chose that this answer does not have: the chosen list path, a root-level watched value's path.
   * Each entry is a sentence for the buyer ("The list data.items is gone.", "The value data.playable is gone.").
   */
  missing: string[];
}

/** One difference between two extracts, for one alert. */
export type AnswerChange =
  | { kind: 'new_item'; item: AnswerItem }
  | { kind: 'removed_item'; item: AnswerItem }
  | {
      kind: 'value_changed';
      /** Index of the watched field in config.fields. */
      field: number;
      /** The item it belongs to (in_items fields), else null. */
      item: AnswerItem | null;
      before: string | number | boolean | null;
      after: string | number | boolean | null;
      /** Set when the field has `crosses`: the number crossed it upwards or downwards. */
      crossed: 'up' | 'down' | null;
    };

/**
 * Reads an answer (parsed JSON, any shape) under a watch's config.
 * @returns the extract; never throws (a value that is no JSON scalar is kept as its canonical JSON string).
 */
export function extractAnswer(json: unknown, config: CallWatchConfig): AnswerExtract {
  void json;
  void config;
  throw new Error('not implemented yet');
}

/**
 * The changes from `prev` to `next` (both extracts under the same config): items whose key is new (when
 * config.alert_new), items gone (config.alert_removed), watched values that changed (a field with `crosses`: only
 * when the number crossed it). `prev` null (the first good answer): no change, it is the baseline. Items keep their
 * order of `next`; duplicates of one key within an answer count once. Never throws.
 */
export function diffAnswers(
  prev: AnswerExtract | null,
  next: AnswerExtract,
  config: CallWatchConfig,
): AnswerChange[] {
  void prev;
  void next;
  void config;
  throw new Error('not implemented yet');
}

/** A JSON path for people: `data.items[0].title`. Never throws. */
export function pathText(path: JsonPath): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}
