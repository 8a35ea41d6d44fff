import { format, parseISO } from 'date-fns';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Backup } from '../../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { ErrorNotice } from '../../components/ErrorNotice';
import { bytes } from '../../lib/quantity';
import { useCall, useCaller } from '../../lib/useCall';
import '../../components/lwTable.css';

/** "Sun, Nov 22, 2026" for a backup's local day `2026-11-22`. */
const dayOf = (date: string) => format(parseISO(date), 'EEE, MMM d, yyyy');

/**
 * Settings, Backups (docs/architecture.md "Data safety"): the daily copies of the data file, newest first, each with
 * a Restore button. Restoring asks first (focus moves to the confirm button; Escape or Cancel goes back to the row's
 * button); once chosen and checked, the backup replaces the data file at the next start, so the section says to
 * quit and reopen Lotwatch. On a team's PostgreSQL server (`onServer`) it says to use the server's own backups.
 */
export function BackupsSection({ onServer = false }: { onServer?: boolean }) {
  const list = useCall('backups.list');
  const call = useCaller();
  const [confirm, setConfirm] = useState<Backup | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const rowButtons = useRef(new Map<string, HTMLButtonElement>());
  useEffect(() => {
    if (confirm) confirmRef.current?.focus();
  }, [confirm]);

  const cancel = () => {
    const name = confirm?.name;
    setConfirm(null);
    if (name) rowButtons.current.get(name)?.focus();
  };
  const restore = async (b: Backup) => {
    setBusy(true);
    setError(null);
    const r = await call('backups.restore', { name: b.name });
    setBusy(false);
    setConfirm(null);
    if (!r.ok) setError(r.error);
    void list.run();
  };
  const onConfirmKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      cancel();
    }
  };

  const data = list.data;
  if (onServer)
    return (
      <div className="settings">
        <fieldset className="backups-section">
          <legend>Backups</legend>
          <p className="muted small backups-intro">
            This Lotwatch keeps its data on a team&apos;s PostgreSQL server (Database, above), so it makes no
            copies of its own: back the database up with the server&apos;s tools (pg_dump, or your host&apos;s
            backups), and restore it there.
          </p>
        </fieldset>
      </div>
    );
  return (
    <div className="settings">
      <fieldset className="backups-section" aria-busy={busy || list.loading}>
        <legend>Backups</legend>
        <p className="muted small backups-intro">
          Lotwatch copies its data file once a day and keeps the last 7{data ? `, in ${data.folder}` : ''}.
          Each copy is checked before it counts and kept compressed; a day on which nothing changed shares the
          previous day&apos;s file instead of taking the space again.
        </p>
        {list.error && <ErrorNotice error={list.error} onRetry={() => void list.run()} />}
        {data?.pending && (
          <div className="backups-pending" role="status">
            <strong>Restore ready: {data.pending.source}.</strong> Quit Lotwatch and open it again to finish;
            the backup then replaces the current data, which is kept beside it.
          </div>
        )}
        {data && data.backups.length === 0 && (
          <p className="muted">No backups yet: the first is taken a minute after Lotwatch starts.</p>
        )}
        {data && data.backups.length > 0 && (
          <div className="lw-table-wrap">
            <table className="lw-table backups-table" aria-label="Backups">
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col" className="lw-num">
                    Size
                  </th>
                  <th scope="col">
                    <span className="visually-hidden">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.backups.map((b) => (
                  <tr key={b.name}>
                    <td title={b.path}>{dayOf(b.date)}</td>
                    <td className="lw-num">{bytes(b.size)}</td>
                    <td className="backups-action">
                      <button
                        type="button"
                        ref={(el) => {
                          if (el) rowButtons.current.set(b.name, el);
                          else rowButtons.current.delete(b.name);
                        }}
                        aria-label={`Restore the backup of ${dayOf(b.date)}`}
                        disabled={busy}
                        onClick={() => {
                          setError(null);
                          setConfirm(b);
                        }}
                      >
                        Restore…
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {confirm && (
          <div
            className="backups-confirm"
            role="group"
            aria-label="Confirm the restore"
            onKeyDown={onConfirmKey}
          >
            <span>
              Replace Lotwatch&apos;s data with the backup of {dayOf(confirm.date)}? What changed since then
              (alerts, watches, searches, settings) is replaced when Lotwatch next starts; the current data
              file is kept beside it, not deleted.
            </span>
            <div className="actions">
              <button
                type="button"
                className="danger-button filled"
                ref={confirmRef}
                disabled={busy}
                onClick={() => void restore(confirm)}
              >
                {busy ? 'Checking the backup…' : 'Restore this backup'}
              </button>
              <button type="button" onClick={cancel} disabled={busy}>
                Cancel
              </button>
            </div>
          </div>
        )}
        {error && <ErrorNotice error={error} />}
      </fieldset>
    </div>
  );
}
