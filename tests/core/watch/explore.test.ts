import { describe, expect, it } from 'vitest';
import { coresPerTest } from '../../helpers/core';
import { sandboxPerFile, type Sandbox } from '../../helpers/sandbox';

// The UI's live calls (the explore methods of the contract) through core.invoke against the sandbox over HTTP, and
// their offline fallbacks.
const START = Date.UTC(2026, 5, 1, 12, 0, 0);
let sb: Sandbox;
sandboxPerFile(
  { seed: 8, lots: 3000, startTime: START, speed: 0, ratePerSecond: 0 },
  (started) => (sb = started),
);
const startCore = coresPerTest();
/** A core in Demo mode on this sandbox, at START; `autoStart` and `examples` as a first start of the app has them. */
const setup = (opts: { autoStart?: boolean; examples?: boolean } = {}) =>
  startCore({ sandbox: sb, autoStart: opts.autoStart ?? false, demoExamples: opts.examples ?? false });

describe('live search and lot detail', () => {
  it('searches with filters, pages by cursor, stores every record for the library', async () => {
    const { value, call } = await setup();
    const p1 = await value<{
      lots: { lot_key: string; make: string; photos: string[] }[];
      meta: { next_cursor: string };
    }>('vehicles.search', { params: { make: 'FORD', per_page: 10 } });
    expect(p1.lots).toHaveLength(10);
    expect(p1.lots.every((l) => l.make === 'FORD')).toBe(true);
    expect(p1.lots.some((l) => l.photos.length > 0)).toBe(true);
    const p2 = await value<{ lots: { lot_key: string }[] }>('vehicles.search', {
      params: { make: 'FORD', per_page: 10 },
      cursor: p1.meta.next_cursor,
    });
    expect(p2.lots.map((l) => l.lot_key)).not.toContain(p1.lots[0]!.lot_key);
    const lib = await value<{ total: number }>('library.search', { q: 'ford' });
    expect(lib.total).toBe(20);
    const bad = await call('vehicles.search', { params: { year_from: 'soon', per_page: 50 } });
    expect(bad).toMatchObject({
      ok: false,
      // Refused at the contract, each under the parameter's own key in `params` (the form strips the prefix).
      error: {
        code: 'bad_input',
        fields: { 'params.year_from': ['Must be a whole number.'], 'params.per_page': expect.any(Array) },
      },
    });
  });

  it('opens a lot live, then offline from what was stored', async () => {
    const { value, call } = await setup();
    const lot = sb.market.sorted.find((l) => l.subStatus === 'Open')!;
    const live = await value<{
      offline: boolean;
      summary: { lot_key: string; vin: string };
      record: Record<string, unknown>;
    }>('vehicles.get', { id: lot.lotNumber });
    expect(live.offline).toBe(false);
    expect(live.summary.vin).toBe(lot.v.vin);
    await value('settings.update', { demoMode: false }); // no key, no service
    const stored = await value<{ offline: boolean; summary: { lot_key: string } }>('vehicles.get', {
      id: live.summary.lot_key,
    });
    expect(stored).toMatchObject({ offline: true, summary: { lot_key: live.summary.lot_key } });
    expect(await value('vehicles.get', { id: lot.v.vin })).toMatchObject({ offline: true });
    expect(await call('vehicles.get', { id: '123456789' })).toMatchObject({
      ok: false,
      error: { code: 'unauthorized' },
    });
  });

  it('opens the stored lot when the service cuts its answer off', async () => {
    const { value } = await setup();
    const lot = sb.market.sorted.find((l) => l.subStatus === 'Open' && l.lotNumber !== undefined)!;
    const live = await value<{ offline: boolean; summary: { lot_key: string } }>('vehicles.get', {
      id: lot.lotNumber,
    });
    expect(live.offline).toBe(false);
    // Every answer stops after the headers: the service's fault, and the buyer still reads what was stored.
    sb.faults.set({ rates: { truncated: 1 } });
    try {
      const stored = await value<{ offline: boolean; summary: { lot_key: string } }>('vehicles.get', {
        id: lot.lotNumber,
      });
      expect(stored).toMatchObject({ offline: true, summary: { lot_key: live.summary.lot_key } });
    } finally {
      sb.faults.set({});
    }
  });

  it('serves history, related lots, both shipping endpoints, locations, filters (cached for offline) and usage', async () => {
    const { value } = await setup();
    const lot = sb.market.sorted.find((l) => l.subStatus === 'Open')!;
    const h = await value<{ sales: unknown[] }>('vehicles.history', { id: lot.v.vin });
    expect(Array.isArray(h.sales)).toBe(true);
    const rel = await value<{ lots: { make: string }[] }>('vehicles.related', { id: lot.lotNumber });
    expect(rel.lots.every((l) => l.make === lot.v.spec.make)).toBe(true);
    const s1 = await value<{ prices: { port: string; price: number }[] }>('shipping.get', {
      endpoint: 'vehicle',
      id: lot.lotNumber,
      ports: ['NY', 'LA'],
    });
    expect(s1.prices.map((p) => p.port).sort()).toEqual(['LA', 'NY']);
    const s2 = await value<{ prices: unknown[] }>('shipping.get', {
      endpoint: 'auction-to-port',
      lot_number: lot.lotNumber,
      ports: ['Houston'],
    });
    expect(s2.prices).toHaveLength(1);
    const locs = await value<{ locations: { state: string }[] }>('locations.list', {
      params: { state: 'TX' },
    });
    expect(locs.locations.length).toBeGreaterThan(0);
    expect(locs.locations.every((l) => l.state === 'TX')).toBe(true);
    const f = await value<{ cached: boolean; data: object }>('vehicles.filters');
    expect(f.cached).toBe(false);
    expect(Object.keys(f.data).length).toBeGreaterThan(0);
    await value('settings.update', { demoMode: false });
    expect(await value('vehicles.filters')).toMatchObject({ cached: true });
    await value('settings.update', { demoMode: true });
    expect(await value<{ usage: object }>('usage.fetch')).toMatchObject({ usage: expect.any(Object) });
    const log = await value<{ rows: { endpoint: string }[]; last24h: number }>('requests.list', {
      limit: 50,
    });
    expect(log.rows.map((r) => r.endpoint)).toEqual(
      expect.arrayContaining(['/vehicles/{slugVin}/history', '/usage', '/locations']),
    );
    expect(log.last24h).toBe(log.rows.length);
  });
});

describe('API console', () => {
  it('lists all 31 endpoints of both specifications and calls them with their cost', async () => {
    const { value, call } = await setup();
    const eps = await value<{ name: string; group: string }[]>('console.endpoints');
    expect(eps.filter((e) => e.group === 'vehicle-auction')).toHaveLength(11);
    expect(eps.filter((e) => e.group === 'video-platform')).toHaveLength(20);
    const r = await value<{ status: number; json: { data: unknown[] }; requests: number; remaining: number }>(
      'console.call',
      {
        name: 'GET /vehicles',
        query: { make: 'HONDA', per_page: '3', color: ['Black', 'White'] },
      },
    );
    expect(r.status).toBe(200);
    expect(r.requests).toBe(1);
    expect(r.remaining).toBeGreaterThan(0);
    expect(Array.isArray(r.json.data)).toBe(true);
    const lot = sb.market.sorted[0]!;
    expect(
      await value('console.call', { name: 'GET /vehicles/{slugVin}', path: { slugVin: lot.lotNumber } }),
    ).toMatchObject({ status: 200 });
    expect(
      await value('console.call', { name: 'GET /api/v1/vp/vp/video/details', query: { id: 'abc' } }),
    ).toMatchObject({ status: 200, requests: 1 });
    expect(await call('console.call', { name: 'GET /vehicles', query: { per_page: '99' } })).toMatchObject({
      ok: false,
      error: { code: 'bad_input', fields: { per_page: expect.any(Array) } },
    });
    expect(await call('console.call', { name: 'DELETE /everything' })).toMatchObject({
      ok: false,
      error: { code: 'bad_input' },
    });
  });
});

describe('library export and Demo examples', () => {
  it('exports the chosen lots as CSV with a header', async () => {
    const { value } = await setup();
    const r = await value<{ lots: { lot_key: string; title: string }[] }>('vehicles.search', {
      params: { make: 'BMW', per_page: 3 },
    });
    const csv = await value<{ csv: string; rows: number }>('library.export', {
      lot_keys: r.lots.map((l) => l.lot_key).slice(0, 2),
    });
    expect(csv.rows).toBe(2);
    const lines = csv.csv.trim().split('\n');
    expect(lines[0]).toMatch(/^lot_key,platform,lot_number,vin,title/);
    expect(lines).toHaveLength(3);
    expect(csv.csv).toContain(r.lots[0]!.title);
  });

  it('creates Demo examples once on first start, and removes them on request', async () => {
    const { value } = await setup({ autoStart: true, examples: true });
    const watches = await value<{ is_example: boolean; lot: { auction_at: number } }[]>('watchlist.list');
    const searches = await value<{ is_example: boolean }[]>('searches.list');
    expect(watches).toHaveLength(3);
    expect(watches.every((w) => w.is_example && w.lot.auction_at > START)).toBe(true);
    expect(searches).toHaveLength(1);
    expect(searches[0]!.is_example).toBe(true);
    expect(await value('examples.remove')).toEqual({ searches: 1, watches: 3, calls: 0 });
    expect(await value<unknown[]>('watchlist.list')).toEqual([]);
  });
});
