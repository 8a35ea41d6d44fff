import { ODOMETER_MILES, USD, lotNumberOf, type Bounds } from './bounds';
import { isObj, kind, type Reader } from './reader';

/**
 * Readers of single fields of a vehicle record in either dialect (docs/service-contract.md "Records"), for the
 * normaliser (parse.ts normalizeVehicle). Each reads leniently and counts a warning for what it cannot read. None
 * throws.
 */

/**
 * An odometer reading in miles (0 to 2,000,000, bounds.ts ODOMETER_MILES): the specification's number (or numeric
 * text), or the real service's `{ mi, km }` (docs/service-contract.md "Records"). The real object is the service's
 * normal dialect and reads silently; an object with only `km` is converted to miles with a warning.
 */
export function readOdometer(r: Reader): number | null {
  const v = r.get('odometer');
  if (isObj(v)) {
    if (v.mi !== undefined && v.mi !== null) return r.numOf('odometer.mi', v.mi, ODOMETER_MILES);
    if (v.km === undefined || v.km === null) {
      r.warn('odometer', 'object without mi or km read as null');
      return null;
    }
    r.warn('odometer', 'object read as its km value converted to miles');
    const km = r.numOf('odometer.km', v.km, { ...ODOMETER_MILES, max: ODOMETER_MILES.max * 1.609344 });
    return km === null ? null : Math.round(km / 1.609344);
  }
  return r.num('odometer', ODOMETER_MILES);
}

/** Photo URLs: media.photos, else the large/url of media.items of type image, else media.thumbs. */
export function readPhotos(raw: unknown, w: string[], path: string): string[] {
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
export function positiveOrNull(n: number | null): number | null {
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
export function specOr(spec: string | null, real: Reader, key: string): string | null {
  if (spec !== null) return spec;
  const v = real.get(key);
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return real.str(key);
}

/**
 * A number within `b` from the real dialect, where amounts and sizes may come as text ("3.0"); blank text is null.
 */
export function realNum(r: Reader, key: string, b: Bounds): number | null {
  const v = r.get(key);
  if (typeof v === 'string') {
    const t = v.trim().replace(/\s*l$/i, '');
    if (t === '') return null;
    if (/^-?\d+(\.\d+)?$/.test(t)) return r.numOf(key, Number(t), b);
  }
  return r.num(key, b);
}

/**
 * The lot number as stored (bounds.ts lotNumberOf): digits, never a number's text. A whole number is read as its
 * digits with a warning; anything else is null with a warning, and a list then skips the record.
 */
export function readLotNumber(r: Reader): string | null {
  const v = r.get('lot_number');
  const lot = lotNumberOf(v);
  if (v === undefined || v === null) return null;
  if (lot === null)
    r.warn(
      'lot_number',
      `${JSON.stringify(v)?.slice(0, 40) ?? kind(v)} is not a lot number (1 to 12 digits)`,
    );
  else if (typeof v === 'number') r.warn('lot_number', 'number read as text');
  return lot;
}

/**
 * IAAI's title brand from the raw `details` (docs/service-contract.md "Searching ended lots"): `attributes.TitleBrand`
 * (REPAIRABLE, REPAIRABLE-COLLISION, ...), else `sale_information.Brand`; blank text (no brand) is null. A Copart
 * record has no `details`: null, silently. `details` is the record's `details` reader (read once by the normaliser).
 */
export function readTitleBrand(details: Reader): string | null {
  const blankless = (t: string | null) => (t !== null && t.trim() !== '' ? t.trim() : null);
  return (
    blankless(details.sub('attributes').str('TitleBrand')) ??
    blankless(details.sub('sale_information').str('Brand'))
  );
}

/**
 * An amount in USD (bounds.ts USD) as IAAI's `details` write it: text "$18,349 USD" (dollar sign, thousands commas
 * and the currency word are its dialect and read silently), a number 20821, or numeric text "20821". 0 is "none"
 * (null); all asterisks ("******", IAAI masking a figure from the public) is null without a warning; anything else
 * that is not an amount ("N/A", a list, 1e308, a negative amount) is null with a warning: one bad field, never a bad
 * record (docs/service-contract.md "Numbers out of range").
 */
export function readDollars(r: Reader, key: string): number | null {
  const v = r.get(key);
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'string') {
    const t = v.trim();
    if (t === '' || /^\*+$/.test(t)) return null;
    const m = /^\$?\s*(\d{1,3}(,\d{3})+|\d+)(\.\d+)?\s*(USD)?$/i.exec(t);
    if (!m) {
      r.warn(key, `${JSON.stringify(v.slice(0, 40))} is not an amount in USD: read as unknown`);
      return null;
    }
    return positiveOrNull(r.numOf(key, Number(`${m[1]!.replace(/,/g, '')}${m[3] ?? ''}`), USD));
  }
  return positiveOrNull(r.numOf(key, v, USD));
}

/**
 * IAAI's own figures of a record, USD, null when absent (docs/service-contract.md "The estimates in the normalised
 * record"): the ACV from `details.sale_information.ActualCashValue`, else `details.attributes.ProviderACV`; the
 * estimated repair cost from `details.sale_information.EstimatedRepairCost`, else `details.attributes.EstRepairCost`
 * (each read by readDollars). No Copart record seen carries either. The one reader of these paths: the normaliser and
 * the migration that fills records stored before them use it. Warnings go to `r`'s list. Throws nothing.
 */
export function readIaaiFigures(details: Reader): { acv_usd: number | null; est_repair_usd: number | null } {
  const sale = details.sub('sale_information');
  const attrs = details.sub('attributes');
  return {
    acv_usd: readDollars(sale, 'ActualCashValue') ?? readDollars(attrs, 'ProviderACV'),
    est_repair_usd: readDollars(sale, 'EstimatedRepairCost') ?? readDollars(attrs, 'EstRepairCost'),
  };
}
