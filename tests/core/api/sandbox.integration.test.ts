import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadResponseError,
  createApiClient,
  IncompleteResponseError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  ValidationError,
  type ApiClient,
  type RequestRecord,
} from '../../../src/core/api';
import { DEMO_KEY, createSandbox, type Sandbox } from '../../../src/sandbox/index';
import type { QuotaSnapshot } from '../../../src/shared/vehicle';
import { FakeClock } from '../../helpers/fakeClock';

// The client against the sandbox over real HTTP on 127.0.0.1 (integration: the real wire, not a mock).
const START = Date.UTC(2026, 5, 1, 12, 0, 0);
let sb: Sandbox;
let client: ApiClient;
const records: RequestRecord[] = [];
const quotas: QuotaSnapshot[] = [];
const realNow = START;

/**
 * A clock for the client whose short timers (rate spacing, backoff) fire on the next macrotask, so nothing sleeps;
 * the long request timeout stays a real (unref'd) timer that a healthy local answer always beats.
 */
const clock = new FakeClock(START);
const instantClock = {
  now: () => clock.now(),
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

function makeClient(key = DEMO_KEY, extra: Partial<Parameters<typeof createApiClient>[0]> = {}): ApiClient {
  return createApiClient({
    baseUrl: sb.baseUrl!,
    apiKey: () => key,
    clock: instantClock,
    sink: (r) => records.push(r),
    onQuota: (q) => quotas.push(q),
    ratePerSecond: 1000,
    retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2, budgetMs: 100 },
    ...extra,
  });
}

beforeAll(async () => {
  sb = createSandbox({ seed: 11, lots: 3000, startTime: START, ratePerSecond: 0, now: () => realNow });
  await sb.start(0, '127.0.0.1');
  client = makeClient();
});
afterAll(async () => {
  await client.close();
  await sb.dispose();
});

describe('client x sandbox: every endpoint', () => {
  it('searches with filters and pages forward and back by cursor', async () => {
    const first = await client.searchVehicles({ make: 'TOYOTA', per_page: 5 });
    expect(first.data).toHaveLength(5);
    expect(first.data.every((v) => v.make === 'TOYOTA')).toBe(true);
    expect(first.warnings).toEqual([]);
    const pages = [];
    for await (const p of client.paginateVehicles({ make: 'TOYOTA', per_page: 5 }, { maxPages: 3 }))
      pages.push(p);
    expect(pages).toHaveLength(3);
    const keys = pages.flatMap((p) => p.data.map((v) => v.lot_number));
    expect(new Set(keys).size).toBe(15);
    const third = pages[2]!;
    const back = [];
    for await (const p of client.paginateVehicles(
      { make: 'TOYOTA', per_page: 5, cursor: third.meta!.prev_cursor! },
      { maxPages: 1, direction: 'prev' },
    ))
      back.push(p);
    expect(back[0]!.data.map((v) => v.lot_number)).toEqual(pages[1]!.data.map((v) => v.lot_number));
  });

  it('gets a vehicle by lot number and by VIN, its history, related lots and shipping', async () => {
    const lot = (await client.searchVehicles({ per_page: 1 })).data[0]!;
    const byLot = await client.getVehicle(lot.lot_number!);
    expect(byLot.data.vin).toBe(lot.vin);
    expect(byLot.data.raw).toMatchObject({ lot_number: lot.lot_number });
    const byVin = await client.getVehicle(lot.vin!);
    expect(byVin.data.lot_number).toBe(lot.lot_number);
    const history = await client.getHistory(lot.vin!, { per_page: 5 });
    expect(Array.isArray(history.sales)).toBe(true);
    const related = await client.getRelated(lot.lot_number!);
    expect(related.data.every((v) => v.make === lot.make && v.platform === lot.platform)).toBe(true);
    const ship = await client.getVehicleShipping(lot.lot_number!, { ports: ['NY', 'Miami'] });
    expect(ship.data.map((s) => s.port).sort()).toEqual(['Miami', 'NY']);
    expect(ship.data.every((s) => typeof s.price === 'number' && s.currency === 'USD')).toBe(true);
    const a2p = await client.getAuctionToPortShipping({ lot_number: lot.lot_number!, ports: ['Houston'] });
    expect(a2p.data).toHaveLength(1);
  });

  it('resolves a lot-page URL, lists filters, locations by ZIP radius, and usage', async () => {
    const lot = (await client.searchVehicles({ platform: 'copart', per_page: 1 })).data[0]!;
    const r = await client.resolveUrl(`https://www.copart.com/lot/${lot.lot_number}`);
    expect(r.data.lot_number).toBe(lot.lot_number);
    const f = await client.getFilters();
    expect(Object.keys(f.data).length).toBeGreaterThan(3);
    const locs = await client.listLocations({ zip: '60601', radius: 150, units: 'mi' });
    expect(locs.data.length).toBeGreaterThan(0);
    expect(locs.data.every((l) => l.latitude !== null && l.longitude !== null)).toBe(true);
    const usage = await client.getUsage();
    expect(usage.data).toBeTypeOf('object');
  });

  it('fetches a lot photo through the image proxy as a real image', async () => {
    const lot = (await client.searchVehicles({ per_page: 1 })).data[0]!;
    const img = await client.fetchImage(lot.media.photos[0]!);
    expect(img.contentType).toMatch(/^image\/(jpeg|png|webp)$/);
    expect(img.bytes.length).toBeGreaterThan(1000);
    expect(Buffer.from(img.bytes).subarray(0, 2).toString('hex')).toMatch(/^(ffd8|8950|5249)/);
  });

  it('calls a video-platform endpoint', async () => {
    const r = await client.callVideo('vp/video/details', { id: 'abc123' });
    expect(r.status).toBe(200);
    expect(r.data).toBeTypeOf('object');
  });

  it('reports every request to the sink and reads the quota headers', async () => {
    const before = records.length;
    await client.searchVehicles({ per_page: 1 });
    const rec = records.at(-1)!;
    expect(records.length).toBe(before + 1);
    expect(rec).toMatchObject({ endpoint: '/vehicles', status: 200, attempt: 0 });
    expect(rec.bytes).toBeGreaterThan(100);
    const q = quotas.at(-1)!;
    expect(q.limit).toBeGreaterThan(0);
    expect(q.remaining).toBe(q.limit! - q.used!);
    expect(q.periodEnd).toBeGreaterThan(START);
    expect(q.perPageLimit).toBe(20);
  });
});

describe('client x sandbox: errors', () => {
  it('maps a wrong key to UnauthorizedError without retrying', async () => {
    const c = makeClient('wrong-key');
    const n = records.length;
    await expect(c.searchVehicles({})).rejects.toBeInstanceOf(UnauthorizedError);
    expect(records.length).toBe(n + 1);
    await c.close();
  });

  it('maps an unknown vehicle to NotFoundError', async () => {
    await expect(client.getVehicle('99999999999')).rejects.toBeInstanceOf(NotFoundError);
  });

  it("maps the service's own 422 to ValidationError with the field map", async () => {
    const e = await client.searchVehicles({ cursor: 'not-a-cursor' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).fields).toHaveProperty('cursor');
  });

  it('maps an exhausted quota to RateLimitedError with Retry-After', async () => {
    const small = createSandbox({
      seed: 3,
      lots: 200,
      startTime: START,
      ratePerSecond: 0,
      now: () => realNow,
      quota: { limit: 2, periodMs: 86_400_000 },
    });
    await small.start(0, '127.0.0.1');
    const c = createApiClient({
      baseUrl: small.baseUrl!,
      apiKey: () => DEMO_KEY,
      clock: instantClock,
      ratePerSecond: 1000,
      retry: { maxRetries: 0 },
    });
    await c.searchVehicles({ per_page: 1 });
    await c.searchVehicles({ per_page: 1 });
    const e = await c.searchVehicles({ per_page: 1 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RateLimitedError);
    expect((e as RateLimitedError).retryAfterMs).toBeGreaterThan(0);
    await c.close();
    await small.dispose();
  });

  it('retries 5xx and gives up with ServerError; recovers when the fault clears', async () => {
    sb.faults.set({ rates: { error_500: 1 } });
    const n = records.length;
    await expect(client.searchVehicles({ per_page: 1 })).rejects.toBeInstanceOf(ServerError);
    expect(records.length - n).toBe(3);
    sb.faults.set({ queue: ['error_503'] });
    const ok = await client.searchVehicles({ per_page: 1 });
    expect(ok.data).toHaveLength(1);
    sb.faults.set({});
  });

  it('never assumes a JSON body: HTML 502 page, non-JSON, truncated JSON, dropped connection', async () => {
    const once = makeClient(DEMO_KEY, { retry: { maxRetries: 0 } });
    sb.faults.set({ queue: ['html'] });
    const html = await once.searchVehicles({}).catch((x: unknown) => x);
    expect(html).toBeInstanceOf(ServerError);
    expect((html as Error).message).not.toMatch(/<html|nginx/);
    sb.faults.set({ queue: ['non_json'] });
    await expect(once.getFilters()).rejects.toBeInstanceOf(BadResponseError);
    // The sandbox cuts the body short of its Content-Length and closes: the headers came, so it is the service's
    // fault, not the buyer's connection; retryable like a 5xx (a complete message with cut JSON would be a plain
    // BadResponseError, as non_json shows).
    sb.faults.set({ queue: ['truncated'] });
    const cut = await once.searchVehicles({ per_page: 2 }).catch((x: unknown) => x);
    expect(cut).toBeInstanceOf(IncompleteResponseError);
    expect(cut).toMatchObject({
      code: 'bad_response',
      retryable: true,
      message: expect.stringMatching(/cut off/),
    });
    sb.faults.set({ queue: ['drop'] });
    await expect(once.searchVehicles({ per_page: 2 })).rejects.toBeInstanceOf(NetworkError);
    sb.faults.set({});
    await once.close();
  });

  it('parses drifted real-world records without loss', async () => {
    sb.faults.set({ drift: true });
    const page = await client.searchVehicles({ per_page: 5 });
    sb.faults.set({});
    expect(page.data).toHaveLength(5);
    for (const v of page.data) {
      expect(typeof v.odometer === 'number' || v.odometer === null).toBe(true);
      expect(v.raw).toBeTypeOf('object');
      expect(v.lot_number).toBeTruthy();
    }
    const raw = page.data[0]!.raw as Record<string, unknown>;
    expect(typeof raw['odometer']).toBe('object');
  });
});
