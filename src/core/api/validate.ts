import type { z } from 'zod';
import { VIN_PATTERN } from '../../shared/vehicle';
import { SEARCH_ENUMS } from '../../shared/vehicleParams';
import type { SearchParams } from '../../shared/queryParams';
import {
  HistoryParamsSchema,
  LocationParamsSchema,
  SearchParamsSchema,
  isCalendarDate,
  MAX_PER_PAGE,
} from '../../shared/queryParams';
import { ApiInputError } from './errors';
import { fieldLabel } from '../../shared/fieldLabels';

/**
 * Validation before sending: bad input never costs quota. Every check names the offending field in an ApiInputError,
 * the way the service's own 422 `errors` map does.
 */

/**
 * Values of the enumerated filters of GET /vehicles (spec "GET /vehicles: query parameters"), from the one list
 * the search form offers from too (src/shared/vehicleParams), so the form never offers what this refuses.
 */
export const ENUMS = SEARCH_ENUMS;

/** The query schemas live in src/shared/queryParams (the contract checks with them too); re-exported for the client. */
export { HistoryParamsSchema, LocationParamsSchema, SearchParamsSchema, isCalendarDate, MAX_PER_PAGE };
export type { HistoryParams, LocationParams, SearchParams } from '../../shared/queryParams';

/** A value that may be sent in a query string. */
export type QueryValue =
  string | number | boolean | readonly (string | number | boolean)[] | null | undefined;

/**
 * Parses `input` with `schema` and returns the value, or throws ApiInputError with every offending field.
 * Empty strings, null and undefined mean "not given" (a blank form field) and are dropped first.
 */
export function check<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const cleaned =
    input && typeof input === 'object' && !Array.isArray(input)
      ? Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined && v !== null && v !== ''))
      : input;
  const r = schema.safeParse(cleaned);
  if (r.success) return r.data;
  const fields: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const issue of r.error.issues) {
    const keys =
      issue.code === 'unrecognized_keys' ? issue.keys : [issue.path.length ? String(issue.path[0]) : 'input'];
    const msg = issue.code === 'unrecognized_keys' ? 'Not a parameter of this endpoint.' : issue.message;
    for (const k of keys) (fields[k] ??= []).push(msg);
  }
  throw new ApiInputError(fields);
}

/**
 * Validates a GET /vehicles query, including the cross-field rules: auction_type and platform are alternatives
 * (spec rule 1: refused when both are given), ranges must not be inverted.
 * @throws ApiInputError naming each offending field.
 */
export function checkSearchParams(input: SearchParams): z.output<typeof SearchParamsSchema> {
  const p = check(SearchParamsSchema, input);
  const fields: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  if (p.auction_type !== undefined && p.platform !== undefined) {
    const m = 'Choose either the auction type or the platform, not both.';
    fields.auction_type = [m];
    fields.platform = [m];
  }
  const pairs = [
    ['price_min', 'price_max'],
    ['year_from', 'year_to'],
    ['odometer_from', 'odometer_to'],
    ['engine_size_from', 'engine_size_to'],
    ['engine_hp_from', 'engine_hp_to'],
    ['auction_date_from', 'auction_date_to'],
  ] as const;
  for (const [lo, hi] of pairs) {
    const a = p[lo];
    const b = p[hi];
    // Said with the screen's words for the other end of the range, never its parameter name (docs/writing-guide.md).
    if (a !== undefined && b !== undefined && a > b)
      fields[lo] = [`Make this no greater than “${fieldLabel(hi) ?? 'the upper end'}”.`];
  }
  if (p.radius !== undefined && p.zip === undefined) fields.radius = ['Enter a ZIP code with the radius.'];
  if (Object.keys(fields).length) throw new ApiInputError(fields);
  return p;
}

/**
 * Builds a query string: multi-valued parameters repeated (`color=Black&color=White`), booleans `true`/`false`
 * (the OpenAPI's `type: boolean`), numbers in plain decimal, absent values skipped.
 */
export function buildQuery(params: Readonly<Record<string, QueryValue>>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) q.append(k, String(item));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

const VIN_VALUES: Record<string, number> = {};
'0123456789'.split('').forEach((c, i) => (VIN_VALUES[c] = i));
'ABCDEFGH'.split('').forEach((c, i) => (VIN_VALUES[c] = i + 1));
'JKLMN'.split('').forEach((c, i) => (VIN_VALUES[c] = i + 1));
VIN_VALUES.P = 7;
VIN_VALUES.R = 9;
'STUVWXYZ'.split('').forEach((c, i) => (VIN_VALUES[c] = i + 2));
const VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

export { VIN_PATTERN };

/**
 * Checks a VIN: 17 characters of the VIN alphabet (case-insensitive; returned upper-cased). The North American
 * check digit (position 9) is only a warning, because many non-North-American VINs do not carry one.
 * @throws ApiInputError on `field` when the VIN is malformed.
 */
export function checkVin(vin: unknown, field = 'vin'): { vin: string; warnings: string[] } {
  const v = typeof vin === 'string' ? vin.trim().toUpperCase() : '';
  if (!VIN_PATTERN.test(v)) {
    throw new ApiInputError({
      [field]: ['Must be 17 characters: digits and letters except I, O and Q.'],
    });
  }
  return {
    vin: v,
    warnings: vinCheckDigitOk(v) ? [] : [`${field}: check digit does not match (fine outside North America)`],
  };
}

/** True when position 9 of a well-formed VIN matches its computed check digit. */
export function vinCheckDigitOk(vin: string): boolean {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (VIN_VALUES[vin[i] as string] ?? 0) * (VIN_WEIGHTS[i] as number);
  const r = sum % 11;
  return vin[8] === (r === 10 ? 'X' : String(r));
}

/**
 * Checks an auction lot number (both platforms use digits only).
 * @throws ApiInputError on `field`.
 */
export function checkLotNumber(lot: unknown, field = 'lot_number'): string {
  const v =
    typeof lot === 'number' && Number.isSafeInteger(lot)
      ? String(lot)
      : typeof lot === 'string'
        ? lot.trim()
        : '';
  if (!/^\d{1,12}$/.test(v)) throw new ApiInputError({ [field]: ['Must be a lot number: 1 to 12 digits.'] });
  return v;
}

/**
 * Checks the {slugVin} path identifier: a VIN, a lot number, or a slug (spec "Path parameter slugVin"). Refuses
 * the fixed paths `filters` and `urltodetails`, which are not vehicle identifiers.
 * @throws ApiInputError on `slugVin`.
 */
export function checkSlugVin(id: unknown): string {
  const v =
    typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : typeof id === 'string' ? id.trim() : '';
  if (!/^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/.test(v) || v === 'filters' || v === 'urltodetails') {
    throw new ApiInputError({ slugVin: ['Must be a VIN, a lot number or a vehicle slug.'] });
  }
  return v;
}

/**
 * Checks the url of GET /vehicles/urltodetails: a lot page of one of the two platforms,
 * https://www.copart.com/lot/{lot_number}[/{slug}] or https://www.iaai.com/VehicleDetail/{item_id}~US.
 * @throws ApiInputError on `url`.
 */
export function checkLotPageUrl(url: unknown): { url: string; platform: 'copart' | 'iaai'; id: string } {
  const bad = () =>
    new ApiInputError({
      url: [
        'Must be a lot page: https://www.copart.com/lot/{lot number}/... or https://www.iaai.com/VehicleDetail/{id}~US.',
      ],
    });
  if (typeof url !== 'string' || url.length > 2000) throw bad();
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    throw bad();
  }
  if (u.protocol !== 'https:' || u.username || u.password || u.port) throw bad();
  const host = u.hostname.toLowerCase();
  if (host === 'www.copart.com' || host === 'copart.com') {
    const m = /^\/lot\/(\d{1,12})(?:\/[A-Za-z0-9._~%-]+)?\/?$/.exec(u.pathname);
    if (m) return { url: u.toString(), platform: 'copart', id: m[1] as string };
  } else if (host === 'www.iaai.com' || host === 'iaai.com') {
    const m = /^\/VehicleDetail\/(\d{1,12})~US\/?$/i.exec(u.pathname);
    if (m) return { url: u.toString(), platform: 'iaai', id: m[1] as string };
  }
  throw bad();
}

/**
 * Checks the url of GET /image-proxy: an absolute http(s) URL without credentials.
 * @throws ApiInputError on `url`.
 */
export function checkImageUrl(url: unknown): string {
  const bad = () => new ApiInputError({ url: ['Must be an http:// or https:// image URL.'] });
  if (typeof url !== 'string' || url.length > 4000) throw bad();
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    throw bad();
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password || !u.hostname)
    throw bad();
  return u.toString();
}

/**
 * Checks the `ports` of the shipping endpoints: a list of port identifiers (letters, digits, _), sent
 * comma-separated as the spec documents.
 * @throws ApiInputError on `ports`.
 */
export function checkPorts(ports: readonly string[] | undefined): string | undefined {
  if (ports === undefined || ports.length === 0) return undefined;
  if (
    !Array.isArray(ports) ||
    ports.length > 50 ||
    !ports.every((p) => typeof p === 'string' && /^[A-Za-z0-9_]{1,40}$/.test(p))
  ) {
    throw new ApiInputError({ ports: ['Must be a list of port names such as Miami, NY, Houston.'] });
  }
  return ports.join(',');
}
