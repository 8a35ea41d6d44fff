import { useMemo, useRef, useState, type FormEvent } from 'react';
import type { CallTarget, CallWatchConfig, JsonPath, WatchedField } from '../../../../shared/callWatch';
import type { CallWatchView } from '../../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { ErrorNotice, fieldMessage } from '../../components/ErrorNotice';
import { JsonViewer } from '../../components/JsonViewer';
import { Modal } from '../../components/Modal';
import { cronInWords } from '../../components/watch/common';
import { integer } from '../../lib/quantity';
import { useCaller } from '../../lib/useCall';
import { ScheduleCost, useFittedSchedule } from '../search/ScheduleCost';
import { SchedulePicker } from '../search/SchedulePicker';
import {
  autoItemKey,
  callWatchName,
  choosableLists,
  inItem,
  itemFields,
  largestList,
  pathText,
  samePath,
  valueAt,
} from './answerPaths';
import '../search/search.css';
import './calls.css';

/** A watched value as the dialog holds it: where it was clicked, and whether it is read in every item. */
interface FieldDraft {
  id: number;
  /** The clicked value's path from the answer's root. */
  root: JsonPath;
  /** Its path within a list item when it sits in one (null: not in the watched list). */
  item: JsonPath | null;
  inItems: boolean;
  /** Whether the clicked value was a number (only numbers offer "crosses"). */
  numeric: boolean;
  /** "Alert only when it crosses" as typed; empty: any change. */
  crosses: string;
}

const AUTO = 'auto';

/** The select value of a list path. */
const listKey = (p: JsonPath) => JSON.stringify(p);

/** The list path a call watch reads: the chosen one, or the largest found when it chose none. */
function effectiveList(choice: string, largest: JsonPath | null): JsonPath | null {
  return choice === AUTO ? largest : (JSON.parse(choice) as JsonPath);
}

/** Drafts of a stored config's watched values (when editing). */
function draftsOf(config: CallWatchConfig, list: JsonPath | null, json: unknown): FieldDraft[] {
  return config.fields.map((f, i) => {
    const root = f.in_items && list ? [...list, 0, ...f.path] : f.path;
    return {
      id: i + 1,
      root,
      item: f.in_items ? f.path : null,
      inItems: f.in_items,
      numeric: typeof valueAt(json, root) === 'number' || f.crosses !== null,
      crosses: f.crosses === null ? '' : String(f.crosses),
    };
  });
}

/**
 * The message for watched value `i` from the contract's field map (core reports zod paths joined with dots,
 * `config.fields.0.crosses`): a refused number in the dialog's words, anything else as core said it.
 */
function fieldErrorOf(error: ErrorPayload | null, i: number): string | undefined {
  const f = error?.fields;
  if (!f) return undefined;
  const k = Object.keys(f).find(
    (key) => key.startsWith(`config.fields.${i}.`) || key === `config.fields.${i}`,
  );
  if (!k) return undefined;
  return k.endsWith('.crosses') ? 'Enter a number, or leave it empty to alert on any change.' : f[k]?.[0];
}

/**
 * "Watch this call": name, schedule and its cost, and what to watch in the answer: new (and removed) items of a
 * list (the largest by default) keyed by a field or automatically, and values clicked in the answer, each with an
 * optional number to cross. Saves through `callWatches.create` with the target exactly as the console sent it, or
 * `callWatches.update` when `existing` is given (`json` is then its last stored answer). Field errors from the
 * contract sit by their fields.
 */
export function WatchCallDialog({
  target,
  json,
  existing,
  onClose,
  onSaved,
}: {
  target: CallTarget;
  json: unknown;
  existing?: CallWatchView;
  onClose: () => void;
  onSaved?: (v: CallWatchView) => void;
}) {
  const call = useCaller();
  const lists = useMemo(() => choosableLists(json), [json]);
  const largest = useMemo(() => largestList(json), [json]);
  const [name, setName] = useState(
    () => existing?.name ?? callWatchName(target.endpoint, target.path, target.query),
  );
  // A new call watch starts from a schedule that fits the daily share; an edited one keeps its own.
  const { schedule, setSchedule, note: fitNote } = useFittedSchedule('call', existing?.schedule);
  const [listChoice, setListChoice] = useState(() =>
    existing?.config.list_path ? listKey(existing.config.list_path) : AUTO,
  );
  const [keyChoice, setKeyChoice] = useState(existing?.config.item_key ?? AUTO);
  const [alertNew, setAlertNew] = useState(existing?.config.alert_new ?? true);
  const [alertRemoved, setAlertRemoved] = useState(existing?.config.alert_removed ?? false);
  const list = effectiveList(listChoice, largest?.path ?? null);
  const [fields, setFields] = useState<FieldDraft[]>(() =>
    existing ? draftsOf(existing.config, list, json) : [],
  );
  const nextId = useRef(fields.length + 1);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const [saved, setSaved] = useState<CallWatchView | null>(null);

  const items = list ? valueAt(json, list) : undefined;
  const keys = useMemo(() => itemFields(items), [items]);
  const auto = autoItemKey(items);

  const isPicked = (p: JsonPath) => {
    const rel = inItem(list, p);
    return fields.some(
      (f) => samePath(f.root, p) || (f.inItems && f.item !== null && rel !== null && samePath(f.item, rel)),
    );
  };
  const pick = (p: JsonPath, value: unknown) => {
    if (isPicked(p)) {
      const rel = inItem(list, p);
      setFields(
        fields.filter((f) => !(samePath(f.root, p) || (f.inItems && f.item && rel && samePath(f.item, rel)))),
      );
      return;
    }
    const item = inItem(list, p);
    setFields([
      ...fields,
      {
        id: nextId.current++,
        root: p,
        item,
        inItems: item !== null,
        numeric: typeof value === 'number',
        crosses: '',
      },
    ]);
  };
  const update = (id: number, patch: Partial<FieldDraft>) =>
    setFields(fields.map((f) => (f.id === id ? { ...f, ...patch } : f)));

  const config = (): CallWatchConfig => ({
    list_path: listChoice === AUTO ? null : list,
    item_key: keyChoice === AUTO ? null : keyChoice,
    alert_new: alertNew,
    alert_removed: alertRemoved,
    fields: fields.map((f): WatchedField => ({
      path: f.inItems && f.item ? f.item : f.root,
      in_items: f.inItems && f.item !== null,
      label: null,
      // Typed text that is no number goes as it is, so the contract says what is wrong by the field.
      crosses:
        f.crosses.trim() === ''
          ? null
          : Number.isFinite(Number(f.crosses))
            ? Number(f.crosses)
            : (f.crosses as unknown as number),
    })),
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const input = { name, target, config: config(), schedule };
    const r = existing
      ? await call('callWatches.update', { ...input, id: existing.id, paused: existing.paused })
      : await call('callWatches.create', input);
    setBusy(false);
    if (r.ok) {
      setError(null);
      if (existing) onSaved?.(r.value);
      else setSaved(r.value);
    } else setError(r.error);
  };

  const msg = (f: string) => fieldMessage(error, f);
  const known = (k: string) =>
    k === 'name' || k === 'schedule' || k.startsWith('config.fields.') || k.startsWith('config.');
  const otherLines = error?.fields
    ? Object.entries(error.fields)
        .filter(([k]) => !known(k))
        .flatMap(([, v]) => v)
    : [];
  const configLine =
    error?.fields &&
    Object.entries(error.fields)
      .filter(([k]) => k.startsWith('config.') && !k.startsWith('config.fields.'))
      .flatMap(([, v]) => v)[0];

  if (saved) {
    return (
      <Modal title="Call watched" onClose={onClose} className="ss cw">
        <h2>Call watched</h2>
        <p role="status">
          <strong>{saved.name}</strong> is saved. Lotwatch calls it {cronInWords(saved.schedule)}, one request
          a run, and alerts you about what changes. Its first run is the starting point: nothing in it alerts.
        </p>
        <div className="actions">
          <a className="button primary" href="#/saved" onClick={onClose} data-autofocus>
            Open Saved searches
          </a>
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      </Modal>
    );
  }

  const title = existing ? `Edit · ${existing.name}` : 'Watch this call';
  return (
    <Modal title={title} onClose={onClose} className="ss cw">
      <form onSubmit={submit} noValidate>
        <h2>{title}</h2>
        <p className="muted small">
          Lotwatch repeats this call on a schedule, compares each answer with the last one and alerts you
          about what changed. Each run is one request.
        </p>
        <p className="cw-target cw-mono" aria-label="Call">
          {target.endpoint}
          {Object.entries(target.path).map(([k, v]) => (
            <span key={`p-${k}`}>
              {' '}
              · {k}={v}
            </span>
          ))}
          {Object.entries(target.query).map(([k, v]) => (
            <span key={`q-${k}`}>
              {' '}
              · {k}={Array.isArray(v) ? v.join(', ') : v}
            </span>
          ))}
        </p>
        {error && (!error.fields || otherLines.length > 0) && (
          <ErrorNotice error={error} fieldsShown lines={otherLines} />
        )}
        <label className="field">
          <span>Name</span>
          <input
            type="text"
            value={name}
            onChange={(e) => setName(e.target.value)}
            data-autofocus
            {...(msg('name') ? { 'aria-invalid': true, 'aria-describedby': 'cw-name-error' } : {})}
          />
          {msg('name') && (
            <span className="field-error" id="cw-name-error">
              {msg('name')}
            </span>
          )}
        </label>
        <SchedulePicker value={schedule} onChange={setSchedule} error={msg('schedule')} idPrefix="cw" />
        {fitNote && <p className="muted small ss-fit">{fitNote}</p>}
        <ScheduleCost schedule={schedule} maxPages={1} per="call" />

        <fieldset className="cw-what">
          <legend>What to watch</legend>
          {existing && (json === null || json === undefined) ? (
            <p className="muted small">
              No answer is stored yet: Lotwatch has not had a good answer to this call. Once it has, edit it
              again to pick a list and values.
            </p>
          ) : largest === null ? (
            <p className="muted small">
              This answer holds no list. Click the values you want to watch in the answer below.
            </p>
          ) : (
            <>
              <div className="cw-line">
                <label className="check">
                  <input type="checkbox" checked={alertNew} onChange={(e) => setAlertNew(e.target.checked)} />
                  <span>New items in</span>
                </label>
                <select
                  aria-label="List to watch"
                  value={listChoice}
                  onChange={(e) => {
                    setListChoice(e.target.value);
                    setKeyChoice(AUTO);
                  }}
                >
                  {largest && (
                    <option value={AUTO}>
                      {pathText(largest.path)} · {integer(largest.count)} item{largest.count === 1 ? '' : 's'}{' '}
                      (the largest list)
                    </option>
                  )}
                  {lists
                    .filter((l) => !largest || !samePath(l.path, largest.path))
                    .map((l) => (
                      <option key={listKey(l.path)} value={listKey(l.path)}>
                        {pathText(l.path)} · {integer(l.count)} item{l.count === 1 ? '' : 's'}
                      </option>
                    ))}
                </select>
              </div>
              <div className="field cw-key">
                <label htmlFor="cw-key">Keyed by</label>
                <select
                  id="cw-key"
                  value={keyChoice}
                  aria-describedby="cw-key-hint"
                  onChange={(e) => setKeyChoice(e.target.value)}
                >
                  <option value={AUTO}>Automatic ({auto ?? 'the whole item'})</option>
                  {keys.map((k) => (
                    <option key={k} value={k}>
                      {k}
                    </option>
                  ))}
                </select>
                <span className="muted small" id="cw-key-hint">
                  What tells one item from another; an item whose key is new alerts as new.
                </span>
              </div>
              <label className="check">
                <input
                  type="checkbox"
                  checked={alertRemoved}
                  onChange={(e) => setAlertRemoved(e.target.checked)}
                />
                <span>Removed items: alert when an item is gone from the list</span>
              </label>
            </>
          )}
          {configLine && <p className="field-error">{configLine}</p>}
          <div className="cw-fields">
            <span className="cw-fields-title">Watched values</span>
            {fields.length === 0 ? (
              <p className="muted small">
                None yet. Click a value in the answer below (or Tab to it and press Enter) to watch it.
              </p>
            ) : (
              <ul aria-label="Watched values">
                {fields.map((f, i) => {
                  const fe = fieldErrorOf(error, i);
                  const shown = f.inItems && f.item ? pathText(f.item) : pathText(f.root);
                  return (
                    <li key={f.id} className="cw-field">
                      <span className="cw-mono cw-field-path">
                        {shown}
                        {f.inItems && f.item && <span className="muted"> in every item</span>}
                      </span>
                      {f.item && (
                        <label className="check">
                          <input
                            type="checkbox"
                            checked={f.inItems}
                            onChange={(e) => update(f.id, { inItems: e.target.checked })}
                          />
                          <span>Every item</span>
                        </label>
                      )}
                      {f.numeric && (
                        <label className="cw-crosses">
                          <span>Alert only when it crosses</span>
                          <input
                            type="number"
                            value={f.crosses}
                            placeholder="any change"
                            aria-label={`Alert only when ${shown} crosses`}
                            onChange={(e) => update(f.id, { crosses: e.target.value })}
                            {...(fe ? { 'aria-invalid': true } : {})}
                          />
                        </label>
                      )}
                      <button
                        type="button"
                        className="icon-button"
                        aria-label={`Stop watching ${shown}`}
                        onClick={() => setFields(fields.filter((x) => x.id !== f.id))}
                      >
                        ×
                      </button>
                      {fe && <span className="field-error cw-field-error">{fe}</span>}
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
        </fieldset>
        {(json !== null && json !== undefined) || !existing ? (
          <JsonViewer
            value={json}
            label={existing ? 'Last stored answer' : 'Answer'}
            // Open down to the list's items, so their values can be picked without expanding each.
            openDepth={Math.max(3, (list?.length ?? 0) + 2)}
            picking={{ onPick: pick, isPicked, verb: 'Watch' }}
          />
        ) : null}
        {error?.fields && otherLines.length === 0 && (
          <p className="field-error" role="alert">
            Nothing was saved. Correct the marked fields above.
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Saving…' : existing ? 'Save call watch' : 'Watch this call'}
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
