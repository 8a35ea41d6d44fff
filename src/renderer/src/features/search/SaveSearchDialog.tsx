import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { SavedSearchView } from '../../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { DEFAULT_NOTIFY_KINDS, DEFAULT_SCHEDULE, SCHEDULE_PRESETS } from '../../../../shared/watch';
import { SchedulePicker } from './SchedulePicker';
import { isUnrefined, splitSearch } from '../../../../shared/localRefinements';
import { useCaller } from '../../lib/useCall';
import { ErrorNotice, fieldMessage } from '../../components/ErrorNotice';
import { Modal } from '../../components/Modal';
import { describeParams } from './params';
import { DEFAULT_PAGES, fitCandidates, fittingSchedule, ScheduleCost } from './ScheduleCost';

/** What a schedule reads as, for the confirmation. */
function scheduleLabel(cron: string): string {
  return SCHEDULE_PRESETS.find((s) => s.cron === cron)?.label.toLowerCase() ?? `on “${cron}”`;
}

/**
 * "Save this search": name, schedule (presets or custom cron), pages per run and alert rules; calls
 * `searches.create` with the current parameters (never a cursor) and confirms with a link to Saved searches. It
 * starts from every 30 minutes and 5 pages a run; where that does not fit the daily share beside what is already
 * planned (a free plan's 3 a day), from the most frequent schedule that does (fittingSchedule, asked of core with
 * `searches.estimate`, no request to the service), and says so, unless the buyer has changed it already.
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
  const [schedule, setScheduleState] = useState<string>(DEFAULT_SCHEDULE);
  const [maxPages, setMaxPagesState] = useState(String(DEFAULT_PAGES));
  const [fitNote, setFitNote] = useState<string | null>(null);
  // The buyer's own choice is never replaced by the fitted default.
  const chosen = useRef(false);
  const setSchedule = (cron: string) => {
    chosen.current = true;
    setFitNote(null);
    setScheduleState(cron);
  };
  const setMaxPages = (pages: string) => {
    chosen.current = true;
    setFitNote(null);
    setMaxPagesState(pages);
  };
  useEffect(() => {
    let live = true;
    const crons = [...new Set(fitCandidates().map((c) => c.cron))];
    void Promise.all(crons.map((cron) => call('searches.estimate', { schedule: cron, max_pages: 1 }))).then(
      (answers) => {
        const first = answers[0];
        if (!live || chosen.current || !first?.ok) return;
        const runs = new Map<string, number>();
        answers.forEach((a, i) => a.ok && runs.set(crons[i]!, a.value.runs_per_day));
        const { allowed_per_day: allowed, planned_per_day: planned } = first.value;
        const fit = fittingSchedule(runs, allowed, planned);
        if (!fit || (fit.cron === DEFAULT_SCHEDULE && fit.pages === DEFAULT_PAGES)) return;
        setScheduleState(fit.cron);
        setMaxPagesState(String(fit.pages));
        const what = `${scheduleLabel(fit.cron).replace(/^./, (c) => c.toUpperCase())}, up to ${fit.pages} ${fit.pages === 1 ? 'page' : 'pages'} a run`;
        const share = `your ${allowed.toLocaleString('en-US')}-a-day share`;
        setFitNote(
          fit.fits
            ? `${what}: the most often it fits ${share} beside what your saved searches and watches already need. Choose more often and Lotwatch would skip runs.`
            : `${what}: the least a saved search can cost.`,
        );
      },
    );
    return () => {
      live = false;
    };
  }, [call]);
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
