import type { JsonPath } from '../../../../shared/callWatch';
import {
  answerLists,
  autoItemKey as autoKeyOf,
  autoListPath,
  pathText as answerPathText,
  readPath,
} from '../../../../shared/callAnswer';

/*
 * What the watch-a-call dialog reads of an answer to offer its choices: the lists in it, the fields of their items,
 * the automatic key. Pure. Which list and key are automatic is core's own rule (src/shared/callAnswer.ts), so the
 * dialog shows exactly what the watch will read.
 */

/** A list found in an answer: where it is, and how many items it holds. */
export interface FoundList {
  path: JsonPath;
  count: number;
}

/**
 * The list a call watch reads when the buyer chose none (autoListPath: the largest list of records, else the largest
 * array), with its count. Null when the answer holds no array (a single record, such as playability). Never throws.
 */
export function largestList(json: unknown): FoundList | null {
  const path = autoListPath(json);
  if (path === null) return null;
  const v = readPath(json, path);
  return { path, count: Array.isArray(v) ? v.length : 0 };
}

/**
 * The lists the buyer can choose from: those reached through object keys only (not a list inside each item),
 * non-empty. Never throws.
 */
export function choosableLists(json: unknown): FoundList[] {
  return answerLists(json)
    .filter((l) => l.count > 0 && l.path.every((s) => typeof s === 'string'))
    .map(({ path, count }) => ({ path, count }));
}

/** The value at `path` in `json`, or undefined when a step is missing. Never throws. */
export const valueAt = readPath;

/** Whether two paths are the same steps. */
export function samePath(a: JsonPath, b: JsonPath): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** A JSON path for people: `data.items[0].title`; `(the whole answer)` for the root. Never throws. */
export function pathText(path: JsonPath): string {
  return path.length === 0 ? '(the whole answer)' : answerPathText(path);
}

/** Item fields sampled: enough to see every field of a page of items without reading a huge list through. */
const SAMPLE = 50;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

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

/** The key core names items by when the buyer picks none (autoItemKey), or null: whole items. Never throws. */
export function autoItemKey(items: unknown): string | null {
  return Array.isArray(items) ? autoKeyOf(items) : null;
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
