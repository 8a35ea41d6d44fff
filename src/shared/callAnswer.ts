import { AUTO_ITEM_KEYS, type CallWatchConfig, type JsonPath } from './callWatch';

/*
 * What a call watch reads from one answer, and what changed between two answers. Pure: no clock, no store. The
 * video-platform specification shows no fields ("Resources and their fields: not shown"), so nothing here assumes
 * a schema: the list is the largest array in the answer unless the buyer chose one, an item is named by `id`,
 * `videoId` or `url` unless the buyer chose a field (else by the whole item), and the watched values are the
 * paths the buyer clicked (src/shared/callWatch.ts). Every function here is total: any parsed JSON goes in, no
 * exception comes out.
 */

/** A JSON scalar as the diff keeps a value; an object or array is kept as its canonical JSON string. */
export type AnswerValue = string | number | boolean | null;

/** One list item as the diff keeps it: its key, and what an alert names it by and links to. */
export interface AnswerItem {
  /** The item's key: the chosen or found key field's value as a string, else the canonical JSON of the whole item. */
  key: string;
  /**
   * A human name: the item's `title`, `name`, `text`, `snippet` or `description` (first non-blank string found,
   * white space collapsed), else its key; at most 200 characters (longer ends with `…`).
   */
  title: string;
  /** The item's `url`, `link` or `webpage_url` when it is an http(s) URL, else null. */
  url: string | null;
  /**
   * Watched per-item values (fields with `in_items`), by the field's index in config.fields, JSON scalars. A field
   * whose path this item lacks has no entry (items of one list need not all have the same fields).
   */
  values: Record<number, AnswerValue>;
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
  /** The list's items in answer order (an empty list: []), or null when there is no list. */
  items: AnswerItem[] | null;
  /** Root-level watched values (fields without `in_items`), by the field's index in config.fields; absent: gone. */
  values: Record<number, AnswerValue>;
  /**
   * What the buyer chose that this answer does not have: the chosen list path, a root-level watched value's path.
   * Each entry is a sentence for the buyer ("The list data.items is gone from the answer.", "The value
   * data.playable is gone from the answer."), each sentence once.
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
      before: AnswerValue;
      after: AnswerValue;
      /** Set when the field has `crosses`: the number crossed it upwards or downwards. */
      crossed: 'up' | 'down' | null;
    };

/** Longest item title kept (characters); a longer one is cut and ends with `…`. */
export const ITEM_TITLE_MAX = 200;

/** Item fields tried, in order, for an item's title. */
const TITLE_FIELDS = ['title', 'name', 'text', 'snippet', 'description'] as const;
/** Item fields tried, in order, for an item's link. */
const URL_FIELDS = ['url', 'link', 'webpage_url'] as const;

// What JsonPathSchema accepts: a path found automatically must be one the buyer could have chosen (and stored).
const PATH_MAX_STEPS = 20;
const KEY_MAX_CHARS = 200;
const INDEX_MAX = 100_000;

type JsonObject = Record<string, unknown>;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function own(o: JsonObject, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

/** A marker of literal output text in canonicalJson's work stack. */
class Lit {
  constructor(readonly s: string) {}
}

/**
 * JSON text of `v` with every object's keys sorted (by UTF-16 code units) and no spaces, so two answers that differ
 * only in key order give the same text: an item keyed by its whole self keeps its key when the service reorders its
 * fields. Like JSON.stringify for what it cannot write: `undefined`, functions and non-finite numbers are `null`
 * (JSON.parse never gives them), a bigint its digits. Iterative, so a deeply nested answer cannot overflow the stack.
 * Meant for parsed JSON (acyclic). Never throws.
 */
export function canonicalJson(v: unknown): string {
  const out: string[] = [];
  const work: unknown[] = [v];
  while (work.length > 0) {
    const x = work.pop();
    if (x instanceof Lit) out.push(x.s);
    else if (typeof x === 'string') out.push(JSON.stringify(x));
    else if (typeof x === 'number') out.push(Number.isFinite(x) ? JSON.stringify(x) : 'null');
    else if (typeof x === 'boolean') out.push(x ? 'true' : 'false');
    else if (typeof x === 'bigint') out.push(x.toString());
    else if (Array.isArray(x)) {
      work.push(new Lit(']'));
      for (let i = x.length - 1; i >= 0; i--) {
        work.push(x[i]);
        if (i > 0) work.push(new Lit(','));
      }
      work.push(new Lit('['));
    } else if (isObject(x)) {
      const keys = Object.keys(x).sort();
      work.push(new Lit('}'));
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        work.push(x[k]);
        work.push(new Lit(`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`));
      }
      work.push(new Lit('{'));
    } else out.push('null');
  }
  return out.join('');
}

/**
 * The value at `path` in `json`: a string step reads an object's own key, a number step an array's index.
 * @returns the value, or undefined when the path does not exist (JSON has no undefined). Never throws.
 */
export function readPath(json: unknown, path: JsonPath): unknown {
  let at: unknown = json;
  for (const step of path) {
    if (typeof step === 'number') {
      if (!Array.isArray(at) || !Number.isInteger(step) || step < 0 || step >= at.length) return undefined;
      at = at[step];
    } else {
      if (!isObject(at) || !own(at, step)) return undefined;
      at = at[step];
    }
  }
  return at;
}

/** A watched value as kept: a scalar as is, an object or array as its canonical JSON; undefined stays undefined. */
function toValue(v: unknown): AnswerValue | undefined {
  if (v === undefined) return undefined;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  return canonicalJson(v);
}

/** More than half of the array's elements are objects (not arrays, not null). */
function mostlyObjects(a: unknown[]): boolean {
  let n = 0;
  for (const e of a) if (isObject(e)) n++;
  return n * 2 > a.length;
}

/**
 * The arrays of an answer, breadth first (shallowest first, then in the answer's key and index order), at paths a
 * buyer could store (at most 20 steps, keys up to 200 characters, indexes up to 100,000). Iterative.
 */
function* arrays(json: unknown): Generator<{ path: JsonPath; value: unknown[] }> {
  const queue: { path: JsonPath; value: unknown }[] = [{ path: [], value: json }];
  for (let head = 0; head < queue.length; head++) {
    const { path, value } = queue[head]!;
    if (Array.isArray(value)) yield { path, value };
    if (path.length >= PATH_MAX_STEPS) continue;
    if (Array.isArray(value)) {
      const n = Math.min(value.length, INDEX_MAX + 1);
      for (let i = 0; i < n; i++) {
        const e: unknown = value[i];
        if (typeof e === 'object' && e !== null) queue.push({ path: [...path, i], value: e });
      }
    } else if (isObject(value)) {
      for (const k of Object.keys(value)) {
        const e = value[k];
        if (k.length <= KEY_MAX_CHARS && typeof e === 'object' && e !== null) {
          queue.push({ path: [...path, k], value: e });
        }
      }
    }
  }
}

/** An array found in an answer: where it is, how many items it holds, whether most of them are objects (records). */
export interface AnswerList {
  path: JsonPath;
  count: number;
  records: boolean;
}

/**
 * Every array of an answer that a watch could read, in the order autoListPath weighs them (shallowest first, then
 * the answer's key and index order): what the watch-a-call dialog offers as "New items in". Never throws.
 */
export function answerLists(json: unknown): AnswerList[] {
  const out: AnswerList[] = [];
  for (const a of arrays(json))
    out.push({ path: a.path, count: a.value.length, records: mostlyObjects(a.value) });
  return out;
}

/**
 * The path of the largest array anywhere in `json` (the root itself included: `[]`); ties go to the shallowest,
 * then the first in the answer's key order. With `mostlyObjects`, only arrays more than half of whose elements are
 * objects count (a list of records rather than of tags or numbers).
 * @returns the path, or null when there is no such array. Never throws.
 */
export function largestArray(json: unknown, opts: { mostlyObjects?: boolean } = {}): JsonPath | null {
  let best: { path: JsonPath; length: number } | null = null;
  for (const a of arrays(json)) {
    if (opts.mostlyObjects && !mostlyObjects(a.value)) continue;
    if (best === null || a.value.length > best.length) best = { path: a.path, length: a.value.length };
  }
  return best?.path ?? null;
}

/**
 * The list a watch reads when the buyer chose none: the largest array of mostly objects (a list of records), else
 * the largest array of any kind, else null (a single record, such as playability). Never throws.
 */
export function autoListPath(json: unknown): JsonPath | null {
  return largestArray(json, { mostlyObjects: true }) ?? largestArray(json);
}

/** An item's key field value as a key: a non-empty string or a finite number; anything else is no key. */
function keyOf(item: unknown, field: string): string | null {
  if (!isObject(item) || !own(item, field)) return null;
  const v = item[field];
  if (typeof v === 'string') return v === '' ? null : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

/**
 * The key a watch names items by when the buyer chose none: the first of AUTO_ITEM_KEYS (`id`, `videoId`, `url`)
 * that more than half of the items carry as a non-empty string or a finite number, else null (items are told apart
 * by their whole content). The dialog shows the same choice as "Automatic (videoId)". Never throws.
 */
export function autoItemKey(items: unknown[]): string | null {
  for (const field of AUTO_ITEM_KEYS) {
    let n = 0;
    for (const it of items) if (keyOf(it, field) !== null) n++;
    if (n * 2 > items.length) return field;
  }
  return null;
}

/** A text for people: white space collapsed, at most ITEM_TITLE_MAX characters (cut with `…`). */
function shortText(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= ITEM_TITLE_MAX ? t : `${t.slice(0, ITEM_TITLE_MAX - 1)}…`;
}

function titleOf(item: unknown, key: string): string {
  if (isObject(item)) {
    for (const f of TITLE_FIELDS) {
      const v = item[f];
      if (own(item, f) && typeof v === 'string' && v.trim() !== '') return shortText(v);
    }
  }
  // A list of plain strings or numbers names each item by itself, without JSON quotes.
  if ((typeof item === 'string' && item.trim() !== '') || typeof item === 'number')
    return shortText(String(item));
  return shortText(key);
}

function urlOf(item: unknown): string | null {
  if (!isObject(item)) return null;
  for (const f of URL_FIELDS) {
    const v = item[f];
    if (own(item, f) && typeof v === 'string' && /^https?:\/\//i.test(v.trim())) return v.trim();
  }
  return null;
}

/** `The list data.items`, `The value data.playable`; the root list reads as the answer itself. */
function goneSentence(what: 'list' | 'value', path: JsonPath): string {
  if (path.length === 0) return what === 'list' ? 'The answer is no longer a list.' : 'The answer is gone.';
  return `The ${what} ${pathText(path)} is gone from the answer.`;
}

/**
 * Reads an answer (parsed JSON, any shape) under a watch's config.
 * - The list: config.list_path when chosen (absent or not an array: a `missing` sentence, items null), else
 *   autoListPath (none: items null, nothing missing). An empty array is a list with no items.
 * - Item keys: config.item_key when chosen (an item without it as a non-empty string or a number is keyed by its
 *   canonical JSON), else the first of AUTO_ITEM_KEYS that most items carry, else every item by its canonical JSON.
 * - Values: root-level watched fields from the root (absent: a `missing` sentence), in_items fields from each item
 *   (absent: no entry); a scalar as is, an object or array as its canonical JSON.
 * @returns the extract; never throws.
 */
export function extractAnswer(json: unknown, config: CallWatchConfig): AnswerExtract {
  const missing = new Set<string>();
  const values: Record<number, AnswerValue> = {};
  config.fields.forEach((f, i) => {
    if (f.in_items) return;
    const v = toValue(readPath(json, f.path));
    if (v === undefined) missing.add(goneSentence('value', f.path));
    else values[i] = v;
  });

  let listPath: JsonPath | null = config.list_path;
  if (listPath === null) listPath = autoListPath(json);
  const list = listPath === null ? undefined : readPath(json, listPath);
  if (!Array.isArray(list)) {
    if (config.list_path !== null) missing.add(goneSentence('list', config.list_path));
    return { list_path: null, item_key: null, items: null, values, missing: [...missing] };
  }

  const itemKey = config.item_key ?? autoItemKey(list);
  const items = list.map((raw): AnswerItem => {
    const key = (itemKey === null ? null : keyOf(raw, itemKey)) ?? canonicalJson(raw);
    const itemValues: Record<number, AnswerValue> = {};
    config.fields.forEach((f, i) => {
      if (!f.in_items) return;
      const v = toValue(readPath(raw, f.path));
      if (v !== undefined) itemValues[i] = v;
    });
    return { key, title: titleOf(raw, key), url: urlOf(raw), values: itemValues };
  });
  return { list_path: listPath, item_key: itemKey, items, values, missing: [...missing] };
}

function samePath(a: JsonPath | null, b: JsonPath | null): boolean {
  return a !== null && b !== null && a.length === b.length && a.every((s, i) => s === b[i]);
}

/** Each key's first item, in list order. */
function firstByKey(items: AnswerItem[]): Map<string, AnswerItem> {
  const m = new Map<string, AnswerItem>();
  for (const it of items) if (!m.has(it.key)) m.set(it.key, it);
  return m;
}

/**
 * Whether a watched value changed from `before` to `after`: with `crosses` x, only a number that went from one side
 * of x to the other (before < x <= after: up; before >= x > after: down; anything not a number on either side:
 * no change), without it any difference.
 */
function valueChange(
  before: AnswerValue,
  after: AnswerValue,
  crosses: number | null,
): { crossed: 'up' | 'down' | null } | null {
  if (crosses === null) return before === after ? null : { crossed: null };
  if (typeof before !== 'number' || typeof after !== 'number') return null;
  if (before < crosses && crosses <= after) return { crossed: 'up' };
  if (before >= crosses && crosses > after) return { crossed: 'down' };
  return null;
}

/**
 * What an answer lost against the last good one that its own extract cannot tell: the list found automatically
 * (no list chosen) that the last good answer had and this one has nowhere. Without this a feed that briefly answers
 * without its list would become the base, and the videos of the gap would come back as a silent new baseline. The
 * buyer's own choices gone are already in `next.missing`. Returns sentences for the "changed shape" alert, empty
 * when nothing is gone. Never throws.
 */
export function goneSincePrev(
  prev: AnswerExtract | null,
  next: AnswerExtract,
  config: CallWatchConfig,
): string[] {
  if (config.list_path !== null || prev === null || prev.items === null || prev.list_path === null) return [];
  return next.items === null ? [goneSentence('list', prev.list_path)] : [];
}

/**
 * The changes from `prev` to `next` (both extracts under the same config), in this order:
 * 1. Items whose key is new (config.alert_new), in the order of `next`; then items gone (config.alert_removed), in
 *    the order of `prev`. A key repeated within one answer counts once (its first item). Items are compared only
 *    when both answers have a list at the same path, keyed the same way (or one of the lists empty): a list found
 *    automatically that moved to another path, or whose key field changed, is a new baseline, not a flood.
 * 2. Watched values that changed, by field index: a root-level value present in both answers; an in_items value for
 *    each item present in both lists (under the rule of 1), in the order of `next`, when both items carry it. A
 *    field with `crosses` changes only when its number crossed that value (see valueChange).
 * `prev` null (the first good answer): no change, it is the baseline. Never throws.
 */
export function diffAnswers(
  prev: AnswerExtract | null,
  next: AnswerExtract,
  config: CallWatchConfig,
): AnswerChange[] {
  if (prev === null) return [];
  const out: AnswerChange[] = [];
  const a = prev.items;
  const b = next.items;
  const comparable =
    a !== null &&
    b !== null &&
    samePath(prev.list_path, next.list_path) &&
    (prev.item_key === next.item_key || a.length === 0 || b.length === 0);
  const before = comparable ? firstByKey(a) : new Map<string, AnswerItem>();
  const after = comparable ? firstByKey(b) : new Map<string, AnswerItem>();
  if (comparable && config.alert_new) {
    for (const [key, item] of after) if (!before.has(key)) out.push({ kind: 'new_item', item });
  }
  if (comparable && config.alert_removed) {
    for (const [key, item] of before) if (!after.has(key)) out.push({ kind: 'removed_item', item });
  }
  config.fields.forEach((f, field) => {
    const change = (item: AnswerItem | null, was: Values, now: Values): void => {
      const before = valueAt(was, field);
      const after = valueAt(now, field);
      if (before === undefined || after === undefined) return;
      const c = valueChange(before, after, f.crosses);
      if (c) out.push({ kind: 'value_changed', field, item, before, after, crossed: c.crossed });
    };
    if (!f.in_items) change(null, prev.values, next.values);
    else
      for (const [key, item] of after) {
        const old = before.get(key);
        if (old) change(item, old.values, item.values);
      }
  });
  return out;
}

type Values = Record<number, AnswerValue>;

/** A kept value, or undefined when the answer (or item) does not have it. */
function valueAt(values: Values, field: number): AnswerValue | undefined {
  return own(values, String(field)) ? values[field] : undefined;
}

/** A JSON path for people: `data.items[0].title`. Never throws. */
export function pathText(path: JsonPath): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}
