import { useEffect, useState } from 'react';
import type { ErrorPayload } from '../../../shared/ipc/errors';
import { useApi } from '../api/ApiContext';
import { ErrorNotice } from '../components/ErrorNotice';
import { integer } from '../lib/quantity';
import { dayMonthYear } from '../../../shared/quota';
import type { MethodOutput } from '../../../shared/ipc/contract';
import './team.css';

/** `usage.byUser`: requests this calendar month by member, the watcher's own as user_id null. */
type UsageByUser = MethodOutput<'usage.byUser'>;

/** One member's line of the table: their requests and share of the month's total. */
export interface MemberShare {
  key: string;
  name: string;
  requests: number;
  /** "42 %", "< 1 %" for a few requests among many, "–" when nobody spent any. */
  share: string;
}

/**
 * The rows of "Requests this month by member", most requests first (a tie by name): each with its share of the
 * total, rounded to whole percents ("< 1 %" rather than a misleading "0 %" for a member who did spend some).
 */
export function memberShares(rows: UsageByUser['rows']): MemberShare[] {
  const total = rows.reduce((n, r) => n + r.requests, 0);
  return [...rows]
    .sort((a, b) => b.requests - a.requests || a.name.localeCompare(b.name))
    .map((r) => {
      const pct = total > 0 ? (r.requests / total) * 100 : 0;
      return {
        key: r.user_id === null ? 'watcher' : String(r.user_id),
        name: r.name,
        requests: r.requests,
        share: total === 0 ? '–' : r.requests > 0 && pct < 1 ? '< 1 %' : `${Math.round(pct)} %`,
      };
    });
}

/**
 * Usage on a team: who spent the team's requests this calendar month (`usage.byUser`), the watcher's own scheduled
 * checks as "The watcher". Reloads whenever `refresh` is a new value (Usage passes its request log's latest answer).
 */
export function UsageByMember({ refresh }: { refresh?: unknown }) {
  const api = useApi();
  const [data, setData] = useState<UsageByUser | null>(null);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const [tries, setTries] = useState(0);
  useEffect(() => {
    let live = true;
    void api.invoke('usage.byUser').then((r) => {
      if (!live) return;
      if (r.ok) {
        setData(r.value);
        setError(null);
      } else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [api, refresh, tries]);
  const rows = data ? memberShares(data.rows) : [];
  const total = rows.reduce((n, r) => n + r.requests, 0);
  return (
    <section className="usage-section" aria-labelledby="usage-members">
      <div className="usage-section-head">
        <h2 id="usage-members">Requests this month by member</h2>
        {data && <span className="muted small">Since {dayMonthYear(data.since)}</span>}
      </div>
      {error && <ErrorNotice error={error} onRetry={() => setTries((n) => n + 1)} />}
      {!data && !error && <p className="muted">Loading…</p>}
      {data && rows.length === 0 && <p className="muted">No requests this month yet.</p>}
      {rows.length > 0 && (
        <div className="lw-table-wrap team-usage">
          <table className="lw-table" aria-labelledby="usage-members">
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col" className="lw-num">
                  Requests
                </th>
                <th scope="col" className="lw-num">
                  Share
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key}>
                  <td>{r.name}</td>
                  <td className="lw-num">{integer(r.requests)}</td>
                  <td className="lw-num">{r.share}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">All</th>
                <td className="lw-num">{integer(total)}</td>
                <td className="lw-num">{total > 0 ? '100 %' : '–'}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
}
