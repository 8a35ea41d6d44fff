import { AUTO_ITEM_KEYS, type JsonPath } from '../../../../shared/callWatch';

/*
 * What the watch-a-call dialog reads of an answer to offer its choices: the lists in it, the fields of their items,
 * the automatic key. Pure. The video-platform specification shows no fields ("Resources and their fields: not
 * shown"), so nothing here assumes a schema.
 *
 * DUPLICATE of core's src/core/calls/answer.ts (autoListPath/largestArray, its automatic item key, pathText, readPath),
 * so the dialog shows what core will read: the renderer may not import src/core (tests/shared/boundaries.test.ts).
 * They belong in src/shared/callWatch.ts, one copy for both.
 */

/** A list found in an answer: where it is, and how many items it holds. */
export interface FoundList {
  path: JsonPath;
  count: number;
}

/** Paths a buyer can store (JsonPathSchema): at most 20 steps, keys up to 200 characters, indexes up to 100,000. */
const MAX_DEPTH = 20;
const KEY_MAX = 200;
const INDEX_MAX = 100_000;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** More than half of the array's elements are objects (a list of records rather than of tags or numbers). */
function mostlyObjects(a: unknown[]): boolean {
  let n = 0;
  for (const e of a) if (isObject(e)) n++;
  return n * 2 > a.length;
}

/**
 * Every array in an answer, breadth first (shallowest first, then in the answer's key and index order), the root
 * included, at paths a buyer can store; with whether it is a list of records. Never throws.
 */
export function listsIn(json: unknown): (FoundList & { records: boolean })[] {
  const out: (FoundList & { records: boolean })[] = [];
  const queue: { path: JsonPath; value: unknown }[] = [{ path: [], value: json }];
  for (let head = 0; head < queue.length; head++) {
    const { path, value } = queue[head]!;
    if (Array.isArray(value)) out.push({ path, count: value.length, records: mostlyObjects(value) });
    if (path.length >= MAX_DEPTH) continue;
    if (Array.isArray(value)) {
      const n = Math.min(value.length, INDEX_MAX + 1);
      for (let i = 0; i < n; i++) {
        const e: unknown = value[i];
        if (typeof e === 'object' && e !== null) queue.push({ path: [...path, i], value: e });
      }
    } else if (isObject(value)) {
      for (const [k, e] of Object.entries(value))
        if (k.length <= KEY_MAX && typeof e === 'object' && e !== null)
          queue.push({ path: [...path, k], value: e });
    }
  }
  return out;
}

/**
 * The list a call watch reads when the buyer chose none, as core finds it: the largest array of mostly objects (a
 * list of records), else the largest array of any kind; ties go to the shallowest, then the first in the answer.
 * Null when the answer holds no array (a single record, such as playability). Never throws.
 */
export function largestList(json: unknown): FoundList | null {
  const all = listsIn(json);
  const pick = (xs: FoundList[]) =>
    xs.reduce<FoundList | null>((best, l) => (best === null || l.count > best.count ? l : best), null);
  const found = pick(all.filter((l) => l.records)) ?? pick(all);
  return found ? { path: found.path, count: found.count } : null;
}

/**
 * The lists the buyer can choose from: those reached through object keys only (not a list inside each item),
 * non-empty. Never throws.
 */
export function choosableLists(json: unknown): FoundList[] {
  return listsIn(json)
    .filter((l) => l.count > 0 && l.path.every((s) => typeof s === 'string'))
    .map(({ path, count }) => ({ path, count }));
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

/** An item's key field value: a non-empty string or a finite number; anything else is no key. */
function hasKey(item: unknown, field: string): boolean {
  if (!isObject(item) || !Object.hasOwn(item, field)) return false;
  const v = item[field];
  return (typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isFinite(v));
}

/**
 * The key core picks when the buyer picks none: the first of AUTO_ITEM_KEYS (`id`, `videoId`, `url`) that more
 * than half of the items carry as a string or number; null: items are told apart by their whole content. Never
 * throws.
 */
export function autoItemKey(items: unknown): string | null {
  if (!Array.isArray(items) || items.length === 0) return null;
  return AUTO_ITEM_KEYS.find((k) => items.filter((it) => hasKey(it, k)).length * 2 > items.length) ?? null;
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
