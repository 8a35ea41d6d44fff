import type { ApiClient } from '../api';
import { VIDEO_ENDPOINTS, type VideoEndpoint } from '../api/video';
import {
  check,
  HistoryParamsSchema,
  LocationParamsSchema,
  SearchParamsSchema,
  type QueryValue,
} from '../api/validate';
import type { RequestsRepo } from '../db/requestsRepo';
import type { Async } from '../db/async';
import { LotwatchError } from '../errors';
import type { MethodInput, MethodOutput } from '../../shared/ipc/contract';
import { SEARCH_PARAM_NAMES, SEARCH_PARAMS } from '../../shared/vehicleParams';

/** The vehicle-auction endpoints the API console offers (spec "Endpoints: Summary"). */
/** The video-platform endpoints' names in the console start so (`GET /api/v1/vp/channel/videos`). */
export const VIDEO_ENDPOINT_PREFIX = 'GET /api/v1/vp/';

const VA_ENDPOINTS: MethodOutput<'console.endpoints'> = [
  {
    name: 'GET /vehicles',
    group: 'vehicle-auction',
    path_params: [],
    query_params: [...SEARCH_PARAM_NAMES],
    description: 'Search auction vehicles with filters and cursor pagination.',
  },
  {
    name: 'GET /vehicles/{slugVin}',
    group: 'vehicle-auction',
    path_params: ['slugVin'],
    query_params: [],
    description: 'One vehicle by VIN or lot number.',
  },
  {
    name: 'GET /vehicles/{slugVin}/history',
    group: 'vehicle-auction',
    path_params: ['slugVin'],
    query_params: ['per_page', 'cursor'],
    description: 'Auction (sale) history of a vehicle.',
  },
  {
    name: 'GET /vehicles/{slugVin}/related',
    group: 'vehicle-auction',
    path_params: ['slugVin'],
    query_params: [],
    description: 'Future lots of the same platform, make and model.',
  },
  {
    name: 'GET /vehicles/filters',
    group: 'vehicle-auction',
    path_params: [],
    query_params: [],
    description: 'Filter metadata for a search interface.',
  },
  {
    name: 'GET /vehicles/{slugVin}/shipping',
    group: 'vehicle-auction',
    path_params: ['slugVin'],
    query_params: ['ports'],
    description: 'Shipping prices to destination ports.',
  },
  {
    name: 'GET /locations',
    group: 'vehicle-auction',
    path_params: [],
    query_params: ['platform', 'state', 'facility_id', 'q', 'zip', 'radius', 'units', 'per_page'],
    description: 'Auction facilities and locations.',
  },
  {
    name: 'GET /shipping/auction-to-port',
    group: 'vehicle-auction',
    path_params: [],
    query_params: ['vin', 'lot_number', 'ports'],
    description: 'Auction-to-port shipping prices.',
  },
  {
    name: 'GET /vehicles/urltodetails',
    group: 'vehicle-auction',
    path_params: [],
    query_params: ['url'],
    description: 'Vehicle details from a lot page URL.',
  },
  {
    name: 'GET /usage',
    group: 'vehicle-auction',
    path_params: [],
    query_params: [],
    description: 'Usage and plan limits of the key.',
  },
  {
    name: 'GET /image-proxy',
    group: 'vehicle-auction',
    path_params: [],
    query_params: ['url'],
    description: 'Proxy of an auction vehicle image.',
  },
];

const MULTI = new Set<string>(SEARCH_PARAMS.filter((p) => p.multi).map((p) => p.name));
const NUMERIC = /^(price_|year_|odometer_|engine_|radius$|per_page$|auction_type$|cylinders$)/;

/** Turns console form strings into typed query values: numbers where the spec says number, booleans, lists. */
function coerce(query: Record<string, string | string[]>): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const [k, raw] of Object.entries(query)) {
    const list = (Array.isArray(raw) ? raw : [raw]).map((v) => v.trim()).filter((v) => v !== '');
    if (list.length === 0) continue;
    const conv = (v: string) =>
      NUMERIC.test(k) && /^-?\d+(\.\d+)?$/.test(v)
        ? Number(v)
        : v === 'true'
          ? true
          : v === 'false'
            ? false
            : v;
    out[k] = MULTI.has(k) ? list.map(conv) : conv(list[0]!);
  }
  return out;
}

/** One console call as typed: the endpoint's console name, its path parameters and its query (form strings). */
export interface ConsoleCall {
  name: string;
  path?: Record<string, string> | undefined;
  query?: Record<string, string | string[]> | undefined;
}

/**
 * Sends one console call through the client, exactly as the API console sends it (parameters the buyer typed are
 * sent as typed, numbers and booleans read where the vehicle-auction specification says so): the one dispatch from
 * an endpoint name to a client call, shared by the console and call watches (src/core/calls).
 * @returns the HTTP status and the JSON as received (an image's type and size for GET /image-proxy).
 * @throws ApiInputError / LotwatchError `bad_input` for bad input or an unknown endpoint (no request), ApiError.
 */
export async function sendConsoleCall(
  c: ApiClient,
  i: ConsoleCall,
): Promise<{ status: number; json: unknown }> {
  const q = coerce(i.query ?? {});
  const path = i.path ?? {};
  const slug = path['slugVin'] ?? '';
  let json: unknown;
  let status = 200;
  switch (i.name) {
    case 'GET /vehicles':
      json = (await c.searchVehicles(check(SearchParamsSchema, q))).raw;
      break;
    case 'GET /vehicles/{slugVin}':
      json = (await c.getVehicle(slug)).raw;
      break;
    case 'GET /vehicles/{slugVin}/history':
      json = (await c.getHistory(slug, check(HistoryParamsSchema, q))).raw;
      break;
    case 'GET /vehicles/{slugVin}/related':
      json = (await c.getRelated(slug)).raw;
      break;
    case 'GET /vehicles/filters':
      json = (await c.getFilters()).raw;
      break;
    case 'GET /vehicles/{slugVin}/shipping':
      json = (
        await c.getVehicleShipping(
          slug,
          typeof q['ports'] === 'string' ? { ports: String(q['ports']).split(',') } : {},
        )
      ).raw;
      break;
    case 'GET /locations':
      json = (await c.listLocations(check(LocationParamsSchema, q))).raw;
      break;
    case 'GET /shipping/auction-to-port':
      json = (
        await c.getAuctionToPortShipping({
          ...(q['vin'] ? { vin: String(q['vin']) } : {}),
          ...(q['lot_number'] !== undefined ? { lot_number: String(q['lot_number']) } : {}),
          ...(typeof q['ports'] === 'string' ? { ports: String(q['ports']).split(',') } : {}),
        })
      ).raw;
      break;
    case 'GET /vehicles/urltodetails':
      json = (await c.resolveUrl(String(q['url'] ?? ''))).raw;
      break;
    case 'GET /usage':
      json = (await c.getUsage()).raw;
      break;
    case 'GET /image-proxy': {
      const img = await c.fetchImage(String(q['url'] ?? ''));
      json = { content_type: img.contentType, bytes: img.bytes.length };
      break;
    }
    default: {
      const m = /^GET \/api\/v1\/vp\/(.+)$/.exec(i.name);
      const ep = m?.[1] as VideoEndpoint | undefined;
      if (!ep || !Object.hasOwn(VIDEO_ENDPOINTS, ep)) {
        throw new LotwatchError('bad_input', `There is no endpoint "${i.name}".`, {
          fields: { name: ['Choose an endpoint from the list.'] },
        });
      }
      const r = await c.callVideo(ep, q);
      json = r.data;
      status = r.status;
    }
  }
  return { status, json };
}

/**
 * The API console: any endpoint of either specification called with the form's values, answered with the JSON as
 * received, the time it took and the requests it spent, so a user can see exactly what the service says.
 */
export class ApiConsole {
  constructor(
    /** Counts the requests a call spent (before and after). */
    private readonly requests: Pick<Async<RequestsRepo>, 'count'>,
    /** The client, or the one "no key" error (src/core/api/clientOrThrow.ts). */
    private readonly requireClient: () => ApiClient,
  ) {}

  /** The endpoints the API console offers: the vehicle-auction ones, then the video-platform ones. */
  endpoints(): MethodOutput<'console.endpoints'> {
    const vp = (Object.keys(VIDEO_ENDPOINTS) as VideoEndpoint[]).map((k) => ({
      name: `${VIDEO_ENDPOINT_PREFIX}${k}`,
      group: 'video-platform' as const,
      path_params: [],
      query_params: [],
      description: 'Video-platform data (parameters not listed in the specification).',
    }));
    return [...VA_ENDPOINTS, ...vp];
  }

  /**
   * Calls one endpoint of either specification with the console's form values and returns the JSON as received,
   * the time it took, and the requests it spent. @throws ApiInputError for bad input (no request), ApiError.
   */
  async call(i: MethodInput<'console.call'>): Promise<MethodOutput<'console.call'>> {
    const c = this.requireClient();
    const before = await this.requests.count();
    const t0 = performance.now();
    const { status, json } = await sendConsoleCall(c, { name: i.name, path: i.path, query: i.query });
    const after = await this.requests.count();
    return {
      status,
      json,
      duration_ms: Math.round(performance.now() - t0),
      requests: after - before,
      remaining: c.quota()?.remaining ?? null,
    };
  }
}
