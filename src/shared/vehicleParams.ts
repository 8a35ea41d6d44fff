/**
 * The values the specification allows Lotwatch to SEND on GET /vehicles (spec "GET /vehicles: query parameters",
 * column "Allowed values / default"), in one place: the core validator refuses anything else before it costs a
 * request, and the search form offers nothing else, so a user never picks a value that Lotwatch would refuse.
 * Pure and zod-free: core and the renderer both import it.
 */

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
 * sent). Source: spec "GET /vehicles: query parameters".
 */
export const SEARCH_DEFAULTS = {
  lot_status: 'All',
  lot_sub_status: 'Open',
  auction_type: 0,
  units: 'mi',
  per_page: 20,
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
 * Longer words the real service uses for a specification value. REAL-SERVICE.md "Real records do not carry the
 * spec's flat fields": drive_type comes as "All Wheel Drive" where the filter values are AWD, FWD, RWD. Only
 * words that name exactly one specification value are listed: "Four Wheel Drive" or "4x4" are not AWD, and
 * reading them as such would send a filter the user did not mean.
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
