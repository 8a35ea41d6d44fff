import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type { MethodInput, MethodOutput } from '../../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { ErrorNotice } from '../../components/ErrorNotice';
import { fieldLabel } from '../../../../shared/fieldLabels';
import { fieldLines } from '../../lib/messages';
import { JsonViewer } from '../../components/JsonViewer';
import { searchParam, type SearchParamDef } from '../../../../shared/vehicleParams';
import { integer, requests } from '../../lib/quantity';
import { useCall, useCaller } from '../../lib/useCall';
import type { CallTarget } from '../../../../shared/callWatch';
import { WatchCallDialog } from '../calls/WatchCallDialog';
import '../../components/lwTable.css';
import './console.css';

type Endpoint = MethodOutput<'console.endpoints'>[number];
type CallResult = MethodOutput<'console.call'>;
type Query = MethodInput<'console.call'>['query'];

const GROUPS: { id: Endpoint['group']; label: string }[] = [
  { id: 'vehicle-auction', label: 'Vehicle auctions' },
  { id: 'video-platform', label: 'Video platform' },
];

/** A free name/value row for endpoints whose parameters the specification does not list. */
interface FreeRow {
  id: number;
  name: string;
  value: string;
}

/**
 * The query of a call: listed parameters with their values (several values of one name travel as an array) and
 * free rows; empty values are left out.
 */
export function buildQuery(
  listed: Record<string, string[]>,
  free: { name: string; value: string }[],
): NonNullable<Query> {
  const acc: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const [name, values] of Object.entries(listed)) {
    for (const v of values) if (v.trim() !== '') (acc[name] ??= []).push(v.trim());
  }
  for (const r of free)
    if (r.name.trim() !== '' && r.value.trim() !== '') (acc[r.name.trim()] ??= []).push(r.value.trim());
  const out: Record<string, string | string[]> = {};
  for (const [k, vs] of Object.entries(acc)) out[k] = vs.length === 1 ? (vs[0] ?? '') : vs;
  return out;
}

/** The request line a call will make, for the preview: path parameters filled in, the query encoded. */
export function requestLine(
  ep: Endpoint,
  path: Record<string, string>,
  query: Record<string, string | string[]>,
): string {
  let line = ep.name.replace(/\{(\w+)\}/g, (_, p: string) =>
    path[p] ? encodeURIComponent(path[p]) : `{${p}}`,
  );
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const x of Array.isArray(v) ? v : [v]) qs.append(k, x);
  const s = qs.toString();
  if (s) line += `?${s}`;
  return line;
}

/**
 * What a GET /vehicles parameter takes, for its console input's placeholder, from SEARCH_PARAMS: the allowed values
 * ("All | Timed | Buy Now"), else the type ("integer 1–20", "number", "YYYY-MM-DD", "true | false"), and the
 * specification's default ("default 20"); empty for free text without a default.
 */
export function paramHint(def: SearchParamDef): string {
  const range = def.min !== undefined && def.max !== undefined ? ` ${def.min}–${def.max}` : '';
  const what = def.values
    ? def.values.join(' | ')
    : def.type === 'int'
      ? `integer${range}`
      : def.type === 'number'
        ? `number${range}`
        : def.type === 'date'
          ? 'YYYY-MM-DD'
          : def.type === 'bool'
            ? 'true | false'
            : '';
  const dflt = def.default === undefined ? '' : `default ${String(def.default)}`;
  return [what, dflt].filter(Boolean).join('; ');
}

/** The field-map keys that name the console input `name` of `kind`: `path.slugVin`, `slugVin`, `params.slugVin`. */
/**
 * The field-map keys that mean one input. The service names the `{slugVin}` path part `vin` in its 422 `errors`, so
 * that message goes next to the slugVin input instead of in a list under the notice.
 */
function keysOf(kind: 'path' | 'query', name: string): string[] {
  const keys = [`${kind}.${name}`, name, `params.${name}`];
  return kind === 'path' && name === 'slugVin' ? [...keys, 'vin'] : keys;
}

function fieldError(error: ErrorPayload | null, kind: 'path' | 'query', name: string): string | undefined {
  const f = error?.fields;
  if (!f || !name) return undefined;
  for (const k of keysOf(kind, name)) if (Object.hasOwn(f, k)) return f[k]?.[0];
  return undefined;
}

/**
 * What a field the console has no input for is called in its notice: the screen's label when Lotwatch has one
 * ("VIN"), else the parameter's name as the console shows it.
 */
function consoleName(key: string): string {
  return fieldLabel(key) ?? key.replace(/^(path|query|params)\./, '');
}

function EndpointForm({
  ep,
  mode,
  remaining,
  onDone,
}: {
  ep: Endpoint;
  mode: 'demo' | 'live' | null;
  remaining: number | null;
  onDone: () => void;
}) {
  const call = useCaller();
  const [path, setPath] = useState<Record<string, string>>({});
  const [listed, setListed] = useState<Record<string, string[]>>(() =>
    Object.fromEntries(ep.query_params.map((q) => [q, ['']])),
  );
  const [free, setFree] = useState<FreeRow[]>(() =>
    ep.query_params.length === 0 ? [{ id: 1, name: '', value: '' }] : [],
  );
  const nextId = useRef(2);
  const [confirming, setConfirming] = useState(false);
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<CallResult | null>(null);
  // The call exactly as it was sent, for "Watch this call" (the form may have changed since).
  const [sent, setSent] = useState<CallTarget | null>(null);
  const [watching, setWatching] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const query = buildQuery(listed, free);
  const freeOnly = ep.query_params.length === 0;
  // GET /vehicles parameters are described by SEARCH_PARAMS: what each takes, and whether it may repeat.
  const defOf = (q: string) => (ep.name === 'GET /vehicles' ? searchParam(q) : undefined);

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const missing = ep.path_params.filter((p) => !path[p]?.trim());
  const send = async () => {
    setConfirming(false);
    setRunning(true);
    const target: CallTarget = {
      endpoint: ep.name,
      path: Object.fromEntries(ep.path_params.map((p) => [p, (path[p] ?? '').trim()])),
      query,
    };
    const r = await call('console.call', { name: target.endpoint, path: target.path, query: target.query });
    setRunning(false);
    if (r.ok) {
      setResult(r.value);
      setSent(target);
      setError(null);
    } else {
      setResult(null);
      setError(r.error);
    }
    onDone();
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (missing.length > 0) {
      setError({
        code: 'bad_input',
        message: 'Lotwatch did not send this call: a part of its path is empty.',
        retryable: false,
        fields: Object.fromEntries(
          missing.map((p) => [`path.${p}`, ['Fill this in: it is part of the path.']]),
        ),
      });
      return;
    }
    if (mode === 'live') setConfirming(true);
    else void send();
  };

  // Field messages go next to their inputs; the ones with no input here are listed in the notice (never "correct the
  // marked fields" with nothing marked: docs/writing-guide.md rule 4).
  const shownKeys = new Set([
    ...ep.path_params.flatMap((p) => keysOf('path', p)),
    ...ep.query_params.flatMap((q) => keysOf('query', q)),
    ...free.filter((r) => r.name.trim() !== '').flatMap((r) => keysOf('query', r.name.trim())),
  ]);
  const unshown = error ? fieldLines(error, (k) => shownKeys.has(k), consoleName) : [];
  return (
    <>
      <form className="console-form" onSubmit={onSubmit} aria-label={`Call ${ep.name}`} noValidate>
        {ep.path_params.length > 0 && (
          <fieldset>
            <legend>Path</legend>
            {ep.path_params.map((p) => {
              const fe = fieldError(error, 'path', p);
              return (
                <label className="field" key={p}>
                  <span className="console-name">{p}</span>
                  <input
                    type="text"
                    name={`path-${p}`}
                    value={path[p] ?? ''}
                    placeholder={p === 'slugVin' ? 'VIN or lot number' : undefined}
                    aria-invalid={fe ? true : undefined}
                    onChange={(e) => setPath({ ...path, [p]: e.target.value })}
                  />
                  {fe && <span className="field-error">{fe}</span>}
                </label>
              );
            })}
          </fieldset>
        )}
        <fieldset>
          <legend>Query</legend>
          {freeOnly && (
            <p className="muted small">
              The specification does not list this endpoint's parameters. Add them as name and value rows; a
              name given twice sends both values.
            </p>
          )}
          {ep.query_params.length > 0 && (
            <div className="console-params">
              {ep.query_params.map((q) => {
                const values = listed[q] ?? [''];
                const fe = fieldError(error, 'query', q);
                const def = defOf(q);
                return (
                  <div className="console-param" key={q}>
                    <span
                      className="console-name"
                      id={`q-${q}`}
                      title={def ? `${def.label}${def.multi ? ' (several values allowed)' : ''}` : undefined}
                    >
                      {q}
                    </span>
                    <div className="console-values">
                      {values.map((v, i) => (
                        <span className="console-value" key={i}>
                          <input
                            type="text"
                            name={`query-${q}`}
                            {...(values.length > 1
                              ? { 'aria-label': `${q} value ${i + 1}` }
                              : { 'aria-labelledby': `q-${q}` })}
                            aria-invalid={fe ? true : undefined}
                            placeholder={def ? paramHint(def) : undefined}
                            value={v}
                            onChange={(e) =>
                              setListed({
                                ...listed,
                                [q]: values.map((x, j) => (j === i ? e.target.value : x)),
                              })
                            }
                          />
                          {values.length > 1 && (
                            <button
                              type="button"
                              className="icon-button"
                              aria-label={`Remove ${q} value ${i + 1}`}
                              onClick={() => setListed({ ...listed, [q]: values.filter((_, j) => j !== i) })}
                            >
                              ×
                            </button>
                          )}
                        </span>
                      ))}
                      {fe && <span className="field-error">{fe}</span>}
                    </div>
                    {def && !def.multi ? (
                      <span aria-hidden="true" />
                    ) : (
                      <button
                        type="button"
                        className="icon-button"
                        aria-label={`Add another ${q} value`}
                        title="Add another value (sent as a repeated parameter)"
                        onClick={() => setListed({ ...listed, [q]: [...values, ''] })}
                      >
                        +
                      </button>
                    )}
                  </div>
                );
              })}
            </div>
          )}
          {free.map((r, i) => {
            const fe = fieldError(error, 'query', r.name.trim());
            return (
              <div className="console-free" key={r.id}>
                <input
                  type="text"
                  aria-label={`Parameter ${i + 1} name`}
                  placeholder="name"
                  value={r.name}
                  onChange={(e) =>
                    setFree(free.map((x) => (x.id === r.id ? { ...x, name: e.target.value } : x)))
                  }
                />
                <input
                  type="text"
                  aria-label={`Parameter ${i + 1} value`}
                  aria-invalid={fe ? true : undefined}
                  placeholder="value"
                  value={r.value}
                  onChange={(e) =>
                    setFree(free.map((x) => (x.id === r.id ? { ...x, value: e.target.value } : x)))
                  }
                />
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove parameter ${i + 1}`}
                  onClick={() => setFree(free.filter((x) => x.id !== r.id))}
                >
                  ×
                </button>
                {fe && <span className="field-error console-free-error">{fe}</span>}
              </div>
            );
          })}
          {freeOnly && (
            <div>
              <button
                type="button"
                onClick={() => setFree([...free, { id: nextId.current++, name: '', value: '' }])}
              >
                Add parameter
              </button>
            </div>
          )}
        </fieldset>
        <p className="console-request lw-mono" aria-label="Request">
          {requestLine(ep, path, query)}
        </p>
        <p className="console-cost" id="console-cost">
          <span aria-hidden="true">⚠ </span>
          Each call spends 1 request of your quota (more if the service asks Lotwatch to retry).
          {mode === 'demo' && ' Demo mode: calls go to the built-in simulated market.'}
          {mode === 'live' && ' Live service: it counts against your plan, so Lotwatch asks first.'}
          {remaining !== null && <span className="muted"> {integer(remaining)} left this period.</span>}
        </p>
        {!confirming && (
          <div className="actions">
            <button type="submit" className="primary" disabled={running} aria-describedby="console-cost">
              {running ? 'Calling…' : 'Call'}
            </button>
            {running && <span className="muted small">Waiting for the service…</span>}
          </div>
        )}
        {confirming && (
          <div className="console-confirm" role="group" aria-label="Confirm the call">
            <span>
              Spend 1 request of your plan on <strong className="lw-mono">{ep.name}</strong>?
            </span>
            <button type="button" className="primary" ref={confirmRef} onClick={() => void send()}>
              Spend 1 request
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        )}
      </form>

      {error && (
        <ErrorNotice error={error} fieldsShown subject="call" lines={unshown} onRetry={() => void send()} />
      )}
      {result && (
        <section className="console-result" aria-label="Response">
          <div className="console-result-head">
            <p className="console-meta" role="status">
              <span className={`status-chip ${result.status >= 400 ? 'bad' : 'good'}`}>{result.status}</span>
              <span>{integer(result.duration_ms)} ms</span>
              <span>spent {requests(result.requests)}</span>
              {result.remaining !== null && <span>{integer(result.remaining)} left</span>}
            </p>
            {sent && result.status < 400 && typeof result.json === 'object' && result.json !== null && (
              <button type="button" className="console-watch" onClick={() => setWatching(true)}>
                Watch this call
              </button>
            )}
          </div>
          <JsonViewer value={result.json} label="Response JSON" />
        </section>
      )}
      {watching && sent && result && (
        <WatchCallDialog target={sent} json={result.json} onClose={() => setWatching(false)} />
      )}
    </>
  );
}

/**
 * The API console: every endpoint of both specifications, grouped; a form for its path and query parameters
 * (free rows where the specification lists none, repeated values for multi parameters); Call, with the cost
 * stated first and a confirmation outside Demo mode; the answer as a collapsible JSON tree.
 */
export function ConsoleView() {
  const endpoints = useCall('console.endpoints');
  const status = useCall('status.get');
  const [selected, setSelected] = useState<string | null>(null);
  const list = useMemo(() => endpoints.data ?? [], [endpoints.data]);
  const current = list.find((e) => e.name === selected) ?? list[0] ?? null;
  const refreshStatus = status.run;

  if (endpoints.error) return <ErrorNotice error={endpoints.error} onRetry={() => void endpoints.run()} />;
  if (!endpoints.data) return <p className="muted">Loading endpoints…</p>;
  if (list.length === 0) return <p className="muted">No endpoints to call.</p>;

  return (
    <div className="console">
      <nav className="console-list" aria-label="Endpoints">
        {GROUPS.map((g) => {
          const items = list.filter((e) => e.group === g.id);
          if (items.length === 0) return null;
          return (
            <div key={g.id} className="console-group">
              <h2>{g.label}</h2>
              <ul>
                {items.map((e) => (
                  <li key={e.name}>
                    <button
                      type="button"
                      className={e.name === current?.name ? 'console-ep active' : 'console-ep'}
                      aria-current={e.name === current?.name ? 'true' : undefined}
                      title={e.description}
                      onClick={() => setSelected(e.name)}
                    >
                      {e.name.replace(/^GET /, '').replace(/^\/api\/v1\/vp/, '')}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </nav>
      {current && (
        <section className="console-main" aria-labelledby="console-title">
          <h2 id="console-title" className="lw-mono">
            {current.name}
          </h2>
          {current.description && <p className="console-desc">{current.description}</p>}
          <EndpointForm
            key={current.name}
            ep={current}
            mode={status.data?.mode ?? null}
            remaining={status.data?.quota?.remaining ?? null}
            onDone={() => void refreshStatus()}
          />
        </section>
      )}
    </div>
  );
}
