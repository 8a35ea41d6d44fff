/**
 * The search form and the GET /vehicles parameters it stands for (spec "GET /vehicles: query parameters"), its
 * fields, kinds and labels taken from SEARCH_PARAMS (src/shared/vehicleParams). Every field of the form carries
 * the spec's parameter name, so a service field error (`params.year_from` or
 * `year_from`) lands on the field of the same name.
 */
import { specChoices, type Choice, type FilterMeta, type NumberRange } from '../../../../shared/filterMeta';
import { LOCAL_DAMAGE_KINDS, LOCAL_FILTER_NOTE, isSendableDamage } from '../../../../shared/localRefinements';
import { PLATFORMS } from '../../../../shared/vehicle';
import {
  SEARCH_PARAMS,
  searchParam,
  type FormParamName,
  type SearchEnumParam,
  type SearchParamDef,
} from '../../../../shared/vehicleParams';

const PLATFORM_LABELS: Record<string, string> = { copart: 'Copart', iaai: 'IAAI' };

/** The parameters the form has a field for: SEARCH_PARAMS less cursor, per_page and auction_type. */
const FORM_PARAMS: readonly SearchParamDef[] = SEARCH_PARAMS.filter((p) => p.form);
const namesOf = (keep: (p: SearchParamDef) => boolean) =>
  FORM_PARAMS.filter(keep).map((p) => p.name as FormParamName);

/** Parameters that take several values (repeated in the query). */
export const MULTI_FIELDS = namesOf((p) => p.multi);
/** Parameters sent as numbers. */
export const NUMBER_FIELDS = namesOf(
  (p) => !p.multi && !p.values && (p.type === 'int' || p.type === 'number'),
);
/** Flags sent only when set (their default is false). */
export const FLAG_FIELDS = namesOf((p) => p.type === 'bool');
/** Plain text, date or single-choice parameters. */
export const TEXT_FIELDS = namesOf(
  (p) => !p.multi && (p.type === 'string' || p.type === 'date' || p.type === 'enum'),
);

type FormDef = Extract<(typeof SEARCH_PARAMS)[number], { form: true }>;

/** The form's values: strings as typed, arrays for multi parameters, booleans for flags. */
export type SearchForm = {
  [D in FormDef as D['name']]: D extends { multi: true }
    ? string[]
    : D extends { type: 'bool' }
      ? boolean
      : string;
};

/** Every parameter name the form offers (the spec's list, less cursor and per_page which paging owns, and auction_type). */
export const ALL_FIELDS: readonly FormParamName[] = FORM_PARAMS.map((p) => p.name as FormParamName);

/** The form label of a parameter ("Year from"), from SEARCH_PARAMS; the name itself for one the spec does not list. */
export function labelOf(name: string): string {
  return searchParam(name)?.label ?? name;
}

/** The "(default)" choice of a single-choice field: the spec's default when it names one ("All (default)"), else "Any". */
export function defaultLabel(name: string): string {
  const d = searchParam(name)?.default;
  return d === undefined ? 'Any' : `${String(d)} (default)`;
}

/** An empty form: the service's defaults apply to everything not set. */
export function emptyForm(): SearchForm {
  const f: Record<string, unknown> = {};
  for (const k of TEXT_FIELDS) f[k] = '';
  for (const k of NUMBER_FIELDS) f[k] = '';
  for (const k of MULTI_FIELDS) f[k] = [];
  for (const k of FLAG_FIELDS) f[k] = false;
  return f as SearchForm;
}

/**
 * The GET /vehicles parameters of a form: empty values are left out (the service default applies), numbers
 * become numbers (a value that is not a number is sent as typed, so the service's 422 names the field), the
 * values of an integer multi parameter (cylinders) become integers, flags are sent only when true.
 */
export function toParams(form: SearchForm): Record<string, unknown> {
  const f = form as Record<string, unknown>;
  const p: Record<string, unknown> = {};
  for (const k of TEXT_FIELDS) {
    const v = String(f[k] ?? '').trim();
    if (v !== '') p[k] = v;
  }
  for (const k of NUMBER_FIELDS) {
    const v = String(f[k] ?? '').trim();
    if (v === '') continue;
    const n = Number(v);
    p[k] = Number.isFinite(n) ? n : v;
  }
  for (const k of MULTI_FIELDS) {
    // A list with a single checkbox gives its value as a string (false when unchecked), not as a list.
    const raw: unknown = f[k];
    const vs = (Array.isArray(raw) ? raw : [raw]).filter(
      (x): x is string => typeof x === 'string' && x !== '',
    );
    const int = searchParam(k)?.type === 'int';
    if (vs.length) p[k] = int ? vs.map((x) => (Number.isInteger(Number(x)) ? Number(x) : x)) : vs;
  }
  for (const k of FLAG_FIELDS) if (f[k] === true) p[k] = true;
  return p;
}

/**
 * A form filled from stored parameters (a saved search). auction_type, which the form does not have, becomes its
 * readable alternative platform (spec "GET /vehicles" rule 1: 1 = copart, 2 = iaai, 0 = both, no platform).
 * Names the form does not have (cursor, per_page, or none the specification lists) are left out.
 */
export function fromParams(params: Readonly<Record<string, unknown>>): SearchForm {
  const f = emptyForm() as Record<string, unknown>;
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined) continue;
    if (k === 'auction_type' && params['platform'] === undefined) {
      const platform = PLATFORMS[Number(v) - 1];
      if (platform) f['platform'] = platform;
    } else if ((MULTI_FIELDS as readonly string[]).includes(k))
      f[k] = (Array.isArray(v) ? v : [v]).map(String);
    else if ((FLAG_FIELDS as readonly string[]).includes(k)) f[k] = v === true || v === 'true' || v === 1;
    else if (
      (TEXT_FIELDS as readonly string[]).includes(k) ||
      (NUMBER_FIELDS as readonly string[]).includes(k)
    )
      f[k] = String(v);
  }
  return f as SearchForm;
}

/** The parameter a service field error names: `params.year_from` and `year_from` both give `year_from`. */
export function fieldOfErrorKey(key: string): string {
  return key.replace(/^params\./, '').replace(/\.\d+$/, '');
}

/**
 * One choice of a filter: the wire value, what to show, how many open lots have it when the service said, and
 * whether it may be sent (a value the service lists but the specification refuses is shown disabled, with a
 * title saying why).
 */
export interface Option {
  value: string;
  label: string;
  count?: number;
  disabled?: boolean;
  title?: string;
  /** True for a choice Lotwatch filters itself, never sent (src/shared/localRefinements). */
  local?: boolean;
}

/** Where each enumerated parameter's listed values sit in FilterMeta (units has no list: the spec's is used). */
const ENUM_META: Record<SearchEnumParam, (m: FilterMeta) => Choice[]> = {
  lot_status: (m) => m.lotStatuses,
  lot_sub_status: (m) => m.lotSubStatuses,
  fuel_type: (m) => m.fuelTypes,
  transmission: (m) => m.transmissions,
  drive_type: (m) => m.driveTypes,
  run_cond: (m) => m.runConditions,
  damage: (m) => m.damage,
  has_key: (m) => m.hasKey,
  units: () => [],
  seller_type: (m) => m.sellerTypes,
};

/**
 * The choices of an enumerated GET /vehicles parameter: what the service lists, limited to what the
 * specification allows and spelled its way; values it refuses come last, disabled; the specification's list when
 * the service lists nothing usable (offline, error). See specChoices in src/shared/filterMeta.
 */
export function enumOptions(meta: FilterMeta, param: SearchEnumParam): Option[] {
  return specChoices(param, ENUM_META[param](meta)).map(({ sendable, ...c }) =>
    sendable
      ? c
      : {
          ...c,
          disabled: true,
          title: `The service lists “${c.label}”, but the specification does not allow sending it as ${param}.`,
        },
  );
}

/**
 * The damage field's choices: first the values the specification lets Lotwatch send (as enumOptions gives them),
 * then, marked `local`, the damage kinds buyers see on lots that the service cannot search: those the metadata
 * lists but the specification refuses, and LOCAL_DAMAGE_KINDS (the records' primary damage words), without repeats
 * (case and separators ignored). A local choice is never sent; Lotwatch keeps the lots whose primary damage it is
 * (splitSearch). Never throws.
 */
export function damageOptions(meta: FilterMeta): Option[] {
  const choices = specChoices('damage', ENUM_META.damage(meta));
  const sent: Option[] = choices.filter((c) => c.sendable).map(({ sendable: _s, ...c }) => c);
  const word = (v: string) => v.toLowerCase().replace(/[^a-z0-9]+/g, '');
  const seen = new Set(sent.map((o) => word(o.value)));
  const local: Option[] = [];
  const add = (c: Choice) => {
    const w = word(c.value);
    if (!w || seen.has(w) || isSendableDamage(c.value)) return;
    seen.add(w);
    local.push({ ...c, local: true, title: LOCAL_FILTER_NOTE });
  };
  for (const c of choices) if (!c.sendable) add(c);
  for (const k of LOCAL_DAMAGE_KINDS) add({ value: k, label: k });
  return [...sent, ...local];
}

/** Options of a free-valued parameter (make, type, color, ...) from names or choices the service listed. */
export function listOptions(list: readonly (string | Choice)[]): Option[] {
  return list.map((x) => (typeof x === 'string' ? { value: x, label: x } : x));
}

/** The platforms by their wire values (spec: platform_a / platform_b are copart / iaai). */
export const PLATFORM_OPTIONS: Option[] = PLATFORMS.map((p) => ({
  value: p,
  label: PLATFORM_LABELS[p] ?? p,
}));

/** Models of a make from the metadata (make matched without regard to case), or none. */
export function modelsOf(meta: FilterMeta, make: string): string[] {
  const m = make.trim().toLowerCase();
  if (!m) return [];
  const key = Object.keys(meta.modelsByMake).find((k) => k.toLowerCase() === m);
  return key ? (meta.modelsByMake[key] ?? []) : [];
}

/**
 * A listed range as a short hint, e.g. "1998–2026", "0.6–8.4" or "0–250,000"; null when the service gave none.
 * Thousands are grouped from 10,000 up only, so years read as years.
 */
export function rangeHint(r: NumberRange | null): string | null {
  if (!r) return null;
  const f = (n: number | null) =>
    n === null
      ? '…'
      : n.toLocaleString('en-US', { maximumFractionDigits: 2, useGrouping: Math.abs(n) >= 10000 });
  return `${f(r.min)}–${f(r.max)}`;
}

/** A short name for a set of parameters, e.g. "TOYOTA COROLLA 2018–2022 · Copart". */
export function describeParams(p: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof p['s'] === 'string') parts.push(`“${p['s']}”`);
  if (p['make']) parts.push(String(p['make']));
  if (p['model']) parts.push(String(p['model']));
  if (p['year_from'] !== undefined || p['year_to'] !== undefined)
    parts.push(`${String(p['year_from'] ?? '…')}–${String(p['year_to'] ?? '…')}`);
  if (p['platform']) parts.push(PLATFORM_LABELS[String(p['platform'])] ?? String(p['platform']));
  if (Array.isArray(p['damage'])) parts.push(p['damage'].join('/'));
  if (p['price_max'] !== undefined) parts.push(`under $${String(p['price_max'])}`);
  return parts.length ? parts.join(' ') : 'All open lots';
}
