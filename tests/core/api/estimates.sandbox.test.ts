import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient, type RequestRecord } from '../../../src/core/api';
import { DEMO_KEY, createSandbox, type Sandbox } from '../../../src/sandbox/index';
import { repairToValue } from '../../../src/shared/estimates';

// The estimates read from the sandbox over real HTTP, in both dialects: IAAI records carry IAAI's ACV and repair
// estimate in `details` (real dialect), Copart records and specification-shaped records carry none.
const START = Date.UTC(2026, 5, 1, 12, 0, 0);
const sandboxes: Sandbox[] = [];
const clients: ApiClient[] = [];
const records: RequestRecord[] = [];

/** Timers that fire on the next macrotask, so nothing sleeps (the request timeout stays real and unref'd). */
const instantClock = {
  now: () => START,
  setTimeout: (fn: () => void, ms: number) => {
    if (ms >= 1000) {
      const t = setTimeout(fn, ms);
      t.unref();
      return () => clearTimeout(t);
    }
    const t = setImmediate(fn);
    return () => clearImmediate(t);
  },
};

async function clientFor(shape: 'real' | 'spec'): Promise<ApiClient> {
  const sb = createSandbox({
    seed: 29,
    lots: 1000,
    startTime: START,
    ratePerSecond: 0,
    now: () => START,
    shape,
  });
  await sb.start(0, '127.0.0.1');
  sandboxes.push(sb);
  const c = createApiClient({
    baseUrl: sb.baseUrl!,
    apiKey: () => DEMO_KEY,
    clock: instantClock,
    sink: (r) => records.push(r),
    ratePerSecond: 1000,
    retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 2, budgetMs: 100 },
  });
  clients.push(c);
  return c;
}

let real: ApiClient;
let spec: ApiClient;
beforeAll(async () => {
  real = await clientFor('real');
  spec = await clientFor('spec');
});
afterAll(async () => {
  for (const c of clients) await c.close();
  for (const sb of sandboxes) await sb.dispose();
});

describe('estimates from the sandbox', () => {
  it('an IAAI page: every record with an ACV, a repair cost and their ratio, no warning; one request', async () => {
    const before = records.length;
    const page = await real.searchVehicles({ platform: 'iaai', per_page: 20 });
    expect(records.length - before).toBe(1);
    expect(page.warnings).toEqual([]);
    expect(page.data).toHaveLength(20);
    expect(page.data.every((v) => v.platform === 'iaai')).toBe(true);
    for (const v of page.data) {
      expect(v.pricing.acv_usd).toBeGreaterThan(0);
      expect(v.pricing.est_repair_usd).toBeGreaterThan(0);
      expect(v.pricing.repair_to_value).toBe(repairToValue(v.pricing.acv_usd, v.pricing.est_repair_usd));
    }
  });

  it('a Copart page: no ACV, no repair cost, no warning', async () => {
    const page = await real.searchVehicles({ platform: 'copart', per_page: 20 });
    expect(page.warnings).toEqual([]);
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((v) => v.platform === 'copart')).toBe(true);
    expect(
      page.data.every(
        (v) =>
          v.pricing.acv_usd === null &&
          v.pricing.est_repair_usd === null &&
          v.pricing.repair_to_value === null,
      ),
    ).toBe(true);
  });

  it('the specification dialect lists no such field: null, no warning', async () => {
    const page = await spec.searchVehicles({ platform: 'iaai', per_page: 5 });
    expect(page.warnings).toEqual([]);
    expect(page.data.every((v) => v.pricing.acv_usd === null && v.pricing.repair_to_value === null)).toBe(
      true,
    );
  });
});
