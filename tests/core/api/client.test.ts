import { afterEach, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../src/core/api';
import {
  ApiInputError,
  BadRequestError,
  BadResponseError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  QuotaSpentError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  VIDEO_ENDPOINTS,
  ValidationError,
  type VideoEndpoint,
} from '../../../src/core/api';
import { BASE, KEY, setup } from './helpers';

const vehicle = {
  platform: 'iaai',
  lot_number: '45416833',
  vin: '2HKRM4H7XEH623608',
  year: 2014,
  make: 'HONDA',
  odometer: 120000,
  pricing: { current_bid_usd: 25, buy_now_usd: null, sale_price_usd: null },
};
const page = (cursor: string | null, prev: string | null = null) => ({
  ok: true,
  data: [vehicle],
  meta: { per_page: 20, next_cursor: cursor, prev_cursor: prev },
});

let env: ReturnType<typeof setup>;
afterEach(async () => {
  await env?.agent.close();
  env = undefined as never;
});

async function caught(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('expected a rejection');
}

describe('vehicle-auction endpoints', () => {
  it('searchVehicles sends the key, repeated multi-values, booleans and dates', async () => {
    env = setup();
    env.on('/vehicles', 200, page(null));
    const r = await env.client.searchVehicles({
      make: 'BMW',
      color: ['Black', 'White'],
      cylinders: [4, 6],
      today_only: true,
      has_shipping_price: false,
      auction_date_from: '2026-03-20',
      platform: 'copart',
      lot_status: 'Buy Now',
      per_page: 20,
    });
    expect(r.data[0]?.vin).toBe('2HKRM4H7XEH623608');
    expect(r.meta?.next_cursor).toBeNull();
    const s = env.seen[0]!;
    expect(s.headers['x-api-key']).toBe(KEY);
    expect(s.path).toBe(
      '/api/v1/vehicle-auction/vehicles?lot_status=Buy+Now&platform=copart&make=BMW&color=Black&color=White' +
        '&cylinders=4&cylinders=6&per_page=20&auction_date_from=2026-03-20&today_only=true&has_shipping_price=false',
    );
  });

  it('accepts every one of the spec parameters of GET /vehicles', async () => {
    env = setup();
    env.on('/vehicles', 200, page(null));
    await env.client.searchVehicles({
      s: 'x',
      lot_status: 'All',
      lot_sub_status: 'Live',
      price_min: 1,
      price_max: 2,
      year_from: 2000,
      year_to: 2001,
      auction_type: 1,
      type: 'AUTOMOBILE',
      make: 'BMW',
      model: 'X5',
      color: ['Red'],
      fuel_type: ['All others'],
      odometer_from: 0,
      odometer_to: 1,
      engine_size_from: 1,
      engine_size_to: 2,
      engine_hp_from: 1,
      engine_hp_to: 2,
      transmission: ['Manual'],
      cylinders: [4],
      drive_type: ['AWD'],
      run_cond: 'RUNS AND DRIVES',
      damage: ['Hail'],
      has_key: 'With',
      cursor: 'abc',
      zip: '33166',
      radius: 50,
      units: 'km',
      per_page: 1,
      facility_id: '136',
      loc_state: 'FL',
      office_name: 'Miami',
      auction_date_from: '2026-01-01',
      auction_date_to: '2026-01-02',
      today_only: false,
      sale_document_pending: true,
      sale_document_type: 'clean',
      seller_type: 'non_insurance',
      has_shipping_price: true,
    });
    const names = new Set(new URL('http://x' + env.seen[0]!.path).searchParams.keys());
    expect(names.size).toBe(40);
  });

  it('getVehicle, getRelated, getFilters, getUsage, resolveUrl, shipping and locations hit their paths', async () => {
    env = setup();
    env.on('/vehicles/WBAVL1C58FVY28848', 200, { ok: true, data: vehicle });
    env.on('/vehicles/78691915/related', 200, page(null));
    env.on('/vehicles/filters', 200, { ok: true, data: { make: ['BMW'] }, extra: 1 });
    env.on('/usage', 200, { ok: true, data: { used: 3 } });
    env.on('/vehicles/urltodetails', 200, { ok: true, data: vehicle });
    env.on('/vehicles/78691915/shipping', 200, {
      ok: true,
      data: [{ port: 'Miami', price: 350, currency: 'USD' }],
    });
    env.on('/shipping/auction-to-port', 200, {
      ok: true,
      data: [{ port: 'NY', price: '400', currency: 'USD' }],
    });
    env.on('/locations', 200, {
      ok: true,
      data: [{ platform: 'copart', facility_id: 136, name: 'Miami' }],
      meta: null,
    });
    const c = env.client;
    expect((await c.getVehicle('WBAVL1C58FVY28848')).data.make).toBe('HONDA');
    expect((await c.getRelated('78691915')).data).toHaveLength(1);
    expect((await c.getFilters()).data).toEqual({ make: ['BMW'] });
    expect((await c.getUsage()).data).toEqual({ used: 3 });
    expect((await c.resolveUrl('https://www.copart.com/lot/51015256/clean-title-2014')).data.lot_number).toBe(
      '45416833',
    );
    expect((await c.getVehicleShipping('78691915', { ports: ['Miami', 'NY'] })).data[0]?.price).toBe(350);
    const a2p = await c.getAuctionToPortShipping({ vin: '5TFLA5DBXTX349827', lot_number: '78691915' });
    expect(a2p.data[0]?.price).toBe(400);
    expect(a2p.warnings.length).toBeGreaterThan(0);
    const loc = await c.listLocations({ platform: 'copart', state: 'FL', q: 'Miami' });
    expect(loc.data[0]?.facility_id).toBe('136');
    expect(loc.meta).toBeNull();
    const paths = env.seen.map((s) => s.path);
    expect(paths).toContain('/api/v1/vehicle-auction/vehicles/78691915/shipping?ports=Miami%2CNY');
    expect(paths).toContain(
      '/api/v1/vehicle-auction/vehicles/urltodetails?url=https%3A%2F%2Fwww.copart.com%2Flot%2F51015256%2Fclean-title-2014',
    );
    expect(paths).toContain(
      '/api/v1/vehicle-auction/shipping/auction-to-port?vin=5TFLA5DBXTX349827&lot_number=78691915',
    );
  });

  it('getHistory accepts the documented array and the observed {vehicle, history}', async () => {
    env = setup();
    env.on('/vehicles/V1/history', 200, page(null));
    env.on('/vehicles/V2/history', 200, {
      ok: true,
      data: { vehicle, history: [{ platform: 'copart', date: '2025-01-02', price: 5100, status: 'Sold' }] },
      meta: null,
    });
    const a = await env.client.getHistory('V1', { per_page: 5 });
    expect(a.records).toHaveLength(1);
    expect(a.sales).toHaveLength(1);
    const b = await env.client.getHistory('V2');
    expect(b.vehicle?.vin).toBe(vehicle.vin);
    expect(b.sales[0]).toMatchObject({ platform: 'copart', price: 5100, status: 'Sold' });
    expect(env.seen[0]!.path).toBe('/api/v1/vehicle-auction/vehicles/V1/history?per_page=5');
  });

  it('fetchImage returns bytes and content type, and refuses a non-image answer', async () => {
    env = setup();
    env.on('/image-proxy', 200, new Uint8Array([0xff, 0xd8, 0xff]), { 'content-type': 'image/jpeg' });
    const img = await env.client.fetchImage('https://cs.copart.com/v1/a_thb.jpg');
    expect(img.contentType).toBe('image/jpeg');
    expect([...img.bytes]).toEqual([0xff, 0xd8, 0xff]);
    env.on('/image-proxy', 200, '<html>oops</html>', { 'content-type': 'text/html' });
    expect(await caught(env.client.fetchImage('https://cs.copart.com/v1/a_thb.jpg'))).toBeInstanceOf(
      BadResponseError,
    );
  });

  it('fetchImage accepts only the spec content types (jpeg, png, webp), reading image/jpg as jpeg', async () => {
    env = setup();
    const img = 'https://cs.copart.com/v1/a_thb.jpg';
    env.on('/image-proxy', 200, new Uint8Array([0x89, 0x50]), { 'content-type': 'image/png' });
    env.on('/image-proxy', 200, new Uint8Array([0x52, 0x49]), { 'content-type': 'image/webp' });
    env.on('/image-proxy', 200, new Uint8Array([0xff, 0xd8]), { 'content-type': 'image/jpg' });
    env.on('/image-proxy', 200, '<svg onload="alert(1)"/>', { 'content-type': 'image/svg+xml' });
    env.on('/image-proxy', 200, new Uint8Array([0x47, 0x49]), { 'content-type': 'image/gif' });
    expect((await env.client.fetchImage(img)).contentType).toBe('image/png');
    expect((await env.client.fetchImage(img)).contentType).toBe('image/webp');
    expect((await env.client.fetchImage(img)).contentType).toBe('image/jpeg');
    for (let i = 0; i < 2; i++) {
      const e = await caught(env.client.fetchImage(img));
      expect(e).toBeInstanceOf(BadResponseError);
      expect(e.message).toContain('not a JPEG, PNG or WebP image');
    }
  });
});

describe('pagination', () => {
  it('follows next_cursor up to maxPages and stops at null', async () => {
    env = setup();
    env.on('/vehicles', 200, page('c1'));
    env.on('/vehicles?cursor=c1', 200, page('c2'));
    env.on('/vehicles?cursor=c2', 200, page(null));
    const got: unknown[] = [];
    for await (const p of env.client.paginateVehicles({}, { maxPages: 10 })) got.push(p);
    expect(got).toHaveLength(3);
    env.on('/vehicles', 200, page('c1'));
    env.on('/vehicles?cursor=c1', 200, page('c2'));
    const limited = [];
    for await (const p of env.client.paginateVehicles({}, { maxPages: 2 })) limited.push(p);
    expect(limited).toHaveLength(2);
  });

  it('follows prev_cursor when asked, and refuses a repeating cursor', async () => {
    env = setup();
    env.on('/vehicles?cursor=p2', 200, page(null, 'p1'));
    env.on('/vehicles?cursor=p1', 200, page(null, 'p2'));
    const got: unknown[] = [];
    const err = await caught(
      (async () => {
        for await (const p of env.client.paginateVehicles(
          { cursor: 'p2' },
          { maxPages: 10, direction: 'prev' },
        ))
          got.push(p);
      })(),
    );
    expect(err).toBeInstanceOf(BadResponseError);
    expect(got).toHaveLength(2);
  });

  it('paginates history', async () => {
    env = setup();
    env.on('/vehicles/V/history', 200, page('h1'));
    env.on('/vehicles/V/history?cursor=h1', 200, page(null));
    const got: unknown[] = [];
    for await (const p of env.client.paginateHistory('V', {}, { maxPages: 5 })) got.push(p);
    expect(got).toHaveLength(2);
  });
});

describe('errors', () => {
  const cases: [number, new (...a: never[]) => ApiError, string][] = [
    [400, BadRequestError, 'bad_request'],
    [401, UnauthorizedError, 'unauthorized'],
    [403, ForbiddenError, 'forbidden'],
    [404, NotFoundError, 'not_found'],
    [422, ValidationError, 'validation'],
    [418, BadRequestError, 'bad_request'],
  ];
  for (const [status, cls, code] of cases) {
    it(`maps ${status} to ${code} without retrying`, async () => {
      env = setup();
      env.on('/vehicles', status, { ok: false, status, message: 'Nope.' });
      const e = await caught(env.client.searchVehicles());
      expect(e).toBeInstanceOf(cls);
      expect(e.code).toBe(code);
      expect(e.status).toBe(status);
      expect(env.records).toHaveLength(1);
    });
  }

  it('422 carries the field map', async () => {
    env = setup();
    const msg = 'The per page field must not be greater than 20.';
    env.on('/vehicles', 422, { ok: false, status: 422, message: msg, errors: { per_page: [msg] } });
    const e = await caught(env.client.searchVehicles());
    expect(e.fields).toEqual({ per_page: [msg] });
    expect(e.toPayload().fields).toEqual({ per_page: [msg] });
  });

  it('422 keeps its field map when another field of the body has an unexpected type', async () => {
    env = setup();
    const msg = 'The per page field must not be greater than 20.';
    env.on('/vehicles', 422, { ok: 'false', status: '422', message: msg, errors: { per_page: [msg] } });
    env.on('/vehicles', 401, { ok: false, error: 'Unauthenticated.' });
    const e = await caught(env.client.searchVehicles());
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.fields).toEqual({ per_page: [msg] });
    expect(e.message).toContain('must not be greater than 20');
    expect((await caught(env.client.searchVehicles())).message).toContain('Unauthenticated');
  });

  it('a 404 HTML page and a plain {message} body still map by status', async () => {
    env = setup();
    env.on('/vehicles/X1', 404, '<html><body>Not Found</body></html>', { 'content-type': 'text/html' });
    env.on('/vehicles/X2', 401, { message: 'Unauthenticated.' });
    expect(await caught(env.client.getVehicle('X1'))).toBeInstanceOf(NotFoundError);
    const e = await caught(env.client.getVehicle('X2'));
    expect(e).toBeInstanceOf(UnauthorizedError);
    expect(e.message).toContain('Check the API key in Settings');
  });

  it('a 200 that is HTML, not JSON, or a drifted envelope is bad_response', async () => {
    env = setup();
    env.on('/vehicles', 200, '<!doctype html><p>maintenance</p>', { 'content-type': 'text/html' });
    env.on('/vehicles', 200, 'not json{', { 'content-type': 'application/json' });
    env.on('/vehicles', 200, { ok: true, data: { not: 'a list' }, meta: null });
    for (let i = 0; i < 3; i++) expect((await caught(env.client.searchVehicles())).code).toBe('bad_response');
  });

  it('a missing key fails fast before any request', async () => {
    env = setup({ apiKey: () => undefined });
    const e = await caught(env.client.getUsage());
    expect(e).toBeInstanceOf(UnauthorizedError);
    expect(e.status).toBeNull();
    expect(env.records).toHaveLength(0);
  });

  it('network errors are retried, then reported as network', async () => {
    env = setup({ retry: { maxRetries: 2 } });
    for (let i = 0; i < 3; i++) {
      env.pool
        .intercept({ path: '/api/v1/vehicle-auction/usage', method: 'GET' })
        .replyWithError(new Error('ECONNRESET'));
    }
    const e = await caught(env.client.getUsage());
    expect(e).toBeInstanceOf(NetworkError);
    expect(env.records.map((r) => r.attempt)).toEqual([0, 1, 2]);
  });

  it('timeout aborts the attempt and is typed timeout', async () => {
    env = setup({ retry: { maxRetries: 0 } });
    env.pool
      .intercept({ path: '/api/v1/vehicle-auction/usage', method: 'GET' })
      .reply(200, '{}')
      .delay(5_000);
    const p = caught(env.client.getUsage());
    await new Promise((r) => setTimeout(r, 20));
    env.clock.fireLong();
    const e = await p;
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e.code).toBe('timeout');
  });

  it('the caller AbortSignal cancels a call with its reason', async () => {
    env = setup();
    env.pool
      .intercept({ path: '/api/v1/vehicle-auction/usage', method: 'GET' })
      .reply(200, '{}')
      .delay(5_000);
    const ctl = new AbortController();
    const p = caught(env.client.getUsage({ signal: ctl.signal }));
    await new Promise((r) => setTimeout(r, 20));
    ctl.abort(new Error('user left'));
    expect((await p).message).toBe('user left');
  });
});

describe('retries', () => {
  it('retries 500 and 503 with exponential backoff and jitter, then succeeds', async () => {
    env = setup({ retry: { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 10_000 } });
    env.on('/usage', 500, { message: 'x' });
    env.on('/usage', 503, 'Service Unavailable', { 'content-type': 'text/plain' });
    env.on('/usage', 200, { ok: true, data: {} });
    await env.client.getUsage();
    // random() = 0.5: delay = backoff/2 + backoff/4
    expect(env.clock.sleeps).toEqual([75, 150]);
    expect(env.records.map((r) => r.status)).toEqual([500, 503, 200]);
  });

  it('gives up on 5xx after maxRetries with a ServerError', async () => {
    env = setup({ retry: { maxRetries: 1, baseDelayMs: 10 } });
    env.on('/usage', 500, {});
    env.on('/usage', 500, {});
    const e = await caught(env.client.getUsage());
    expect(e).toBeInstanceOf(ServerError);
    expect(e.retryable).toBe(true);
  });

  it('honours Retry-After seconds on 429', async () => {
    env = setup({ retry: { maxRetries: 2, baseDelayMs: 10 } });
    env.on('/usage', 429, { ok: false, status: 429, message: 'Too Many Requests' }, { 'retry-after': '7' });
    env.on('/usage', 200, { ok: true, data: {} });
    await env.client.getUsage();
    expect(env.clock.sleeps).toContain(7000);
  });

  it('honours a Retry-After HTTP date, and gives up when it exceeds the budget', async () => {
    env = setup({ retry: { maxRetries: 2, baseDelayMs: 10, budgetMs: 5_000 } });
    const when = new Date(env.clock.now() + 60_000).toUTCString();
    env.on('/usage', 429, { message: 'slow down' }, { 'retry-after': when });
    const e = await caught(env.client.getUsage());
    expect(e).toBeInstanceOf(RateLimitedError);
    expect((e as RateLimitedError).retryAfterMs).toBe(60_000);
    expect(env.records).toHaveLength(1);
  });

  it('reads the real "limit reached" 429 as a spent quota until the period end, and does not retry it', async () => {
    env = setup({ retry: { maxRetries: 2, baseDelayMs: 10 } });
    const end = Date.UTC(2026, 11, 12, 12, 0, 0);
    // docs/service-contract.md "Quota spent (real)": no `status` field; Retry-After counts the seconds to the period
    // end.
    env.on(
      '/usage',
      429,
      {
        ok: false,
        message: 'API request limit reached for current subscription period.',
        limit: 100,
        base_limit: 100,
        extra_limit: 0,
        used: 100,
        remaining: 0,
      },
      {
        'retry-after': String((end - env.clock.now()) / 1000),
        'x-subscription-remaining': '0',
        'x-subscription-period-end': new Date(end).toISOString(),
      },
    );
    const e = await caught(env.client.getUsage());
    expect(e).toBeInstanceOf(QuotaSpentError);
    expect(e.code).toBe('rate_limited');
    expect(e.retryable).toBe(false);
    expect((e as QuotaSpentError).periodEnd).toBe(end);
    expect(e.message).toBe("Your plan's monthly requests are used up until 12 December 2026.");
    // The year is the only number: never a count of seconds.
    expect(e.message).not.toMatch(/\d{5,}/);
    expect(env.records).toHaveLength(1);
    expect(env.clock.sleeps).toEqual([]);
  });

  it('takes the period end of a spent quota from a long Retry-After when the headers do not say it', async () => {
    env = setup();
    const end = Date.UTC(2026, 11, 12, 12, 0, 0);
    env.on(
      '/usage',
      429,
      {
        ok: false,
        message: 'API request limit reached for current subscription period.',
        limit: 100,
        used: 100,
        remaining: 0,
      },
      { 'retry-after': String((end - env.clock.now()) / 1000) },
    );
    const e = await caught(env.client.getUsage());
    expect((e as QuotaSpentError).periodEnd).toBe(end);
    expect(e.message).toContain('until 12 December');
  });

  it('says a long wait of a rate limit as a time, never as millions of seconds', async () => {
    env = setup({ retry: { maxRetries: 0 } });
    env.on('/usage', 429, { message: 'Too Many Attempts.' }, { 'retry-after': '2591782' });
    const e = await caught(env.client.getUsage());
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e).not.toBeInstanceOf(QuotaSpentError);
    expect(e.message).not.toContain('2591782');
    expect(e.message).toMatch(/wait until \d{1,2} [A-Z][a-z]+ 2026, \d\d:\d\d/);
  });

  it('never retries other 4xx', async () => {
    env = setup({ retry: { maxRetries: 5 } });
    for (const s of [400, 401, 403, 404, 422]) env.on('/usage', s, {});
    for (let i = 0; i < 5; i++) await caught(env.client.getUsage());
    expect(env.records).toHaveLength(5);
    expect(env.clock.sleeps).toEqual([]);
  });
});

describe('quota and sink', () => {
  const headers = {
    'x-ratelimit-limit': '10',
    'x-ratelimit-remaining': '9',
    'x-subscription-limit': '30000',
    'x-subscription-base-limit': '30000',
    'x-subscription-extra-limit': '0',
    'x-subscription-used': '120',
    'x-subscription-remaining': '29880',
    'x-subscription-period-start': '2026-11-01T00:00:00+00:00',
    'x-subscription-period-end': '2026-12-01T00:00:00+00:00',
    'x-per-page-limit': '20',
  };

  it('reads the quota headers into a snapshot, on success and on error', async () => {
    env = setup();
    env.on('/usage', 200, { ok: true, data: {} }, headers);
    env.on('/usage', 401, { message: 'bad key' }, headers);
    await env.client.getUsage();
    await caught(env.client.getUsage());
    expect(env.quotas).toHaveLength(2);
    expect(env.quotas[0]).toMatchObject({
      limit: 30000,
      used: 120,
      remaining: 29880,
      periodEnd: Date.parse('2026-12-01T00:00:00Z'),
      perPageLimit: 20,
      rateLimit: 10,
      rateRemaining: 9,
    });
    expect(env.client.quota()?.remaining).toBe(29880);
  });

  it('reports every request to the sink with endpoint template, status, duration and bytes', async () => {
    env = setup();
    env.on('/vehicles/ABC', 200, { ok: true, data: vehicle });
    await env.client.getVehicle('ABC');
    expect(env.records[0]).toMatchObject({
      endpoint: '/vehicles/{slugVin}',
      status: 200,
      attempt: 0,
      errorCode: null,
    });
    expect(env.records[0]!.bytes).toBeGreaterThan(50);
    expect(env.records[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('spaces requests to the configured rate, then to X-RateLimit-Limit', async () => {
    env = setup({ ratePerSecond: 2 });
    env.on('/usage', 200, { ok: true, data: {} }, { 'x-ratelimit-limit': '10' });
    env.on('/usage', 200, { ok: true, data: {} });
    env.on('/usage', 200, { ok: true, data: {} });
    await env.client.getUsage();
    await env.client.getUsage();
    await env.client.getUsage();
    // first free; second waits 1000/10 ms (rate adopted from the first answer); third likewise
    expect(env.clock.sleeps).toEqual([100, 100]);
  });
});

describe('video-platform endpoints', () => {
  const names = Object.keys(VIDEO_ENDPOINTS) as VideoEndpoint[];
  it('has the 20 endpoints of the spec, with youtube on the wire', () => {
    expect(names).toHaveLength(20);
    expect(VIDEO_ENDPOINTS['vp/video/details']).toBe('/api/v1/youtube/youtube/video/details');
    expect(VIDEO_ENDPOINTS['discovery/search']).toBe('/api/v1/youtube/discovery/search');
  });

  it('calls every endpoint with the key and the query passed through', async () => {
    env = setup();
    for (const n of names) env.on(VIDEO_ENDPOINTS[n], 200, { ok: true, data: { n } });
    for (const n of names) {
      const r = await env.client.callVideo(n, { url: 'https://youtu.be/x', lang: ['en', 'de'] });
      expect(r.data).toEqual({ ok: true, data: { n } });
    }
    expect(env.seen).toHaveLength(20);
    expect(env.seen.every((s) => s.headers['x-api-key'] === KEY)).toBe(true);
    expect(env.seen[4]!.path).toBe(
      '/api/v1/youtube/youtube/video/details?url=https%3A%2F%2Fyoutu.be%2Fx&lang=en&lang=de',
    );
  });

  it('shares errors, and refuses unknown endpoints or bad query values before sending', async () => {
    env = setup();
    env.on(VIDEO_ENDPOINTS.channel, 401, { message: 'no' });
    expect(await caught(env.client.callVideo('channel'))).toBeInstanceOf(UnauthorizedError);
    expect(await caught(env.client.callVideo('nope' as VideoEndpoint))).toBeInstanceOf(ApiInputError);
    expect(await caught(env.client.callVideo('channel', { q: { a: 1 } as never }))).toBeInstanceOf(
      ApiInputError,
    );
    expect(env.records).toHaveLength(1);
  });
});

describe('the API key never leaks', () => {
  it('appears in no log line, error message, payload or sink record', async () => {
    const lines: string[] = [];
    env = setup({ retry: { maxRetries: 1, baseDelayMs: 1 } });
    const statuses = [400, 401, 403, 404, 422, 429, 500, 503];
    for (const s of statuses) {
      env.on('/usage', s, { message: `echo ${KEY}`, errors: { key: [`bad ${KEY}`] } });
      if (s >= 429) env.on('/usage', s, { message: `echo ${KEY}` });
    }
    for (const _ of statuses) {
      const e = await caught(env.client.getUsage());
      lines.push(e.message, JSON.stringify(e.toPayload()), String(e.stack));
    }
    env.pool
      .intercept({ path: '/api/v1/vehicle-auction/usage', method: 'GET' })
      .replyWithError(new Error('reset'));
    env.pool
      .intercept({ path: '/api/v1/vehicle-auction/usage', method: 'GET' })
      .replyWithError(new Error('reset'));
    const n = await caught(env.client.getUsage());
    lines.push(n.message, JSON.stringify(n.toPayload()));
    lines.push(...env.logs, JSON.stringify(env.records));
    expect(lines.join('\n')).not.toContain(KEY);
    expect(env.logs.length).toBeGreaterThan(0);
  });
});

describe('the API key never leaks, even in part', () => {
  it('a key cut by the message length limit leaves no prefix, and a field name echoing it is redacted', async () => {
    env = setup({ retry: { maxRetries: 0 } });
    // The service text is shortened to 200 characters: here the cut falls inside the key.
    const pad = 'x'.repeat(200 - KEY.length + 4);
    env.on('/usage', 401, { message: `${pad} ${KEY}` });
    env.on('/usage', 422, { message: 'bad', errors: { [KEY]: ['bad'], [`${pad} ${KEY}`]: ['bad'] } });
    const prefix = KEY.slice(0, 8);
    const a = await caught(env.client.getUsage());
    expect(a).toBeInstanceOf(UnauthorizedError);
    const b = await caught(env.client.getUsage());
    expect(b).toBeInstanceOf(ValidationError);
    const text = [a.message, JSON.stringify(a.toPayload()), b.message, JSON.stringify(b.toPayload())].join(
      '\n',
    );
    expect(text).not.toContain(prefix);
    expect(text).toContain('[redacted]');
  });
});

describe('base URL', () => {
  it('defaults to the public service', async () => {
    env = setup({ baseUrl: undefined });
    expect(env.client.baseUrl).toBe(BASE);
  });
});
