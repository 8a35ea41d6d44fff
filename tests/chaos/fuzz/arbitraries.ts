import fc from 'fast-check';
import { zocker } from 'zocker';
import type { z } from 'zod';

// Inputs for the RPC fuzzer, derived from each method's zod input schema (src/shared/ipc/contract.ts): a valid
// input is zocker's value for a seed fast-check draws (so a run is replayed from the fast-check seed alone), and
// about half the inputs are such a value mutated the way a hostile or broken caller would send it.

/** Values the running core knows (ids, lot keys, endpoint names), so valid inputs reach the handlers' real work. */
export interface Known {
  ids: number[];
  lotKeys: string[];
  /** Lot numbers and VINs the sandbox has (for `target`, `id` strings, `vin`, `lot_number`). */
  vehicleIds: string[];
  endpointNames: string[];
  photoUrls: string[];
  /** Search parameters the service accepts, and cron schedules. */
  searchParams: Record<string, unknown>[];
  schedules: string[];
}

/** One generated input: how it was made, and the value. */
export interface FuzzInput {
  kind: 'valid' | 'mutated';
  how: string;
  input: unknown;
}

const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '',
  '\u0000',
  'a.b',
];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sets an own property, `__proto__` included, as JSON.parse would (an assignment would change the prototype). */
function own(o: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  return o;
}

/**
 * A copy of a value as a caller can send it: plain objects and arrays copied (own keys, `__proto__` included),
 * what no transport carries (symbols, functions: zocker may make them for z.unknown()) as text, the rest as is.
 */
function copy(v: unknown, depth = 0): unknown {
  if (typeof v === 'symbol') return String(v.description);
  if (typeof v === 'function') return 'function';
  if (depth > 64 || typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map((x) => copy(x, depth + 1));
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return v;
  const o: Record<string, unknown> = proto === null ? (Object.create(null) as Record<string, unknown>) : {};
  for (const k of Object.keys(v)) own(o, k, copy((v as Record<string, unknown>)[k], depth + 1));
  return o;
}

/** A copy of `v` with the value at one of its fields (top level, or one level down) replaced by `value`. */
function atField(v: unknown, pick: number, value: unknown): unknown {
  if (!isObject(v)) return value;
  const paths: string[][] = [];
  for (const [k, x] of Object.entries(v)) {
    paths.push([k]);
    if (isObject(x)) for (const k2 of Object.keys(x)) paths.push([k, k2]);
  }
  if (paths.length === 0) return own({}, 'x', value);
  const path = paths[pick % paths.length]!;
  const out = copy(v) as Record<string, unknown>;
  let o: Record<string, unknown> = out;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
  own(o, path.at(-1)!, value);
  return out;
}

/** `depth` nested arrays or objects around a scalar. */
function nested(depth: number, objects: boolean): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = objects ? { a: v } : [v];
  return v;
}

/** The value with another type than zod expects: numbers as text, text as numbers, lists as objects, and so on. */
function wrongType(v: unknown): unknown {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return v.length ? [v] : 0;
  if (typeof v === 'boolean') return v ? 'true' : 0;
  if (Array.isArray(v)) return Object.fromEntries(v.map((x, i) => [String(i), x]));
  if (isObject(v)) return Object.entries(v);
  return v === null ? 'null' : null;
}

const special = fc.constantFrom<unknown>(
  NaN,
  Infinity,
  -Infinity,
  -0,
  1e308,
  Number.MAX_SAFE_INTEGER + 2,
  -1,
  0,
  2 ** 31,
  '',
  ' ',
  '\u0000',
  '\uD800',
  '../../etc/passwd',
  "'; DROP TABLE alerts; --",
  '%00',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data/',
  null,
  undefined,
  [],
  {},
  true,
);

/** Valid inputs: zocker's value for a drawn seed, some fields set to values the core knows. */
export function validInput(schema: z.ZodType, known: Known): fc.Arbitrary<FuzzInput> {
  return fc
    .tuple(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.nat(), fc.boolean())
    .map(([seed, pick, useKnown]) => {
      let input: unknown = copy(zocker(schema).setSeed(seed).generate());
      let how = `zocker seed ${seed}`;
      if (useKnown && isObject(input)) {
        const o = input;
        const from = <T>(xs: T[]): T | undefined => (xs.length ? xs[pick % xs.length] : undefined);
        const set = (k: string, v: unknown) => {
          if (k in o && v !== undefined) {
            o[k] = v;
            how += `, known ${k}`;
          }
        };
        if (typeof o.id === 'number') set('id', from(known.ids));
        if (typeof o.id === 'string') set('id', from(known.vehicleIds));
        set('lot_key', from(known.lotKeys));
        set('target', from(known.vehicleIds));
        set('vin', from(known.vehicleIds.filter((x) => x.length === 17)));
        set('lot_number', from(known.vehicleIds.filter((x) => x.length < 17)));
        set('url', from(known.photoUrls));
        if (typeof o.name === 'string' && 'path' in o) set('name', from(known.endpointNames));
        if (Array.isArray(o.ids)) set('ids', known.ids);
        set('params', from(known.searchParams));
        set('schedule', from(known.schedules));
        if (Array.isArray(o.lot_keys)) set('lot_keys', known.lotKeys);
        input = o;
      }
      return { kind: 'valid' as const, how, input };
    });
}

/** Mutated inputs: a valid one with a field or the whole replaced by something a well-behaved caller never sends. */
export function mutatedInput(schema: z.ZodType, known: Known): fc.Arbitrary<FuzzInput> {
  const base = validInput(schema, known);
  const m =
    (how: string, f: (v: unknown) => unknown) =>
    (x: FuzzInput): FuzzInput => ({ kind: 'mutated', how: `${x.how}; ${how}`, input: f(x.input) });
  return fc.oneof(
    fc
      .anything({
        withNullPrototype: true,
        withBoxedValues: true,
        withSparseArray: true,
        withObjectString: true,
      })
      .map((input) => ({ kind: 'mutated' as const, how: 'anything', input })),
    fc
      .tuple(base, fc.nat(), fc.anything({ withNullPrototype: true }))
      .map(([x, pick, any]) => m(`field ${pick} = anything`, (v) => atField(v, pick, any))(x)),
    fc
      .tuple(base, fc.constantFrom(...HOSTILE_KEYS), fc.anything())
      .map(([x, key, any]) =>
        m(`extra key ${JSON.stringify(key)}`, (v) =>
          isObject(v) ? own(copy(v) as Record<string, unknown>, key, any) : own({}, key, any),
        )(x),
      ),
    fc
      .tuple(base, fc.nat(), fc.integer({ min: 1_000, max: 2_000_000 }), fc.boolean())
      .map(([x, pick, n, whole]) =>
        m(`${n}-char string${whole ? '' : ` at field ${pick}`}`, (v) =>
          whole ? 'x'.repeat(n) : atField(v, pick, 'é'.repeat(n)),
        )(x),
      ),
    fc
      .tuple(base, fc.integer({ min: 2_000, max: 3_000 }))
      .map(([x, n]) =>
        m(`${n}-char key`, (v) =>
          own(isObject(v) ? (copy(v) as Record<string, unknown>) : {}, 'k'.repeat(n), 1),
        )(x),
      ),
    fc
      .tuple(base, fc.nat(), fc.integer({ min: 50, max: 20_000 }), fc.boolean())
      .map(([x, pick, depth, objects]) =>
        m(`${depth}-deep ${objects ? 'objects' : 'arrays'} at field ${pick}`, (v) =>
          atField(v, pick, nested(depth, objects)),
        )(x),
      ),
    fc.tuple(base, fc.nat()).map(([x, pick]) =>
      m(`wrong type at field ${pick}`, (v) => {
        if (!isObject(v)) return wrongType(v);
        const keys = Object.keys(v);
        return keys.length ? atField(v, pick, wrongType(v[keys[pick % keys.length]!])) : wrongType(v);
      })(x),
    ),
    fc
      .tuple(base, fc.nat(), special)
      .map(([x, pick, s]) => m(`special value ${String(s)} at field ${pick}`, (v) => atField(v, pick, s))(x)),
    fc.tuple(base, fc.integer({ min: 1_000, max: 100_000 })).map(([x, n]) =>
      m(`${n}-item array at a field`, (v) =>
        atField(
          v,
          0,
          Array.from({ length: n }, (_, i) => i),
        ),
      )(x),
    ),
  );
}

/** Half valid, half mutated inputs for one method's input schema. */
export function inputFor(schema: z.ZodType, known: Known): fc.Arbitrary<FuzzInput> {
  return fc.oneof(validInput(schema, known), mutatedInput(schema, known));
}
