import type { Dispatcher } from 'undici';
import type { Clock } from '../clock';
import { silentLogger, type Logger } from '../log';
import { DEFAULT_SERVICE_URL } from '../../shared/settings';
import type { AuctionLocation, QuotaSnapshot, ShippingPrice, Vehicle } from '../../shared/vehicle';
import { ApiInputError, BadResponseError } from './errors';
import {
  parseHistory,
  parseLocations,
  parseObjectData,
  parseShipping,
  parseVehicleDetail,
  parseVehicleList,
  type HistoryPage,
  type Page,
  type Parsed,
} from './parse';
import { RateLimiter } from './quota';
import {
  decodeJson,
  defaultDispatcher,
  send,
  type RequestRecord,
  type RetryOptions,
  type TransportOptions,
} from './transport';
import {
  HistoryParamsSchema,
  LocationParamsSchema,
  buildQuery,
  check,
  checkImageUrl,
  checkLotNumber,
  checkLotPageUrl,
  checkPorts,
  checkSearchParams,
  checkSlugVin,
  checkVin,
  type HistoryParams,
  type LocationParams,
  type QueryValue,
  type SearchParams,
} from './validate';
import { VIDEO_ENDPOINTS, hostUrlOf, type JsonValue, type VideoEndpoint } from './video';

/** Options of every call. */
export interface CallOptions {
  /** Cancels the call, including its waits; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Options of the pagination iterators. */
export interface PageOptions extends CallOptions {
  /** Most pages to fetch (required: every page costs one request of quota). */
  maxPages: number;
  /** `next` follows next_cursor (default); `prev` follows prev_cursor. */
  direction?: 'next' | 'prev';
}

/** Parse warnings of a response (`path: problem`); the data is kept either way. */
export interface Warned {
  warnings: string[];
}

export type VehiclePage = Page<Vehicle> & Warned;
export type LocationPage = Page<AuctionLocation> & Warned;
export type History = HistoryPage & Warned;
export type VehicleDetail = { data: Vehicle; raw: unknown } & Warned;
export type ShippingList = { data: ShippingPrice[]; raw: unknown } & Warned;
export type ObjectData = { data: Record<string, unknown>; raw: unknown } & Warned;

export interface ApiClientOptions {
  /** {base_url}; default the public service. Demo mode passes the sandbox's URL. */
  baseUrl?: string;
  /** Read on every call, so a key changed in Settings applies at once; undefined or '' fails fast (401-style). */
  apiKey: () => string | undefined;
  clock: Clock;
  /** Receives every request (endpoint, status, duration, bytes). */
  sink?: (r: RequestRecord) => void;
  /** Receives the quota snapshot of every response that carries quota headers. */
  onQuota?: (q: QuotaSnapshot) => void;
  log?: Logger;
  /** Tests pass a MockAgent; default a pooled keep-alive Agent owned (and closed) by the client. */
  dispatcher?: Dispatcher;
  /** Per attempt, ms, until the whole body is in. Default 20000. */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  /** Client-side rate until the service reports X-RateLimit-Limit. Default 3 (the free plan's). */
  ratePerSecond?: number;
  /** Jitter source in [0, 1). Default Math.random. */
  random?: () => number;
  /** Largest response body accepted, bytes. Default 20 MB. */
  maxBytes?: number;
}

/** The service client: every endpoint of both specifications. Create with createApiClient. */
export type ApiClient = ReturnType<typeof createApiClient>;

/**
 * Creates the client of the Vehicle Auction Data Service (the spec and the video spec). Every method validates its
 * input first (ApiInputError, code bad_input, costs no quota), then sends one GET with X-API-Key, retrying network
 * errors, 5xx and 429 per `retry`, and throws the ApiError subclass of the outcome (errors.ts). Records come back
 * normalised with their raw JSON and parse warnings.
 */
export function createApiClient(opts: ApiClientOptions) {
  const baseUrl = (opts.baseUrl ?? DEFAULT_SERVICE_URL).replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const ownDispatcher = opts.dispatcher ? null : defaultDispatcher(timeoutMs);
  const log = opts.log ?? silentLogger;
  let lastQuota: QuotaSnapshot | null = null;
  const t: TransportOptions = {
    apiKey: opts.apiKey,
    clock: opts.clock,
    log,
    dispatcher: opts.dispatcher ?? (ownDispatcher as Dispatcher),
    timeoutMs,
    retry: { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000, budgetMs: 30_000, ...opts.retry },
    limiter: new RateLimiter(opts.clock, opts.ratePerSecond ?? 3),
    random: opts.random ?? Math.random,
    sink: opts.sink,
    onQuota: (q) => {
      lastQuota = q;
      opts.onQuota?.(q);
    },
    maxBytes: opts.maxBytes ?? 20 * 1024 * 1024,
  };

  async function getJson<T>(
    endpoint: string,
    path: string,
    query: Readonly<Record<string, QueryValue>>,
    parse: (body: unknown, now: number) => Parsed<T>,
    co: CallOptions | undefined,
    inputWarnings: string[] = [],
  ): Promise<T & Warned> {
    const res = await send(t, endpoint, baseUrl + path + buildQuery(query), 'application/json', co?.signal);
    const r = parse(decodeJson(endpoint, res), opts.clock.now());
    if (!r.ok) throw new BadResponseError(endpoint, r.reason, res.status);
    const skipped = (r.value as { skipped?: number }).skipped ?? 0;
    if (skipped > 0)
      log.warn('api: records skipped', {
        endpoint,
        skipped,
        records: r.warnings.filter((x) => /lot_number: |record skipped/.test(x)).slice(0, 10),
      });
    const warnings = [...inputWarnings, ...r.warnings];
    if (r.warnings.length)
      log.warn('api: response drifted from the specification', {
        endpoint,
        warnings: r.warnings.length,
        first: r.warnings[0],
      });
    return { ...r.value, warnings };
  }

  async function* paginate<
    P extends { data: unknown[]; meta: { next_cursor: string | null; prev_cursor: string | null } | null },
  >(
    endpoint: string,
    first: string | undefined,
    fetchPage: (cursor: string | undefined) => Promise<P>,
    po: PageOptions,
  ): AsyncGenerator<P, void, undefined> {
    if (!Number.isInteger(po.maxPages) || po.maxPages < 1 || po.maxPages > 10_000) {
      throw new ApiInputError({ maxPages: ['Must be a whole number from 1 to 10000.'] });
    }
    const seen = new Set<string>();
    if (first !== undefined) seen.add(first);
    let cursor = first;
    for (let i = 0; i < po.maxPages; i++) {
      const page = await fetchPage(cursor);
      yield page;
      const next = po.direction === 'prev' ? page.meta?.prev_cursor : page.meta?.next_cursor;
      if (!next) return;
      if (seen.has(next))
        throw new BadResponseError(endpoint, 'the service returned a cursor it had already given');
      seen.add(next);
      cursor = next;
    }
  }

  const client = {
    /** {base_url} in use. */
    baseUrl,

    /** The last quota snapshot read from response headers, or null before the first answer. */
    quota(): QuotaSnapshot | null {
      return lastQuota;
    },

    /**
     * GET /vehicles (spec "GET /vehicles: query parameters"): one page of at most per_page (1..20) vehicles.
     * Prices in USD, odometer in miles. @throws ApiInputError, ApiError subclasses.
     */
    async searchVehicles(params: SearchParams = {}, co?: CallOptions): Promise<VehiclePage> {
      const q = checkSearchParams(params);
      return getJson('/vehicles', '/vehicles', q, parseVehicleList, co);
    },

    /**
     * Pages of GET /vehicles following next_cursor (or prev_cursor), from `params.cursor` if given, for at most
     * `maxPages` pages; ends at a null cursor. @throws BadResponseError when a cursor repeats.
     */
    async *paginateVehicles(
      params: SearchParams,
      po: PageOptions,
    ): AsyncGenerator<VehiclePage, void, undefined> {
      const q = checkSearchParams(params);
      yield* paginate(
        '/vehicles',
        q.cursor,
        (cursor) => client.searchVehicles({ ...params, cursor }, po),
        po,
      );
    },

    /**
     * GET /vehicles/{slugVin} (spec "GET /vehicles/{slugVin}/history and GET /vehicles/{slugVin}"): the full record
     * of one vehicle by VIN, lot number or slug; prices in USD, odometer in miles, raw record kept.
     * @throws ApiInputError (slugVin), NotFoundError (404), ValidationError (422), other ApiError subclasses.
     */
    async getVehicle(slugVin: string, co?: CallOptions): Promise<VehicleDetail> {
      const id = checkSlugVin(slugVin);
      return getJson(
        '/vehicles/{slugVin}',
        `/vehicles/${encodeURIComponent(id)}`,
        {},
        parseVehicleDetail,
        co,
      );
    },

    /**
     * GET /vehicles/{slugVin}/history (per_page 1..20, cursor): sales of the vehicle, newest first, in either
     * shape the service sends (parse.ts parseHistory).
     */
    async getHistory(slugVin: string, params: HistoryParams = {}, co?: CallOptions): Promise<History> {
      const id = checkSlugVin(slugVin);
      const q = check(HistoryParamsSchema, params);
      return getJson(
        '/vehicles/{slugVin}/history',
        `/vehicles/${encodeURIComponent(id)}/history`,
        q,
        parseHistory,
        co,
      );
    },

    /** Pages of the history, like paginateVehicles. */
    async *paginateHistory(
      slugVin: string,
      params: HistoryParams,
      po: PageOptions,
    ): AsyncGenerator<History, void, undefined> {
      checkSlugVin(slugVin);
      const q = check(HistoryParamsSchema, params);
      const fetchPage = async (cursor: string | undefined) => {
        const h = await client.getHistory(slugVin, { ...params, cursor }, po);
        return { ...h, data: h.sales };
      };
      yield* paginate('/vehicles/{slugVin}/history', q.cursor, fetchPage, po);
    },

    /**
     * GET /vehicles/{slugVin}/related (spec "GET /vehicles/{slugVin}/related"): future lots of the same platform,
     * make and model, as a VehicleListResponse page. @throws ApiInputError (slugVin), ApiError subclasses.
     */
    async getRelated(slugVin: string, co?: CallOptions): Promise<VehiclePage> {
      const id = checkSlugVin(slugVin);
      return getJson(
        '/vehicles/{slugVin}/related',
        `/vehicles/${encodeURIComponent(id)}/related`,
        {},
        parseVehicleList,
        co,
      );
    },

    /**
     * GET /vehicles/filters (spec "Response envelopes": FiltersResponse): filter names mapped to their values
     * (shapes not specified; kept as received). @throws ApiError subclasses.
     */
    async getFilters(co?: CallOptions): Promise<ObjectData> {
      return getJson('/vehicles/filters', '/vehicles/filters', {}, parseObjectData, co);
    },

    /**
     * GET /vehicles/{slugVin}/shipping (spec "GET /vehicles/{slugVin}/shipping and GET /shipping/auction-to-port"):
     * prices (`price` in `currency`) to the given ports, sent comma-separated (all ports when omitted).
     * @throws ApiInputError (slugVin, ports), ApiError subclasses.
     */
    async getVehicleShipping(
      slugVin: string,
      q: { ports?: string[] } = {},
      co?: CallOptions,
    ): Promise<ShippingList> {
      const id = checkSlugVin(slugVin);
      const ports = checkPorts(q.ports);
      return getJson(
        '/vehicles/{slugVin}/shipping',
        `/vehicles/${encodeURIComponent(id)}/shipping`,
        { ports },
        parseShipping,
        co,
      );
    },

    /**
     * GET /shipping/auction-to-port: prices by vin and/or lot_number (one is required here, since a request with
     * neither can only fail and would cost quota). A VIN check-digit mismatch is a warning, not an error.
     */
    async getAuctionToPortShipping(
      q: { vin?: string; lot_number?: string; ports?: string[] },
      co?: CallOptions,
    ): Promise<ShippingList> {
      if (!q.vin && !q.lot_number) {
        const m = 'Give a VIN or a lot number.';
        throw new ApiInputError({ vin: [m], lot_number: [m] });
      }
      const v = q.vin ? checkVin(q.vin) : null;
      const lot = q.lot_number ? checkLotNumber(q.lot_number) : undefined;
      const ports = checkPorts(q.ports);
      return getJson(
        '/shipping/auction-to-port',
        '/shipping/auction-to-port',
        { vin: v?.vin, lot_number: lot, ports },
        parseShipping,
        co,
        v?.warnings ?? [],
      );
    },

    /**
     * GET /locations (spec "GET /locations: query parameters"): auction facilities (coordinates in degrees); radius
     * in `units` (service default mi). @throws ApiInputError naming each bad parameter, ApiError subclasses.
     */
    async listLocations(params: LocationParams = {}, co?: CallOptions): Promise<LocationPage> {
      const q = check(LocationParamsSchema, params);
      if (q.radius !== undefined && q.zip === undefined)
        throw new ApiInputError({ radius: ['Enter a ZIP code with the radius.'] });
      return getJson('/locations', '/locations', q, parseLocations, co);
    },

    /**
     * GET /vehicles/urltodetails (spec "GET /vehicles/urltodetails"): the vehicle of a Copart or IAAI lot page URL.
     * @throws ApiInputError (url, when not a lot page of the two platforms), ApiError subclasses.
     */
    async resolveUrl(url: string, co?: CallOptions): Promise<VehicleDetail> {
      const u = checkLotPageUrl(url);
      return getJson(
        '/vehicles/urltodetails',
        '/vehicles/urltodetails',
        { url: u.url },
        parseVehicleDetail,
        co,
      );
    },

    /**
     * GET /usage (spec "GET /usage"): usage and plan limits of the key (fields not specified; kept as received).
     * @throws UnauthorizedError (401), RateLimitedError (429), ServerError (500), other ApiError subclasses.
     */
    async getUsage(co?: CallOptions): Promise<ObjectData> {
      return getJson('/usage', '/usage', {}, parseObjectData, co);
    },

    /**
     * GET /image-proxy (spec "GET /image-proxy"): the image bytes and their content type, one of image/jpeg,
     * image/png or image/webp (the spec's three; the common alias image/jpg is read as image/jpeg). Any other
     * type, image/svg+xml included (it can carry script), is refused.
     * @throws ApiInputError when `url` is not an http(s) URL; BadRequestError (400: invalid image URL);
     *   NotFoundError (404: image not found); BadResponseError when the answer is not one of the three types;
     *   other ApiError subclasses.
     */
    async fetchImage(url: string, co?: CallOptions): Promise<{ bytes: Uint8Array; contentType: string }> {
      const u = checkImageUrl(url);
      const res = await send(
        t,
        '/image-proxy',
        `${baseUrl}/image-proxy${buildQuery({ url: u })}`,
        'image/*',
        co?.signal,
      );
      const given = res.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
      const ct = given === 'image/jpg' ? 'image/jpeg' : given;
      if (!IMAGE_TYPES.has(ct))
        throw new BadResponseError(
          '/image-proxy',
          `content type "${given || 'none'}" is not a JPEG, PNG or WebP image`,
          res.status,
        );
      return { bytes: res.body, contentType: ct };
    },

    /**
     * One video-platform endpoint (video spec "Endpoints"): `query` passed through as given (parameters are not
     * specified), JSON returned as parsed. Same key, errors, retries and quota tracking as the rest.
     */
    async callVideo(
      endpoint: VideoEndpoint,
      query: Readonly<Record<string, QueryValue>> = {},
      co?: CallOptions,
    ): Promise<{ data: JsonValue; status: number }> {
      const path = Object.hasOwn(VIDEO_ENDPOINTS, endpoint) ? VIDEO_ENDPOINTS[endpoint] : undefined;
      if (!path) throw new ApiInputError({ endpoint: ['Not a video-platform endpoint.'] });
      const bad = Object.entries(query).filter(
        ([k, v]) => !/^[A-Za-z0-9_.[\]-]{1,64}$/.test(k) || !isQueryValue(v),
      );
      if (bad.length)
        throw new ApiInputError(Object.fromEntries(bad.map(([k]) => [k, ['Not a valid query parameter.']])));
      const url = hostUrlOf(baseUrl) + path + buildQuery(query);
      const res = await send(t, path, url, 'application/json', co?.signal);
      return { data: decodeJson(path, res) as JsonValue, status: res.status };
    },

    /** Closes the pooled connections (only those of the client's own dispatcher). */
    async close(): Promise<void> {
      await ownDispatcher?.close();
    },
  };
  return client;
}

/** Content types of a GET /image-proxy success (spec "GET /image-proxy"). */
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp']);

function isQueryValue(v: unknown): boolean {
  const scalar = (x: unknown) =>
    typeof x === 'string' || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x));
  return (
    v === undefined || v === null || scalar(v) || (Array.isArray(v) && v.length <= 50 && v.every(scalar))
  );
}
