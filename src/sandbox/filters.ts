import { COLORS, MODELS, SALE_DOCS } from './catalog';
import { PORTS } from './geo';
import type { MarketReader } from './refresh';
import { saleDocumentGroup } from './realShape';
import type { WireShape } from './records';

/**
 * GET /vehicles/filters bodies (spec "FiltersResponse": "object of available filter values grouped by filter
 * name"; the names and value shapes inside are not specified). Two dialects:
 *
 * - real (default): the 20 keys of the real body (docs/service-contract.md "Filters"), with the inner shapes it
 *   gives (cylinders, damage, engine_type, lot, make_model, running_condition, seller_type, types). For the keys it
 *   does not detail, the sandbox's choice:
 *     auction_date           {params: {from, to}, min, max}: query names and the first and last open auction day
 *     auction_type           {param: "auction_type", options: [{value: 0 | 1 | 2, label}]}
 *     color, fuel_type, transmission   {options: string[]}
 *     drive_type             {options: [{value: "AWD", label: "All Wheel Drive"}, ...]}
 *     has_key                {param: "has_key", options: [{value, label}], default: "All"}
 *     location_filters       {params: [...], units: ["mi", "km"], states: [{value, label}], facilities:
 *                             [{id, platform, name, state, zip}]}
 *     ranges                 {year, odometer (mi), price (USD), engine_size (litres), engine_hp}: each {min, max}
 *                             over the open lots
 *     sale_document_filters  {pending: {param, type: "boolean"}, type_param, types: [{value, label, group}]}
 *     shipping               {param: "has_shipping_price", ports: string[]}
 *     today_only             {param: "today_only", default: false}
 *   Like the real service, some lists hold values the specification does not allow as filter values (damage
 *   "Undercarriage" and "Biohazard", seller_type "government", drive_type "4WD", fuel_type "Hydrogen",
 *   transmission "CVT"): a client must keep to the spec's lists. Every value the spec allows is present.
 * - spec: the sandbox's earlier body (option lists with counts of open lots, ranges), for `--shape spec`.
 *
 * Both are rebuilt when the market has moved on by more than a few hundred events (counts and ranges are a guide).
 */

type Body = Record<string, unknown>;

/** The spec's damage filter values (spec "GET /vehicles": damage) and the real-looking extras no lot carries. */
const DAMAGE_OPTIONS = [
  'Mechanical',
  'Hail',
  'Water',
  'Fire',
  'Theft',
  'Vandalized',
  'Rollover',
  'Chemical',
  'Repossession',
  'Undercarriage',
  'Biohazard',
];
/** `types` ids and timestamps are the vendor's database rows: fixed, so the body is deterministic. */
const TYPE_NAMES = ['AUTOMOBILE', 'SUV', 'PICKUP', 'MINIVAN', 'MOTORCYCLE', 'ATV', 'TRAILER'];
const TYPE_STAMP = '2024-03-11T09:15:27.000000Z';

const cache = new WeakMap<MarketReader, { version: number; real?: Body; spec?: Body }>();

/**
 * The filters body of `shape` for the market's current state; cached until the market has changed by 500
 * versions. Shapes: see the file comment.
 */
export function filtersBody(m: MarketReader, shape: WireShape): Body {
  let c = cache.get(m);
  if (!c || m.version - c.version >= 500) cache.set(m, (c = { version: m.version }));
  const hit = c[shape];
  if (hit) return hit;
  const body = { ok: true, data: shape === 'real' ? realData(m) : specData(m), meta: null };
  c[shape] = body;
  return body;
}

interface Ranges {
  year: [number, number];
  price: [number, number];
  odometer: [number, number];
  engine_size: [number, number];
  engine_hp: [number, number];
}

function ranges(m: MarketReader): Ranges {
  const r: Ranges = {
    year: [Infinity, -Infinity],
    price: [Infinity, -Infinity],
    odometer: [Infinity, -Infinity],
    engine_size: [Infinity, -Infinity],
    engine_hp: [Infinity, -Infinity],
  };
  const widen = (k: keyof Ranges, n: number): void => {
    const x = r[k];
    if (n < x[0]) x[0] = n;
    if (n > x[1]) x[1] = n;
  };
  for (const l of m.lots) {
    if (l.subStatus === 'Ended') continue;
    widen('year', l.v.year);
    widen('price', l.currentBid);
    widen('odometer', l.v.odometer);
    if (l.v.engineL > 0) widen('engine_size', l.v.engineL);
    widen('engine_hp', l.v.hp);
  }
  return r;
}

const minMax = (r: Ranges): Body =>
  Object.fromEntries(
    Object.entries(r).map(([k, [lo, hi]]) => [
      k,
      { min: Number.isFinite(lo) ? lo : null, max: Number.isFinite(hi) ? hi : null },
    ]),
  );

const opts = (
  pairs: readonly (readonly [string | number, string])[],
): { value: string | number; label: string }[] => pairs.map(([value, label]) => ({ value, label }));

function realData(m: MarketReader): Body {
  let first = Infinity;
  let last = -Infinity;
  for (const l of m.lots) {
    if (l.subStatus !== 'Open') continue;
    if (l.auctionAt < first) first = l.auctionAt;
    if (l.auctionAt > last) last = l.auctionAt;
  }
  const day = (t: number): string | null =>
    Number.isFinite(t) ? new Date(t).toISOString().slice(0, 10) : null;
  const models = new Map<string, string[]>();
  for (const s of MODELS) {
    const list = models.get(s.make);
    if (list) list.push(s.model);
    else models.set(s.make, [s.model]);
  }
  const makes = [...models.keys()].sort();
  const states = [...new Set(m.facilities.map((f) => f.state))].sort();
  return {
    auction_date: {
      params: { from: 'auction_date_from', to: 'auction_date_to' },
      min: day(first),
      max: day(last),
    },
    auction_type: {
      param: 'auction_type',
      options: opts([
        [0, 'All'],
        [1, 'Copart'],
        [2, 'IAAI'],
      ]),
    },
    color: { options: COLORS.map(([c]) => c).sort() },
    cylinders: { options: [1, 2, 3, 4, 5, 6, 8, 10, 12] },
    damage: { options: DAMAGE_OPTIONS },
    drive_type: {
      options: opts([
        ['AWD', 'All Wheel Drive'],
        ['FWD', 'Front Wheel Drive'],
        ['RWD', 'Rear Wheel Drive'],
        ['4WD', '4x4 w/Rear Wheel Drv'],
      ]),
    },
    engine_type: {
      options: opts([
        ['V', 'V - Engine'],
        ['I', 'I - Engine'],
        ['H', 'H - Engine'],
        ['W', 'W - Engine'],
        ['R', 'R - Rotary Engine'],
        ['E', 'E - Electric'],
      ]),
    },
    fuel_type: {
      options: ['Diesel', 'Hybrid', 'Electric', 'Flexible', 'Gasoline', 'All others', 'Hydrogen'],
    },
    has_key: {
      param: 'has_key',
      options: opts([
        ['All', 'All'],
        ['With', 'With key'],
        ['No', 'No key'],
      ]),
      default: 'All',
    },
    location_filters: {
      params: ['zip', 'radius', 'units', 'loc_state', 'facility_id', 'office_name'],
      units: ['mi', 'km'],
      states: states.map((s) => ({ value: s, label: s })),
      facilities: m.facilities.map((f) => ({
        id: Number(f.facility_id),
        platform: f.platform,
        name: f.name,
        state: f.state,
        zip: f.zip,
      })),
    },
    lot: {
      status: opts([
        ['All', 'All'],
        ['Timed', 'Timed'],
        ['Buy Now', 'Buy Now'],
      ]),
      sub_status: opts([
        ['Live', 'Live'],
        ['Open', 'Open'],
        ['Ended', 'Ended'],
      ]),
      defaults: { lot_status: 'All', lot_sub_status: 'Open' },
    },
    make_model: {
      makes,
      models_by_make: Object.fromEntries(makes.map((mk) => [mk, [...(models.get(mk) ?? [])].sort()])),
    },
    ranges: minMax(ranges(m)),
    running_condition: {
      options: opts([
        ['RUNS AND DRIVES', 'Runs and drives'],
        ['ENGINE START PROGRAM', 'Engine start program'],
        ['STATIONARY', 'Stationary'],
        ['NO INFORMATION', 'No information'],
      ]),
    },
    sale_document_filters: {
      pending: { param: 'sale_document_pending', type: 'boolean' },
      type_param: 'sale_document_type',
      types: SALE_DOCS.map(([name, code]) => ({ value: code, label: name, group: saleDocumentGroup(name) })),
    },
    seller_type: {
      param: 'seller_type',
      options: opts([
        ['insurance', 'Insurance'],
        ['non_insurance', 'Non-insurance'],
        ['dealer', 'Dealer'],
        ['finance', 'Finance'],
        ['government', 'Government'],
      ]),
    },
    shipping: { param: 'has_shipping_price', ports: PORTS.map((p) => p.port) },
    today_only: { param: 'today_only', default: false },
    transmission: { options: ['Automatic', 'Manual', 'Unknown', 'CVT'] },
    types: TYPE_NAMES.map((name, i) => ({ id: i + 1, name, created_at: TYPE_STAMP, updated_at: TYPE_STAMP })),
  };
}

function specData(m: MarketReader): Body {
  const counts = new Map<string, Map<string, number>>();
  const bump = (group: string, value: string | number): void => {
    let g = counts.get(group);
    if (!g) counts.set(group, (g = new Map()));
    const k = String(value);
    g.set(k, (g.get(k) ?? 0) + 1);
  };
  const models = new Map<string, Map<string, number>>();
  for (const l of m.lots) {
    if (l.subStatus === 'Ended') continue;
    const v = l.v;
    bump('makes', v.spec.make);
    let mm = models.get(v.spec.make);
    if (!mm) models.set(v.spec.make, (mm = new Map()));
    mm.set(v.spec.model, (mm.get(v.spec.model) ?? 0) + 1);
    bump('types', v.spec.type);
    bump('colors', v.color);
    bump('fuel_types', v.fuel);
    bump('transmissions', v.transmission);
    bump('drive_types', v.drive);
    if (v.cylinders) bump('cylinders', v.cylinders);
    bump('damages', l.damage);
    bump('run_conditions', l.runCond);
    bump('seller_types', l.sellerType);
    bump('sale_document_types', l.docType);
    bump('states', l.facility.state);
  }
  const list = (g: string): { value: string; count: number }[] =>
    [...(counts.get(g) ?? new Map<string, number>())]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => a.value.localeCompare(b.value));
  return {
    platforms: [
      { value: 'copart', label: 'Copart', auction_type: 1 },
      { value: 'iaai', label: 'IAAI', auction_type: 2 },
    ],
    lot_status: ['All', 'Timed', 'Buy Now'],
    lot_sub_status: ['Live', 'Open', 'Ended'],
    has_key: ['No', 'All', 'With'],
    units: ['mi', 'km'],
    ports: PORTS.map((p) => p.port),
    makes: list('makes'),
    models: Object.fromEntries(
      [...models]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([mk, mm]) => [
          mk,
          [...mm].map(([value, count]) => ({ value, count })).sort((a, b) => a.value.localeCompare(b.value)),
        ]),
    ),
    types: list('types'),
    colors: list('colors'),
    fuel_types: list('fuel_types'),
    transmissions: list('transmissions'),
    drive_types: list('drive_types'),
    cylinders: list('cylinders'),
    damages: list('damages'),
    run_conditions: list('run_conditions'),
    seller_types: list('seller_types'),
    sale_document_types: list('sale_document_types'),
    loc_states: list('states'),
    ...minMax(ranges(m)),
  };
}
