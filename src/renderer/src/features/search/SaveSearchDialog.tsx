import { useState, type FormEvent } from 'react';
import type { SavedSearchView } from '../../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { DEFAULT_NOTIFY_KINDS } from '../../../../shared/watch';
import { SchedulePicker } from './SchedulePicker';
import { isUnrefined, splitSearch } from '../../../../shared/localRefinements';
import { useCaller } from '../../lib/useCall';
import { ErrorNotice, fieldMessage } from '../../components/ErrorNotice';
import { Modal } from '../../components/Modal';
import { describeParams } from './params';
import { ScheduleCost, scheduleLabel, useFittedSchedule } from './ScheduleCost';
import { appNow } from '../../lib/clock';
import { dateTime, relative } from '../../lib/format';

/** A first run further off than this (ms) is said in the confirmation, with how to start sooner. */
const FIRST_RUN_SAID_AFTER_MS = 60 * 60_000;

/**
 * "Save this search": name, schedule (presets or custom cron), pages per run and alert rules; calls
 * `searches.create` with the current parameters (never a cursor) and confirms with a link to Saved searches. It
 * starts from a schedule that fits the daily share (useFittedSchedule).
 */
export function SaveSearchDialog({
  params,
  onClose,
}: {
  params: Record<string, unknown>;
  onClose: () => void;
}) {
  const call = useCaller();
  // Damage the service cannot search is saved as the search's local refinement, never as a parameter.
  const split = splitSearch(params);
  const [name, setName] = useState(() => describeParams(params));
  const { schedule, setSchedule, maxPages, setMaxPages, note: fitNote } = useFittedSchedule('pages');
  const [newMatches, setNewMatches] = useState(true);
  const [budget, setBudget] = useState('');
  const [exportableOnly, setExportableOnly] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const [saved, setSaved] = useState<SavedSearchView | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const max = budget.trim() === '' ? null : Number(budget);
    const r = await call('searches.create', {
      name,
      params: split.params,
      ...(isUnrefined(split.refine) ? {} : { refine: split.refine }),
      schedule,
      max_pages: Number(maxPages),
      rules: {
        kinds: newMatches ? DEFAULT_NOTIFY_KINDS : DEFAULT_NOTIFY_KINDS.filter((k) => k !== 'new_match'),
        max_price_usd: max,
        exportable_only: exportableOnly,
      },
    });
    setBusy(false);
    if (r.ok) {
      setSaved(r.value);
      setError(null);
    } else setError(r.error);
  };
  const msg = (f: string) => fieldMessage(error, f);
  const inv = (f: string) =>
    msg(f) ? { 'aria-invalid': true as const, 'aria-describedby': `ss-${f}-error` } : {};
  const err = (f: string) =>
    msg(f) ? (
      <span className="field-error" id={`ss-${f}-error`}>
        {msg(f)}
      </span>
    ) : null;

  if (saved) {
    return (
      <Modal title="Search saved" onClose={onClose} className="ss">
        <h2>Search saved</h2>
        <p role="status">
          <strong>{saved.name}</strong> is saved. Lotwatch runs it {scheduleLabel(saved.schedule)}, reading up
          to {saved.max_pages} {saved.max_pages === 1 ? 'page' : 'pages'} a run, and alerts you about what
          changes.
        </p>
        {/* A schedule that fits a small share runs rarely: the first run, and the baseline new matches are told
            against, may be a day off. */}
        {saved.next_run_at !== null && saved.next_run_at - appNow() > FIRST_RUN_SAID_AFTER_MS && (
          <p className="muted small ss-first-run">
            Its first run is {relative(saved.next_run_at, appNow())} ({dateTime(saved.next_run_at)}); until
            then it finds nothing. Run now in Saved searches starts it today (up to {saved.max_pages}{' '}
            {saved.max_pages === 1 ? 'request' : 'requests'}).
          </p>
        )}
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

  const unknownFieldError =
    error &&
    (!error.fields ||
      !['name', 'schedule', 'max_pages', 'params', 'rules', 'rules.max_price_usd', 'max_price_usd'].some(
        (f) => error.fields?.[f],
      ));
  return (
    <Modal title="Save this search" onClose={onClose} className="ss">
      <form onSubmit={submit} noValidate>
        <h2>Save this search</h2>
        <p className="muted small">
          Lotwatch runs it on a schedule and alerts you to new matches and changes. Each page read is one
          request.
        </p>
        {unknownFieldError && <ErrorNotice error={error} />}
        {fieldMessage(error, 'params') && <p className="field-error">{fieldMessage(error, 'params')}</p>}
        <label className="field">
          <span>Name</span>
          <input
            type="text"
            value={name}
            onChange={(e) => setName(e.target.value)}
            data-autofocus
            {...inv('name')}
          />
          {err('name')}
        </label>
        <SchedulePicker
          value={schedule}
          onChange={setSchedule}
          error={msg('schedule')}
          idPrefix="ss"
          beside={
            <label className="field">
              <span>Pages per run</span>
              <input
                type="number"
                min={1}
                max={50}
                value={maxPages}
                onChange={(e) => setMaxPages(e.target.value)}
                {...inv('max_pages')}
              />
            </label>
          }
        />
        {err('max_pages')}
        {fitNote && <p className="muted small ss-fit">{fitNote}</p>}
        <ScheduleCost schedule={schedule} maxPages={Number(maxPages)} local={split.refine.damage ?? []} />
        <fieldset>
          <legend>Alerts</legend>
          <label className="check">
            <input type="checkbox" checked={newMatches} onChange={(e) => setNewMatches(e.target.checked)} />
            <span>Alert me about new matches</span>
          </label>
          <label className="check">
            <input
              type="checkbox"
              name="exportable_only"
              checked={exportableOnly}
              onChange={(e) => setExportableOnly(e.target.checked)}
            />
            <span>
              Exportable title only{' '}
              <span className="muted">
                — never alert about a lot whose title blocks export (not exportable, certificate of
                destruction, parts only, junk, non-repairable)
              </span>
            </span>
          </label>
          <label className="field">
            <span>Budget: only alert when the bid or buy now is at most (USD)</span>
            <input
              type="number"
              min={0}
              value={budget}
              onChange={(e) => setBudget(e.target.value)}
              placeholder="no limit"
              {...inv('max_price_usd')}
            />
            {err('max_price_usd')}
          </label>
        </fieldset>
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save search'}
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
