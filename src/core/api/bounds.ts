/**
 * The plausible range of every number the normaliser reads from a record (docs/service-contract.md "Numbers out
 * of range"). A value outside its range, a fraction where a whole number is meant, or a number JSON cannot hold
 * exactly (`1e308`, `1e999` read as Infinity) is read as null with a warning: the field is unknown, the record and its
 * page are kept. The ranges are wide enough for every real vehicle and narrow enough that a value inside one fits the
 * SQLite column it is stored in and reads sensibly on screen.
 */

/** A closed range of numbers, and whether only whole numbers belong to it. */
export interface Bounds {
  min: number;
  max: number;
  integer: boolean;
}

/** Any finite number: what a field without a tighter range accepts. */
export const ANY_NUMBER: Bounds = { min: -Number.MAX_VALUE, max: Number.MAX_VALUE, integer: false };

/** Any whole number that a double holds exactly (a count, per_page): never 1e308. */
export const ANY_COUNT: Bounds = { min: 0, max: Number.MAX_SAFE_INTEGER, integer: true };

/** The first model year of a vehicle on sale at Copart or IAAI is well after 1900; older is a typo or junk. */
export const MIN_MODEL_YEAR = 1900;

/**
 * Model years run ahead of the calendar: a 2027 model is sold from the spring of 2026. Two years ahead of the current
 * UTC year leaves room for an early release and no more.
 */
export const MODEL_YEARS_AHEAD = 2;

/** The model years a record may carry at `now` (ms since the epoch): 1900 to two years after now's year. */
export function modelYearBounds(now: number): Bounds {
  return { min: MIN_MODEL_YEAR, max: new Date(now).getUTCFullYear() + MODEL_YEARS_AHEAD, integer: true };
}

/**
 * Odometer readings, miles: a million-mile truck exists, two million does not; a reading is never negative. Wider
 * than any real vehicle, far below what breaks a column.
 */
export const ODOMETER_MILES: Bounds = { min: 0, max: 2_000_000, integer: false };

/**
 * Amounts in USD (bids, buy now, sale prices, the service's cost estimate, shipping): the dearest car ever sold at
 * auction went for about $143 million, but salvage auctions sell nothing near $10 million; an amount is never
 * negative.
 */
export const USD: Bounds = { min: 0, max: 10_000_000, integer: false };

/** Engine displacement, litres: the largest production car engines are about 8.4 L, trucks 16 L. */
export const ENGINE_LITRES: Bounds = { min: 0, max: 30, integer: false };

/** Engine power, horsepower: the most powerful road cars make about 2,000 hp. */
export const ENGINE_HP: Bounds = { min: 0, max: 5_000, integer: false };

/** Latitude, degrees. */
export const LATITUDE: Bounds = { min: -90, max: 90, integer: false };

/** Longitude, degrees. */
export const LONGITUDE: Bounds = { min: -180, max: 180, integer: false };

/**
 * A lot number: 1 to 12 digits, as the lot numbers Lotwatch sends are checked (validate.ts checkLotNumber); Copart
 * and IAAI lot numbers have 8. It is stored and sent as text, so it must be digits, never a number's text ("1e+308").
 */
export const LOT_NUMBER = /^\d{1,12}$/;

/**
 * A lot number as Lotwatch stores it: text of 1 to 12 digits (trimmed), or a whole number of at most 12 digits
 * (`12345678` -> "12345678"); null for anything else (`1e308`, `-5`, `12.5`, "ABC", a list). Throws nothing.
 */
export function lotNumberOf(v: unknown): string | null {
  const s =
    typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
      ? String(v)
      : typeof v === 'string'
        ? v.trim()
        : '';
  return LOT_NUMBER.test(s) ? s : null;
}

/** A bound as a person writes it: 2028, 2,000,000. */
function words(n: number): string {
  return Math.abs(n) >= 10_000 ? n.toLocaleString('en-US') : String(n);
}

/** Why `n` is outside `b`, or null when it is inside. */
export function outOfBounds(n: number, b: Bounds): string | null {
  if (!Number.isFinite(n)) return 'not a finite number';
  if (b.integer && !Number.isInteger(n)) return `${n} is not a whole number`;
  if (n < b.min || n > b.max) return `${n} is outside ${words(b.min)} to ${words(b.max)}`;
  return null;
}
