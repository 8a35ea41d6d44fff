import { BadCursor, decodeCursor, paginate, type Cursor } from './cursor';
import { filtersBody } from './filters';
import { PORTS, facilitiesNearZip, shippingPrices, type Facility } from './geo';
import { compareLots, type Lot, type Market } from './market';
import type { MarketReader } from './refresh';
import { historyRow, realRecord } from './realShape';
import { parseSqlTime, slugVin, specRecord, sqlTime, type WireShape } from './records';
import { HttpError, Validator, type RawQuery } from './validate';

/**
 * Handlers of the vehicle-auction endpoints (spec "Endpoints"), as functions from a parsed request to a JSON body.
 * They throw HttpError for 4xx answers. Decisions the spec leaves open are stated where they are made.
 */

export interface ApiContext {
  /** What the service answers from: the market, or its copy as of each lot's last refresh (refresh.ts). */
  market: MarketReader;
  seed: number;
  /** Largest per_page accepted on /vehicles (X-Per-Page-Limit); locations stay at 20; history: see vehicleHistory. */
  perPageLimit: number;
  /** The wire dialect of this answer: the real service's shapes (default) or the specification's. */
  shape: WireShape;
}

type Body = Record<string, unknown>;

const VEHICLE_COLS = {
  'vehicles.ad': 'string',
  'vehicles.updated_at': 'string',
  'vehicles.id': 'number',
} as const;
const HISTORY_COLS = { 'vehicles.ad': 'string', 'vehicles.id': 'number' } as const;
const LOCATION_COLS = { 'auction_locations.id': 'number' } as const;
const CURSOR_MSG = 'The cursor field format is invalid.';
/**
 * The widest auction_date_from..auction_date_to range, in days, an Ended search answers; a wider one gets the real
 * service's upstream failure (UpstreamFailure). The sandbox's stand-in for a real fact: a wide date range on an
 * Ended search once answered the real 502. Where the real limit lies is not known, so a client asks narrow (a make,
 * a model, a few years) and pages.
 */
export const ENDED_MAX_RANGE_DAYS = 90;

/** The real service's upstream failure: HTTP 502 `{"ok": false, "message": "Vehicle API request failed."}`. */
export class UpstreamFailure extends HttpError {
  constructor() {
    super(502, 'Vehicle API request failed.');
  }
  override body(): Record<string, unknown> {
    return { ok: false, message: this.message };
  }
}

/** Laravel's `zip` without `radius`: the sandbox searches this many units around it (the spec leaves it open). */
export const DEFAULT_RADIUS = 50;

function readCursor(v: Validator, cols: Record<string, 'string' | 'number'>): Cursor | null {
  const raw = v.raw('cursor');
  if (raw === undefined) return null;
  try {
    const c = decodeCursor(raw, cols);
    for (const [name, type] of Object.entries(cols)) {
      if (type === 'string' && Number.isNaN(parseSqlTime(c.keys[name] as string))) throw new BadCursor(name);
    }
    return c;
  } catch (e) {
    if (!(e instanceof BadCursor)) throw e;
    v.fail('cursor', CURSOR_MSG);
    return null;
  }
}

const lotKey = (l: Lot): Record<string, string | number> => ({
  'vehicles.ad': sqlTime(l.auctionAt),
  'vehicles.updated_at': sqlTime(l.updatedAt),
  'vehicles.id': l.id,
});

function lotVsCursor(l: Lot, c: Cursor): number {
  return (
    l.auctionAt - parseSqlTime(c.keys['vehicles.ad'] as string) ||
    l.updatedAt - parseSqlTime(c.keys['vehicles.updated_at'] as string) ||
    l.id - (c.keys['vehicles.id'] as number)
  );
}

function record(ctx: ApiContext, lot: Lot, detail = false): Body {
  if (ctx.shape === 'real') return realRecord(lot, ctx.seed, ctx.market.now);
  return specRecord(lot, { seed: ctx.seed, detail });
}

const ciEq = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * GET /vehicles (spec "GET /vehicles: query parameters"). Every listed filter filters; the OpenAPI's `upcoming` and
 * `updated_within_minutes` too. Filters act on the market's own fields, so they select the same lots in both shapes,
 * though the real records show no lot_status or lot_sub_status and spell drive and run words their own way.
 * Enumerated control parameters (lot_status, lot_sub_status, auction_type, platform, units, has_key, upcoming)
 * answer 422 for unknown values; free filter values (make, colour, damage, fuel, ...) that match nothing give an
 * empty page (docs/service-contract.md "Unknown values"). price_* compare the sale price of ended lots and the
 * current bid otherwise (USD); odometer_* are miles; dates are UTC days of the auction date.
 * @throws HttpError 422 for invalid parameters; UpstreamFailure (502) for an Ended search whose auction date range
 *   spans more than ENDED_MAX_RANGE_DAYS days.
 */
export function listVehicles(ctx: ApiContext, q: RawQuery): Body {
  const v = new Validator(q);
  const m = ctx.market;
  const perPage = v.int('per_page', { min: 1, max: ctx.perPageLimit, dflt: 20 }) ?? 20;
  const lotStatus = v.oneOf('lot_status', ['All', 'Timed', 'Buy Now'] as const, 'All');
  const subStatus = v.oneOf('lot_sub_status', ['Live', 'Open', 'Ended'] as const, 'Open');
  const auctionType = v.int('auction_type', {}) ?? 0;
  if (![0, 1, 2].includes(auctionType)) v.fail('auction_type', 'The selected auction type is invalid.');
  const platform = v.oneOf('platform', ['copart', 'iaai'] as const);
  const upcoming = v.oneOf('upcoming', ['all', 'only', 'without'] as const, 'all');
  const updatedWithin = v.int('updated_within_minutes', { min: 1, max: 525600 });
  const priceMin = v.number('price_min');
  const priceMax = v.number('price_max');
  const yearFrom = v.int('year_from');
  const yearTo = v.int('year_to');
  const odoFrom = v.number('odometer_from');
  const odoTo = v.number('odometer_to');
  const engFrom = v.number('engine_size_from');
  const engTo = v.number('engine_size_to');
  const hpFrom = v.number('engine_hp_from');
  const hpTo = v.number('engine_hp_to');
  const cylinders = v.ints('cylinders');
  const hasKey = v.oneOf('has_key', ['No', 'All', 'With'] as const, 'All');
  const units = v.oneOf('units', ['km', 'mi'] as const, 'mi') ?? 'mi';
  const radius = v.number('radius', { min: 0 });
  v.requiredWith('zip', 'radius');
  const dateFrom = v.date('auction_date_from');
  const dateTo = v.date('auction_date_to');
  v.afterOrEqual('auction_date_to', dateTo, 'auction_date_from', dateFrom);
  const todayOnly = v.bool('today_only');
  const docPending = v.bool('sale_document_pending');
  const hasShipping = v.bool('has_shipping_price');
  const s = v.string('s', { max: 255 });
  const cursor = readCursor(v, VEHICLE_COLS);
  v.check();
  if (
    subStatus === 'Ended' &&
    dateFrom !== undefined &&
    dateTo !== undefined &&
    Date.parse(dateTo) - Date.parse(dateFrom) > ENDED_MAX_RANGE_DAYS * 86_400_000
  )
    throw new UpstreamFailure();

  const str = (n: string): string | undefined => v.raw(n);
  const type = str('type')?.toLowerCase();
  const make = str('make')?.toLowerCase();
  const model = str('model')?.toLowerCase();
  const runCond = str('run_cond');
  const facilityId = str('facility_id');
  const locState = str('loc_state');
  const office = str('office_name');
  const docType = str('sale_document_type');
  const sellerType = str('seller_type');
  const zip = str('zip');
  const lower = (xs: string[]): Set<string> | null =>
    xs.length ? new Set(xs.map((x) => x.toLowerCase())) : null;
  const colors = lower(v.many('color'));
  const fuels = lower(v.many('fuel_type'));
  const transmissions = lower(v.many('transmission'));
  const drives = lower(v.many('drive_type'));
  const damages = lower(v.many('damage'));
  const cyl = cylinders.length ? new Set(cylinders) : null;
  let near: Map<number, number> | null = null;
  if (zip !== undefined) {
    near = facilitiesNearZip(m.facilities, zip, radius ?? DEFAULT_RADIUS, units) ?? new Map();
  }
  const now = m.now;
  const today = new Date(now).toISOString().slice(0, 10);
  const wantPlatform = platform ?? (auctionType === 1 ? 'copart' : auctionType === 2 ? 'iaai' : undefined);
  // Sent together, auction_type and platform must agree (the spec leaves it open; both filters apply).
  const conflict =
    platform !== undefined && auctionType !== 0 && (auctionType === 1) !== (platform === 'copart');
  const sLower = s?.toLowerCase();
  const sUpper = s?.toUpperCase();

  const keep = (l: Lot): boolean => {
    if (l.subStatus !== subStatus) return false;
    if (conflict) return false;
    if (wantPlatform && l.platform !== wantPlatform) return false;
    if (lotStatus !== 'All' && l.lotStatus !== lotStatus) return false;
    const vh = l.v;
    if (yearFrom !== undefined && vh.year < yearFrom) return false;
    if (yearTo !== undefined && vh.year > yearTo) return false;
    if (make !== undefined && vh.lc.make !== make) return false;
    if (model !== undefined && vh.lc.model !== model) return false;
    if (type !== undefined && vh.lc.type !== type) return false;
    const price = l.salePrice ?? l.currentBid;
    if (priceMin !== undefined && price < priceMin) return false;
    if (priceMax !== undefined && price > priceMax) return false;
    if (odoFrom !== undefined && vh.odometer < odoFrom) return false;
    if (odoTo !== undefined && vh.odometer > odoTo) return false;
    // Electric vehicles have no engine size (the record says null), so a size bound never matches them.
    if ((engFrom !== undefined || engTo !== undefined) && vh.engineL <= 0) return false;
    if (engFrom !== undefined && vh.engineL < engFrom) return false;
    if (engTo !== undefined && vh.engineL > engTo) return false;
    if (hpFrom !== undefined && vh.hp < hpFrom) return false;
    if (hpTo !== undefined && vh.hp > hpTo) return false;
    if (colors && !colors.has(vh.lc.color)) return false;
    if (
      fuels &&
      !fuels.has(vh.lc.fuel) &&
      !(
        fuels.has('all others') && !['Diesel', 'Hybrid', 'Electric', 'Flexible', 'Gasoline'].includes(vh.fuel)
      )
    )
      return false;
    if (transmissions && !transmissions.has(vh.lc.transmission)) return false;
    if (drives && !drives.has(vh.lc.drive)) return false;
    if (cyl && (!vh.cylinders || !cyl.has(vh.cylinders))) return false; // 0 is shown as null
    if (damages && !damages.has(l.damageLc)) return false;
    if (runCond !== undefined && !ciEq(l.runCond, runCond)) return false;
    if (hasKey === 'With' && !l.hasKey) return false;
    if (hasKey === 'No' && l.hasKey) return false;
    if (facilityId !== undefined && l.facility.facility_id !== facilityId) return false;
    if (locState !== undefined && !ciEq(l.facility.state, locState)) return false;
    if (office !== undefined && !ciEq(l.facility.name, office)) return false;
    if (near && !near.has(l.facility.idx)) return false;
    if (docPending && !l.docPending) return false;
    if (docType !== undefined && !ciEq(l.docType, docType) && !ciEq(l.docName, docType)) return false;
    if (sellerType !== undefined && l.sellerType !== sellerType) return false;
    if (hasShipping && !l.facility.hasShipping) return false;
    if (upcoming === 'only' && l.auctionAt <= now) return false;
    if (upcoming === 'without' && l.auctionAt > now) return false;
    if (updatedWithin !== undefined && l.updatedAt < now - updatedWithin * 60_000) return false;
    if (todayOnly || dateFrom || dateTo) {
      const day = new Date(l.auctionAt).toISOString().slice(0, 10);
      if (todayOnly && day !== today) return false;
      if (dateFrom && day < dateFrom) return false;
      if (dateTo && day > dateTo) return false;
    }
    if (s !== undefined && l.lotNumber !== s && vh.vin !== sUpper && !l.titleLower.includes(sLower as string))
      return false;
    return true;
  };

  // With a make and a model only their lots can pass: page through that subsequence of the list order (the same
  // pages, fewer lots to refuse). Open lots all lie after the ones whose auction date has come
  // (Market.firstUpcoming): skip that head.
  const list = make !== undefined && model !== undefined ? m.sortedOf(make, model) : m.sorted;
  const page = paginate(
    list,
    perPage,
    cursor,
    lotVsCursor,
    lotKey,
    keep,
    subStatus === 'Open' ? m.firstUpcoming(list) : 0,
  );
  // With a zip the records carry their distance in `units` (the real shape always has the key: null without zip).
  const data = page.items.map((l) => {
    const r = record(ctx, l);
    if (near) r['distance'] = near.get(l.facility.idx) ?? null;
    return r;
  });
  return {
    ok: true,
    data,
    meta: { per_page: perPage, next_cursor: page.next_cursor, prev_cursor: page.prev_cursor },
  };
}

/**
 * Resolves the {slugVin} path identifier: a lot number (digits) of either platform or an IAAI item id, a
 * 17-character VIN, or a slug ending in one ("2018-audi-s5-...-WAUC4CF57JA035732"). Anything else is the spec's
 * "VIN that is not 17 characters long" (422). Any 17 letters and digits are looked up as a VIN (I, O and Q never
 * occur in one, so they name no vehicle: 404, not the 17-characters message). A VIN resolves to its latest lot.
 * @throws HttpError 422 for a malformed identifier, 404 when no lot has it.
 */
export function resolveSlug(m: MarketReader, raw: string): Lot {
  const id = raw.trim();
  let lot: Lot | undefined;
  if (/^\d{1,12}$/.test(id)) lot = m.findLot(id);
  else if (/^[A-Z0-9]{17}$/i.test(id)) lot = m.latestForVin(id);
  else {
    const slug = /-([A-Z0-9]{17})$/i.exec(id);
    if (!slug) {
      const msg = 'The vin field must be 17 characters.';
      throw new HttpError(422, msg, { vin: [msg] });
    }
    lot = m.latestForVin(slug[1] as string);
  }
  if (!lot) throw new HttpError(404, 'Vehicle not found.');
  return lot;
}

/** GET /vehicles/{slugVin} (spec): the full record of one lot, with detail-only extras. */
export function vehicleDetails(ctx: ApiContext, slug: string): Body {
  const lot = resolveSlug(ctx.market, slug);
  return { ok: true, data: record(ctx, lot, true), meta: null };
}

/** Largest and default history per_page of the real shape: the real service answers 50 rows when none is asked. */
export const REAL_HISTORY_PER_PAGE = 50;

/**
 * GET /vehicles/{slugVin}/history, cursor-paginated, newest first.
 * - real shape (docs/service-contract.md "History"): `data: {vehicle: {slug_vin, vin, platform, lot_number},
 *   history: [{platform, date "YYYY-MM-DD", price (USD), status "Sold" | "Sold on Approval"}]}`: the sales of the
 *   VIN only (a lot that ended unsold is not a sale), no lot numbers in the rows; per_page 1-50, default 50.
 * - spec shape (spec "GET /vehicles/{slugVin}/history"): `data` an array of the Vehicle records of the VIN's ended
 *   lots, unsold ones included; per_page 1-20, default 20.
 * @throws HttpError 422 for a bad per_page, cursor or identifier, 404 when no lot has the identifier.
 */
export function vehicleHistory(ctx: ApiContext, slug: string, q: RawQuery): Body {
  const v = new Validator(q);
  const max = ctx.shape === 'real' ? REAL_HISTORY_PER_PAGE : 20;
  const perPage = v.int('per_page', { min: 1, max, dflt: max }) ?? max;
  const cursor = readCursor(v, HISTORY_COLS);
  v.check();
  const lot = resolveSlug(ctx.market, slug);
  const ended = (ctx.market.byVin.get(lot.v.vin) ?? [])
    .filter((l) => l.subStatus === 'Ended' && (ctx.shape === 'spec' || l.salePrice !== null))
    .sort((a, b) => b.auctionAt - a.auctionAt || b.id - a.id);
  const page = paginate(
    ended,
    perPage,
    cursor,
    (l, c) =>
      parseSqlTime(c.keys['vehicles.ad'] as string) - l.auctionAt || (c.keys['vehicles.id'] as number) - l.id,
    (l) => ({ 'vehicles.ad': sqlTime(l.auctionAt), 'vehicles.id': l.id }),
  );
  const meta = { per_page: perPage, next_cursor: page.next_cursor, prev_cursor: page.prev_cursor };
  if (ctx.shape === 'real') {
    return {
      ok: true,
      data: {
        vehicle: {
          slug_vin: slugVin(lot),
          vin: lot.v.vin,
          platform: lot.platform,
          lot_number: lot.lotNumber,
        },
        history: page.items.map(historyRow),
      },
      meta,
    };
  }
  return { ok: true, data: page.items.map((l) => record(ctx, l)), meta };
}

/** GET /vehicles/{slugVin}/related (spec): up to 20 future open lots of the same platform, make and model. */
export function vehicleRelated(ctx: ApiContext, slug: string): Body {
  const m = ctx.market;
  const lot = resolveSlug(m, slug);
  const now = m.now;
  const out: Body[] = [];
  const sorted = m.sorted;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as Lot).auctionAt <= now) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < sorted.length && out.length < 20; i++) {
    const l = sorted[i] as Lot;
    if (l === lot || l.v === lot.v || l.subStatus !== 'Open') continue;
    if (l.platform === lot.platform && l.v.spec === lot.v.spec) out.push(record(ctx, l));
  }
  return { ok: true, data: out, meta: { per_page: 20, next_cursor: null, prev_cursor: null } };
}

/** Ports of a `ports` parameter ("Chicago,NY"); case-insensitive; unknown names are ignored. */
function portFilter(v: Validator): Set<string> | null {
  const raw = v.raw('ports');
  if (raw === undefined) return null;
  const want = new Set(
    raw
      .split(',')
      .map((p) => p.trim().toLowerCase())
      .filter(Boolean),
  );
  return new Set(PORTS.filter((p) => want.has(p.port.toLowerCase())).map((p) => p.port));
}

function shippingBody(lot: Lot, ports: Set<string> | null): Body {
  const data = shippingPrices(lot.facility).filter((p) => !ports || ports.has(p.port));
  return { ok: true, data, meta: null };
}

/** GET /vehicles/{slugVin}/shipping (spec): USD prices from the lot's facility to each port (or the given ones). */
export function vehicleShipping(ctx: ApiContext, slug: string, q: RawQuery): Body {
  const v = new Validator(q);
  const ports = portFilter(v);
  return shippingBody(resolveSlug(ctx.market, slug), ports);
}

/**
 * GET /shipping/auction-to-port (spec): by lot_number or vin (one is required: 422 naming both otherwise);
 * lot_number wins when both are sent.
 */
export function auctionToPort(ctx: ApiContext, q: RawQuery): Body {
  const v = new Validator(q);
  v.requiredWithout('vin', 'lot_number');
  v.requiredWithout('lot_number', 'vin');
  const lotNumber = v.string('lot_number', { max: 20 });
  const vin = lotNumber === undefined ? v.string('vin', { size: 17 }) : undefined;
  const ports = portFilter(v);
  v.check();
  const lot =
    lotNumber !== undefined ? ctx.market.findLot(lotNumber) : ctx.market.latestForVin(vin as string);
  if (!lot) throw new HttpError(404, 'Vehicle not found.');
  return shippingBody(lot, ports);
}

/**
 * GET /vehicles/urltodetails (spec): resolves https://www.copart.com/lot/{lot_number}[/{slug}] and
 * https://www.iaai.com/VehicleDetail/{item_id}~US.
 * @throws HttpError 422 when url is missing or not a lot page of either platform, 404 when no such lot.
 */
export function urlToDetails(ctx: ApiContext, q: RawQuery): Body {
  const v = new Validator(q);
  const url = v.string('url', { required: true });
  v.check();
  const copart = /^https?:\/\/(?:www\.)?copart\.com\/lot\/(\d+)(?:\/[^?#]*)?(?:[?#].*)?$/i.exec(
    url as string,
  );
  const iaai = /^https?:\/\/(?:www\.)?iaai\.com\/VehicleDetail\/(\d+)~US(?:[/?#].*)?$/i.exec(url as string);
  if (!copart && !iaai) {
    const msg = 'The url field must be a valid Copart or IAAI vehicle URL.';
    throw new HttpError(422, msg, { url: [msg] });
  }
  const lot = copart
    ? ctx.market.byNumber.get(copart[1] as string)
    : ctx.market.byItemId.get((iaai as RegExpExecArray)[1] as string);
  if (!lot || (copart && lot.platform !== 'copart')) throw new HttpError(404, 'Vehicle not found.');
  return { ok: true, data: record(ctx, lot, true), meta: null };
}

/**
 * GET /locations (spec): facilities filtered by platform, state, facility_id, q (name, city, state code or ZIP),
 * zip with radius (units, default mi; zip alone searches DEFAULT_RADIUS), per_page 1-20. A `cursor` is accepted
 * though the spec does not list it, since meta hands out next_cursor. With zip, records carry `distance`.
 */
export function listLocations(ctx: ApiContext, q: RawQuery): Body {
  const v = new Validator(q);
  const perPage = v.int('per_page', { min: 1, max: 20, dflt: 20 }) ?? 20;
  const platform = v.oneOf('platform', ['copart', 'iaai'] as const);
  const units = v.oneOf('units', ['km', 'mi'] as const, 'mi') ?? 'mi';
  const radius = v.number('radius', { min: 0 });
  v.requiredWith('zip', 'radius');
  const cursor = readCursor(v, LOCATION_COLS);
  v.check();
  const state = v.raw('state');
  const facilityId = v.raw('facility_id');
  const text = v.raw('q')?.toLowerCase();
  const zip = v.raw('zip');
  const near =
    zip !== undefined
      ? (facilitiesNearZip(ctx.market.facilities, zip, radius ?? DEFAULT_RADIUS, units) ??
        new Map<number, number>())
      : null;
  const keep = (f: Facility): boolean =>
    (!platform || f.platform === platform) &&
    (state === undefined || ciEq(f.state, state)) &&
    (facilityId === undefined || f.facility_id === facilityId) &&
    (text === undefined ||
      f.name.toLowerCase().includes(text) ||
      f.city.toLowerCase().includes(text) ||
      f.state.toLowerCase() === text ||
      f.zip === text) &&
    (!near || near.has(f.idx));
  const page = paginate(
    ctx.market.facilities,
    perPage,
    cursor,
    (f, c) => f.idx - (c.keys['auction_locations.id'] as number),
    (f) => ({ 'auction_locations.id': f.idx }),
    keep,
  );
  const data = page.items.map((f) => ({
    platform: f.platform,
    facility_id: f.facility_id,
    name: f.name,
    city: f.city,
    state: f.state,
    zip: f.zip,
    latitude: f.latitude,
    longitude: f.longitude,
    ...(near ? { distance: near.get(f.idx) ?? null, units } : {}),
  }));
  return {
    ok: true,
    data,
    meta: { per_page: perPage, next_cursor: page.next_cursor, prev_cursor: page.prev_cursor },
  };
}

/** GET /vehicles/filters (spec "FiltersResponse"): the body of the answer's shape; see filters.ts. */
export function vehicleFilters(ctx: ApiContext): Body {
  return filtersBody(ctx.market, ctx.shape);
}

/** Sort check used by tests: the list order the cursor relies on. */
export function isSorted(m: Market): boolean {
  for (let i = 1; i < m.sorted.length; i++)
    if (compareLots(m.sorted[i - 1] as Lot, m.sorted[i] as Lot) >= 0) return false;
  return true;
}
