import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, DEMO_KEY, type Sandbox } from '../../src/sandbox/index';
import { makeCore } from '../helpers/core';

// Input a hostile or careless caller can send: every answer is a typed envelope, never an internal error.
let sb: Sandbox;
beforeAll(async () => {
  sb = createSandbox({ seed: 3, lots: 200, ratePerSecond: 0 });
  await sb.start(0, '127.0.0.1');
});
afterAll(async () => sb.dispose());
const open: { cleanup(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.cleanup();
});

describe('parameter maps with keys that name Object.prototype members', () => {
  for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    it(`answers a typed error, not an internal one, for "${key}"`, async () => {
      const t = makeCore({
        autoStart: false,
        demoExamples: false,
        demoService: async () => ({ baseUrl: sb.baseUrl!, apiKey: DEMO_KEY, ratePerSecond: 1e9 }),
      });
      open.push(t);
      await t.core.ready;
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
          // The offending parameter is named, so the buyer knows what to remove.
          if (r.error.code === 'bad_input') expect(r.error.message).toContain(key);
        }
      }
    });
  }
});
