/**
 * Laravel-style cursor pagination (spec "CursorMeta", docs/service-contract.md "Cursor"): the cursor is base64url
 * (no padding) of a JSON object holding the ordering columns of the edge record plus `_pointsToNextItems`. The
 * next/prev rules copy Laravel's CursorPaginator so that clients meet the same null cursors as on the real service.
 */

export interface Cursor {
  /** Ordering columns of the edge record, by column name. */
  keys: Record<string, string | number>;
  next: boolean;
}

/** Thrown for a cursor that does not decode; the server answers 422 with the service's wording. */
export class BadCursor extends Error {}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify({ ...c.keys, _pointsToNextItems: c.next })).toString('base64url');
}

/**
 * Decodes a cursor and checks it carries every column of `columns` with the given type.
 * @throws BadCursor when it is not base64url JSON of that shape.
 */
export function decodeCursor(raw: string, columns: Record<string, 'string' | 'number'>): Cursor {
  let obj: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+={0,2}$/.test(raw)) throw new Error('alphabet');
    obj = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw new BadCursor('undecodable');
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new BadCursor('not an object');
  const rec = obj as Record<string, unknown>;
  const keys: Record<string, string | number> = {};
  for (const [name, type] of Object.entries(columns)) {
    const v = rec[name];
    if (typeof v !== type) throw new BadCursor(`missing ${name}`);
    keys[name] = v as string | number;
  }
  if (typeof rec['_pointsToNextItems'] !== 'boolean') throw new BadCursor('direction');
  return { keys, next: rec['_pointsToNextItems'] };
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
  prev_cursor: string | null;
}

/**
 * One page of `sorted` (already in list order) holding the items that pass `keep`, after or before the cursor.
 * `cmp(item, cursor)` orders an item against the cursor's edge record; `keyOf` gives an item's cursor columns.
 * `from` is an index before which the caller knows no item passes `keep` (0 when it does not know): the scan
 * starts there, so a search need not walk past a long head of items it would refuse anyway.
 * Cost: a binary search plus a scan that stops after perPage + 1 matches.
 */
export function paginate<T>(
  sorted: readonly T[],
  perPage: number,
  cursor: Cursor | null,
  cmp: (item: T, c: Cursor) => number,
  keyOf: (item: T) => Record<string, string | number>,
  keep: (item: T) => boolean = () => true,
  from = 0,
): Page<T> {
  const found: T[] = [];
  if (!cursor || cursor.next) {
    let i = from;
    if (cursor) {
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (cmp(sorted[mid] as T, cursor) <= 0) lo = mid + 1;
        else hi = mid;
      }
      i = Math.max(lo, from);
    }
    for (; i < sorted.length && found.length <= perPage; i++) {
      const it = sorted[i] as T;
      if (keep(it)) found.push(it);
    }
  } else {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(sorted[mid] as T, cursor) < 0) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo - 1; i >= from && found.length <= perPage; i--) {
      const it = sorted[i] as T;
      if (keep(it)) found.push(it);
    }
  }
  const hasMore = found.length > perPage;
  const items = found.slice(0, perPage);
  if (cursor && !cursor.next) items.reverse();
  const first = items[0];
  const last = items[items.length - 1];
  const noNext = (!cursor && !hasMore) || (cursor !== null && cursor.next && !hasMore);
  const noPrev = !cursor || (!cursor.next && !hasMore);
  return {
    items,
    next_cursor: noNext || last === undefined ? null : encodeCursor({ keys: keyOf(last), next: true }),
    prev_cursor: noPrev || first === undefined ? null : encodeCursor({ keys: keyOf(first), next: false }),
  };
}
