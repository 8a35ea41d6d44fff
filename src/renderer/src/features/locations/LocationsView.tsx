import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { MethodOutput } from '../../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { ErrorNotice, fieldMessage } from '../../components/ErrorNotice';
import { platformName } from '../../lib/format';
import { useCaller } from '../../lib/useCall';
import '../../components/lwTable.css';
import './locations.css';

type Location = MethodOutput<'locations.list'>['locations'][number];
type Result = MethodOutput<'locations.list'>;

/** The search form as typed: every value a string, turned into GET /locations parameters by `toParams`. */
export interface LocationQuery {
  q: string;
  state: string;
  facility_id: string;
  platform: '' | 'copart' | 'iaai';
  zip: string;
  radius: string;
  units: 'mi' | 'km';
  per_page: string;
}

const EMPTY: LocationQuery = {
  q: '',
  state: '',
  facility_id: '',
  platform: '',
  zip: '',
  radius: '',
  units: 'mi',
  per_page: '20',
};

/**
 * GET /locations parameters (spec names) from the form: empty fields are left out, radius and per_page become
 * numbers, units only travels with a radius. Returns field messages instead when the form cannot be sent.
 */
export function toParams(
  f: LocationQuery,
): { params: Record<string, unknown> } | { fields: Record<string, string[]> } {
  const fields: Record<string, string[]> = {};
  const params: Record<string, unknown> = {};
  for (const k of ['q', 'facility_id', 'zip'] as const) if (f[k].trim()) params[k] = f[k].trim();
  if (f.state.trim()) {
    if (!/^[A-Za-z]{2}$/.test(f.state.trim()))
      fields['state'] = ['Use the two-letter state code, for example TX.'];
    params['state'] = f.state.trim().toUpperCase();
  }
  if (f.platform) params['platform'] = f.platform;
  if (f.radius.trim()) {
    const r = Number(f.radius);
    if (!Number.isFinite(r) || r <= 0) fields['radius'] = ['Give the radius as a positive number.'];
    else if (!f.zip.trim()) fields['zip'] = ['A radius needs a ZIP code to measure from.'];
    params['radius'] = r;
    params['units'] = f.units;
  }
  const per = Number(f.per_page);
  if (!Number.isInteger(per) || per < 1 || per > 20)
    fields['per_page'] = ['Between 1 and 20 (the service returns at most 20).'];
  else if (per !== 20) params['per_page'] = per;
  return Object.keys(fields).length > 0 ? { fields } : { params };
}

type SortKey = 'name' | 'city' | 'state' | 'zip' | 'platform' | 'facility_id' | 'coords';
const COLUMNS: { key: SortKey; label: string; numeric?: boolean }[] = [
  { key: 'name', label: 'Name' },
  { key: 'city', label: 'City' },
  { key: 'state', label: 'State' },
  { key: 'zip', label: 'ZIP' },
  { key: 'platform', label: 'Platform' },
  { key: 'facility_id', label: 'Facility ID' },
  { key: 'coords', label: 'Coordinates', numeric: true },
];

function sortValue(l: Location, k: SortKey): string | number | null {
  if (k === 'coords') return l.latitude;
  if (k === 'platform') return l.platform === null ? null : platformName(l.platform);
  return l[k];
}

/** Sorts a copy; unknown values go last whatever the direction. */
function sorted(rows: Location[], key: SortKey, dir: 'ascending' | 'descending'): Location[] {
  const f = dir === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = sortValue(a, key);
    const y = sortValue(b, key);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    if (typeof x === 'number' && typeof y === 'number') return (x - y) * f;
    return String(x).localeCompare(String(y), 'en', { numeric: true }) * f;
  });
}

function coords(l: Location): string {
  if (l.latitude === null || l.longitude === null) return '–';
  return `${l.latitude.toFixed(4)}, ${l.longitude.toFixed(4)}`;
}

function Field({
  label,
  name,
  error,
  children,
  hint,
}: {
  label: string;
  name: string;
  error: string | undefined;
  hint?: string;
  children: (a: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = `loc-${name}-${useId()}`;
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return (
    <div className={`field loc-field loc-${name}`}>
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        ...(error ? { 'aria-invalid': true } : {}),
        ...(described ? { 'aria-describedby': described } : {}),
      })}
      {hint && !error && (
        <span className="muted small" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {error && (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}

/**
 * Locations: auction facilities by text, state, facility, platform or ZIP radius (GET /locations). Each search
 * spends one request; results are a sortable table. Field errors (from the form or the service's 422) show
 * on their fields.
 */
export function LocationsView() {
  const call = useCaller();
  const [form, setForm] = useState<LocationQuery>(EMPTY);
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const [loading, setLoading] = useState(false);
  const [sort, setSort] = useState<{ key: SortKey; dir: 'ascending' | 'descending' }>({
    key: 'name',
    dir: 'ascending',
  });
  const set = <K extends keyof LocationQuery>(k: K, v: LocationQuery[K]) => setForm({ ...form, [k]: v });

  const search = async (e?: FormEvent) => {
    e?.preventDefault();
    const p = toParams(form);
    if ('fields' in p) {
      setError({
        code: 'bad_input',
        message: 'Some fields need a look before searching.',
        retryable: false,
        fields: p.fields,
      });
      return;
    }
    setLoading(true);
    const r = await call('locations.list', { params: p.params });
    setLoading(false);
    if (r.ok) {
      setResult(r.value);
      setError(null);
    } else {
      setError(r.error);
    }
  };

  const rows = useMemo(() => (result ? sorted(result.locations, sort.key, sort.dir) : []), [result, sort]);
  const fe = (name: string) => fieldMessage(error, name);
  const fieldErrorShown = error?.fields && Object.keys(error.fields).length > 0;

  return (
    <div className="locations">
      <form className="loc-form" onSubmit={(e) => void search(e)} aria-label="Search locations" noValidate>
        <Field label="Search" name="q" error={fe('q')} hint="Facility name, city, state code or ZIP">
          {(a) => (
            <input {...a} type="search" name="q" value={form.q} onChange={(e) => set('q', e.target.value)} />
          )}
        </Field>
        <Field label="State" name="state" error={fe('state')}>
          {(a) => (
            <input
              {...a}
              type="text"
              name="state"
              maxLength={2}
              placeholder="TX"
              autoCapitalize="characters"
              value={form.state}
              onChange={(e) => set('state', e.target.value.toUpperCase())}
            />
          )}
        </Field>
        <Field label="Platform" name="platform" error={fe('platform')}>
          {(a) => (
            <select
              {...a}
              name="platform"
              value={form.platform}
              onChange={(e) => set('platform', e.target.value as LocationQuery['platform'])}
            >
              <option value="">Both</option>
              <option value="copart">Copart</option>
              <option value="iaai">IAAI</option>
            </select>
          )}
        </Field>
        <Field label="Facility ID" name="facility_id" error={fe('facility_id')}>
          {(a) => (
            <input
              {...a}
              type="text"
              name="facility_id"
              value={form.facility_id}
              onChange={(e) => set('facility_id', e.target.value)}
            />
          )}
        </Field>
        <Field label="ZIP code" name="zip" error={fe('zip')}>
          {(a) => (
            <input
              {...a}
              type="text"
              name="zip"
              inputMode="numeric"
              maxLength={10}
              value={form.zip}
              onChange={(e) => set('zip', e.target.value)}
            />
          )}
        </Field>
        <Field label="Radius" name="radius" error={fe('radius')}>
          {(a) => (
            <span className="loc-radius">
              <input
                {...a}
                type="number"
                name="radius"
                min={1}
                inputMode="decimal"
                value={form.radius}
                onChange={(e) => set('radius', e.target.value)}
              />
              <select
                aria-label="Radius units"
                name="units"
                value={form.units}
                onChange={(e) => set('units', e.target.value as 'mi' | 'km')}
              >
                <option value="mi">mi</option>
                <option value="km">km</option>
              </select>
            </span>
          )}
        </Field>
        <Field label="Per page" name="per_page" error={fe('per_page')}>
          {(a) => (
            <input
              {...a}
              type="number"
              name="per_page"
              min={1}
              max={20}
              value={form.per_page}
              onChange={(e) => set('per_page', e.target.value)}
            />
          )}
        </Field>
        <div className="loc-actions">
          <button type="submit" className="primary" disabled={loading}>
            {loading ? 'Searching…' : 'Search locations'}
          </button>
          <button
            type="button"
            disabled={loading}
            onClick={() => {
              setForm(EMPTY);
              setError(null);
            }}
          >
            Clear
          </button>
          <span className="muted small">Each search spends 1 request.</span>
        </div>
      </form>

      {error && !fieldErrorShown && <ErrorNotice error={error} onRetry={() => void search()} />}
      {error && fieldErrorShown && (
        <p className="field-error" role="alert">
          {error.message} Correct the highlighted fields and search again.
        </p>
      )}

      <section className="loc-results" aria-label="Locations found" aria-busy={loading}>
        {!result && !loading && (
          <div className="lw-empty">
            <p>
              <strong>Find auction facilities.</strong> Search by name, city, state or ZIP, or give a ZIP code
              and a radius to list the yards around it.
            </p>
            <p className="muted small">An empty search lists the first facilities the service knows.</p>
          </div>
        )}
        {!result && loading && <p className="muted">Searching locations…</p>}
        {result && result.locations.length === 0 && (
          <div className="lw-empty">
            <p>
              <strong>No locations match.</strong> Try a wider radius, another state or fewer filters.
            </p>
          </div>
        )}
        {result && result.locations.length > 0 && (
          <>
            <p className="loc-count muted" role="status">
              {result.locations.length} {result.locations.length === 1 ? 'location' : 'locations'}
              {result.meta?.next_cursor ? ' shown; more match. Narrow the search to see the others.' : '.'}
            </p>
            <div className="lw-table-wrap">
              <table className="lw-table loc-table">
                <thead>
                  <tr>
                    {COLUMNS.map((c) => (
                      <th
                        key={c.key}
                        aria-sort={sort.key === c.key ? sort.dir : 'none'}
                        className={c.numeric ? 'lw-num' : undefined}
                      >
                        <button
                          type="button"
                          className="lw-sort"
                          onClick={() =>
                            setSort({
                              key: c.key,
                              dir:
                                sort.key === c.key && sort.dir === 'ascending' ? 'descending' : 'ascending',
                            })
                          }
                        >
                          {c.label}
                          <span className="lw-sort-mark" aria-hidden="true">
                            {sort.key === c.key ? (sort.dir === 'ascending' ? '▲' : '▼') : ''}
                          </span>
                        </button>
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((l, i) => (
                    <tr key={`${l.platform ?? ''}:${l.facility_id ?? ''}:${i}`}>
                      <td className="loc-name">{l.name ?? '–'}</td>
                      <td>{l.city ?? '–'}</td>
                      <td>{l.state ?? '–'}</td>
                      <td className="lw-mono">{l.zip ?? '–'}</td>
                      <td>{platformName(l.platform)}</td>
                      <td className="lw-mono">{l.facility_id ?? '–'}</td>
                      <td className="lw-num lw-mono">{coords(l)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
    </div>
  );
}
