import { z } from 'zod';
import { stateWord, vehicleOutcome } from '../../shared/saleOutcome';
import type { AuctionLocation, CursorMeta, SaleRecord, ShippingPrice, Vehicle } from '../../shared/vehicle';
import { ANY_COUNT, ENGINE_HP, ENGINE_LITRES, LATITUDE, LONGITUDE, USD, modelYearBounds } from './bounds';
import { repairToValue } from '../../shared/estimates';
import {
  positiveOrNull,
  readIaaiFigures,
  readLotNumber,
  readOdometer,
  readPhotos,
  readTitleBrand,
  realNum,
  specOr,
  stateFromDisplay,
} from './fields';
import { isObj, kind, Reader } from './reader';

export { stateFromDisplay } from './fields';

/**
 * Tolerant parsers of the service's responses (spec "Resources and their fields",
 * docs/service-contract.md "Records"). A listed field of the wrong type is read as null, or converted where
 * unambiguous (an odometer object with `mi`, a numeric string), and a warning is counted. A number outside its
 * plausible range (bounds.ts: a year of 1e308, a negative price) is null with a warning. A page is never refused for
 * its records: a vehicle record without a usable lot number (1 to 12 digits) cannot be stored or checked again, so a
 * list leaves it out and counts it in `skipped`; every other record is kept. Only an envelope that is not the
 * documented shape (no `data` of the right kind) fails, as `{ ok: false, reason }`. No parser throws, for any JSON
 * value (property-tested).
 */

/** The specification's envelopes as zod schemas: the top level the parsers require; records are read leniently. */
export const WireSchemas = {
  list: z.looseObject({ data: z.array(z.unknown()), meta: z.unknown().optional() }),
  detail: z.looseObject({ data: z.record(z.string(), z.unknown()) }),
  history: z.looseObject({
    data: z.union([
      z.array(z.unknown()),
      // `history` read leniently below: null (no sales) or a wrong type must not refuse the page.
      z.looseObject({ vehicle: z.unknown().optional(), history: z.unknown().optional() }),
    ]),
    meta: z.unknown().optional(),
  }),
  shipping: z.looseObject({ data: z.array(z.unknown()) }),
  object: z.looseObject({ data: z.record(z.string(), z.unknown()) }),
  /**
   * spec "Error body shape": every field optional in practice (docs/service-contract.md "Error body"), read field by
   * field: one field of an unexpected type (a status sent as text, say) must not cost the message or the 422
   * `errors` map. `error` is the vendor OpenAPI's alternative to `message`.
   */
  error: z.looseObject({
    ok: z.boolean().nullish().catch(null),
    status: z.number().nullish().catch(null),
    message: z.string().nullish().catch(null),
    error: z.unknown().optional(),
    errors: z.unknown().optional(),
  }),
};

/** A parse outcome: the value plus human-readable warnings (`path: problem`), or the reason the envelope failed. */
export type Parsed<T> = { ok: true; value: T; warnings: string[] } | { ok: false; reason: string };

/** One page of a cursor-paginated list; `raw` is the whole body as received. */
export interface Page<T> {
  data: T[];
  /** Null when the body has no usable meta (docs/service-contract.md "Envelope, headers, errors": may be null). */
  meta: CursorMeta | null;
  raw: unknown;
  /** Records left out because they name no usable lot number (a vehicle list only; 0 otherwise). */
  skipped: number;
}

/** GET /vehicles/{slugVin}/history, in either shape the service sends. */
export interface HistoryPage {
  /** The vehicle, when the service wraps the history as `{ vehicle, history }`. */
  vehicle: Vehicle | null;
  /** Sales, newest first as received. */
  sales: SaleRecord[];
  /** Full Vehicle records, when the service sends the documented array of Vehicle. */
  records: Vehicle[];
  meta: CursorMeta | null;
  raw: unknown;
}

type Obj = Record<string, unknown>;

/**
 * Normalises one vehicle record (spec "Vehicle") from either dialect: each field is read from the specification's
 * path first, then from the real service's path (docs/service-contract.md "Records"). Fields a buyer decides on that
 * the specification does not list (title document with its export flag and IAAI's title brand, run condition, keys,
 * seller, engine, body style, secondary damage, estimated cost, IAAI's ACV and estimated repair cost from `details`,
 * shipping origin, yard) come from the real paths; repair to value is computed from the last two
 * (src/shared/estimates.ts). A field in neither dialect is null, never a guess; a sale price of 0 is "no price" (null).
 * Never throws; a non-object record gives a Vehicle with every
 * field null and a warning. Numbers outside their range (bounds.ts) are null with a warning; the model year's range
 * ends two years after `now`'s (ms since the epoch). `raw` is the input itself.
 */
export function normalizeVehicle(raw: unknown, w: string[], path = '', now: number = Date.now()): Vehicle {
  if (!isObj(raw)) w.push(`${path || 'record'}: expected an object, got ${kind(raw)}`);
  const r = new Reader(isObj(raw) ? raw : {}, path, w);
  const a = r.sub('auction');
  const p = r.sub('pricing');
  const l = r.sub('location');
  const m = r.sub('media');
  const cond = r.sub('condition');
  const specs = r.sub('vehicle_specs');
  const engine = specs.sub('engine');
  const doc = r.sub('sale_document');
  const seller = r.sub('seller');
  const fac = r.sub('facility');
  const est = p.sub('estimated_cost');
  // IAAI's `details`, read once (a wrong type is one warning): its own figures (docs/service-contract.md "The
  // estimates in the normalised record") and title brand; Copart records carry none.
  const details = r.sub('details');
  const { acv_usd: acv, est_repair_usd: repair } = readIaaiFigures(details);
  const run = cond.get('run_condition');
  const runR = isObj(run) ? cond.sub('run_condition') : null;
  let platform = r.str('platform');
  if (platform === null) {
    const id = r.get('platform_id');
    if (id === 1 || id === 2) platform = id === 1 ? 'copart' : 'iaai';
  }
  const display = l.str('display');
  // The real service's last_sold_price_usd is this lot's price only once the lot is over: an open lot has none.
  const state = a.str('state');
  const openNow = ['open', 'live'].includes(stateWord(state));
  const salePrice = p.num('sale_price_usd', USD) ?? (openNow ? null : p.num('last_sold_price_usd', USD));
  const auctionAt = a.str('auction_at') ?? a.str('full_date') ?? r.str('ad');
  return {
    platform,
    lot_number: readLotNumber(r),
    vin: r.str('vin'),
    title: r.str('title'),
    year: r.num('year', modelYearBounds(now)),
    make: r.str('make'),
    model: r.str('model'),
    type: r.str('type'),
    color: r.str('color') ?? specs.str('exterior_color'),
    fuel_type: r.str('fuel_type') ?? specs.str('fuel_type'),
    transmission: r.str('transmission') ?? specs.str('transmission'),
    drive_type: r.str('drive_type') ?? specs.str('drive_type'),
    odometer: readOdometer(r),
    damage: r.str('damage') ?? cond.str('primary_damage'),
    secondary_damage: cond.str('secondary_damage'),
    body_style: specs.str('body_style'),
    engine: {
      raw: engine.str('raw'),
      size_l: realNum(engine, 'size_l', ENGINE_LITRES),
      hp: realNum(engine, 'hp', ENGINE_HP),
    },
    run_condition: runR ? runR.str('value') : cond.str('run_condition'),
    run_condition_label: runR ? runR.str('label') : null,
    has_key: cond.bool('has_key'),
    title_document: {
      name: doc.str('name'),
      group: doc.str('sale_document_group'),
      export: doc.bool('export'),
      brand: readTitleBrand(details),
    },
    seller: { name: seller.str('name'), type: seller.str('type') },
    yard: {
      id: specOr(null, fac, 'id'),
      name: fac.str('office_name') ?? fac.str('name'),
      zip: specOr(null, fac, 'zip'),
      latitude: realNum(fac, 'lat', LATITUDE),
      longitude: realNum(fac, 'lng', LONGITUDE),
    },
    auction: {
      state,
      auction_at: auctionAt,
      lot_status: a.str('lot_status'),
      lot_sub_status: a.str('lot_sub_status'),
      last_sold_status: a.str('last_sold_status'),
      last_sold_day: a.str('last_sold_day'),
      is_buy_now: a.bool('is_buy_now'),
    },
    pricing: {
      current_bid_usd: p.num('current_bid_usd', USD),
      // The real service sends 0 when no buy now is offered: a buy now price of $0 does not exist.
      buy_now_usd: positiveOrNull(p.num('buy_now_usd', USD)),
      // last_sold_price_usd is 0 when nothing was paid, which is no price, not "$0"
      // (docs/service-contract.md "Records").
      sale_price_usd: salePrice === 0 ? null : salePrice,
      estimated_cost_from_usd: realNum(est, 'from', USD),
      estimated_cost_to_usd: realNum(est, 'to', USD),
      acv_usd: acv,
      est_repair_usd: repair,
      repair_to_value: repairToValue(acv, repair),
    },
    location: {
      display,
      state: l.str('state') ?? stateFromDisplay(display),
      facility_id: specOr(l.str('facility_id'), fac, 'id'),
      ship_from: l.str('send_from'),
    },
    media: {
      thumbs_count: m.num('thumbs_count', ANY_COUNT),
      has_360: m.bool('has_360'),
      photos: readPhotos(isObj(raw) ? raw.media : undefined, w, path),
    },
    raw,
  };
}

/**
 * spec "CursorMeta"; null when meta is absent or not an object (a real `meta` may be null:
 * docs/service-contract.md "Envelope, headers, errors").
 */
export function normalizeMeta(raw: unknown, w: string[]): CursorMeta | null {
  if (raw === undefined || raw === null) return null;
  if (!isObj(raw)) {
    w.push(`meta: expected an object, got ${kind(raw)}`);
    return null;
  }
  const r = new Reader(raw, 'meta.', w);
  return {
    per_page: r.num('per_page', ANY_COUNT),
    next_cursor: r.str('next_cursor'),
    prev_cursor: r.str('prev_cursor'),
  };
}

/** spec "AuctionLocation". */
export function normalizeLocation(raw: unknown, w: string[], path = ''): AuctionLocation {
  if (!isObj(raw)) w.push(`${path || 'record'}: expected an object, got ${kind(raw)}`);
  const r = new Reader(isObj(raw) ? raw : {}, path, w);
  return {
    platform: r.str('platform'),
    facility_id: r.str('facility_id'),
    name: r.str('name'),
    city: r.str('city'),
    state: r.str('state'),
    zip: r.str('zip'),
    latitude: r.num('latitude', LATITUDE),
    longitude: r.num('longitude', LONGITUDE),
    raw,
  };
}

/** spec "ShippingPrice". */
export function normalizeShipping(raw: unknown, w: string[], path = ''): ShippingPrice {
  if (!isObj(raw)) w.push(`${path || 'record'}: expected an object, got ${kind(raw)}`);
  const r = new Reader(isObj(raw) ? raw : {}, path, w);
  return { port: r.str('port'), price: r.num('price', USD), currency: r.str('currency'), raw };
}

/** One sale of `{ vehicle, history: [{ platform, date, price, status }] }` (docs/service-contract.md "History"). */
export function normalizeSale(raw: unknown, w: string[], path = ''): SaleRecord {
  if (!isObj(raw)) w.push(`${path || 'record'}: expected an object, got ${kind(raw)}`);
  const r = new Reader(isObj(raw) ? raw : {}, path, w);
  return {
    platform: r.str('platform'),
    lot_number: readLotNumber(r),
    date: r.str('date'),
    price: r.num('price', USD),
    status: r.str('status'),
    raw,
  };
}

/**
 * A list envelope read record by record. `keep` (when given) decides which normalised records stay; each left out is
 * counted in `skipped` with a warning naming its position (`data[3]: record skipped: ...`).
 */
function list<T>(
  body: unknown,
  item: (raw: unknown, w: string[], path: string) => T,
  withMeta: boolean,
  keep?: (value: T) => boolean,
): Parsed<Page<T>> {
  const env = WireSchemas.list.safeParse(body);
  if (!env.success) return { ok: false, reason: envelopeProblem(body) };
  const w: string[] = [];
  const data: T[] = [];
  let skipped = 0;
  env.data.data.forEach((rec, i) => {
    const v = item(rec, w, `data[${i}].`);
    if (!keep || keep(v)) return void data.push(v);
    skipped++;
    w.push(`data[${i}]: record skipped: no lot number Lotwatch can store`);
  });
  const meta = withMeta ? normalizeMeta(env.data.meta, w) : null;
  if (withMeta && env.data.meta === undefined) w.push('meta: missing');
  return { ok: true, value: { data, meta, raw: body, skipped }, warnings: w };
}

function envelopeProblem(body: unknown): string {
  if (!isObj(body)) return `expected a JSON object, got ${kind(body)}`;
  if (!('data' in body)) return 'no data in the response';
  return `data is ${kind(body.data)}, not the documented shape`;
}

/**
 * VehicleListResponse (GET /vehicles, /vehicles/{slugVin}/related). A record without a usable lot number is left
 * out and counted in `skipped`. `now` (ms since the epoch) bounds the model year (bounds.ts modelYearBounds).
 */
export function parseVehicleList(body: unknown, now: number = Date.now()): Parsed<Page<Vehicle>> {
  return list(
    body,
    (raw, w, path) => normalizeVehicle(raw, w, path, now),
    true,
    (v) => v.lot_number !== null,
  );
}

/** LocationsResponse (GET /locations). */
export function parseLocations(body: unknown): Parsed<Page<AuctionLocation>> {
  return list(body, normalizeLocation, true);
}

/** ShippingResponse (GET /vehicles/{slugVin}/shipping, /shipping/auction-to-port). */
export function parseShipping(body: unknown): Parsed<{ data: ShippingPrice[]; raw: unknown }> {
  const r = list(body, normalizeShipping, false);
  return r.ok ? { ok: true, value: { data: r.value.data, raw: body }, warnings: r.warnings } : r;
}

/**
 * VehicleDetailsResponse (GET /vehicles/{slugVin}, /vehicles/urltodetails). The one record is always returned; its
 * `lot_number` is null when the service sent none Lotwatch can use (the caller decides). `now` as parseVehicleList.
 */
export function parseVehicleDetail(
  body: unknown,
  now: number = Date.now(),
): Parsed<{ data: Vehicle; raw: unknown }> {
  const env = WireSchemas.detail.safeParse(body);
  if (!env.success) return { ok: false, reason: envelopeProblem(body) };
  const w: string[] = [];
  // The original object, not zod's copy, so `raw` is the record exactly as received.
  const rec = (body as Obj).data;
  return { ok: true, value: { data: normalizeVehicle(rec, w, 'data.', now), raw: body }, warnings: w };
}

/** The status text of a sale derived from a whole record: "Sold", "Sold on Approval", "Not Sold", or null. */
function historyStatus(v: Vehicle): string | null {
  const o = vehicleOutcome(v);
  return o === 'sold'
    ? 'Sold'
    : o === 'sold_on_approval'
      ? 'Sold on Approval'
      : o === 'ended_unsold'
        ? 'Not Sold'
        : null;
}

/**
 * VehicleHistoryResponse: the documented `data: Vehicle[]` with CursorMeta, or the observed
 * `data: { vehicle, history: [...] }`. With the documented shape, `sales` is derived from each record
 * (auction_at, sale price, lot sub-status) so callers can use one list either way. `now` as parseVehicleList.
 */
export function parseHistory(body: unknown, now: number = Date.now()): Parsed<HistoryPage> {
  const env = WireSchemas.history.safeParse(body);
  if (!env.success) return { ok: false, reason: envelopeProblem(body) };
  const w: string[] = [];
  const meta = normalizeMeta(env.data.meta, w);
  const d = env.data.data;
  if (Array.isArray(d)) {
    const records = d.map((rec, i) => normalizeVehicle(rec, w, `data[${i}].`, now));
    const sales = records.map((v) => ({
      platform: v.platform,
      lot_number: v.lot_number,
      date: v.auction.auction_at,
      price: v.pricing.sale_price_usd,
      // A specification-shaped history record carries no sale status text: say its outcome in the real wording.
      status: historyStatus(v),
      raw: v.raw,
    }));
    return { ok: true, value: { vehicle: null, sales, records, meta, raw: body }, warnings: w };
  }
  const vehicle =
    d.vehicle === undefined || d.vehicle === null
      ? null
      : normalizeVehicle(d.vehicle, w, 'data.vehicle.', now);
  const h = d.history;
  if (h !== undefined && h !== null && !Array.isArray(h))
    w.push(`data.history: expected a list, got ${kind(h)}`);
  const sales = (Array.isArray(h) ? h : []).map((s, i) => normalizeSale(s, w, `data.history[${i}].`));
  return { ok: true, value: { vehicle, sales, records: [], meta, raw: body }, warnings: w };
}

/** FiltersResponse / UsageResponse: `data` is an object whose contents the spec does not list; kept as is. */
export function parseObjectData(body: unknown): Parsed<{ data: Record<string, unknown>; raw: unknown }> {
  const env = WireSchemas.object.safeParse(body);
  if (!env.success) return { ok: false, reason: envelopeProblem(body) };
  return {
    ok: true,
    value: { data: (body as { data: Record<string, unknown> }).data, raw: body },
    warnings: [],
  };
}

/**
 * The error body (spec "Errors", "Error body shape"): the message (else the OpenAPI's `error` text) and the 422
 * `errors` map (field -> messages), each kept when readable even if other fields are not. Never throws.
 */
export function parseErrorBody(body: unknown): { message: string | null; fields: Record<string, string[]> } {
  const r = WireSchemas.error.safeParse(body);
  const fields: Record<string, string[]> = {};
  if (!r.success) return { message: null, fields };
  const errs = r.data.errors;
  if (isObj(errs)) {
    for (const [k, v] of Object.entries(errs)) {
      const msgs = (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
      if (msgs.length) fields[k] = msgs;
    }
  }
  const alt = r.data.error;
  const message =
    r.data.message ??
    (typeof alt === 'string' ? alt : isObj(alt) && typeof alt.message === 'string' ? alt.message : null);
  return { message, fields };
}
