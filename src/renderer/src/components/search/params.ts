/**
 * The search form and the GET /vehicles parameters it stands for (spec "GET /vehicles: query parameters").
 * Every field of the form carries the spec's parameter name, so a service field error (`params.year_from` or
 * `year_from`) lands on the field of the same name.
 */

/** Parameters that take several values (repeated in the query). */
export const MULTI_FIELDS = ['color', 'fuel_type', 'transmission', 'cylinders', 'drive_type', 'damage'] as const;
/** Parameters sent as numbers. */
export const NUMBER_FIELDS = [
  'price_min',
  'price_max',
  'year_from',
  'year_to',
  'odometer_from',
  'odometer_to',
  'engine_size_from',
  'engine_size_to',
  'engine_hp_from',
  'engine_hp_to',
  'radius',
] as const;
/** Flags sent only when set (their default is false). */
export const FLAG_FIELDS = ['today_only', 'sale_document_pending', 'has_shipping_price'] as const;
/** Plain text or single-choice parameters. */
export const TEXT_FIELDS = [
  's',
  'lot_status',
  'lot_sub_status',
  'platform',
  'type',
  'make',
  'model',
  'run_cond',
  'has_key',
  'zip',
  'units',
  'facility_id',
  'loc_state',
  'office_name',
  'auction_date_from',
  'auction_date_to',
  'sale_document_type',
  'seller_type',
] as const;

type MultiField = (typeof MULTI_FIELDS)[number];
type NumberField = (typeof NUMBER_FIELDS)[number];
type FlagField = (typeof FLAG_FIELDS)[number];
type TextField = (typeof TEXT_FIELDS)[number];

/** The form's values: strings as typed, arrays for multi parameters, booleans for flags. */
export type SearchForm = Record<TextField | NumberField, string> & Record<MultiField, string[]> & Record<FlagField, boolean>;

/** Every parameter name the form offers (the spec's list, less cursor and per_page which paging owns). */
export const ALL_FIELDS = [...TEXT_FIELDS, ...NUMBER_FIELDS, ...MULTI_FIELDS, ...FLAG_FIELDS] as const;

/** An empty form: the service's defaults apply to everything not set. */
export function emptyForm(): SearchForm {
  const f = {} as Record<string, unknown>;
  for (const k of TEXT_FIELDS) f[k] = '';
  for (const k of NUMBER_FIELDS) f[k] = '';
  for (const k of MULTI_FIELDS) f[k] = [];
  for (const k of FLAG_FIELDS) f[k] = false;
  return f as SearchForm;
}

/**
 * The GET /vehicles parameters of a form: empty values are left out (the service default applies), numbers
 * become numbers (a value that is not a number is sent as typed, so the service's 422 names the field),
 * cylinders become integers, flags are sent only when true.
 */
export function toParams(f: SearchForm): Record<string, unknown> {
  const p: Record<string, unknown> = {};
  for (const k of TEXT_FIELDS) {
    const v = f[k].trim();
    if (v !== '') p[k] = v;
  }
  for (const k of NUMBER_FIELDS) {
    const v = f[k].trim();
    if (v === '') continue;
    const n = Number(v);
    p[k] = Number.isFinite(n) ? n : v;
  }
  for (const k of MULTI_FIELDS) {
    const vs = (f[k] ?? []).filter((x) => x !== '');
    if (vs.length) p[k] = k === 'cylinders' ? vs.map((x) => (Number.isInteger(Number(x)) ? Number(x) : x)) : vs;
  }
  for (const k of FLAG_FIELDS) if (f[k]) p[k] = true;
  return p;
}

/** A form filled from stored parameters (e.g. a saved search); unknown names are ignored. */
export function fromParams(params: Record<string, unknown>): SearchForm {
  const f = emptyForm() as Record<string, unknown>;
  for (const [k, v] of Object.entries(params)) {
    if ((MULTI_FIELDS as readonly string[]).includes(k)) f[k] = (Array.isArray(v) ? v : [v]).map(String);
    else if ((FLAG_FIELDS as readonly string[]).includes(k)) f[k] = v === true || v === 'true' || v === 1;
    else if (k in f && v !== null && v !== undefined) f[k] = String(v);
  }
  return f as SearchForm;
}

/** The parameter a service field error names: `params.year_from` and `year_from` both give `year_from`. */
export function fieldOfErrorKey(key: string): string {
  return key.replace(/^params\./, '').replace(/\.\d+$/, '');
}

/** One choice of a filter: the wire value, what to show, and how many open lots have it when the service said. */
export interface Option {
  value: string;
  label: string;
  count?: number;
}

/** Option lists of the spec, used when the filter metadata does not list a filter. */
const SPEC_OPTIONS: Record<string, string[]> = {
  lot_status: ['All', 'Timed', 'Buy Now'],
  lot_sub_status: ['Live', 'Open', 'Ended'],
  fuel_type: ['Diesel', 'Hybrid', 'Electric', 'Flexible', 'Gasoline', 'All others'],
  transmission: ['Manual', 'Unknown', 'Automatic'],
  drive_type: ['AWD', 'FWD', 'RWD'],
  run_cond: ['STATIONARY', 'NO INFORMATION', 'RUNS AND DRIVES', 'ENGINE START PROGRAM'],
  damage: ['Fire', 'Hail', 'Theft', 'Water', 'Chemical', 'Rollover', 'Mechanical', 'Vandalized', 'Repossession'],
  has_key: ['No', 'All', 'With'],
  units: ['mi', 'km'],
  seller_type: ['dealer', 'finance', 'insurance', 'non_insurance'],
};

/** Where a parameter's options may sit in the filter metadata (the service does not document the names). */
const META_KEYS: Record<string, string[]> = {
  platform: ['platforms', 'platform'],
  lot_status: ['lot_status', 'lot_statuses'],
  lot_sub_status: ['lot_sub_status', 'lot_sub_statuses'],
  type: ['types', 'type', 'vehicle_types'],
  make: ['makes', 'make'],
  color: ['colors', 'color'],
  fuel_type: ['fuel_types', 'fuel_type'],
  transmission: ['transmissions', 'transmission'],
  cylinders: ['cylinders'],
  drive_type: ['drive_types', 'drive_type'],
  run_cond: ['run_conditions', 'run_cond'],
  damage: ['damages', 'damage'],
  has_key: ['has_key', 'keys'],
  units: ['units'],
  loc_state: ['loc_states', 'states', 'loc_state'],
  seller_type: ['seller_types', 'seller_type'],
  sale_document_type: ['sale_document_types', 'sale_document_type'],
  ports: ['ports'],
};

const PLATFORM_LABELS: Record<string, string> = { copart: 'Copart', iaai: 'IAAI' };

function toOption(x: unknown): Option | null {
  if (typeof x === 'string' || typeof x === 'number') return { value: String(x), label: String(x) };
  if (x && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    const value = o['value'] ?? o['id'] ?? o['name'];
    if (typeof value !== 'string' && typeof value !== 'number') return null;
    const label = typeof o['label'] === 'string' ? o['label'] : typeof o['name'] === 'string' ? o['name'] : String(value);
    const count = typeof o['count'] === 'number' ? o['count'] : undefined;
    return { value: String(value), label, ...(count !== undefined ? { count } : {}) };
  }
  return null;
}

function listOf(v: unknown): Option[] | null {
  if (!Array.isArray(v)) return null;
  const out = v.map(toOption).filter((o): o is Option => o !== null);
  return out.length ? out : null;
}

/** The choices for a parameter from the filter metadata, else the spec's list, else none (a free text field). */
export function optionsFor(meta: Record<string, unknown> | null, param: string): Option[] {
  for (const k of META_KEYS[param] ?? [param]) {
    const l = meta ? listOf(meta[k]) : null;
    if (l) return param === 'platform' ? l.map((o) => ({ ...o, label: PLATFORM_LABELS[o.value] ?? o.label })) : l;
  }
  if (param === 'platform') return [{ value: 'copart', label: 'Copart' }, { value: 'iaai', label: 'IAAI' }];
  return (SPEC_OPTIONS[param] ?? []).map((v) => ({ value: v, label: v }));
}

/** Models of a make from the metadata (`models: {MAKE: [...]}`), or none. */
export function modelsFor(meta: Record<string, unknown> | null, make: string): Option[] {
  const models = meta?.['models'];
  if (!make || !models || typeof models !== 'object') return [];
  const m = models as Record<string, unknown>;
  const key = Object.keys(m).find((k) => k.toLowerCase() === make.toLowerCase());
  return (key ? listOf(m[key]) : null) ?? [];
}

/** A `{min, max}` range from the metadata (`year`, `price`, `odometer`, ...), for placeholders. */
export function rangeFor(meta: Record<string, unknown> | null, name: string): { min: number | null; max: number | null } {
  const r = meta?.[name];
  if (r && typeof r === 'object' && !Array.isArray(r)) {
    const o = r as Record<string, unknown>;
    return { min: typeof o['min'] === 'number' ? o['min'] : null, max: typeof o['max'] === 'number' ? o['max'] : null };
  }
  return { min: null, max: null };
}

/** A short name for a set of parameters, e.g. "TOYOTA COROLLA 2018–2022 · Copart". */
export function describeParams(p: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof p['s'] === 'string') parts.push(`“${p['s']}”`);
  if (p['make']) parts.push(String(p['make']));
  if (p['model']) parts.push(String(p['model']));
  if (p['year_from'] !== undefined || p['year_to'] !== undefined) parts.push(`${String(p['year_from'] ?? '…')}–${String(p['year_to'] ?? '…')}`);
  if (p['platform']) parts.push(PLATFORM_LABELS[String(p['platform'])] ?? String(p['platform']));
  if (Array.isArray(p['damage'])) parts.push(p['damage'].join('/'));
  if (p['price_max'] !== undefined) parts.push(`under $${String(p['price_max'])}`);
  return parts.length ? parts.join(' ') : 'All open lots';
}
