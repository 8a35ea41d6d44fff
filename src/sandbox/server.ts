import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Faults, FaultKind, FaultSettings } from './faults';
import type { ImageCache } from './images';
import type { Market } from './market';
import { isoOffset, parsePhotoUrl, type WireShape } from './records';
import { HttpError, Validator, type RawQuery } from './validate';
import {
  auctionToPort,
  listLocations,
  listVehicles,
  urlToDetails,
  vehicleDetails,
  vehicleFilters,
  vehicleHistory,
  vehicleRelated,
  vehicleShipping,
  type ApiContext,
} from './vehicleApi';
import { VIDEO_PATHS, videoBody } from './video';

/**
 * The sandbox's HTTP face: Fastify routes under /api/v1/vehicle-auction and /api/v1/youtube, key check, per-key
 * quota and per-second rate limit with the quota headers of docs/service-contract.md "Envelope, headers, errors" on
 * every response, faults, and the test-only control routes under /__sandbox (404 unless enabled).
 *
 * Quota counting: every request with a valid key counts, whatever its answer (404, 422 and faults included), except
 * the 429s the limiter itself answers; 401s have no key to count against. /usage counts too, so a client cannot
 * learn that checking its quota is free (the real service does not say).
 */

export const VA_PREFIX = '/api/v1/vehicle-auction';
export const VP_PREFIX = '/api/v1/youtube';
export const CONTROL_PREFIX = '/__sandbox';

export interface ServerDeps {
  market: Market;
  seed: number;
  keys: ReadonlySet<string>;
  quota: { limit: number; periodMs: number };
  /** Requests per second per key; 0 turns the limiter off. */
  ratePerSecond: number;
  perPageLimit: number;
  /** The wire dialect: the real service's shapes (default) or the specification's (`--shape spec`). */
  shape: WireShape;
  /** Real time, ms since epoch (injectable). */
  now: () => number;
  marketNow: () => number;
  /** Moves market time forward by ms (test control); resolves once the work that came due has run. */
  advance: (ms: number) => Promise<void>;
  speed: number;
  testControl: boolean;
  faults: Faults;
  images: ImageCache;
}

interface KeyUsage {
  periodStart: number;
  used: number;
  window: number;
  inWindow: number;
}

const UNLIMITED_RATE = 1_000_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Builds the Fastify app (not listening). */
export function buildServer(d: ServerDeps): FastifyInstance {
  const usage = new Map<string, KeyUsage>();
  const firstPeriod = d.now();
  // The old `drift` fault still forces the real shape on the paths it covers (useful with `--shape spec`).
  const shapeOf = (path: string): WireShape => (d.faults.drift(path) ? 'real' : d.shape);

  const usageOf = (key: string): KeyUsage => {
    const t = d.now();
    let u = usage.get(key);
    if (!u) usage.set(key, (u = { periodStart: firstPeriod, used: 0, window: 0, inWindow: 0 }));
    while (t >= u.periodStart + d.quota.periodMs) {
      u.periodStart += d.quota.periodMs;
      u.used = 0;
    }
    const w = Math.floor(t / 1000);
    if (w !== u.window) {
      u.window = w;
      u.inWindow = 0;
    }
    return u;
  };

  const quotaHeaders = (reply: FastifyReply, u: KeyUsage | null): void => {
    const periodStart = u?.periodStart ?? firstPeriod;
    const used = u?.used ?? 0;
    reply.headers({
      // With the limiter off the headers still promise plenty, so a client never waits on a zero.
      'x-ratelimit-limit': d.ratePerSecond || UNLIMITED_RATE,
      'x-ratelimit-remaining': Math.max(0, (d.ratePerSecond || UNLIMITED_RATE) - (u?.inWindow ?? 0)),
      'x-subscription-limit': d.quota.limit,
      'x-subscription-base-limit': d.quota.limit,
      'x-subscription-extra-limit': 0,
      'x-subscription-used': used,
      'x-subscription-remaining': Math.max(0, d.quota.limit - used),
      'x-subscription-period-start': isoOffset(periodStart),
      'x-subscription-period-end': isoOffset(periodStart + d.quota.periodMs),
      'x-per-page-limit': d.perPageLimit,
    });
  };

  const pathOf = (req: FastifyRequest): string => req.url.split('?')[0] ?? req.url;
  const inService = (path: string): boolean => path.startsWith(VA_PREFIX) || path.startsWith(VP_PREFIX);
  const keyOf = (req: FastifyRequest): string | null => {
    const k = req.headers['x-api-key'];
    return typeof k === 'string' && d.keys.has(k) ? k : null;
  };

  /**
   * Key check, rate limit and quota of one service request, with the quota headers set on the reply. Returns the
   * reply when it has answered (401 or 429), undefined when the request may go on (and has been counted).
   */
  const gate = (req: FastifyRequest, reply: FastifyReply): FastifyReply | undefined => {
    const key = keyOf(req);
    if (!key) {
      quotaHeaders(reply, null);
      return reply.code(401).send({
        ok: false,
        status: 401,
        message: 'Unauthenticated. Send a valid API key in the X-API-Key header.',
      });
    }
    const u = usageOf(key);
    const t = d.now();
    if (d.ratePerSecond > 0 && u.inWindow >= d.ratePerSecond) {
      quotaHeaders(reply, u);
      reply.header('retry-after', Math.max(1, Math.ceil(((u.window + 1) * 1000 - t) / 1000)));
      return reply.code(429).send({ ok: false, status: 429, message: 'Too Many Attempts.' });
    }
    if (u.used >= d.quota.limit) {
      quotaHeaders(reply, u);
      reply.header('retry-after', Math.max(1, Math.ceil((u.periodStart + d.quota.periodMs - t) / 1000)));
      return reply.code(429).send(quotaSpentBody(shapeOf(pathOf(req)), d.quota.limit, u.used));
    }
    u.used++;
    u.inWindow++;
    quotaHeaders(reply, u);
    return undefined;
  };

  const app = Fastify({
    logger: false,
    // Long enough that no path identifier is refused by the router: the handlers validate it (422) like any other.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16_384 },
    // A URL the router cannot decode never reaches the hooks: it gets the same key check, quota headers and error
    // envelope as every other service request (400: a parameter is invalid).
    frameworkErrors: (_err, req, reply: FastifyReply) => {
      if (inService(pathOf(req)) && gate(req, reply)) return;
      reply.code(400).send({ ok: false, status: 400, message: 'Bad Request.' });
    },
  });

  app.addHook('onRequest', async (req, reply) => {
    const path = pathOf(req);
    if (path.startsWith(CONTROL_PREFIX)) {
      if (!d.testControl) return reply.code(404).send({ ok: false, status: 404, message: 'Not Found.' });
      return;
    }
    if (!inService(path)) return;
    return gate(req, reply);
  });

  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof HttpError) return reply.code(err.status).send(err.body());
    const e = err as { statusCode?: number; message?: string };
    const status =
      typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500 ? e.statusCode : 500;
    return reply
      .code(status)
      .send({ ok: false, status, message: status === 500 ? 'Server Error' : (e.message ?? 'Bad Request') });
  });

  app.setNotFoundHandler((_req, reply) =>
    reply.code(404).send({ ok: false, status: 404, message: 'Not Found.' }),
  );

  const ctx = (path: string): ApiContext => ({
    // The service answers from its records (lagged when a refresh lag is set); the control routes read the truth.
    market: d.market.service,
    seed: d.seed,
    perPageLimit: d.perPageLimit,
    shape: shapeOf(path),
  });

  /** Wraps a JSON handler: latency and faults, then the market brought to now, then the answer. */
  const api =
    (fn: (c: ApiContext, req: FastifyRequest) => Record<string, unknown>) =>
    async (req: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
      const path = pathOf(req);
      const delay = d.faults.latency(path);
      if (delay > 0) await sleep(delay);
      const fault = d.faults.next(path);
      d.market.advanceTo(d.marketNow());
      if (fault && fault !== 'truncated') return sendFault(fault, req, reply, '');
      const body = fn(ctx(path), req);
      if (fault === 'truncated') return sendFault(fault, req, reply, JSON.stringify(body));
      return reply.send(body);
    };

  const q = (req: FastifyRequest): RawQuery => req.query as RawQuery;
  const slug = (req: FastifyRequest): string => (req.params as { slugVin: string }).slugVin;

  app.get(
    `${VA_PREFIX}/vehicles`,
    api((c, r) => listVehicles(c, q(r))),
  );
  app.get(
    `${VA_PREFIX}/vehicles/filters`,
    api((c) => vehicleFilters(c)),
  );
  app.get(
    `${VA_PREFIX}/vehicles/urltodetails`,
    api((c, r) => urlToDetails(c, q(r))),
  );
  app.get(
    `${VA_PREFIX}/vehicles/:slugVin`,
    api((c, r) => vehicleDetails(c, slug(r))),
  );
  app.get(
    `${VA_PREFIX}/vehicles/:slugVin/history`,
    api((c, r) => vehicleHistory(c, slug(r), q(r))),
  );
  app.get(
    `${VA_PREFIX}/vehicles/:slugVin/related`,
    api((c, r) => vehicleRelated(c, slug(r))),
  );
  app.get(
    `${VA_PREFIX}/vehicles/:slugVin/shipping`,
    api((c, r) => vehicleShipping(c, slug(r), q(r))),
  );
  app.get(
    `${VA_PREFIX}/locations`,
    api((c, r) => listLocations(c, q(r))),
  );
  app.get(
    `${VA_PREFIX}/shipping/auction-to-port`,
    api((c, r) => auctionToPort(c, q(r))),
  );
  app.get(
    `${VA_PREFIX}/usage`,
    api((_c, r) => {
      const key = keyOf(r) as string;
      const u = usageOf(key);
      return {
        ok: true,
        data: {
          key: `${key.slice(0, 4)}…${key.slice(-4)}`,
          plan: {
            name: 'Sandbox',
            requests_per_period: d.quota.limit,
            requests_per_second: d.ratePerSecond || null,
            per_page_limit: d.perPageLimit,
          },
          period: { start: isoOffset(u.periodStart), end: isoOffset(u.periodStart + d.quota.periodMs) },
          limit: d.quota.limit,
          base_limit: d.quota.limit,
          extra_limit: 0,
          used: u.used,
          remaining: Math.max(0, d.quota.limit - u.used),
        },
        meta: null,
      };
    }),
  );

  app.get(`${VA_PREFIX}/image-proxy`, async (req, reply) => {
    const path = pathOf(req);
    const delay = d.faults.latency(path);
    if (delay > 0) await sleep(delay);
    const fault = d.faults.next(path);
    if (fault) return sendFault(fault, req, reply, '');
    const v = new Validator(q(req));
    const url = v.string('url', { required: true });
    v.check();
    const ref = parsePhotoUrl(d.seed, url as string);
    if (ref === 'invalid') throw new HttpError(400, 'Invalid image URL.');
    const lot =
      ref === 'unknown'
        ? undefined
        : ref.platform === 'copart'
          ? d.market.byNumber.get(ref.id)
          : d.market.byItemId.get(ref.id);
    if (ref === 'unknown' || !lot || lot.platform !== ref.platform || ref.idx < 0 || ref.idx >= lot.photos)
      throw new HttpError(404, 'Image not found.');
    const img = await d.images.render(lot, ref);
    return reply.type(`image/${ref.format}`).header('cache-control', 'public, max-age=86400').send(img);
  });

  for (const p of VIDEO_PATHS) {
    app.get(
      `${VP_PREFIX}${p}`,
      // The market was just brought to now (api), so its clock is the answer's time.
      api((_c, r) => videoBody({ seed: d.seed, startTime: d.market.startTime, now: d.market.now }, p, q(r))),
    );
  }

  if (d.testControl) registerControl(app, d);
  return app;
}

/**
 * The 429 body of a spent monthly quota. Real shape (docs/service-contract.md "Quota spent (real)"): `{ok: false,
 * message: "API request limit reached for current subscription period.", limit, base_limit, extra_limit: 0, used,
 * remaining: 0}` with no `status` field (counts are requests). Spec shape (spec "Errors": ok, status, message).
 */
export function quotaSpentBody(shape: WireShape, limit: number, used: number): Record<string, unknown> {
  if (shape === 'spec')
    return { ok: false, status: 429, message: 'API quota exceeded for the current period.' };
  return {
    ok: false,
    message: 'API request limit reached for current subscription period.',
    limit,
    base_limit: limit,
    extra_limit: 0,
    used,
    remaining: Math.max(0, limit - used),
  };
}

function sendFault(
  kind: FaultKind,
  req: FastifyRequest,
  reply: FastifyReply,
  body: string,
): FastifyReply | undefined {
  switch (kind) {
    case 'error_500':
      return reply.code(500).send({ message: 'Server Error' });
    case 'error_503':
      return reply.code(503).send({ ok: false, status: 503, message: 'Service temporarily unavailable.' });
    case 'error_502':
      return reply.code(502).send({ ok: false, message: 'Vehicle API request failed.' });
    case 'error_400':
      return reply.code(400).send({ ok: false, status: 400, message: 'One or more parameters are invalid.' });
    case 'burst_429':
      return reply
        .code(429)
        .header('retry-after', 1)
        .send({ ok: false, status: 429, message: 'Too Many Attempts.' });
    case 'non_json':
      return reply.code(200).type('application/json').send('upstream timeout: <no data>');
    case 'html':
      return reply
        .code(502)
        .type('text/html')
        .send(
          '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
        );
    case 'html_200':
      return reply
        .code(200)
        .type('text/html; charset=utf-8')
        .send(
          '<!DOCTYPE html>\n<html><head><title>Before you continue</title></head>\n<body><h1>Before you continue</h1><p>We use cookies and data to deliver and maintain services.</p></body></html>\n',
        );
    case 'reshaped':
      return reply.code(200).send({
        ok: true,
        data: { renderer: 'unavailable', message: 'This content is not available in this format.' },
        meta: null,
      });
    case 'drop':
      reply.hijack();
      req.raw.socket.destroy();
      return undefined;
    case 'truncated': {
      reply.hijack();
      const headers = {
        ...reply.getHeaders(),
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      };
      const raw = reply.raw;
      raw.writeHead(200, headers as Record<string, string | number>);
      raw.write(body.slice(0, Math.floor(body.length / 2)), () => req.raw.socket.destroy());
      return undefined;
    }
  }
}

/** The `lot_number` of a control request's body. @throws HttpError 422 when it is missing or not a string. */
function lotNumberOf(body: { lot_number?: unknown }): string {
  const n = typeof body.lot_number === 'string' ? body.lot_number : '';
  if (!n)
    throw new HttpError(422, 'The lot number field is required.', {
      lot_number: ['The lot number field is required.'],
    });
  return n;
}

/** Runs a market control change; the market's refusal (no such lot, wrong state) becomes a 422 naming the lot. */
function controlled<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw new HttpError(422, (e as Error).message, { lot_number: [(e as Error).message] });
  }
}

/**
 * Test-only routes, so a test can compare what a client saw with what happened and make the market move when it
 * says: the market's ground-truth events, its clock (read, or step it: POST /clock {advance_ms}), and on demand a
 * sale (POST /sell {lot_number, price, outcome}), a reschedule (POST /reschedule {lot_number, auction_at}), a
 * relist (POST /relist {lot_number, auction_at?}) and faults. Registered only with testControl. No key needed.
 */
function registerControl(app: FastifyInstance, d: ServerDeps): void {
  app.get(`${CONTROL_PREFIX}/events`, async (req) => {
    d.market.advanceTo(d.marketNow());
    const v = new Validator(req.query as RawQuery);
    const since = v.int('since', { min: 0, dflt: 0 }) ?? 0;
    const limit = v.int('limit', { min: 1, max: 100_000, dflt: 10_000 }) ?? 10_000;
    v.check();
    const kind = v.raw('kind');
    const evs = d.market.eventsSince(since, limit);
    const data = evs.filter((e) => !kind || e.kind === kind).map((e) => ({ ...e, at: isoOffset(e.t) }));
    const last = evs[evs.length - 1];
    return {
      ok: true,
      data,
      meta: {
        market_now: isoOffset(d.market.now),
        market_now_ms: d.market.now,
        next_since: last ? last.seq : since,
      },
    };
  });
  const clock = (): Record<string, unknown> => {
    d.market.advanceTo(d.marketNow());
    return {
      ok: true,
      data: {
        market_now: isoOffset(d.market.now),
        market_now_ms: d.market.now,
        start_time_ms: d.market.startTime,
        speed: d.speed,
        lots: d.market.lots.length,
      },
    };
  };
  app.get(`${CONTROL_PREFIX}/clock`, async () => clock());
  app.post(`${CONTROL_PREFIX}/clock`, async (req) => {
    const ms = Number((req.body as { advance_ms?: unknown } | undefined)?.advance_ms);
    if (!Number.isFinite(ms) || ms < 0)
      throw new HttpError(422, 'The advance ms field must be a number of at least 0.', {
        advance_ms: ['The advance ms field must be a number of at least 0.'],
      });
    await d.advance(ms);
    return clock();
  });
  // Ends an open or live lot now at a price (a sale on demand).
  app.post(`${CONTROL_PREFIX}/sell`, async (req) => {
    d.market.advanceTo(d.marketNow());
    const body = (req.body ?? {}) as { lot_number?: unknown; price?: unknown; outcome?: unknown };
    const lotNumber = lotNumberOf(body);
    const outcome = body.outcome ?? 'sold';
    if (outcome !== 'sold' && outcome !== 'approval' && outcome !== 'unsold') {
      throw new HttpError(422, 'The selected outcome is invalid.', {
        outcome: ['The outcome must be sold, approval or unsold.'],
      });
    }
    const price = body.price === undefined || body.price === null ? null : Number(body.price);
    if (price !== null && !(Number.isInteger(price) && price >= 0)) {
      throw new HttpError(422, 'The price field must be a whole number of at least 0.', {
        price: ['The price field must be a whole number of at least 0.'],
      });
    }
    const lot = controlled(() => d.market.forceSale(lotNumber, price, outcome));
    return {
      ok: true,
      data: {
        lot_number: lot.lotNumber,
        state: lot.state,
        sale_price_usd: lot.salePrice,
        current_bid_usd: lot.currentBid,
        at: isoOffset(d.market.now),
      },
    };
  });
  // Lists an ended (unsold or sold-on-approval) lot's vehicle again now, optionally with the new sale date.
  app.post(`${CONTROL_PREFIX}/relist`, async (req) => {
    d.market.advanceTo(d.marketNow());
    const body = (req.body ?? {}) as { lot_number?: unknown; auction_at?: unknown };
    const lotNumber = lotNumberOf(body);
    const at =
      body.auction_at === undefined
        ? undefined
        : typeof body.auction_at === 'string'
          ? Date.parse(body.auction_at)
          : Number(body.auction_at);
    if (at !== undefined && !Number.isFinite(at))
      throw new HttpError(422, 'The auction at field must be a date.', {
        auction_at: ['The auction at field must be a date.'],
      });
    const lot = controlled(() => d.market.forceRelist(lotNumber, at));
    return {
      ok: true,
      data: {
        lot_number: lot.lotNumber,
        previous_lot_number: lotNumber,
        vin: lot.v.vin,
        title: lot.title,
        auction_at: isoOffset(lot.auctionAt),
      },
    };
  });
  // Moves an open lot's sale later, now (a reschedule on demand, for end-to-end tests of the watcher).
  app.post(`${CONTROL_PREFIX}/reschedule`, async (req) => {
    d.market.advanceTo(d.marketNow());
    const body = (req.body ?? {}) as { lot_number?: unknown; auction_at?: unknown };
    const lotNumber = lotNumberOf(body);
    const at = typeof body.auction_at === 'string' ? Date.parse(body.auction_at) : Number(body.auction_at);
    if (!Number.isFinite(at))
      throw new HttpError(422, 'The auction at field must be a date.', {
        auction_at: ['The auction at field must be a date.'],
      });
    const lot = controlled(() => d.market.forceReschedule(lotNumber, at));
    return { ok: true, data: { lot_number: lotNumber, auction_at: isoOffset(lot.auctionAt) } };
  });
  app.get(`${CONTROL_PREFIX}/faults`, async () => ({ ok: true, data: d.faults.settings }));
  app.put(`${CONTROL_PREFIX}/faults`, async (req) => {
    try {
      d.faults.set((req.body ?? {}) as FaultSettings);
    } catch (e) {
      throw new HttpError(422, (e as Error).message, { faults: [(e as Error).message] });
    }
    return { ok: true, data: d.faults.settings };
  });
  app.delete(`${CONTROL_PREFIX}/faults`, async () => {
    d.faults.set({});
    return { ok: true, data: d.faults.settings };
  });
}
