import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contract } from '../../src/shared/ipc/contract';
import { coresPerTest, type Core } from '../helpers/core';
import { FakeClock } from '../helpers/fakeClock';
import { sandboxPerFile, type Sandbox } from '../helpers/sandbox';

// Input a hostile or careless caller can send: every answer is a typed envelope, never an internal error.
let sb: Sandbox;
sandboxPerFile({ seed: 3, lots: 200, ratePerSecond: 0 }, (started) => (sb = started));
const startCore = coresPerTest();

/**
 * A ready core in Demo mode on this sandbox, at the fake clock's default time, with the app's own client clock and time
 * zone: these tests only send input.
 */
const demoCore = () =>
  startCore({ sandbox: sb, clock: new FakeClock(), clientClock: undefined, tzOffsetMinutes: undefined });

describe('parameter maps with keys that name Object.prototype members', () => {
  for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    it(`answers a typed error, not an internal one, for "${key}"`, async () => {
      const t = await demoCore();
      const params = JSON.parse(`{"${key}": "x", "make": "FORD"}`) as Record<string, unknown>;
      const calls: [string, unknown][] = [
        ['vehicles.search', { params }],
        ['searches.create', { name: 'x', params, schedule: '*/30 * * * *' }],
        ['console.call', { name: 'GET /vehicles', query: params }],
      ];
      for (const [m, i] of calls) {
        const r = await t.core.invoke(m, i);
        if (!r.ok) {
          expect(r.error.code, `${m}: ${r.error.message}`).not.toBe('internal');
          // The offending parameter is named in the field map (the screen marks or lists it by its name), so the
          // buyer knows what to remove; the sentence itself carries no raw key (docs/writing-guide.md rule 2).
          if (r.error.code === 'bad_input') {
            expect(Object.keys(r.error.fields ?? {}).some((k) => k === key || k.endsWith(`.${key}`))).toBe(
              true,
            );
          }
        }
      }
    });
  }
});

describe('huge inputs give small errors', () => {
  const N = 249 * 1024;
  // Plain, quote-heavy (each `"` is escaped once by the message, once more by JSON), control characters (6 bytes
  // each as JSON escapes), emoji (surrogate pairs a cut could split) and lone surrogates.
  const bigs: [string, string][] = [
    ['plain', 'x'.repeat(N)],
    ['quotes', '"'.repeat(N)],
    ['control', '\u0001'.repeat(N)],
    ['emoji', '🚗'.repeat(N / 2)],
    ['lone surrogates', '\uD800'.repeat(N)],
  ];
  const manyKeys = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, 'v']));
  let deep: unknown = 1;
  for (let i = 0; i < 5_000; i++) deep = [deep];

  /** Every error answer stays small: the message at most 2,000 characters and the whole answer under 16 KB. */
  function expectSmall(r: Awaited<ReturnType<Core['invoke']>>, label: string) {
    if (r.ok) return;
    const size = Buffer.byteLength(JSON.stringify(r));
    expect(size, `${label}: ${r.error.code} ${r.error.message.slice(0, 80)}`).toBeLessThan(16_384);
    expect(r.error.message.length, label).toBeLessThanOrEqual(2_000);
    expect(Object.keys(r.error.fields ?? {}).length, label).toBeLessThanOrEqual(20);
    expect(r.error.code, label).not.toBe('internal');
  }

  it('a 249 KB schedule of quotes, once a 1 MB answer, is quoted by its head and tail only', async () => {
    const t = await demoCore();
    const r = await t.core.invoke('searches.create', {
      name: 'x',
      params: { make: 'FORD' },
      schedule: '"'.repeat(N),
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('bad_input');
    expect(r.error.message).toMatch(/not a valid cron expression/i);
    expect(r.error.message).toContain('…');
    expect(r.error.fields?.['schedule']?.[0]).toMatch(/not a valid cron expression/i);
    expectSmall(r, 'schedule');
  });

  it('a lot key of control characters and a parameter named with 249 KB come back bounded', async () => {
    const t = await demoCore();
    expectSmall(await t.core.invoke('lots.get', { lot_key: '\u0001'.repeat(N) }), 'lots.get');
    const r = await t.core.invoke('vehicles.search', { params: { ['"'.repeat(N)]: 1 } });
    expectSmall(r, 'vehicles.search');
    expect(r.ok).toBe(false);
  });

  it('10,000 unknown keys name at most 20 fields and keep the message short', async () => {
    const t = await demoCore();
    for (const [m, i] of [
      ['settings.update', manyKeys],
      ['vehicles.search', { params: manyKeys }],
      ['searches.create', { name: 'x', params: manyKeys }],
    ] as const) {
      const r = await t.core.invoke(m, i);
      expect(r.ok, m).toBe(false);
      expectSmall(r, m);
    }
  });

  it('every contract method, with a 249 KB string in each field, many keys or deep arrays, answers small errors', async () => {
    const t = await demoCore();
    for (const method of Object.keys(contract) as (keyof typeof contract)[]) {
      const inputs: [string, unknown][] = [
        ['many keys', manyKeys],
        ['deep arrays', deep],
      ];
      for (const [kind, big] of bigs) inputs.push([`${kind} input`, big], [`${kind} key`, { [big]: 1 }]);
      const schema = z.toJSONSchema(contract[method].input, {
        unrepresentable: 'any',
        io: 'input',
      }) as JsonSchemaNode;
      const walk = (s: JsonSchemaNode | undefined, path: string[]) => {
        const props = s?.properties ?? s?.anyOf?.find((x) => x.properties)?.properties;
        for (const [k, sub] of Object.entries(props ?? {})) {
          const at = (v: unknown) => path.reduceRight<unknown>((acc, p) => ({ [p]: acc }), { [k]: v });
          for (const [kind, big] of bigs) {
            inputs.push(
              [`${[...path, k].join('.')}=${kind}`, at(big)],
              [`${[...path, k].join('.')}={${kind}: 1}`, at({ [big]: 1, make: big, s: big })],
            );
          }
          inputs.push([`${[...path, k].join('.')}=many keys`, at(manyKeys)]);
          walk(sub, [...path, k]);
        }
      };
      walk(schema, []);
      for (const [label, input] of inputs)
        expectSmall(await t.core.invoke(method, input), `${method} ${label}`);
    }
  });
});

interface JsonSchemaNode {
  properties?: Record<string, JsonSchemaNode>;
  anyOf?: JsonSchemaNode[];
}
