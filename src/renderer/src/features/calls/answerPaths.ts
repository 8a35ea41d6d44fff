import { AUTO_ITEM_KEYS, type JsonPath } from '../../../../shared/callWatch';

/*
 * What the watch-a-call dialog reads of an answer to offer its choices: the lists in it, the fields of their items,
 * the automatic key. Pure. The video-platform specification shows no fields ("Resources and their fields: not
 * shown"), so nothing here assumes a schema.
 *
 * DUPLICATE: core's src/core/calls/answer.ts decides the same "largest array" and automatic key when it diffs; the
 * renderer may not import src/core (tests/shared/boundaries.test.ts), so these belong in src/shared/callWatch.ts
 * where both can use one copy.
 */

/** A list found in an answer: where it is, and how many items it holds. */
export interface FoundList {
  path: JsonPath;
  count: number;
}

/** Deepest path searched for lists (JsonPathSchema allows 20 steps). */
const MAX_DEPTH = 20;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Every array in an answer reached through object keys from the root (the root itself when it is an array), in
 * document order; arrays inside list items (a video's tags) are not lists of the answer and are left out. Never
 * throws; depth bounded by MAX_DEPTH.
 */
export function listsIn(json: unknown): FoundList[] {
  const out: FoundList[] = [];
  const walk = (v: unknown, path: JsonPath) => {
    if (Array.isArray(v)) {
      out.push({ path, count: v.length });
      return;
    }
    if (!isObject(v) || path.length >= MAX_DEPTH) return;
    for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(json, []);
  return out;
}

/**
 * The list a call watch reads by default: the array with the most items (ties: the shallower, then the first in
 * the answer); null when the answer holds no non-empty array. Never throws.
 */
export function largestList(json: unknown): FoundList | null {
  let best: FoundList | null = null;
  for (const l of listsIn(json)) {
    if (l.count === 0) continue;
    if (!best || l.count > best.count || (l.count === best.count && l.path.length < best.path.length))
      best = l;
  }
  return best;
}

/** The value at `path` in `json`, or undefined when a step is missing. Never throws. */
export function valueAt(json: unknown, path: JsonPath): unknown {
  let v: unknown = json;
  for (const step of path) {
    if (Array.isArray(v) && typeof step === 'number') v = v[step];
    else if (isObject(v) && typeof step === 'string' && Object.hasOwn(v, step)) v = v[step];
    else return undefined;
  }
  return v;
}

/** Whether two paths are the same steps. */
export function samePath(a: JsonPath, b: JsonPath): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** A JSON path for people: `data.items[0].title`; `(the whole answer)` for the root. Never throws. */
export function pathText(path: JsonPath): string {
  if (path.length === 0) return '(the whole answer)';
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** Item fields sampled: enough to see every field of a page of items without reading a huge list through. */
const SAMPLE = 50;

const isScalar = (v: unknown) =>
  v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * The fields of a list's items that hold scalars (strings, numbers, booleans), in the order first seen among the
 * first SAMPLE items: the choices for "keyed by". Empty when the items are not objects. Never throws.
 */
export function itemFields(items: unknown): string[] {
  if (!Array.isArray(items)) return [];
  const seen = new Set<string>();
  for (const it of items.slice(0, SAMPLE)) {
    if (!isObject(it)) continue;
    for (const [k, v] of Object.entries(it)) if (isScalar(v) && v !== null) seen.add(k);
  }
  return [...seen];
}

/**
 * The key core picks when the buyer picks none: the first of AUTO_ITEM_KEYS (`id`, `videoId`, `url`) that the
 * first item has as a string or number; null: items are told apart by their whole content. Never throws.
 */
export function autoItemKey(items: unknown): string | null {
  if (!Array.isArray(items)) return null;
  const first: unknown = items[0];
  if (!isObject(first)) return null;
  return AUTO_ITEM_KEYS.find((k) => typeof first[k] === 'string' || typeof first[k] === 'number') ?? null;
}

/**
 * Where a value clicked in the answer sits relative to a list: inside one of its items (`item` is the path within
 * the item, e.g. ['viewCount']) or not (null). Never throws.
 */
export function inItem(list: JsonPath | null, path: JsonPath): JsonPath | null {
  if (!list || path.length < list.length + 2) return null;
  if (!samePath(list, path.slice(0, list.length)) || typeof path[list.length] !== 'number') return null;
  return path.slice(list.length + 1);
}

/** An endpoint's name for people, from its path: `GET /api/v1/vp/channel/videos` → "Channel videos". */
export function endpointWords(endpoint: string): string {
  const parts = endpoint
    .replace(/^[A-Z]+\s+/, '')
    .replace(/^\/api\/v1\/vp(\/vp)?/, '')
    .split('/')
    .filter((p) => p !== '' && !p.startsWith('{'));
  const words = parts.join(' ').replace(/[-_]/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : endpoint;
}

/**
 * The name a new call watch is offered: the endpoint in words and its main parameter, whole (an id is never
 * shortened): the first path parameter, else the first query parameter with a value, e.g. "Channel videos ·
 * channel_id=UCx4…" as typed; just the endpoint's words when nothing was typed or the whole would pass 120
 * characters.
 */
export function callWatchName(
  endpoint: string,
  path: Record<string, string>,
  query: Record<string, string | string[]>,
): string {
  const main =
    Object.entries(path).find(([, v]) => v !== '') ??
    Object.entries(query)
      .map(([k, v]): [string, string] => [k, Array.isArray(v) ? v.join(',') : v])
      .find(([, v]) => v !== '');
  const words = endpointWords(endpoint);
  const name = main ? `${words} · ${main[0]}=${main[1]}` : words;
  // A name holds 120 characters; rather than cut an id, the name is just the endpoint (the target keeps the id).
  return name.length <= 120 ? name : words.slice(0, 120);
}
