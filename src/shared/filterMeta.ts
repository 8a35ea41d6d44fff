/**
 * GET /vehicles/filters read into one typed FilterMeta, whichever dialect the service speaks:
 * - the real service's (docs/service-contract.md "Filters"): 20 keys such as `make_model {makes, models_by_make}`,
 *   `types [{id, name, ...}]`, `cylinders {options: [...]}`, `running_condition {options: [{value, label}]}`,
 *   `seller_type {param, options}`, `lot {status, sub_status, defaults}`, `ranges`;
 * - the specification-style one (the flat lists Lotwatch's sandbox serves, src/sandbox vehicleFilters): `makes`,
 *   `models {MAKE: [...]}`, `types`, `damages`, `run_conditions` of `{value, count}`, and `{min, max}` per range.
 * The body is about 2 MB and its inner shapes are undocumented, so the reader is lenient about wrappers and item
 * shapes, but it never guesses a value: what is missing or unreadable becomes an empty list or null. It never
 * throws. Pure and zod-free, for the renderer's search form and anything in core that needs the same choices.
 */
import { SEARCH_ENUMS, toSpecValue, toSpecValues, type SearchEnumParam } from './vehicleParams';

/** One choice the service lists: the value to send, what to show, and how many open lots have it when told. */
export interface Choice {
  value: string;
  label: string;
  count?: number;
}

/** A range the service lists, for placeholders only (never sent on its own). Either end may be unknown. */
export interface NumberRange {
  min: number | null;
  max: number | null;
}

/** What the service says can be searched for, in one shape whichever dialect it came in. */
export interface FilterMeta {
  /** Make names, as sent in `make` (e.g. "AUDI"). */
  makes: string[];
  /** Model names by make name, as sent in `model` (e.g. { AUDI: ["A4", "S5"] }). */
  modelsByMake: Record<string, string[]>;
  /** Vehicle type NAMES, as sent in `type` (e.g. "AUTOMOBILE"; the real list's numeric ids are never kept). */
  types: string[];
  colors: Choice[];
  fuelTypes: Choice[];
  transmissions: Choice[];
  driveTypes: Choice[];
  /** Cylinder counts (whole numbers above 0), as sent in `cylinders`. */
  cylinders: number[];
  damage: Choice[];
  runConditions: Choice[];
  hasKey: Choice[];
  sellerTypes: Choice[];
  lotStatuses: Choice[];
  lotSubStatuses: Choice[];
  saleDocumentTypes: Choice[];
  /** Location state codes or names, as listed. */
  locStates: Choice[];
  /** Ranges for placeholders: year, odometer (mi), price (USD), engine size (litres), engine power (hp). */
  ranges: {
    year: NumberRange | null;
    odometer: NumberRange | null;
    price: NumberRange | null;
    engineSize: NumberRange | null;
    engineHp: NumberRange | null;
  };
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Own property only: a key such as "constructor" in the body must not read Object.prototype. */
const own = (o: Obj, k: string): unknown => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

/** The first of `keys` that `o` has (own, not undefined). */
function pick(o: unknown, keys: readonly string[]): unknown {
  if (!isObj(o)) return undefined;
  for (const k of keys) {
    const v = own(o, k);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** A non-empty trimmed string, or null. */
function str(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const s = v.trim();
  return s ? s : null;
}

/** A finite number from a number or a numeric string ("3.0"), or null. */
function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return null;
}

/** The items of a list: a plain array, or the array under `options` (`values`, `items`) of a wrapper object. */
function items(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  const inner = pick(v, ['options', 'values', 'items']);
  return Array.isArray(inner) ? inner : [];
}

/**
 * A name from a list item: a string, a number written out, or an object's `value`, `name`, `label` (also `make`,
 * `model`, `title`) when that is a string. An `id` is never a name: the real `types` list is `{id, name}` and the
 * service wants the name.
 */
function nameOf(x: unknown): string | null {
  if (typeof x === 'string') return str(x);
  if (typeof x === 'number') return Number.isFinite(x) ? String(x) : null;
  if (!isObj(x)) return null;
  for (const k of ['value', 'name', 'label', 'make', 'model', 'title']) {
    const s = str(own(x, k));
    if (s) return s;
  }
  return null;
}

/** A choice from a list item: a string or number, or `{value, label, count}` (`name` standing in for either). */
function choiceOf(x: unknown): Choice | null {
  if (typeof x === 'string' || typeof x === 'number') {
    const v = nameOf(x);
    return v ? { value: v, label: v } : null;
  }
  if (!isObj(x)) return null;
  const raw = own(x, 'value');
  const value =
    str(raw) ?? (typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : null) ?? str(own(x, 'name'));
  if (!value) return null;
  const label = str(own(x, 'label')) ?? str(own(x, 'name')) ?? str(own(x, 'text')) ?? value;
  const count = own(x, 'count');
  return typeof count === 'number' && Number.isFinite(count) && count >= 0
    ? { value, label, count }
    : { value, label };
}

/** Names of a list, without blanks or repeats (first spelling kept). */
function names(v: unknown): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const x of items(v)) {
    const n = nameOf(x);
    if (n && !seen.has(n)) {
      seen.add(n);
      out.push(n);
    }
  }
  return out;
}

/** Choices of a list, without repeats of a value (first kept). */
function choices(v: unknown): Choice[] {
  const seen = new Set<string>();
  const out: Choice[] = [];
  for (const x of items(v)) {
    const c = choiceOf(x);
    if (c && !seen.has(c.value)) {
      seen.add(c.value);
      out.push(c);
    }
  }
  return out;
}

/** The first of several places that yields a non-empty list. */
function firstList<T>(read: (v: unknown) => T[], ...places: unknown[]): T[] {
  for (const p of places) {
    const l = read(p);
    if (l.length) return l;
  }
  return [];
}

/** `{min, max}` or `{from, to}` (also `[min, max]`); null when neither end is a number. */
function rangeOf(v: unknown): NumberRange | null {
  let min: number | null = null;
  let max: number | null = null;
  if (Array.isArray(v) && v.length === 2) {
    min = num(v[0]);
    max = num(v[1]);
  } else if (isObj(v)) {
    min = num(pick(v, ['min', 'from']));
    max = num(pick(v, ['max', 'to']));
  }
  return min === null && max === null ? null : { min, max };
}

/**
 * A range under one of `keys` in a `ranges` object (each `{min, max}` or `{from, to}`), or written flat in it
 * (`year_min`/`year_max`, `year_from`/`year_to`), or in a `ranges` list of `{name|key|param, min, max}`, or at the
 * top level of the specification-style body.
 */
function findRange(data: Obj, keys: readonly string[]): NumberRange | null {
  const ranges = own(data, 'ranges');
  if (isObj(ranges)) {
    for (const k of keys) {
      const r = rangeOf(own(ranges, k));
      if (r) return r;
      const flat = rangeOf({
        min: pick(ranges, [`${k}_min`, `${k}_from`, `min_${k}`]),
        max: pick(ranges, [`${k}_max`, `${k}_to`, `max_${k}`]),
      });
      if (flat) return flat;
    }
  } else if (Array.isArray(ranges)) {
    for (const k of keys) {
      const hit = ranges.find((x) => isObj(x) && str(pick(x, ['name', 'key', 'param'])) === k);
      const r = rangeOf(hit);
      if (r) return r;
    }
  }
  for (const k of keys) {
    const r = isObj(own(data, k)) ? rangeOf(own(data, k)) : null;
    if (r) return r;
  }
  return null;
}

/** Positive whole numbers of a list (numbers, numeric strings or `{value}`), without repeats, ascending. */
function wholeNumbers(v: unknown): number[] {
  const out = new Set<number>();
  for (const x of items(v)) {
    const n = num(isObj(x) ? own(x, 'value') : x);
    if (n !== null && Number.isSafeInteger(n) && n > 0) out.add(n);
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * Makes and their models. Real: `make_model {makes, models_by_make}`, where a make may be a name or an object
 * (`{name}`, `{value, label}`, `{id, name, slug}`) and `models_by_make` may be keyed by the make's name, slug or
 * id; a key that names no listed make is kept under its own name unless it is a bare number (an id we cannot
 * name). Specification style: `makes [...]` and `models {MAKE: [...]}`.
 */
function makesAndModels(data: Obj): { makes: string[]; modelsByMake: Record<string, string[]> } {
  const mm = own(data, 'make_model');
  const rawMakes = isObj(mm) ? own(mm, 'makes') : pick(data, ['makes', 'make']);
  const rawModels = isObj(mm)
    ? pick(mm, ['models_by_make', 'models'])
    : pick(data, ['models', 'models_by_make']);
  const makeItems = items(rawMakes).length ? items(rawMakes) : isObj(rawMakes) ? Object.keys(rawMakes) : [];

  const makes: string[] = [];
  const byAlias = new Map<string, string>();
  for (const x of makeItems) {
    const name = nameOf(x);
    if (!name) continue;
    if (!byAlias.has(name.toLowerCase())) makes.push(name);
    byAlias.set(name.toLowerCase(), name);
    if (isObj(x)) {
      for (const k of ['id', 'slug', 'value', 'name', 'label']) {
        const a = own(x, k);
        if (typeof a === 'string' || (typeof a === 'number' && Number.isFinite(a))) {
          const key = String(a).toLowerCase();
          if (!byAlias.has(key)) byAlias.set(key, name);
        }
      }
    }
  }

  const models = new Map<string, string[]>();
  if (isObj(rawModels)) {
    for (const [key, list] of Object.entries(rawModels)) {
      const make = byAlias.get(key.toLowerCase()) ?? (/^\d+$/.test(key) ? null : str(key));
      if (!make) continue;
      const ms = names(list);
      if (ms.length) models.set(make, [...new Set([...(models.get(make) ?? []), ...ms])]);
    }
  }
  // Object.fromEntries defines own properties, so a make called "__proto__" stays a make.
  return { makes, modelsByMake: Object.fromEntries(models) };
}

/**
 * The sale document types. Real: `sale_document_filters`, inner shape not captured: a list, `{options}`, or a
 * list under `types` / `sale_document_type(s)` / `documents`. Specification style: `sale_document_types`.
 */
function saleDocumentTypes(data: Obj): Choice[] {
  const sdf = own(data, 'sale_document_filters');
  return firstList(
    choices,
    sdf,
    pick(sdf, ['types', 'sale_document_type', 'sale_document_types', 'documents']),
    pick(data, ['sale_document_types', 'sale_document_type']),
  );
}

/**
 * Location states. Real: `location_filters`, inner shape not captured: a list under `states` / `loc_state(s)` /
 * `state`, each a code or `{value|code, label|name}`. Specification style: `loc_states` or `states`.
 */
function locStates(data: Obj): Choice[] {
  const lf = own(data, 'location_filters');
  // A state may come as {code, name}: the code is what loc_state takes.
  const withCode = (x: unknown): unknown =>
    isObj(x) && own(x, 'value') === undefined && own(x, 'code') !== undefined
      ? { ...x, value: own(x, 'code') }
      : x;
  const read = (v: unknown): Choice[] => choices(items(v).map(withCode));
  return firstList(
    read,
    pick(lf, ['states', 'loc_states', 'loc_state', 'state']),
    pick(data, ['loc_states', 'states', 'loc_state']),
  );
}

/** A FilterMeta with every list empty and every range null: what is known when nothing was received. */
export function emptyFilterMeta(): FilterMeta {
  return {
    makes: [],
    modelsByMake: {},
    types: [],
    colors: [],
    fuelTypes: [],
    transmissions: [],
    driveTypes: [],
    cylinders: [],
    damage: [],
    runConditions: [],
    hasKey: [],
    sellerTypes: [],
    lotStatuses: [],
    lotSubStatuses: [],
    saleDocumentTypes: [],
    locStates: [],
    ranges: { year: null, odometer: null, price: null, engineSize: null, engineHp: null },
  };
}

/**
 * Reads the `data` object of a GET /vehicles/filters response (either dialect, see the module comment) into a
 * FilterMeta. Any JSON value is accepted: a body that is not an object, or a key that is missing or of another
 * shape, gives empty lists and null ranges. Never throws, never invents a value. Sources:
 * docs/service-contract.md "Filters" for the real keys; the sandbox's specification-style body for the fallback
 * dialect.
 */
export function readFilterMeta(data: unknown): FilterMeta {
  const meta = emptyFilterMeta();
  if (!isObj(data)) return meta;
  try {
    const { makes, modelsByMake } = makesAndModels(data);
    const lot = own(data, 'lot');
    return {
      makes,
      modelsByMake,
      types: names(pick(data, ['types', 'type', 'vehicle_types'])),
      colors: firstList(choices, own(data, 'color'), own(data, 'colors')),
      fuelTypes: firstList(choices, own(data, 'fuel_type'), own(data, 'fuel_types')),
      transmissions: firstList(choices, own(data, 'transmission'), own(data, 'transmissions')),
      driveTypes: firstList(choices, own(data, 'drive_type'), own(data, 'drive_types')),
      cylinders: wholeNumbers(own(data, 'cylinders')),
      damage: firstList(choices, own(data, 'damage'), own(data, 'damages')),
      runConditions: firstList(
        choices,
        own(data, 'running_condition'),
        own(data, 'run_conditions'),
        own(data, 'run_cond'),
      ),
      hasKey: firstList(choices, own(data, 'has_key'), own(data, 'keys')),
      sellerTypes: firstList(choices, own(data, 'seller_type'), own(data, 'seller_types')),
      lotStatuses: firstList(choices, pick(lot, ['status', 'lot_status']), own(data, 'lot_status')),
      lotSubStatuses: firstList(
        choices,
        pick(lot, ['sub_status', 'lot_sub_status']),
        own(data, 'lot_sub_status'),
      ),
      saleDocumentTypes: saleDocumentTypes(data),
      locStates: locStates(data),
      ranges: {
        year: findRange(data, ['year', 'years']),
        odometer: findRange(data, ['odometer', 'mileage']),
        price: findRange(data, ['price', 'current_bid']),
        engineSize: findRange(data, ['engine_size', 'engine']),
        engineHp: findRange(data, ['engine_hp', 'hp', 'horsepower']),
      },
    };
  } catch {
    // Unreachable for JSON input; kept so a surprise in a 2 MB body costs the choices, never the search form.
    return meta;
  }
}

/** A choice of an enumerated parameter as the form offers it: `sendable` false when the specification refuses it. */
export interface SpecChoice extends Choice {
  sendable: boolean;
}

/** "NO INFORMATION" -> "No information": a spec spelling in capitals, made readable as a label. */
function readable(v: string): string {
  return v === v.toUpperCase() && /[A-Z]{2}/.test(v) ? v.charAt(0) + v.slice(1).toLowerCase() : v;
}

/**
 * The choices of an enumerated GET /vehicles parameter, given what the service listed for it:
 * - every listed value the specification allows, in the service's order, its value re-spelled the
 *   specification's way ("mechanical" -> "Mechanical", "All Wheel Drive" -> "AWD"), repeats merged, the
 *   service's label kept; the value decides, except a bare number (an id), where the label does;
 * - a listed value that folds several specification values into one ("STATIONARY / NO INFORMATION", see
 *   toSpecValues) offers each of them, so every run condition the specification has can be picked; the
 *   service's label goes to the part it names ("Stationary"), the others read as the spec spells them, and the
 *   folded count is not split between them;
 * - every listed value the specification does not allow, with `sendable: false`, so the form can show it
 *   disabled and never send it to be refused;
 * - when the service listed nothing for the parameter, or nothing the specification allows, the specification's
 *   own list (the fallback when the metadata is missing, e.g. offline).
 * Source: spec "GET /vehicles: query parameters" (rule 11 of the client: send only what the specification lists).
 */
export function specChoices(param: SearchEnumParam, listed: readonly Choice[]): SpecChoice[] {
  const ok: SpecChoice[] = [];
  const refused: SpecChoice[] = [];
  const seen = new Set<string>();
  for (const c of listed) {
    // The value is what the service takes, so it decides; only an opaque number (an id) lets the label decide.
    const id = /^\d+$/.test(c.value);
    const specs: string[] = id ? toSpecValues(param, c.label) : toSpecValues(param, c.value);
    if (specs.length === 0) {
      refused.push({ ...c, sendable: false });
      continue;
    }
    for (const spec of specs) {
      if (seen.has(spec)) continue;
      seen.add(spec);
      if (specs.length === 1) {
        const label = c.label !== c.value && !id ? c.label : spec;
        ok.push({ value: spec, label, ...(c.count !== undefined ? { count: c.count } : {}), sendable: true });
      } else {
        const label = toSpecValue(param, c.label) === spec ? c.label : readable(spec);
        ok.push({ value: spec, label, sendable: true });
      }
    }
  }
  const base = ok.length
    ? ok
    : (SEARCH_ENUMS[param] as readonly string[]).map((v) => ({ value: v, label: v, sendable: true }));
  return [...base, ...refused];
}
