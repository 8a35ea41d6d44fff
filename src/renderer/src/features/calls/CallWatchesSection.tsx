import { ExampleBadge } from '../../components/watch/common';
import { useEffect, useState } from 'react';
import { CALL_FAILURES_BEFORE_PAUSE, type CallTarget } from '../../../../shared/callWatch';
import type { CallWatchView } from '../../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { ErrorNotice } from '../../components/ErrorNotice';
import {
  ConfirmAction,
  cronInWords,
  Progress,
  useContractEvents,
  useNow,
} from '../../components/watch/common';
import { dateTime, relative } from '../../lib/format';
import { integer } from '../../lib/quantity';
import { runErrorPayload } from '../../lib/runError';
import { useCall, useCaller } from '../../lib/useCall';
import { pathText } from './answerPaths';
import { WatchCallDialog } from './WatchCallDialog';
import './calls.css';
import { Owner } from '../../team/Owner';

/** A call's parameters, whole (ids are never shortened): `['channel_id=UC…', 'sort=newest']`; empty when none. */
export function callParams(t: CallTarget): string[] {
  return [
    ...Object.entries(t.path).map(([k, v]) => `${k}=${v}`),
    ...Object.entries(t.query).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(', ') : v}`),
  ];
}

/** A schedule's daily cost in words, as the saved searches' cost line counts it: "48 requests a day", "0.7 requests a day". */
export function costPerDay(requestsPerDay: number): string {
  // Under 10 a day, one decimal (a weekly schedule costs 0.1 a day); whole requests beyond.
  const n = requestsPerDay >= 10 ? Math.round(requestsPerDay) : Math.round(requestsPerDay * 10) / 10;
  const text = Number.isInteger(n) ? integer(n) : n.toFixed(1);
  return `${text} request${n === 1 ? '' : 's'} a day`;
}

/**
 * A call watch's state in the buyer's words: a Demo example waiting for Demo mode; paused by the buyer; paused by itself after repeated refusals, with
 * the service's last words; failing; not run yet; or running. Pure.
 */
export function callStatusText(w: CallWatchView): { text: string; tone: 'ok' | 'muted' | 'danger' } {
  if (w.waits_for_demo) return { text: 'Only in Demo mode', tone: 'muted' };
  if (w.paused && w.paused_reason === 'failing') {
    const n = Math.max(w.consecutive_failures, CALL_FAILURES_BEFORE_PAUSE);
    return {
      text: `Paused: the service refused it ${n} times${w.last_error ? ` — ${w.last_error}` : '.'}`,
      tone: 'danger',
    };
  }
  if (w.paused) return { text: 'Paused by you', tone: 'muted' };
  if (w.consecutive_failures > 0)
    return {
      text: `Failed ${w.consecutive_failures} time${w.consecutive_failures === 1 ? '' : 's'} in a row${w.last_error ? ` — ${w.last_error}` : ''}`,
      tone: 'danger',
    };
  if (w.last_run_at === null) return { text: 'Not run yet', tone: 'muted' };
  return { text: 'Running', tone: 'ok' };
}

/** What the list shows in its Items column: the count and the list it was read from. */
function itemsCell(w: CallWatchView) {
  if (w.items === null) return <span className="lw-sub">–</span>;
  return (
    <>
      {integer(w.items)}
      {w.list_path && <div className="lw-sub cw-mono nowrap">in {pathText(w.list_path)}</div>}
    </>
  );
}

/**
 * "Watched calls", listed with the saved searches: each call watch's call (endpoint and parameters, whole), schedule
 * and its requests a day, last and next run, items, state; run now, pause or resume, edit (the watch dialog over its
 * last stored answer), delete; a line pointing to the API console while there is none. `onExamples` hears how many
 * are Demo examples (the Saved searches view counts them in "Remove examples").
 */
export function CallWatchesSection({ onExamples }: { onExamples?: (n: number) => void } = {}) {
  const call = useCaller();
  const list = useCall('callWatches.list');
  const { run } = list;
  const now = useNow();
  const [running, setRunning] = useState<Set<number>>(new Set());
  const [error, setError] = useState<ErrorPayload | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ watch: CallWatchView; json: unknown } | null>(null);
  const watches = list.data ?? [];
  const exampleCount = watches.filter((w) => w.is_example).length;
  useEffect(() => onExamples?.(exampleCount), [exampleCount, onExamples]);

  useContractEvents((e) => {
    if (e.name === 'poll.finished' && e.payload.target.startsWith('call:')) void run();
  });

  const runNow = async (w: CallWatchView) => {
    setRunning((x) => new Set(x).add(w.id));
    setNote(null);
    const r = await call('callWatches.runNow', { id: w.id });
    setRunning((x) => {
      const n = new Set(x);
      n.delete(w.id);
      return n;
    });
    if (r.ok && r.value.status === 'error' && r.value.error) {
      setError(runErrorPayload(r.value.error, `“${w.name}” did not run`));
    } else if (r.ok) {
      setError(null);
      const v = r.value;
      setNote(
        v.status === 'skipped'
          ? `${w.name}: skipped, the request budget is spent for now.`
          : `${w.name}: done · ${v.requests} request${v.requests === 1 ? '' : 's'}, ${v.alerts} alert${v.alerts === 1 ? '' : 's'}.`,
      );
    } else setError(r.error);
    void run();
  };
  const setPaused = async (w: CallWatchView, paused: boolean) => {
    const r = await call('callWatches.setPaused', { id: w.id, paused });
    if (r.ok) {
      setError(null);
      setNote(paused ? `Paused ${w.name}.` : `Resumed ${w.name}.`);
    } else setError(r.error);
    void run();
  };
  const remove = async (w: CallWatchView) => {
    const r = await call('callWatches.remove', { id: w.id });
    if (r.ok) {
      setError(null);
      setNote(`Deleted ${w.name}.`);
    } else setError(r.error);
    void run();
  };
  const edit = async (w: CallWatchView) => {
    const r = await call('callWatches.answer', { id: w.id });
    if (r.ok) {
      setError(null);
      setEditing({ watch: w, json: r.value.json });
    } else setError(r.error);
  };

  // A core without call watches (an older version) answers unknown_method: the saved searches stay as they were.
  if (list.error?.code === 'unknown_method') return null;
  return (
    <section className="cw-section" aria-labelledby="cw-heading">
      <div className="lw-toolbar">
        <h2 id="cw-heading">Watched calls</h2>
        {note && (
          <span className="ss-note" role="status">
            {note}
          </span>
        )}
      </div>
      {list.error && <ErrorNotice error={list.error} onRetry={() => void run()} />}
      {error && <ErrorNotice error={error} />}
      {!list.data && list.loading && <Progress label="Loading watched calls…" />}
      {list.data && watches.length === 0 && (
        <p className="lw-sub">
          None yet. In the API console, make a call and press Watch this call: Lotwatch repeats it on a
          schedule and alerts you about new items and the values you pick.
        </p>
      )}
      {watches.length > 0 && (
        <div className="lw-table-wrap">
          <table className="lw-table ss-table cw-table" aria-label="Watched calls">
            <thead>
              <tr>
                <th>Call</th>
                <th>Schedule</th>
                <th className="num">Cost</th>
                <th>Runs</th>
                <th className="num">Items</th>
                <th>Status</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {watches.map((w) => {
                const st = callStatusText(w);
                const params = callParams(w.target);
                return (
                  <tr key={w.id} className={w.paused ? 'ss-paused' : undefined} aria-label={w.name}>
                    <td>
                      <div className="ss-name-line">
                        <strong>{w.name}</strong>
                        {w.is_example && <ExampleBadge />}
                        {w.rules.muted && <span className="lw-badge">Muted</span>}
                        <Owner createdBy={w.created_by} verb="Watched" />
                      </div>
                      <div className="lw-sub cw-mono cw-call">
                        <div>{w.target.endpoint}</div>
                        {params.map((p) => (
                          <div key={p}>{p}</div>
                        ))}
                      </div>
                      {w.refused_params.length > 0 && (
                        <div className="lw-sub cw-refused">
                          The service refused: {w.refused_params.join(', ')}
                        </div>
                      )}
                    </td>
                    <td title={w.schedule}>{cronInWords(w.schedule)}</td>
                    <td className="num cw-cost">{costPerDay(w.requests_per_day)}</td>
                    <td className="cw-runs">
                      <div title={w.last_run_at ? dateTime(w.last_run_at) : undefined}>
                        Last: {w.last_run_at ? relative(w.last_run_at, now) : 'never'}
                      </div>
                      <div className="lw-sub" title={w.next_run_at ? dateTime(w.next_run_at) : undefined}>
                        Next:{' '}
                        {w.waits_for_demo
                          ? 'in Demo mode'
                          : w.paused
                            ? 'paused'
                            : w.next_run_at
                              ? relative(w.next_run_at, now)
                              : '–'}
                      </div>
                    </td>
                    <td className="num">{itemsCell(w)}</td>
                    <td>
                      {st.tone === 'ok' ? (
                        <span className="lw-badge ok">{st.text}</span>
                      ) : st.tone === 'danger' ? (
                        <div className="cw-status-failing lw-error-text">{st.text}</div>
                      ) : (
                        <span className="lw-badge">{st.text}</span>
                      )}
                    </td>
                    <td>
                      <div className="ss-actions">
                        {running.has(w.id) ? (
                          <Progress label="Running…" />
                        ) : (
                          <button
                            type="button"
                            className="lw-small"
                            onClick={() => void runNow(w)}
                            aria-label={`Run ${w.name} now`}
                          >
                            Run now
                          </button>
                        )}
                        {/* An example waiting for Demo mode neither pauses nor resumes: only Demo mode runs it. */}
                        {!w.waits_for_demo && (
                          <button
                            type="button"
                            className="lw-small"
                            onClick={() => void setPaused(w, !w.paused)}
                            aria-label={`${w.paused ? 'Resume' : 'Pause'} ${w.name}`}
                          >
                            {w.paused ? 'Resume' : 'Pause'}
                          </button>
                        )}
                        <button
                          type="button"
                          className="lw-small"
                          aria-label={`Edit ${w.name}`}
                          onClick={() => void edit(w)}
                        >
                          Edit
                        </button>
                        <ConfirmAction
                          label="Delete"
                          question="Delete this call watch?"
                          confirmLabel="Delete"
                          onConfirm={() => void remove(w)}
                        />
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {editing && (
        <WatchCallDialog
          target={editing.watch.target}
          json={editing.json}
          existing={editing.watch}
          onClose={() => setEditing(null)}
          onSaved={(v) => {
            setEditing(null);
            setNote(`Saved ${v.name}.`);
            void run();
          }}
        />
      )}
    </section>
  );
}
