import { z } from 'zod';
import { stateWord, vehicleOutcome } from '../../shared/saleOutcome';
import type { AuctionLocation, CursorMeta, SaleRecord, ShippingPrice, Vehicle } from '../../shared/vehicle';
import { isObj, kind, Reader } from './reader';

/**
 * Tolerant parsers of the service's responses (spec "Resources and their fields",
 * docs/service-contract.md "Records"). A listed field of the wrong type is read as null, or converted where
 * unambiguous (an odometer object with `mi`, a numeric string), and a warning is counted; a record is never dropped
 * and a page never refused for its records. Only an envelope that is not the documented shape (no `data` of the
 * right kind) fails, as `{ ok: false, reason }`. No parser throws, for any JSON value (property-tested).
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
 * An odometer reading in miles: the specification's number (or numeric text), or the real service's `{ mi, km }`
 * (docs/service-contract.md "Records"). The real object is the service's normal dialect and reads silently; an
 * object with only `km` is converted to miles with a warning.
 */
function readOdometer(r: Reader): number | null {
  const v = r.get('odometer');
  if (isObj(v)) {
    if (v.mi !== undefined && v.mi !== null) return r.numOf('odometer.mi', v.mi);
    if (v.km === undefined || v.km === null) {
      r.warn('odometer', 'object without mi or km read as null');
      return null;
    }
    r.warn('odometer', 'object read as its km value converted to miles');
    const km = r.numOf('odometer.km', v.km);
    return km === null ? null : Math.round(km / 1.609344);
  }
  return r.num('odometer');
}

/** Photo URLs: media.photos, else the large/url of media.items of type image, else media.thumbs. */
function readPhotos(raw: unknown, w: string[], path: string): string[] {
  const m = isObj(raw) ? raw : {};
  const strings = (a: unknown): string[] =>
    Array.isArray(a) ? a.filter((x): x is string => typeof x === 'string') : [];
  if (m.photos !== undefined && m.photos !== null) {
    if (!Array.isArray(m.photos)) {
      w.push(`${path}media.photos: expected a list, got ${kind(m.photos)}`);
    } else {
      const p = strings(m.photos);
      if (p.length !== m.photos.length) w.push(`${path}media.photos: non-text entries skipped`);
      return p;
    }
  }
  if (Array.isArray(m.items)) {
    const out: string[] = [];
    for (const it of m.items) {
      if (!isObj(it) || (it.type !== undefined && it.type !== 'image')) continue;
      const u = [it.large, it.url, it.thumb].find((x) => typeof x === 'string');
      if (typeof u === 'string') out.push(u);
    }
    if (out.length) return out;
  }
  return strings(m.thumbs);
}

/** 0 (or a negative amount) as null: the real service's way of saying "none" for a price. */
function positiveOrNull(n: number | null): number | null {
  return n !== null && n > 0 ? n : null;
}

/** The state code inside a display such as "Boston - Shirley (MA)"; null when there is none. */
export function stateFromDisplay(display: string | null): string | null {
  const m = display === null ? null : /\(([A-Z]{2})\)\s*$/.exec(display.trim());
  return m ? (m[1] as string) : null;
}

/**
 * Text from the specification's field, else from the real service's path. The real path's own types are its
 * dialect (a numeric `facility.id`, for instance), so a number there reads as text without a warning.
 */
function specOr(spec: string | null, real: Reader, key: string): string | null {
  if (spec !== null) return spec;
  const v = real.get(key);
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return real.str(key);
}

/** A number from the real dialect, where amounts and sizes may come as text ("3.0"); blank text is null. */
function realNum(r: Reader, key: string): number | null {
  const v = r.get(key);
  if (typeof v === 'string') {
    const t = v.trim().replace(/\s*l$/i, '');
    if (t === '') return null;
    if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  }
  return r.num(key);
}

/**
 * Normalises one vehicle record (spec "Vehicle") from either dialect: each field is read from the specification's
 * path first, then from the real service's path (docs/service-contract.md "Records"). Fields a buyer decides on that
 * the specification does not list (title document, run condition, keys, seller, engine, body style, secondary
 * damage, estimated cost, shipping origin, yard) come from the real paths. A field in neither dialect is null, never
 * a guess; a sale price of 0 is "no price" (null). Never throws; a non-object record gives a Vehicle with every
 * field null and a warning. `raw` is the input itself.
 */
export function normalizeVehicle(raw: unknown, w: string[], path = ''): Vehicle {
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
  const salePrice = p.num('sale_price_usd') ?? (openNow ? null : p.num('last_sold_price_usd'));
  const auctionAt = a.str('auction_at') ?? a.str('full_date') ?? r.str('ad');
  return {
    platform,
    lot_number: r.str('lot_number'),
    vin: r.str('vin'),
    title: r.str('title'),
    year: r.num('year', true),
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
    engine: { raw: engine.str('raw'), size_l: realNum(engine, 'size_l'), hp: realNum(engine, 'hp') },
    run_condition: runR ? runR.str('value') : cond.str('run_condition'),
    run_condition_label: runR ? runR.str('label') : null,
    has_key: cond.bool('has_key'),
    title_document: { name: doc.str('name'), group: doc.str('sale_document_group') },
    seller: { name: seller.str('name'), type: seller.str('type') },
    yard: {
      id: specOr(null, fac, 'id'),
      name: fac.str('office_name') ?? fac.str('name'),
      zip: specOr(null, fac, 'zip'),
      latitude: realNum(fac, 'lat'),
      longitude: realNum(fac, 'lng'),
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
      current_bid_usd: p.num('current_bid_usd'),
      // The real service sends 0 when no buy now is offered: a buy now price of $0 does not exist.
      buy_now_usd: positiveOrNull(p.num('buy_now_usd')),
      // last_sold_price_usd is 0 when nothing was paid, which is no price, not "$0"
      // (docs/service-contract.md "Records").
      sale_price_usd: salePrice === 0 ? null : salePrice,
      estimated_cost_from_usd: realNum(est, 'from'),
      estimated_cost_to_usd: realNum(est, 'to'),
    },
    location: {
      display,
      state: l.str('state') ?? stateFromDisplay(display),
      facility_id: specOr(l.str('facility_id'), fac, 'id'),
      ship_from: l.str('send_from'),
    },
    media: {
      thumbs_count: m.num('thumbs_count', true),
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
    per_page: r.num('per_page', true),
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
    latitude: r.num('latitude'),
    longitude: r.num('longitude'),
    raw,
  };
}

/** spec "ShippingPrice". */
export function normalizeShipping(raw: unknown, w: string[], path = ''): ShippingPrice {
  if (!isObj(raw)) w.push(`${path || 'record'}: expected an object, got ${kind(raw)}`);
  const r = new Reader(isObj(raw) ? raw : {}, path, w);
  return { port: r.str('port'), price: r.num('price'), currency: r.str('currency'), raw };
}

/** One sale of `{ vehicle, history: [{ platform, date, price, status }] }` (docs/service-contract.md "History"). */
export function normalizeSale(raw: unknown, w: string[], path = ''): SaleRecord {
  if (!isObj(raw)) w.push(`${path || 'record'}: expected an object, got ${kind(raw)}`);
  const r = new Reader(isObj(raw) ? raw : {}, path, w);
  return {
    platform: r.str('platform'),
    lot_number: r.str('lot_number'),
    date: r.str('date'),
    price: r.num('price'),
    status: r.str('status'),
    raw,
  };
}

function list<T>(
  body: unknown,
  item: (raw: unknown, w: string[], path: string) => T,
  withMeta: boolean,
): Parsed<Page<T>> {
  const env = WireSchemas.list.safeParse(body);
  if (!env.success) return { ok: false, reason: envelopeProblem(body) };
  const w: string[] = [];
  const data = env.data.data.map((rec, i) => item(rec, w, `data[${i}].`));
  const meta = withMeta ? normalizeMeta(env.data.meta, w) : null;
  if (withMeta && env.data.meta === undefined) w.push('meta: missing');
  return { ok: true, value: { data, meta, raw: body }, warnings: w };
}

function envelopeProblem(body: unknown): string {
  if (!isObj(body)) return `expected a JSON object, got ${kind(body)}`;
  if (!('data' in body)) return 'no data in the response';
  return `data is ${kind(body.data)}, not the documented shape`;
}

/** VehicleListResponse (GET /vehicles, /vehicles/{slugVin}/related). */
export function parseVehicleList(body: unknown): Parsed<Page<Vehicle>> {
  return list(body, normalizeVehicle, true);
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

/** VehicleDetailsResponse (GET /vehicles/{slugVin}, /vehicles/urltodetails). */
export function parseVehicleDetail(body: unknown): Parsed<{ data: Vehicle; raw: unknown }> {
  const env = WireSchemas.detail.safeParse(body);
  if (!env.success) return { ok: false, reason: envelopeProblem(body) };
  const w: string[] = [];
  // The original object, not zod's copy, so `raw` is the record exactly as received.
  const rec = (body as Obj).data;
  return { ok: true, value: { data: normalizeVehicle(rec, w, 'data.'), raw: body }, warnings: w };
}

/** The status text of a sale derived from a whole record: "Sold", "Sold on Approval", "Not Sold", or null. */
function historyStatus(v: Vehicle): string | null {
  const o = vehicleOutcome(v);
  return o === 'sold' ? 'Sold' : o === 'sold_on_approval' ? 'Sold on Approval' : o === 'ended_unsold' ? 'Not Sold' : null;
}

/**
 * VehicleHistoryResponse: the documented `data: Vehicle[]` with CursorMeta, or the observed
 * `data: { vehicle, history: [...] }`. With the documented shape, `sales` is derived from each record
 * (auction_at, sale price, lot sub-status) so callers can use one list either way.
 */
export function parseHistory(body: unknown): Parsed<HistoryPage> {
  const env = WireSchemas.history.safeParse(body);
  if (!env.success) return { ok: false, reason: envelopeProblem(body) };
  const w: string[] = [];
  const meta = normalizeMeta(env.data.meta, w);
  const d = env.data.data;
  if (Array.isArray(d)) {
    const records = d.map((rec, i) => normalizeVehicle(rec, w, `data[${i}].`));
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
    d.vehicle === undefined || d.vehicle === null ? null : normalizeVehicle(d.vehicle, w, 'data.vehicle.');
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
