/**
 * The values the specification allows Lotwatch to SEND on GET /vehicles (spec "GET /vehicles: query parameters",
 * column "Allowed values / default"), in one place: the core validator refuses anything else before it costs a
 * request, and the search form offers nothing else, so a user never picks a value that Lotwatch would refuse.
 * SEARCH_PARAMS below says every parameter once (name, type, values, multi, limits, default, form label, the
 * phrase a saved search is described with). Pure: core and the renderer both import it.
 */
import { PLATFORMS } from './vehicle';

/**
 * The enumerated string parameters of GET /vehicles and their allowed values, spelled and ordered exactly as the
 * specification's table lists them. Source: spec "GET /vehicles: query parameters".
 */
export const SEARCH_ENUMS = {
  lot_status: ['All', 'Timed', 'Buy Now'],
  lot_sub_status: ['Live', 'Open', 'Ended'],
  fuel_type: ['Diesel', 'Hybrid', 'Electric', 'Flexible', 'Gasoline', 'All others'],
  transmission: ['Manual', 'Unknown', 'Automatic'],
  drive_type: ['AWD', 'FWD', 'RWD'],
  run_cond: ['STATIONARY', 'NO INFORMATION', 'RUNS AND DRIVES', 'ENGINE START PROGRAM'],
  damage: [
    'Fire',
    'Hail',
    'Theft',
    'Water',
    'Chemical',
    'Rollover',
    'Mechanical',
    'Vandalized',
    'Repossession',
  ],
  has_key: ['No', 'All', 'With'],
  units: ['km', 'mi'],
  seller_type: ['dealer', 'finance', 'insurance', 'non_insurance'],
} as const;

/** A GET /vehicles parameter whose values are a fixed list of strings. */
export type SearchEnumParam = keyof typeof SEARCH_ENUMS;

/** The allowed values of one enumerated parameter, e.g. `SearchEnumValue<'damage'>` = 'Fire' | 'Hail' | .... */
export type SearchEnumValue<P extends SearchEnumParam> = (typeof SEARCH_ENUMS)[P][number];

/** auction_type: 0 all platforms, 1 platform_a (Copart), 2 platform_b (IAAI); default 0. Source: the spec table. */
export const AUCTION_TYPES = [0, 1, 2] as const;

/**
 * The defaults the specification names for GET /vehicles (what the service applies when the parameter is not
 * sent). Source: spec "GET /vehicles: query parameters" and "Limits" (per_page).
 */
export const SEARCH_DEFAULTS = {
  lot_status: 'All',
  lot_sub_status: 'Open',
  auction_type: 0,
  units: 'mi',
  per_page: 20,
  today_only: false,
  sale_document_pending: false,
  has_shipping_price: false,
} as const;

/**
 * One word for comparing a value from the service with a specification value: lower case, with spaces,
 * punctuation and separators dropped, so "Buy Now", "buy_now" and "BUY-NOW" compare equal. Sources differ in
 * case and separators; they never differ in letters.
 */
function word(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/**
 * Longer words the real service uses for a specification value (docs/service-contract.md "Records"): drive_type
 * comes as "All Wheel Drive" where the filter values are AWD, FWD, RWD. Only words that name exactly one
 * specification value are listed: "Four Wheel Drive" or "4x4" are not AWD, and reading them as such would send a
 * filter the user did not mean.
 */
const ALIASES: Partial<Record<SearchEnumParam, Record<string, readonly string[]>>> = {
  drive_type: {
    AWD: ['All Wheel Drive'],
    FWD: ['Front Wheel Drive'],
    RWD: ['Rear Wheel Drive'],
  },
};

/**
 * The specification's spelling of a value the service listed for parameter `param`, or null when the value is
 * not one the specification allows (or matches more than one). Matching ignores case and separators
 * ("mechanical" -> "Mechanical", "buy_now" -> "Buy Now") and knows the real service's long drive words
 * ("All Wheel Drive" -> "AWD"). Never throws.
 */
export function toSpecValue<P extends SearchEnumParam>(param: P, value: string): SearchEnumValue<P> | null {
  const w = word(value);
  if (!w) return null;
  const aliases: Readonly<Record<string, readonly string[]>> = ALIASES[param] ?? {};
  const hits = (SEARCH_ENUMS[param] as readonly SearchEnumValue<P>[]).filter(
    (v) => word(v) === w || (aliases[v] ?? []).some((a) => word(a) === w),
  );
  return hits.length === 1 ? (hits[0] as SearchEnumValue<P>) : null;
}

/**
 * The specification values a listed value stands for. Usually one (see toSpecValue), but the real service folds
 * several spec values into one listed value joined with "/": its run conditions list "STATIONARY / NO INFORMATION"
 * where the specification's run_cond takes STATIONARY and NO INFORMATION apart (docs/service-contract.md "Records").
 * Such a value stands for every part, provided each part is exactly one spec value; otherwise, and for a value that
 * names nothing, the answer is empty. Never throws.
 */
export function toSpecValues<P extends SearchEnumParam>(param: P, value: string): SearchEnumValue<P>[] {
  const one = toSpecValue(param, value);
  if (one !== null) return [one];
  const parts = value.split('/').map((s) => s.trim());
  if (parts.length < 2) return [];
  const hits = parts.map((s) => toSpecValue(param, s));
  return hits.every((h): h is SearchEnumValue<P> => h !== null) ? [...new Set(hits)] : [];
}

// ---- the GET /vehicles parameters, each said once -----------------------------------------------------------

/**
 * How a parameter's value is written, per the specification's Type column: `string`, `int` (integer), `number`,
 * `date` (string, YYYY-MM-DD), `enum` (a string from a fixed list) or `bool` (boolean, sent `true`/`false`).
 */
export type SearchParamType = 'string' | 'int' | 'number' | 'date' | 'enum' | 'bool';

/** One GET /vehicles query parameter as the specification gives it, with the words Lotwatch shows for it. */
export interface SearchParamDef {
  /** The wire name, spelled as the specification does. */
  readonly name: string;
  readonly type: SearchParamType;
  /** The allowed values, when the specification lists them (`enum` strings, or auction_type's integers). */
  readonly values?: readonly (string | number)[];
  /** True when the specification marks it multi: several values, sent with the name repeated once per value. */
  readonly multi: boolean;
  /** The smallest and largest value, where the specification gives them (only per_page: 1 to 20). */
  readonly min?: number;
  readonly max?: number;
  /** What the service applies when the parameter is not sent, where the specification names it. */
  readonly default?: string | number | boolean;
  /** The search form's label of the field (for one end of a range: "Year from"). */
  readonly label: string;
  /** For one end of a from/to (min/max) pair: the pair's label ("Year"), which end, and the other end's name. */
  readonly range?: { readonly group: string; readonly end: 'from' | 'to'; readonly other: string };
  /**
   * False when the search form has no field for it: cursor and per_page belong to paging, and auction_type is
   * the numeric alternative of platform (spec "GET /vehicles" rule 1: a request uses one of the two).
   */
  readonly form: boolean;
  /**
   * A short phrase for a saved search's description ("odometer under 80,000 mi"), given the value and all the
   * search's parameters (a radius is said with its zip and units); empty when the value says nothing (a flag
   * left false). Values come from storage, so anything is accepted and written out as it is.
   */
  readonly phrase: (value: unknown, all: Readonly<Record<string, unknown>>) => string;
}

const PLATFORM_NAMES: Readonly<Record<string, string>> = { copart: 'Copart', iaai: 'IAAI' };
const AUCTION_TYPE_PHRASES: Readonly<Record<string, string>> = {
  '0': 'both platforms',
  '1': 'Copart only',
  '2': 'IAAI only',
};

/** A number grouped in thousands ("80,000"); anything else as written. */
function n(v: unknown): string {
  return typeof v === 'number' && Number.isFinite(v)
    ? v.toLocaleString('en-US', { maximumFractionDigits: 2 })
    : String(v);
}
/** US dollars without cents ("$12,000"). */
function usd(v: unknown): string {
  return typeof v === 'number' && Number.isFinite(v)
    ? `$${v.toLocaleString('en-US', { maximumFractionDigits: 0 })}`
    : String(v);
}
/** Several values read as alternatives ("Hail or Water"). */
function alternatives(v: unknown): string {
  const xs = (Array.isArray(v) ? v : [v]).map(String);
  return xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} or ${xs.at(-1) ?? ''}`;
}
/** "NO INFORMATION" -> "no information"; mixed-case words stay as they are. */
function quiet(v: unknown): string {
  const s = String(v);
  return s === s.toUpperCase() ? s.toLowerCase() : s;
}
/** The distance unit of a search: its `units`, else the specification's default. */
function unitsOf(all: Readonly<Record<string, unknown>>): string {
  return typeof all['units'] === 'string' && all['units'] ? all['units'] : SEARCH_DEFAULTS.units;
}
const flag = (words: string) => (v: unknown) => (v === true || v === 'true' ? words : '');
const rangeOf = (group: string, end: 'from' | 'to', other: string) => ({ group, end, other }) as const;

/**
 * Every GET /vehicles query parameter, in the specification's order: spec "GET /vehicles: query parameters (all
 * optional)" for names, types, allowed values, defaults and multi; spec "Limits" for per_page. The one list the
 * core validator (src/core/api/validate.ts), the search form, the API console and the saved-search descriptions
 * are built from, so none of them can offer, accept or describe a parameter the others do not know.
 * Odometer values are miles (the form says so), prices US dollars.
 */
export const SEARCH_PARAMS = [
  {
    name: 's',
    type: 'string',
    multi: false,
    label: 'Lot number, VIN or title',
    form: true,
    phrase: (v) => `“${String(v)}”`,
  },
  {
    name: 'lot_status',
    type: 'enum',
    values: SEARCH_ENUMS.lot_status,
    multi: false,
    default: SEARCH_DEFAULTS.lot_status,
    label: 'Sale type',
    form: true,
    phrase: (v) => `sale type ${String(v)}`,
  },
  {
    name: 'lot_sub_status',
    type: 'enum',
    values: SEARCH_ENUMS.lot_sub_status,
    multi: false,
    default: SEARCH_DEFAULTS.lot_sub_status,
    label: 'Auction',
    form: true,
    phrase: (v) => `${String(v)} auctions`,
  },
  {
    name: 'price_min',
    type: 'number',
    multi: false,
    label: 'Price (USD) from',
    range: rangeOf('Price (USD)', 'from', 'price_max'),
    form: true,
    phrase: (v) => `price from ${usd(v)}`,
  },
  {
    name: 'price_max',
    type: 'number',
    multi: false,
    label: 'Price (USD) to',
    range: rangeOf('Price (USD)', 'to', 'price_min'),
    form: true,
    phrase: (v) => `price under ${usd(v)}`,
  },
  {
    name: 'year_from',
    type: 'int',
    multi: false,
    label: 'Year from',
    range: rangeOf('Year', 'from', 'year_to'),
    form: true,
    phrase: (v) => `${String(v)} or newer`,
  },
  {
    name: 'year_to',
    type: 'int',
    multi: false,
    label: 'Year to',
    range: rangeOf('Year', 'to', 'year_from'),
    form: true,
    phrase: (v) => `up to ${String(v)}`,
  },
  {
    name: 'auction_type',
    type: 'int',
    values: AUCTION_TYPES,
    multi: false,
    default: SEARCH_DEFAULTS.auction_type,
    label: 'Auction type',
    form: false,
    phrase: (v) => AUCTION_TYPE_PHRASES[String(v)] ?? `auction type ${String(v)}`,
  },
  {
    name: 'platform',
    type: 'enum',
    values: PLATFORMS,
    multi: false,
    label: 'Platform',
    form: true,
    phrase: (v) => (PLATFORM_NAMES[String(v)] ? `${PLATFORM_NAMES[String(v)] ?? ''} only` : String(v)),
  },
  {
    name: 'type',
    type: 'string',
    multi: false,
    label: 'Vehicle type',
    form: true,
    phrase: (v) => `type ${String(v)}`,
  },
  { name: 'make', type: 'string', multi: false, label: 'Make', form: true, phrase: (v) => String(v) },
  { name: 'model', type: 'string', multi: false, label: 'Model', form: true, phrase: (v) => String(v) },
  {
    name: 'color',
    type: 'string',
    multi: true,
    label: 'Color',
    form: true,
    phrase: (v) => `color ${alternatives(v)}`,
  },
  {
    name: 'fuel_type',
    type: 'enum',
    values: SEARCH_ENUMS.fuel_type,
    multi: true,
    label: 'Fuel',
    form: true,
    phrase: (v) => `fuel ${alternatives(v)}`,
  },
  {
    name: 'odometer_from',
    type: 'number',
    multi: false,
    label: 'Odometer (mi) from',
    range: rangeOf('Odometer (mi)', 'from', 'odometer_to'),
    form: true,
    phrase: (v) => `odometer from ${n(v)} mi`,
  },
  {
    name: 'odometer_to',
    type: 'number',
    multi: false,
    label: 'Odometer (mi) to',
    range: rangeOf('Odometer (mi)', 'to', 'odometer_from'),
    form: true,
    phrase: (v) => `odometer under ${n(v)} mi`,
  },
  {
    name: 'engine_size_from',
    type: 'number',
    multi: false,
    label: 'Engine size (L) from',
    range: rangeOf('Engine size (L)', 'from', 'engine_size_to'),
    form: true,
    phrase: (v) => `engine from ${n(v)} L`,
  },
  {
    name: 'engine_size_to',
    type: 'number',
    multi: false,
    label: 'Engine size (L) to',
    range: rangeOf('Engine size (L)', 'to', 'engine_size_from'),
    form: true,
    phrase: (v) => `engine up to ${n(v)} L`,
  },
  {
    name: 'engine_hp_from',
    type: 'number',
    multi: false,
    label: 'Engine power (hp) from',
    range: rangeOf('Engine power (hp)', 'from', 'engine_hp_to'),
    form: true,
    phrase: (v) => `from ${n(v)} hp`,
  },
  {
    name: 'engine_hp_to',
    type: 'number',
    multi: false,
    label: 'Engine power (hp) to',
    range: rangeOf('Engine power (hp)', 'to', 'engine_hp_from'),
    form: true,
    phrase: (v) => `up to ${n(v)} hp`,
  },
  {
    name: 'transmission',
    type: 'enum',
    values: SEARCH_ENUMS.transmission,
    multi: true,
    label: 'Transmission',
    form: true,
    phrase: (v) => `${alternatives(v)} transmission`,
  },
  {
    name: 'cylinders',
    type: 'int',
    multi: true,
    label: 'Cylinders',
    form: true,
    phrase: (v) => `${alternatives(v)} cylinders`,
  },
  {
    name: 'drive_type',
    type: 'enum',
    values: SEARCH_ENUMS.drive_type,
    multi: true,
    label: 'Drive',
    form: true,
    phrase: (v) => `${alternatives(v)} drive`,
  },
  {
    name: 'run_cond',
    type: 'enum',
    values: SEARCH_ENUMS.run_cond,
    multi: false,
    label: 'Run condition',
    form: true,
    phrase: (v) => `run condition ${quiet(v)}`,
  },
  {
    name: 'damage',
    type: 'enum',
    values: SEARCH_ENUMS.damage,
    multi: true,
    label: 'Damage',
    form: true,
    phrase: (v) => `${alternatives(v)} damage`,
  },
  {
    name: 'has_key',
    type: 'enum',
    values: SEARCH_ENUMS.has_key,
    multi: false,
    label: 'Keys',
    form: true,
    phrase: (v) =>
      v === 'With'
        ? 'with keys'
        : v === 'No'
          ? 'without keys'
          : v === 'All'
            ? 'with or without keys'
            : `keys ${String(v)}`,
  },
  {
    name: 'cursor',
    type: 'string',
    multi: false,
    label: 'Cursor',
    form: false,
    phrase: () => 'from a later page',
  },
  {
    name: 'zip',
    type: 'string',
    multi: false,
    label: 'ZIP code',
    form: true,
    phrase: (v, all) =>
      all['radius'] !== undefined && all['radius'] !== null && all['radius'] !== ''
        ? `within ${n(all['radius'])} ${unitsOf(all)} of ZIP ${String(v)}`
        : `near ZIP ${String(v)}`,
  },
  {
    name: 'radius',
    type: 'number',
    multi: false,
    label: 'Radius',
    form: true,
    phrase: (v, all) => (all['zip'] ? '' : `radius ${n(v)} ${unitsOf(all)}`),
  },
  {
    name: 'units',
    type: 'enum',
    values: SEARCH_ENUMS.units,
    multi: false,
    default: SEARCH_DEFAULTS.units,
    label: 'Units',
    form: true,
    phrase: (v, all) =>
      all['radius'] !== undefined && all['radius'] !== null && all['radius'] !== ''
        ? ''
        : `distances in ${String(v)}`,
  },
  {
    name: 'per_page',
    type: 'int',
    multi: false,
    min: 1,
    max: 20,
    default: SEARCH_DEFAULTS.per_page,
    label: 'Lots per page',
    form: false,
    phrase: (v) => `${String(v)} a page`,
  },
  {
    name: 'facility_id',
    type: 'string',
    multi: false,
    label: 'Facility ID',
    form: true,
    phrase: (v) => `facility ${String(v)}`,
  },
  {
    name: 'loc_state',
    type: 'string',
    multi: false,
    label: 'State',
    form: true,
    phrase: (v) => `in ${String(v)}`,
  },
  {
    name: 'office_name',
    type: 'string',
    multi: false,
    label: 'Office or branch',
    form: true,
    phrase: (v) => `office ${String(v)}`,
  },
  {
    name: 'auction_date_from',
    type: 'date',
    multi: false,
    label: 'Auction date from',
    range: rangeOf('Auction date', 'from', 'auction_date_to'),
    form: true,
    phrase: (v) => `auctions from ${String(v)}`,
  },
  {
    name: 'auction_date_to',
    type: 'date',
    multi: false,
    label: 'Auction date to',
    range: rangeOf('Auction date', 'to', 'auction_date_from'),
    form: true,
    phrase: (v) => `auctions until ${String(v)}`,
  },
  {
    name: 'today_only',
    type: 'bool',
    multi: false,
    default: false,
    label: 'Only auctions today',
    form: true,
    phrase: flag('auctions today only'),
  },
  {
    name: 'sale_document_pending',
    type: 'bool',
    multi: false,
    default: false,
    label: 'Sale document pending',
    form: true,
    phrase: flag('sale document pending'),
  },
  {
    name: 'sale_document_type',
    type: 'string',
    multi: false,
    label: 'Sale document',
    form: true,
    phrase: (v) => `sale document ${String(v)}`,
  },
  {
    name: 'seller_type',
    type: 'enum',
    values: SEARCH_ENUMS.seller_type,
    multi: false,
    label: 'Seller',
    form: true,
    phrase: (v) => `${String(v).replace(/_/g, '-')} sellers`,
  },
  {
    name: 'has_shipping_price',
    type: 'bool',
    multi: false,
    default: false,
    label: 'Has a shipping price',
    form: true,
    phrase: flag('with a shipping price'),
  },
] as const satisfies readonly SearchParamDef[];

/** The name of a GET /vehicles parameter, e.g. 'odometer_to'. */
export type SearchParamName = (typeof SEARCH_PARAMS)[number]['name'];

/** Every GET /vehicles parameter name, in the specification's order. */
export const SEARCH_PARAM_NAMES: readonly SearchParamName[] = SEARCH_PARAMS.map((p) => p.name);

type Def = (typeof SEARCH_PARAMS)[number];
type ItemOf<D extends Def> = D extends { type: 'bool' }
  ? boolean
  : D extends { values: readonly (infer V)[] }
    ? V
    : D extends { type: 'int' | 'number' }
      ? number
      : string;

/**
 * A GET /vehicles query as Lotwatch holds it, typed from SEARCH_PARAMS: every parameter optional, a multi one a
 * list, enumerations their allowed values (e.g. `{ make: 'TOYOTA', damage: ['Hail'], per_page: 20 }`).
 */
export type SearchParamValues = {
  [D in Def as D['name']]?: D extends { multi: true } ? ItemOf<D>[] : ItemOf<D>;
};

/** The parameters the search form has a field for (every one but cursor, per_page and auction_type). */
export type FormParamName = Extract<Def, { form: true }>['name'];

const BY_NAME: ReadonlyMap<string, SearchParamDef> = new Map(SEARCH_PARAMS.map((p) => [p.name, p]));

/** The definition of parameter `name`, or undefined when the specification lists no such GET /vehicles parameter. */
export function searchParam(name: string): SearchParamDef | undefined {
  return BY_NAME.get(name);
}

/** Whether a stored value counts as not given (the service default applies): undefined, null, '' or []. */
function blank(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/** Parameters said first in a description, the rest follow in the specification's order. */
const LEAD = ['s', 'make', 'model', 'year_from', 'year_to'];

/**
 * A saved search's filters as short phrases, most telling first: "TESLA MODEL 3", "2019–2022", "odometer under
 * 80,000 mi", "Hail or Water damage". Make and model read as one phrase, and so does a from/to pair given at
 * both ends ("price $5,000–$12,000"). A name the specification does not list (stored by an older version) is
 * shown as `name=value`, so nothing the search sends is hidden. Blank values are skipped. Never throws.
 * Source: spec "GET /vehicles: query parameters".
 */
export function describeSearchParams(params: Readonly<Record<string, unknown>>): string[] {
  const names = Object.keys(params).filter((k) => !blank(params[k]));
  const order = (k: string) => {
    const lead = LEAD.indexOf(k);
    if (lead >= 0) return lead;
    const i = SEARCH_PARAM_NAMES.indexOf(k as SearchParamName);
    return i >= 0 ? LEAD.length + i : LEAD.length + SEARCH_PARAM_NAMES.length;
  };
  names.sort((a, b) => order(a) - order(b));
  const out: string[] = [];
  const said = new Set<string>();
  for (const k of names) {
    if (said.has(k)) continue;
    said.add(k);
    const v = params[k];
    const def = searchParam(k);
    if (!def) {
      out.push(`${k}=${Array.isArray(v) ? v.map(String).join(',') : String(v)}`);
      continue;
    }
    if (k === 'make' && !blank(params['model'])) {
      said.add('model');
      out.push(`${String(v)} ${String(params['model'])}`);
      continue;
    }
    const other = def.range?.end === 'from' ? def.range.other : null;
    if (other && !blank(params[other])) {
      said.add(other);
      out.push(rangePhrase(k, v, params[other]));
      continue;
    }
    const p = def.phrase(v, params);
    if (p) out.push(p);
  }
  return out;
}

/** Both ends of a from/to pair in one phrase: "2019–2022", "price $5,000–$12,000", "odometer 10,000–80,000 mi". */
function rangePhrase(from: string, a: unknown, b: unknown): string {
  switch (from) {
    case 'year_from':
      return `${String(a)}–${String(b)}`;
    case 'price_min':
      return `price ${usd(a)}–${usd(b)}`;
    case 'odometer_from':
      return `odometer ${n(a)}–${n(b)} mi`;
    case 'engine_size_from':
      return `engine ${n(a)}–${n(b)} L`;
    case 'engine_hp_from':
      return `${n(a)}–${n(b)} hp`;
    case 'auction_date_from':
      return `auctions ${String(a)} to ${String(b)}`;
    default:
      return `${from} ${String(a)}–${String(b)}`;
  }
}
