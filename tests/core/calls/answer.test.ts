import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  autoListPath,
  canonicalJson,
  diffAnswers,
  extractAnswer,
  largestArray,
  pathText,
  readPath,
  type AnswerExtract,
  goneSincePrev,
} from '../../../src/shared/callAnswer';
import {
  CallWatchConfigSchema,
  type CallWatchConfig,
  type JsonPath,
  type WatchedField,
} from '../../../src/shared/callWatch';
import { videoBody } from '../../../src/sandbox/video';

const config = (over: Partial<Omit<CallWatchConfig, 'fields'>> & { fields?: Partial<WatchedField>[] } = {}) =>
  CallWatchConfigSchema.parse(over);

const run = (prev: unknown, next: unknown, c: CallWatchConfig) =>
  diffAnswers(extractAnswer(prev, c), extractAnswer(next, c), c);

// Small domains so random pairs often share keys, paths and values.
const step = fc.oneof(fc.constantFrom('data', 'items', 'id', 'views', 'playable', 'x'), fc.nat(3));
const path = fc.array(step, { maxLength: 4 });
const field = fc.record({
  path: fc.array(step, { minLength: 1, maxLength: 3 }),
  in_items: fc.boolean(),
  label: fc.constant(null),
  crosses: fc.option(fc.constantFrom(0, 10, 1000), { nil: null }),
});
const anyConfig: fc.Arbitrary<CallWatchConfig> = fc.record({
  list_path: fc.option(path, { nil: null }),
  item_key: fc.option(fc.constantFrom('id', 'videoId', 'url', 'name', 'views'), { nil: null }),
  alert_new: fc.boolean(),
  alert_removed: fc.boolean(),
  fields: fc.array(field, { maxLength: 4 }),
});
const item = fc.record(
  {
    id: fc.oneof(fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.nat(4)),
    title: fc.constantFrom('copart haul #212', 'engine start', '  ', ''),
    views: fc.oneof(fc.integer({ min: 0, max: 2000 }), fc.constant(null), fc.constant('n/a')),
    url: fc.constantFrom('https://www.youtube.com/watch?v=x', 'ftp://x', 'watch?v=x'),
  },
  { requiredKeys: [] },
);
const listAnswer = (items: fc.Arbitrary<unknown[]>) =>
  items.map((list) => ({ ok: true, data: { items: list } }));

/** The same JSON with every object's keys in reverse order. */
function reversedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reversedKeys);
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(
      Object.keys(v)
        .reverse()
        .map((k) => [k, reversedKeys((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

describe('answer properties', () => {
  it('extractAnswer and diffAnswers never throw, on any JSON and any config', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), anyConfig, (a, b, c) => {
        const ea = extractAnswer(a, c);
        const eb = extractAnswer(b, c);
        expect(Array.isArray(diffAnswers(ea, eb, c))).toBe(true);
        expect(diffAnswers(null, eb, c)).toEqual([]);
      }),
    );
  });

  it('diff(x, x) is empty', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), listAnswer(fc.array(item))), anyConfig, (x, c) => {
        expect(run(x, x, c)).toEqual([]);
      }),
    );
  });

  it('every key in next and not in prev is exactly one new_item, in the order of next; removed likewise', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 8 }), fc.array(item, { maxLength: 8 }), (p, n) => {
        const c = config({ item_key: 'id', alert_removed: true });
        const changes = run({ data: { items: p } }, { data: { items: n } }, c);
        const keys = (list: typeof p) => list.map((i) => extractAnswer([i], c).items![0]!.key);
        const pk = keys(p);
        const nk = keys(n);
        const expectNew = [...new Set(nk)].filter((k) => !pk.includes(k));
        const expectGone = [...new Set(pk)].filter((k) => !nk.includes(k));
        expect(changes.filter((x) => x.kind === 'new_item').map((x) => x.item!.key)).toEqual(expectNew);
        expect(changes.filter((x) => x.kind === 'removed_item').map((x) => x.item!.key)).toEqual(expectGone);
      }),
    );
  });

  it('an item keyed by its whole self keeps its key whatever the order of its object keys', () => {
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { minLength: 1, maxLength: 5 }),
        (list) => {
          const c = config({ list_path: [] });
          const a = extractAnswer(list, c);
          const b = extractAnswer(reversedKeys(list), c);
          expect(a.item_key).toBeNull();
          expect(b.items!.map((i) => i.key)).toEqual(a.items!.map((i) => i.key));
          expect(run(list, reversedKeys(list), config({ list_path: [], alert_removed: true }))).toEqual([]);
        },
      ),
    );
  });

  it('canonicalJson reads back as the same JSON, and ignores key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(JSON.parse(canonicalJson(v))).toEqual(JSON.parse(JSON.stringify(v)));
        expect(canonicalJson(reversedKeys(v))).toBe(canonicalJson(v));
      }),
    );
  });

  it('a crossing value changes only when the number went from one side to the other', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 8, max: 12 }), fc.constant(null), fc.constant('10')),
        fc.oneof(fc.integer({ min: 8, max: 12 }), fc.constant(null), fc.constant('10')),
        (before, after) => {
          const c = config({ fields: [{ path: ['data', 'views'], crosses: 10 }] });
          const changes = run({ data: { views: before } }, { data: { views: after } }, c);
          const numbers = typeof before === 'number' && typeof after === 'number';
          const up = numbers && before < 10 && after >= 10;
          const down = numbers && before >= 10 && after < 10;
          expect(changes).toEqual(
            up || down
              ? [{ kind: 'value_changed', field: 0, item: null, before, after, crossed: up ? 'up' : 'down' }]
              : [],
          );
        },
      ),
    );
  });
});

/** The sandbox's video answers at its market's start (seed 7): the channel as it is before any upload. */
const AT_START = { seed: 7, startTime: Date.UTC(2026, 10, 22, 12), now: Date.UTC(2026, 10, 22, 12) };

describe('extractAnswer on the sandbox video bodies', () => {
  const videos = videoBody(AT_START, '/channel/videos', { channel_id: 'UCx' });
  const items = (videos['data'] as { items: Record<string, unknown>[] }).items;

  it('finds the list of videos, keys them by id, names and links them', () => {
    const e = extractAnswer(videos, config());
    expect(e.list_path).toEqual(['data', 'items']);
    expect(e.item_key).toBe('id');
    expect(e.missing).toEqual([]);
    expect(e.items).toHaveLength(items.length);
    expect(e.items![0]).toEqual({
      key: items[0]!['id'],
      title: items[0]!['title'],
      url: `https://www.youtube.com/watch?v=${String(items[0]!['id'])}`,
      values: {},
    });
  });

  it('a new video at the top is one new item; a video gone is a removed item when asked', () => {
    const newer = {
      ...items[0]!,
      id: 'NEWVIDEO001',
      title: 'copart haul #212',
      url: 'https://youtu.be/NEWVIDEO001',
    };
    const next = { ...videos, data: { items: [newer, ...items.slice(0, -1)], continuation: null } };
    const changes = run(videos, next, config({ alert_removed: true }));
    expect(changes).toEqual([
      {
        kind: 'new_item',
        item: {
          key: 'NEWVIDEO001',
          title: 'copart haul #212',
          url: 'https://youtu.be/NEWVIDEO001',
          values: {},
        },
      },
      { kind: 'removed_item', item: expect.objectContaining({ key: items.at(-1)!['id'] }) },
    ]);
    expect(run(videos, next, config()).map((c) => c.kind)).toEqual(['new_item']);
    expect(run(videos, next, config({ alert_new: false }))).toEqual([]);
  });

  it("a view count crossing the buyer's number alerts once per video, for videos in both answers", () => {
    const c = config({ fields: [{ path: ['views'], in_items: true, crosses: 1_000_000 }] });
    const prev = { data: { items: items.map((v, i) => ({ ...v, views: 999_000 + i })) } };
    const next = {
      data: { items: items.map((v, i) => ({ ...v, views: i === 2 ? 1_000_001 : 999_500 + i })) },
    };
    const changes = run(prev, next, c);
    expect(changes).toEqual([
      {
        kind: 'value_changed',
        field: 0,
        item: expect.objectContaining({ key: items[2]!['id'], values: { 0: 1_000_001 } }),
        before: 999_002,
        after: 1_000_001,
        crossed: 'up',
      },
    ]);
    // A video new in the next answer has no "before": it is a new item, not a value change.
    const fresh = { data: { items: [{ ...items[0]!, id: 'X', views: 5_000_000 }] } };
    expect(run(prev, fresh, c).map((x) => x.kind)).toEqual(['new_item']);
  });

  it('playability: no list of records, the watched values read from the root', () => {
    const body = videoBody(AT_START, '/youtube/video/playability', { video_id: 'abc' });
    const c = config({ fields: [{ path: ['data', 'playable'] }, { path: ['data', 'status'] }] });
    const e = extractAnswer(body, c);
    expect(e.values).toEqual({ 0: true, 1: 'OK' });
    expect(e.missing).toEqual([]);
    // Its only array is the empty `restrictions`: a list with no items, not a missing one.
    expect(e.list_path).toEqual(['data', 'restrictions']);
    expect(e.items).toEqual([]);

    const data = body['data'] as Record<string, unknown>;
    const off = { ...body, data: { ...data, playable: false, status: 'UNPLAYABLE' } };
    expect(run(body, off, c)).toEqual([
      { kind: 'value_changed', field: 0, item: null, before: true, after: false, crossed: null },
      { kind: 'value_changed', field: 1, item: null, before: 'OK', after: 'UNPLAYABLE', crossed: null },
    ]);
  });

  it('a watched value or chosen list gone is a missing sentence, and no change', () => {
    const body = videoBody(AT_START, '/youtube/video/playability', { video_id: 'abc' });
    const c = config({ list_path: ['data', 'items'], fields: [{ path: ['data', 'playable'] }] });
    const gone = { ok: true, data: { status: 'OK' } };
    const e = extractAnswer(gone, c);
    expect(e.missing).toEqual([
      'The value data.playable is gone from the answer.',
      'The list data.items is gone from the answer.',
    ]);
    expect(e.items).toBeNull();
    expect(e.list_path).toBeNull();
    expect(diffAnswers(extractAnswer(body, c), e, c)).toEqual([]);
    expect(extractAnswer({ data: { items: 'none' } }, c).missing).toContain(
      'The list data.items is gone from the answer.',
    );
    expect(extractAnswer({ data: { items: [] }, playable: 1 }, c).items).toEqual([]);
    expect(extractAnswer({ a: 1 }, config({ list_path: [] })).missing).toEqual([
      'The answer is no longer a list.',
    ]);
  });
});

describe('extractAnswer details', () => {
  it('keys by the chosen field; an item without it is keyed by its canonical JSON', () => {
    const list = [{ name: 'a', n: 1 }, { n: 2, x: [1, { b: 1, a: 2 }] }, { name: 7 }, { name: true }];
    const e = extractAnswer(list, config({ list_path: [], item_key: 'name' }));
    expect(e.item_key).toBe('name');
    expect(e.items!.map((i) => i.key)).toEqual(['a', '{"n":2,"x":[1,{"a":2,"b":1}]}', '7', '{"name":true}']);
  });

  it('finds id, videoId or url when most items carry it, else keys whole items', () => {
    const byVideoId = [{ videoId: 'v1', id: { x: 1 } }, { videoId: 'v2' }, { id: 3 }];
    expect(extractAnswer(byVideoId, config()).item_key).toBe('videoId');
    expect(extractAnswer(byVideoId, config()).items!.map((i) => i.key)).toEqual(['v1', 'v2', '{"id":3}']);
    const byUrl = [
      { url: 'https://a', id: '' },
      { url: 'https://b', id: '' },
    ];
    expect(extractAnswer(byUrl, config()).item_key).toBe('url');
    expect(extractAnswer([{ id: 1 }, { a: 1 }, { b: 1 }], config()).item_key).toBeNull();
  });

  it('titles: the first non-blank of title, name, text, snippet, description, cut at 200; else the key', () => {
    const long = 'x'.repeat(300);
    const list = [
      { id: 1, title: ' ', name: 'Auction  Garage\n', text: 'no' },
      { id: 2, description: long },
      { id: 3, title: 5 },
      'plain words',
    ];
    const titles = extractAnswer(list, config()).items!.map((i) => i.title);
    expect(titles[0]).toBe('Auction Garage');
    expect(titles[1]).toHaveLength(200);
    expect(titles[1]!.endsWith('…')).toBe(true);
    expect(titles[2]).toBe('3');
    expect(titles[3]).toBe('plain words');
  });

  it('links only http(s) URLs from url, link or webpage_url', () => {
    const list = [
      { id: 1, url: 'javascript:alert(1)', link: 'HTTPS://example.com/a' },
      { id: 2, webpage_url: 'http://example.com/b' },
      { id: 3, url: 'www.example.com' },
    ];
    expect(extractAnswer(list, config()).items!.map((i) => i.url)).toEqual([
      'HTTPS://example.com/a',
      'http://example.com/b',
      null,
    ]);
  });

  it('keeps an object value as canonical JSON and a huge number as a number', () => {
    const c = config({ fields: [{ path: ['a'] }, { path: ['b'] }, { path: ['c', 0] }] });
    const e = extractAnswer({ a: { z: 1, y: [true] }, b: 1e301, c: [null] }, c);
    expect(e.values).toEqual({ 0: '{"y":[true],"z":1}', 1: 1e301, 2: null });
  });

  it('a crossing at the exact value: reaching it is up, leaving it downwards is down', () => {
    const c = config({ fields: [{ path: ['v'], crosses: 10 }] });
    const crossed = (a: unknown, b: unknown) =>
      run({ v: a }, { v: b }, c).map((x) => (x.kind === 'value_changed' ? x.crossed : null));
    expect(crossed(9, 10)).toEqual(['up']);
    expect(crossed(10, 9)).toEqual(['down']);
    expect(crossed(10, 11)).toEqual([]);
    expect(crossed(11, 10)).toEqual([]);
    expect(crossed(9.5, 9.9)).toEqual([]);
    expect(crossed(null, 11)).toEqual([]);
    expect(crossed('9', 11)).toEqual([]);
  });

  it('duplicate keys within an answer count once (the first of them)', () => {
    const c = config({ list_path: ['l'], item_key: 'id', alert_removed: true });
    const changes = run({ l: [{ id: 'a' }, { id: 'a' }] }, { l: [{ id: 'b' }, { id: 'b' }, { id: 'a' }] }, c);
    expect(changes.map((x) => [x.kind, x.kind === 'value_changed' ? null : x.item.key])).toEqual([
      ['new_item', 'b'],
    ]);
    const titled = run(
      { l: [] },
      {
        l: [
          { id: 'b', name: 'first' },
          { id: 'b', name: 'second' },
        ],
      },
      c,
    );
    expect(titled.map((x) => (x.kind === 'value_changed' ? null : x.item.title))).toEqual(['first']);
  });

  it('a list found automatically that moved elsewhere is a new baseline, not a flood', () => {
    const c = config({ alert_removed: true });
    const a = { one: [{ id: 1 }, { id: 2 }], two: [{ id: 9 }] };
    const b = { one: [{ id: 1 }], two: [{ id: 9 }, { id: 8 }] };
    expect(extractAnswer(b, c).list_path).toEqual(['two']);
    expect(run(a, b, c)).toEqual([]);
    // From an empty list, the first items are new, whatever their key field.
    expect(run({ one: [] }, { one: [{ id: 1 }] }, c).map((x) => x.kind)).toEqual(['new_item']);
  });

  it('never overflows on a deeply nested answer', () => {
    const text = '['.repeat(50_000) + ']'.repeat(50_000);
    const deep: unknown = JSON.parse(text);
    expect(canonicalJson(deep)).toBe(text);
    const e = extractAnswer(deep, config({ fields: [{ path: [0, 0, 0] }] }));
    expect(e.list_path).toEqual([]);
    expect(e.items).toHaveLength(1);
  });
});

describe('largestArray, readPath, pathText', () => {
  it('the largest array anywhere; ties to the shallowest, then the first in key order', () => {
    const json = { a: { deep: [1, 2, 3] }, b: [1, 2, 3], c: [1, 2, 3], d: [{ e: [1, 2, 3, 4] }] };
    expect(largestArray(json)).toEqual(['d', 0, 'e']);
    expect(largestArray({ a: { deep: [1, 2] }, b: [3, 4], c: [5, 6] })).toEqual(['b']);
    expect(largestArray({ a: 1 })).toBeNull();
    expect(largestArray([])).toEqual([]);
  });

  it('auto list: the largest array of mostly records, else any largest array', () => {
    const json = { tags: ['a', 'b', 'c', 'd'], items: [{ id: 1 }, { id: 2 }, 3] };
    expect(autoListPath(json)).toEqual(['items']);
    expect(autoListPath({ tags: ['a', 'b'], more: [1] })).toEqual(['tags']);
    expect(autoListPath({ x: { y: 'z' } })).toBeNull();
  });

  it('a path a buyer could not store is never found', () => {
    const key = 'k'.repeat(201);
    expect(largestArray({ [key]: [1, 2, 3], short: [1] })).toEqual(['short']);
    let deep: unknown = [1, 2, 3];
    for (let i = 0; i < 25; i++) deep = { n: deep };
    expect(largestArray({ deep, near: [1] })).toEqual(['near']);
  });

  it('readPath reads own keys and indexes only', () => {
    const json = { data: { items: [{ id: 'a' }] } };
    expect(readPath(json, ['data', 'items', 0, 'id'])).toBe('a');
    expect(readPath(json, ['data', 'items', 1])).toBeUndefined();
    expect(readPath(json, ['data', 'items', '0' as unknown as number])).toBeUndefined();
    expect(readPath({}, ['constructor'])).toBeUndefined();
    expect(readPath({}, ['__proto__'])).toBeUndefined();
    expect(readPath(null, [])).toBeNull();
  });

  it('pathText', () => {
    const p: JsonPath = ['data', 'items', 0, 'title'];
    expect(pathText(p)).toBe('data.items[0].title');
    expect(pathText([0, 'a'])).toBe('[0].a');
  });
});

describe('diffAnswers baseline', () => {
  it('the first answer changes nothing', () => {
    const e: AnswerExtract = extractAnswer({ l: [{ id: 1 }] }, config());
    expect(diffAnswers(null, e, config())).toEqual([]);
  });
});

describe('goneSincePrev', () => {
  const cfg = CallWatchConfigSchema.parse({});
  const list = { data: { items: [{ id: 'a', title: 'copart haul #1' }] } };
  it('says the list found automatically is gone when the new answer has no list at all', () => {
    const prev = extractAnswer(list, cfg);
    expect(goneSincePrev(prev, extractAnswer({ data: { message: 'busy' } }, cfg), cfg)).toEqual([
      'The list data.items is gone from the answer.',
    ]);
  });
  it('says nothing on the first answer, for an empty list, or when the buyer chose the list (extract says it)', () => {
    const next = extractAnswer({ data: { message: 'busy' } }, cfg);
    expect(goneSincePrev(null, next, cfg)).toEqual([]);
    expect(goneSincePrev(extractAnswer(list, cfg), extractAnswer({ data: { items: [] } }, cfg), cfg)).toEqual(
      [],
    );
    const chosen = CallWatchConfigSchema.parse({ list_path: ['data', 'items'] });
    expect(goneSincePrev(extractAnswer(list, chosen), extractAnswer({ data: {} }, chosen), chosen)).toEqual(
      [],
    );
  });
});
