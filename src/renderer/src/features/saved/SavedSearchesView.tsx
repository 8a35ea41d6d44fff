import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { SavedSearchView } from '../../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { parsePollTarget, SCHEDULE_PRESETS } from '../../../../shared/watch';
import { ErrorNotice, fieldMessage } from '../../components/ErrorNotice';
import {
  ConfirmAction,
  cronInWords,
  EmptyState,
  ExampleBadge,
  Progress,
  RemoveExamples,
  useContractEvents,
  useNow,
} from '../../components/watch/common';
import { draftToRules, RulesFields, rulesToDraft, type RulesDraft } from '../../components/watch/RulesFields';
import { describeSearchParams } from '../../../../shared/vehicleParams';
import { dateTime, relative } from '../../lib/format';
import { useCall, useCaller } from '../../lib/useCall';
import type { LocalRefinements } from '../../../../shared/localRefinements';
import type { AppStore } from '../../app/appStore';
import './saved.css';
import { runErrorPayload } from '../../lib/runError';
import { useReturnFocus } from '../../lib/focus';
import { CallWatchesSection } from '../calls/CallWatchesSection';
import { Owner } from '../../team/Owner';

/**
 * A saved search's filters in a line, from the phrases of SEARCH_PARAMS (src/shared/vehicleParams): "TESLA MODEL
 * 3 · 2019–2022 · odometer under 80,000 mi · Copart only"; its local refinements last ("Front end damage (filtered
 * by Lotwatch)"); "All open lots" when it has none (the service's defaults: open auctions of both platforms).
 */
export function paramsSummary(params: Record<string, unknown>, refine?: LocalRefinements): string {
  const parts = describeSearchParams(params);
  const local = refine?.damage ?? [];
  if (local.length) parts.push(`${local.join(' or ')} damage (filtered by Lotwatch)`);
  return parts.length ? parts.join(' · ') : 'All open lots';
}

/**
 * Edits name, schedule, pages and rules of a saved search; field errors come back from `searches.update`. The save
 * names the copy it was made on (`expected_updated_at`, taken when the panel opened), so a search another member
 * changed meanwhile is refused with who and when (`conflict`) rather than overwritten; "Reload" then starts the
 * panel again from the latest copy (`onReload`).
 */
function EditPanel({
  search,
  onSaved,
  onClose,
  onOpenInSearch,
  onReload,
}: {
  search: SavedSearchView;
  onSaved: () => void;
  onClose: () => void;
  onOpenInSearch: () => void;
  onReload: () => void;
}) {
  const call = useCaller();
  const [base] = useState(search.updated_at);
  const [name, setName] = useState(search.name);
  const [schedule, setSchedule] = useState(search.schedule);
  const [maxPages, setMaxPages] = useState(String(search.max_pages));
  const [draft, setDraft] = useState<RulesDraft>(() => rulesToDraft(search.rules));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const custom = !SCHEDULE_PRESETS.some((p) => p.cron === schedule);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const pages = Number(maxPages);
    const r = await call('searches.update', {
      id: search.id,
      name,
      params: search.params,
      schedule,
      max_pages: Number.isInteger(pages) && maxPages.trim() !== '' ? pages : (maxPages as unknown as number),
      paused: search.paused,
      rules: draftToRules(draft, search.rules),
      ...(base > 0 ? { expected_updated_at: base } : {}),
    });
    setBusy(false);
    if (r.ok) onSaved();
    else setError(r.error);
  };
  useReturnFocus();
  const err = (f: string) => fieldMessage(error, f);
  return (
    <form
      className="lw-panel ss-edit"
      onSubmit={submit}
      aria-label={`Edit ${search.name}`}
      noValidate
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <h2 ref={heading} tabIndex={-1}>
        Edit · {search.name}
      </h2>
      <p className="lw-sub ss-filters">
        Filters: {paramsSummary(search.params, search.refine)}{' '}
        <button type="button" className="link-button" onClick={onOpenInSearch}>
          Edit filters in Search
        </button>
      </p>
      <div className="lw-form-grid ss-edit-grid">
        <label className="field ss-name">
          <span>Name</span>
          <input
            type="text"
            name="name"
            value={name}
            aria-invalid={err('name') ? true : undefined}
            aria-describedby={err('name') ? 'ss-name-err' : undefined}
            onChange={(e) => setName(e.target.value)}
          />
          {err('name') && (
            <span className="field-error" id="ss-name-err">
              {err('name')}
            </span>
          )}
        </label>
        <label className="field">
          <span>Schedule</span>
          <select
            name="schedule-preset"
            value={custom ? 'custom' : schedule}
            onChange={(e) => setSchedule(e.target.value === 'custom' ? schedule : e.target.value)}
          >
            {SCHEDULE_PRESETS.map((p) => (
              <option key={p.cron} value={p.cron}>
                {p.label}
              </option>
            ))}
            <option value="custom">Custom (cron)</option>
          </select>
        </label>
        <label className="field">
          <span>Cron expression</span>
          <input
            type="text"
            name="schedule"
            value={schedule}
            aria-invalid={err('schedule') ? true : undefined}
            aria-describedby="ss-sched-hint"
            onChange={(e) => setSchedule(e.target.value)}
          />
          <span className={err('schedule') ? 'field-error' : 'lw-sub'} id="ss-sched-hint">
            {err('schedule') ?? cronInWords(schedule)}
          </span>
        </label>
        <label className="field">
          <span>Pages a run (1–50)</span>
          <input
            type="number"
            name="max_pages"
            min={1}
            max={50}
            value={maxPages}
            aria-invalid={err('max_pages') ? true : undefined}
            aria-describedby={err('max_pages') ? 'ss-pages-err' : undefined}
            onChange={(e) => setMaxPages(e.target.value)}
          />
          {err('max_pages') && (
            <span className="field-error" id="ss-pages-err">
              {err('max_pages')}
            </span>
          )}
        </label>
      </div>
      <RulesFields draft={draft} onChange={setDraft} error={error} mode="search" />
      {error && !error.fields && <ErrorNotice error={error} />}
      {error?.fields && <p className="field-error">Nothing was saved. Correct the highlighted fields.</p>}
      <div className="actions">
        {error?.code === 'conflict' ? (
          <button type="button" className="primary" onClick={onReload}>
            Reload
          </button>
        ) : (
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save search'}
          </button>
        )}
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function Health({ s }: { s: SavedSearchView }) {
  if (s.consecutive_failures > 0 || s.last_error) {
    return (
      <div className="ss-health">
        <span className="lw-badge danger">
          {s.consecutive_failures} failure{s.consecutive_failures === 1 ? '' : 's'}
        </span>
        {s.last_error && <div className="lw-error-text ss-last-error">{s.last_error}</div>}
      </div>
    );
  }
  if (s.last_run_at === null) return <span className="lw-sub">Not run yet</span>;
  if (s.last_complete === false)
    return (
      <span className="lw-badge" title="Stopped at the page limit; raise Pages a run to see all">
        Partial
      </span>
    );
  return <span className="lw-badge ok">OK</span>;
}

/**
 * Saved searches: schedule, last and next run, results and new matches, failures; run, pause, edit, delete, and
 * "Open in Search", which shows the Search form filled with the search's filters (through the app store) to edit
 * and save back, without running anything.
 */
export function SavedSearchesView({ store }: { store: AppStore }) {
  const call = useCaller();
  const list = useCall('searches.list');
  const { run } = list;
  const now = useNow();
  const [editing, setEditing] = useState<number | null>(null);
  // Bumped by an edit panel's Reload: the panel starts again from the latest copy of its search.
  const [reloads, setReloads] = useState(0);
  const [running, setRunning] = useState<Set<number>>(new Set());
  const [actionError, setActionError] = useState<ErrorPayload | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const searches = list.data ?? [];
  // The example watched call is removed with the other examples: the button counts it, and the list reloads.
  const [callExamples, setCallExamples] = useState(0);
  const [callsShown, setCallsShown] = useState(0);

  useContractEvents((e) => {
    if (e.name === 'poll.finished' && parsePollTarget(e.payload.target)?.kind === 'search') void run();
  });

  const runNow = async (s: SavedSearchView) => {
    setRunning((x) => new Set(x).add(s.id));
    setNote(null);
    const r = await call('searches.runNow', { id: s.id });
    setRunning((x) => {
      const n = new Set(x);
      n.delete(s.id);
      return n;
    });
    if (r.ok && r.value.status === 'error' && r.value.error) {
      // The run failed: say what stopped it, never "failed · 0 requests, 0 changes" beside an error elsewhere.
      setActionError(runErrorPayload(r.value.error, `“${s.name}” did not run`));
    } else if (r.ok) {
      setActionError(null);
      const v = r.value;
      setNote(
        v.status === 'skipped'
          ? `${s.name}: skipped, the request budget is spent for now.`
          : `${s.name}: ${v.status === 'partial' ? 'partly done' : 'done'} · ${v.requests} request${v.requests === 1 ? '' : 's'}, ${v.changes} change${v.changes === 1 ? '' : 's'}, ${v.alerts} alert${v.alerts === 1 ? '' : 's'}.${v.status === 'partial' && v.error ? ` It stopped early: ${v.error.message}` : ''}`,
      );
    } else setActionError(r.error);
    void run();
  };
  const setPaused = async (s: SavedSearchView, paused: boolean) => {
    const r = await call('searches.setPaused', { id: s.id, paused });
    if (r.ok) setActionError(null);
    else setActionError(r.error);
    void run();
  };
  const remove = async (s: SavedSearchView) => {
    const r = await call('searches.remove', { id: s.id });
    if (r.ok) {
      setActionError(null);
      setNote(`Deleted ${s.name}.`);
      if (editing === s.id) setEditing(null);
    } else setActionError(r.error);
    void run();
  };
  const openInSearch = (s: SavedSearchView) => {
    store.getState().openSearchDraft(s);
    // The address follows, so the navigation shows Search and a reload stays there.
    location.hash = '#/search';
  };
  const edited = searches.find((s) => s.id === editing) ?? null;
  const examples = searches.filter((s) => s.is_example).length;

  return (
    <section className="lw-view ss" aria-label="Saved searches">
      <div className="lw-toolbar">
        <span className="muted">
          {list.data ? `${searches.length} saved search${searches.length === 1 ? '' : 'es'}` : ''}
          {list.loading && list.data ? ' · refreshing…' : ''}
        </span>
        {note && (
          <span className="ss-note" role="status">
            {note}
          </span>
        )}
        <span className="spacer" />
        <RemoveExamples
          count={examples + callExamples}
          lead="searches"
          onDone={(n) => {
            setActionError(null);
            setNote(n);
            setCallsShown((k) => k + 1);
            void run();
          }}
          onError={(e) => {
            setActionError(e);
            void run();
          }}
        />
      </div>
      {list.error && <ErrorNotice error={list.error} onRetry={() => void run()} />}
      {actionError && <ErrorNotice error={actionError} />}
      {edited && (
        <EditPanel
          key={`${edited.id}-${reloads}`}
          search={edited}
          onReload={() => void run().then(() => setReloads((n) => n + 1))}
          onClose={() => setEditing(null)}
          onOpenInSearch={() => openInSearch(edited)}
          onSaved={() => {
            setEditing(null);
            setNote(`Saved ${edited.name}.`);
            void run();
          }}
        />
      )}
      {!list.data && list.loading && <Progress label="Loading saved searches…" />}
      {list.data && searches.length === 0 && (
        <EmptyState title="No saved searches">
          Set filters in Search and press Save search; Lotwatch then runs it on a schedule and alerts you
          about new matches.
        </EmptyState>
      )}
      {searches.length > 0 && (
        <div className="lw-table-wrap">
          <table className="lw-table ss-table" aria-label="Saved searches">
            <thead>
              <tr>
                <th>Search</th>
                <th>Schedule</th>
                <th>Last run</th>
                <th>Next run</th>
                <th className="num">Results</th>
                <th className="num">New (24 h)</th>
                <th>Health</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {searches.map((s) => (
                <tr key={s.id} className={s.paused ? 'ss-paused' : undefined} aria-label={s.name}>
                  <td>
                    <div className="ss-name-line">
                      <strong>{s.name}</strong>
                      {s.is_example && <ExampleBadge />}
                      {s.paused && <span className="lw-badge">Paused</span>}
                      {s.rules.muted && <span className="lw-badge">Muted</span>}
                      {s.rules.exportable_only && (
                        <span
                          className="lw-badge"
                          title="Never alerts about a lot whose title blocks export or registration"
                        >
                          Exportable title only
                        </span>
                      )}
                      <Owner createdBy={s.created_by} verb="Saved" />
                    </div>
                    <div className="lw-sub">{paramsSummary(s.params, s.refine)}</div>
                  </td>
                  <td className="nowrap" title={s.schedule}>
                    {cronInWords(s.schedule)}
                  </td>
                  <td className="nowrap" title={s.last_run_at ? dateTime(s.last_run_at) : undefined}>
                    {s.last_run_at ? relative(s.last_run_at, now) : 'Never'}
                  </td>
                  <td className="nowrap" title={s.next_run_at ? dateTime(s.next_run_at) : undefined}>
                    {s.paused ? 'Paused' : s.next_run_at ? relative(s.next_run_at, now) : '–'}
                  </td>
                  <td className="num">{s.last_result_count ?? '–'}</td>
                  <td className="num">
                    {s.new_matches_24h > 0 ? (
                      <span className="lw-badge accent">{s.new_matches_24h}</span>
                    ) : (
                      '0'
                    )}
                  </td>
                  <td>
                    <Health s={s} />
                  </td>
                  <td>
                    <div className="ss-actions">
                      {running.has(s.id) ? (
                        <Progress label="Running…" />
                      ) : (
                        <button
                          type="button"
                          className="lw-small"
                          onClick={() => void runNow(s)}
                          aria-label={`Run ${s.name} now`}
                        >
                          Run now
                        </button>
                      )}
                      <button
                        type="button"
                        className="lw-small"
                        onClick={() => void setPaused(s, !s.paused)}
                        aria-label={`${s.paused ? 'Resume' : 'Pause'} ${s.name}`}
                      >
                        {s.paused ? 'Resume' : 'Pause'}
                      </button>
                      <button
                        type="button"
                        className="lw-small"
                        aria-label={`Open ${s.name} in Search`}
                        title="Edit the filters in the Search form (nothing is run until you press Search)"
                        onClick={() => openInSearch(s)}
                      >
                        Open in Search
                      </button>
                      <button
                        type="button"
                        className="lw-small"
                        aria-pressed={editing === s.id}
                        aria-label={`Edit ${s.name}`}
                        onClick={() => setEditing(editing === s.id ? null : s.id)}
                      >
                        Edit
                      </button>
                      <ConfirmAction
                        label="Delete"
                        question="Delete this search?"
                        confirmLabel="Delete"
                        onConfirm={() => void remove(s)}
                      />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <CallWatchesSection key={callsShown} onExamples={setCallExamples} />
    </section>
  );
}
