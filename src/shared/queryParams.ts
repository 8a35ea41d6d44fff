import { z } from 'zod';
import { PLATFORMS } from './vehicle';
import {
  SEARCH_ENUMS,
  SEARCH_PARAMS,
  type SearchParamDef,
  type SearchParamName,
  type SearchParamValues,
} from './vehicleParams';

/**
 * The query schemas of the endpoints Lotwatch sends parameters to (spec "GET /vehicles: query parameters",
 * "GET /locations", "GET /vehicles/{slugVin}/history", "Limits"), in one place: the contract checks a saved search's
 * and a live search's parameters with them at the boundary, and the API client checks every query with them again
 * before it costs a request. Pure: core and the renderer both import it.
 */

/** spec "Limits": per_page 1..20 on /vehicles, /history and /locations. */
export const MAX_PER_PAGE = 20;

const text = z.string().max(500, 'Must be at most 500 characters.');
const num = z.number('Must be a number.');
const nonNeg = num.min(0, 'Must not be negative.');
const int = z.number('Must be a whole number.').int('Must be a whole number.');
const year = int.min(1900, 'Must be a year from 1900.').max(2100, 'Must be a year up to 2100.');
const perPage = int
  .min(1, 'Must be at least 1.')
  .max(MAX_PER_PAGE, `Must not be greater than ${MAX_PER_PAGE}.`);
const multi = <T extends z.ZodType>(item: T) =>
  z.array(item, 'Must be a list.').max(50, 'At most 50 values.');
const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, `Must be one of: ${values.join(', ')}.`);
const platform = oneOf(PLATFORMS);
const date = z
  .string('Must be a date (YYYY-MM-DD).')
  .refine(isCalendarDate, 'Must be a real date in the form YYYY-MM-DD.');
const cursor = z.string().min(1, 'Must not be empty.').max(4000, 'Cursor is too long.');

/**
 * Lotwatch's own limits on GET /vehicles values, beyond what the specification's types say: no negative price,
 * mileage or engine figure, years 1900..2100, 1..16 cylinders, a 5-digit ZIP, a radius above 0, a 2-letter state
 * code, a cursor of 1..4000 characters. They refuse input the service could only answer with nothing or a 422,
 * before it costs a request.
 */
const LOTWATCH_LIMITS: Partial<Record<SearchParamName, z.ZodType>> = {
  price_min: nonNeg,
  price_max: nonNeg,
  year_from: year,
  year_to: year,
  odometer_from: nonNeg,
  odometer_to: nonNeg,
  engine_size_from: nonNeg,
  engine_size_to: nonNeg,
  engine_hp_from: nonNeg,
  engine_hp_to: nonNeg,
  cylinders: int.min(1, 'Must be at least 1.').max(16, 'Must be at most 16.'),
  cursor,
  zip: z.string().regex(/^\d{5}$/, 'Must be a 5-digit ZIP code.'),
  radius: num.positive('Must be greater than 0.'),
  loc_state: z.string().regex(/^[A-Za-z]{2}$/, 'Must be a 2-letter state code.'),
};

/** "0, 1 or 2": allowed values as the error messages list them. */
function orList(values: readonly (string | number)[]): string {
  const xs = values.map(String);
  return xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} or ${xs.at(-1) ?? ''}`;
}

/**
 * The check of one value of a GET /vehicles parameter, from its definition in SEARCH_PARAMS (type, allowed
 * values, the specification's min/max) and Lotwatch's own limits above.
 */
function valueSchema(d: SearchParamDef): z.ZodType {
  const own = LOTWATCH_LIMITS[d.name as SearchParamName];
  if (own) return own;
  switch (d.type) {
    case 'string':
      return text;
    case 'date':
      return date;
    case 'bool':
      return z.boolean('Must be true or false.');
    case 'enum':
      return oneOf(d.values as readonly [string, ...string[]]);
    case 'int':
    case 'number': {
      if (d.values)
        return z.literal(d.values as readonly [number, ...number[]], `Must be ${orList(d.values)}.`);
      let s = d.type === 'int' ? int : num;
      if (d.min !== undefined) s = s.min(d.min, `Must be at least ${d.min}.`);
      if (d.max !== undefined) s = s.max(d.max, `Must not be greater than ${d.max}.`);
      return s;
    }
  }
}

/**
 * Query of GET /vehicles: exactly the parameters of SEARCH_PARAMS (src/shared/vehicleParams, spec "GET /vehicles:
 * query parameters") under their wire names, each optional, any other name refused. Multi-valued parameters are
 * lists (sent repeated); dates are YYYY-MM-DD; prices in USD; odometer in miles.
 */
export const SearchParamsSchema = z
  .object(
    Object.fromEntries(SEARCH_PARAMS.map((d) => [d.name, d.multi ? multi(valueSchema(d)) : valueSchema(d)])),
  )
  .partial()
  .strict() as unknown as z.ZodType<SearchParamValues, SearchParamValues>;

/** Query of GET /vehicles (see SearchParamsSchema). */
export type SearchParams = SearchParamValues;

/**
 * A saved search's parameters as the store keeps them: checked by SearchParamsSchema when the search was saved, read
 * back as a plain object without checking again, so that a search saved under older rules still lists (the list must
 * never fail on one row) and its next run names what is now refused (the client checks every query before sending).
 */
export const StoredSearchParamsSchema = z.custom<SearchParamValues>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  'Must be an object of GET /vehicles parameters.',
);

/** Query of GET /locations (spec "GET /locations: query parameters"). */
export const LocationParamsSchema = z
  .object({
    platform,
    state: z.string().regex(/^[A-Za-z]{2}$/, 'Must be a 2-letter state code.'),
    facility_id: text,
    q: text,
    zip: z.string().regex(/^\d{5}$/, 'Must be a 5-digit ZIP code.'),
    radius: num.positive('Must be greater than 0.'),
    units: oneOf(SEARCH_ENUMS.units),
    per_page: perPage,
  })
  .partial()
  .strict();
export type LocationParams = z.input<typeof LocationParamsSchema>;

/** Query of GET /vehicles/{slugVin}/history. */
export const HistoryParamsSchema = z.object({ per_page: perPage, cursor }).partial().strict();
export type HistoryParams = z.input<typeof HistoryParamsSchema>;

/** True for a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}
