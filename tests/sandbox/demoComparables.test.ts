import { afterEach, describe, expect, it } from 'vitest';
import { coresPerTest } from '../helpers/core';
import { FakeClock } from '../helpers/fakeClock';
import { DEMO_KEY, startSandbox, type Sandbox } from '../helpers/sandbox';
import type { Rec } from './harness';

// The Demo's example watches are the first lots a new user opens: each must find sold comparables of its model in one
// Ended search (platform, make, model, year +-1, one page of 20), the request a lot page makes for its price evidence.
const sandboxes: Sandbox[] = [];
afterEach(async () => {
  for (const sb of sandboxes.splice(0)) await sb.dispose();
});
const startCore = coresPerTest();

/** The Demo's own sandbox (createDemoService: seed 42, 20,000 lots, real shapes and refresh lag) frozen at `start`. */
async function demoSandbox(start: number): Promise<Sandbox> {
  const sb = await startSandbox({ startTime: start, now: () => start, ratePerSecond: 0 });
  sandboxes.push(sb);
  return sb;
}

/** The records of GET /vehicles with `query` over HTTP. @throws Error on any status but 200. */
async function search(sb: Sandbox, query: string): Promise<Rec[]> {
  const res = await fetch(`${sb.baseUrl}/vehicles?${query}`, { headers: { 'X-API-Key': DEMO_KEY } });
  expect(res.status, query).toBe(200);
  return ((await res.json()) as { data: Rec[] }).data;
}

/**
 * The priced comparables one Ended search finds for a lot: Sold or Sold on Approval with a price above 0, a VIN sold
 * more than once counted once (its last sale), as a buyer's comparables count it.
 */
async function pricedComparables(sb: Sandbox, lot: Rec): Promise<Rec[]> {
  const q = new URLSearchParams({
    platform: lot.platform,
    make: lot.make,
    model: lot.model,
    year_from: String(lot.year - 1),
    year_to: String(lot.year + 1),
    lot_sub_status: 'Ended',
    per_page: '20',
  });
  const found = await search(sb, q.toString());
  for (const r of found) {
    expect(r['auction']['state']).toBe('finished');
    expect([r['platform'], r['make'], r['model']]).toEqual([lot.platform, lot.make, lot.model]);
    expect(Math.abs(r['year'] - lot.year)).toBeLessThanOrEqual(1);
  }
  const byVin = new Map<string, Rec>();
  for (const r of found)
    if (
      ['Sold', 'Sold on Approval'].includes(r['auction']['last_sold_status']) &&
      r['pricing']['last_sold_price_usd'] > 0
    )
      byVin.set(r['vin'], r); // list order: a later sale of the VIN replaces an earlier one
  return [...byVin.values()];
}

describe('the Demo market has sold comparables for its first lots', () => {
  it("each of Demo mode's example watches finds at least 5 priced comparables in one Ended search", async () => {
    const start = Date.UTC(2026, 10, 26, 9, 0, 0);
    const sb = await demoSandbox(start);
    const { value } = await startCore({
      sandbox: sb,
      clock: new FakeClock(start),
      demoExamples: true,
      autoStart: true,
    });
    const watches = (await value<Rec[]>('watchlist.list')).filter((w) => w['is_example']);
    expect(watches).toHaveLength(3);
    for (const w of watches) {
      const lot = w['lot'] as Rec;
      const priced = await pricedComparables(sb, lot);
      expect(
        priced.length,
        `${lot['lot_key']} ${lot['year']} ${lot['make']} ${lot['model']}`,
      ).toBeGreaterThanOrEqual(5);
    }
  });

  it('so does every lot of the first page, whenever the Demo world starts', async () => {
    for (const start of [
      Date.UTC(2026, 0, 5, 7, 13),
      Date.UTC(2026, 6, 19, 22, 41),
      Date.UTC(2027, 2, 2, 14, 0),
    ]) {
      const sb = await demoSandbox(start);
      const page = await search(sb, 'per_page=20');
      expect(page).toHaveLength(20);
      for (const lot of page) {
        const priced = await pricedComparables(sb, lot);
        expect(
          priced.length,
          `${new Date(start).toISOString()} lot ${lot['lot_number']}`,
        ).toBeGreaterThanOrEqual(5);
      }
      await sb.dispose();
      sandboxes.splice(sandboxes.indexOf(sb), 1);
    }
  });
});
