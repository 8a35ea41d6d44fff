import { format, isSameDay } from 'date-fns';
import { useEffect, useMemo, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import type { MethodOutput, Status } from '../../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { useApi } from '../../api/ApiContext';
import { ErrorNotice } from '../../components/ErrorNotice';
import { WatchingStateNotice, useWatchingState } from '../../components/WatchingState';
import { UsageDetails } from '../../components/UsageDetails';
import { relative } from '../../lib/format';
import { bytes, integer } from '../../lib/quantity';
import { useCall, useCaller } from '../../lib/useCall';
import '../../components/lwTable.css';
import './usage.css';
import { appNow } from '../../lib/clock';
import { useNow } from '../../lib/useNow';
import { dayMonthYear, quotaSpentSentence, untilWords } from '../../../../shared/quota';
import { PaceAdvice, paceHeadline } from './PaceAdvice';
import { chartSummary, countsDifferSentence, readableUsage, sentSentence, usedSentence } from './usageWords';
import { useMe } from '../../team/me';
import { roleAllows } from '../../../../shared/team';
import { UsageByMember } from '../../team/UsageByMember';

type LogRow = MethodOutput<'requests.list'>['rows'][number];

const HOUR = 3_600_000;
/** Rows of the request log drawn at first; the rest behind "Show more". */
const LOG_PAGE = 100;

/** One bar of the chart: requests that started in the hour from `start`, split into answered and failed. */
export interface HourBucket {
  start: number;
  label: string;
  ok: number;
  failed: number;
}

/** A request failed when it got no answer or an error status. */
export function isFailure(r: LogRow): boolean {
  return r.status === null || r.status >= 400 || r.error_code !== null;
}

/** Requests per hour over the 24 hours up to `now` (ms), oldest first: 24 buckets, the last one the current hour. */
export function hourly(rows: LogRow[], now: number): HourBucket[] {
  const current = Math.floor(now / HOUR) * HOUR;
  const first = current - 23 * HOUR;
  const buckets: HourBucket[] = Array.from({ length: 24 }, (_, i) => ({
    start: first + i * HOUR,
    label: format(first + i * HOUR, 'HH:00'),
    ok: 0,
    failed: 0,
  }));
  for (const r of rows) {
    const b = buckets[Math.floor((r.at - first) / HOUR)];
    if (!b || r.at < first) continue;
    if (isFailure(r)) b.failed++;
    else b.ok++;
  }
  return buckets;
}

/** The budget below its headline ("At this pace: 640 of the 1,000 requests allowed today") as sentences. */
export function budgetSentences(s: Status): string[] {
  const b = s.budget;
  const out: string[] = [];
  out.push(sentSentence(b.spentLast24h, s.mode));
  if (b.basis === 'quota') {
    out.push(
      b.periodRemaining !== null && b.periodEnd !== null
        ? `The daily allowance spreads the ${integer(b.periodRemaining)} requests left in the plan over the days until ${dayMonthYear(b.periodEnd)}.`
        : "The daily allowance follows the plan's quota.",
    );
  } else if (b.basis === 'setting') {
    out.push('The daily allowance is your own limit from Settings → Request budget.');
  } else {
    out.push(
      "The daily allowance is Lotwatch's careful default, as the plan's quota is not known yet. Set a limit in Settings, or refresh the usage below.",
    );
  }
  if (s.scale > 1)
    out.push(`To stay within it, watch checks run ${s.scale} times less often than their usual schedule.`);
  return out;
}

/**
 * The plan's quota from the service's response headers, below its headline ("32,410 of 100,000 left until 22
 * December"): what the service counted this period and, when that is below Lotwatch's own count of the last 24
 * hours (`spentLast24h`, the request log `rows`), why (countsDifferSentence).
 */
export function quotaSentences(
  q: NonNullable<Status['quota']>,
  spentLast24h: number,
  rows: LogRow[],
  now: number,
): string[] {
  const out: string[] = [];
  const used = usedSentence(q);
  if (used !== null) out.push(used);
  const differ = countsDifferSentence(spentLast24h, q, rows, now);
  if (differ !== null) out.push(differ);
  if (q.rateLimit !== null) out.push(`Rate limit: up to ${integer(q.rateLimit)} requests a second.`);
  if (q.perPageLimit !== null) out.push(`At most ${integer(q.perPageLimit)} results a page.`);
  return out;
}

function statusClass(r: LogRow): string {
  if (r.status === null) return 'st-none';
  if (r.status >= 500) return 'st-5xx';
  if (r.status >= 400) return 'st-4xx';
  if (r.status >= 300) return 'st-3xx';
  return 'st-2xx';
}

function RequestsChart({
  buckets,
  thisQuota,
  mode,
}: {
  buckets: HourBucket[];
  /** Requests of the current quota in the last 24 hours (`requests.list` last24h). */
  thisQuota: number;
  mode: 'demo' | 'live';
}) {
  const summary = chartSummary(buckets, thisQuota, mode);
  return (
    <figure className="usage-chart">
      <BarChart
        responsive
        style={{ width: '100%', height: 150 }}
        data={buckets}
        margin={{ top: 6, right: 6, bottom: 0, left: -18 }}
        barCategoryGap={2}
        accessibilityLayer
      >
        <CartesianGrid vertical={false} className="usage-grid" />
        <XAxis dataKey="label" interval={2} tickLine={false} axisLine={false} fontSize={11} />
        <YAxis allowDecimals={false} tickLine={false} axisLine={false} fontSize={11} width={48} />
        <Tooltip
          cursor={{ className: 'usage-cursor' }}
          wrapperClassName="usage-tooltip"
          contentStyle={{
            background: 'var(--panel)',
            border: '1px solid var(--border)',
            borderRadius: 6,
            fontSize: 12,
          }}
          labelStyle={{ color: 'var(--text)', fontWeight: 600 }}
          isAnimationActive={false}
        />
        <Bar dataKey="ok" name="Answered" stackId="r" className="bar-ok" isAnimationActive={false} />
        <Bar dataKey="failed" name="Failed" stackId="r" className="bar-failed" isAnimationActive={false} />
      </BarChart>
      <figcaption className="muted small">{summary}</figcaption>
    </figure>
  );
}

/**
 * The request log, newest first. On a team (`who`) each row also says who spent it: the member's name, or "The
 * watcher" for the watcher's own scheduled checks.
 */
function RequestLog({ rows, who }: { rows: LogRow[]; who: boolean }) {
  const [shown, setShown] = useState(LOG_PAGE);
  const newest = useMemo(() => [...rows].sort((a, b) => b.at - a.at), [rows]);
  if (rows.length === 0) {
    return (
      <div className="lw-empty">
        <p>
          <strong>No requests yet.</strong> Every request Lotwatch makes to the service is listed here, with
          its status and time. Run a search, add a watch, or call an endpoint in the API console.
        </p>
      </div>
    );
  }
  return (
    <>
      <div className="lw-table-wrap usage-log">
        <table className="lw-table">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Endpoint</th>
              {who && <th scope="col">Who</th>}
              <th scope="col">Status</th>
              <th scope="col" className="lw-num">
                Duration
              </th>
              <th scope="col" className="lw-num">
                Size
              </th>
              <th scope="col" className="lw-num">
                Attempt
              </th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {newest.slice(0, shown).map((r, i) => (
              <tr key={`${r.at}-${i}`} className={isFailure(r) ? 'log-failed' : undefined}>
                <td>{format(r.at, 'MMM d, HH:mm:ss')}</td>
                <td className="lw-mono">{r.endpoint}</td>
                {who && <td className="usage-who">{r.user_name ?? 'The watcher'}</td>}
                <td>
                  <span className={`status-pill ${statusClass(r)}`}>{r.status ?? 'no answer'}</span>
                </td>
                <td className="lw-num">{integer(r.duration_ms)} ms</td>
                <td className="lw-num">{bytes(r.bytes)}</td>
                <td className="lw-num">{r.attempt}</td>
                <td>{r.error_code ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {newest.length > shown && (
        <button type="button" className="usage-more" onClick={() => setShown(shown + LOG_PAGE * 4)}>
          Show older requests ({integer(newest.length - shown)} more)
        </button>
      )}
    </>
  );
}

/** The next 8:00 AM local time after `now` (ms): today's when it is still to come, else tomorrow's. */
export function nextMorning(now: number): number {
  const d = new Date(now);
  d.setHours(8, 0, 0, 0);
  if (d.getTime() <= now) d.setDate(d.getDate() + 1);
  return d.getTime();
}

/**
 * Usage's top card: the one state of watching (the same words as the header and the watchlist), and pausing by
 * hand (the tray offers the same) for an hour or until the morning, or resuming. The Pause buttons show only while
 * watching runs: a spent quota, a refused key or an offline service is not something a pause or a resume changes.
 * No check runs while paused; alerts already raised still go out.
 */
function WatchingRow({ onChanged }: { onChanged: () => void }) {
  const call = useCaller();
  const now = useNow(60_000);
  const watching = useWatchingState();
  const me = useMe();
  // On a team, pausing the team's watcher is the admin's (a team setting): others see why the buttons are off.
  const mayPause = !me.team || (me.user !== null && roleAllows(me.user.role, 'admin'));
  const why = mayPause ? undefined : "Only an admin can pause or resume the team's watching.";
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const morning = nextMorning(now);
  const setPause = async (until: number | null) => {
    setBusy(true);
    const r = await call('settings.update', { watchPausedUntil: until });
    setBusy(false);
    setError(r.ok ? null : r.error);
    onChanged();
  };
  return (
    <section className="usage-watching" aria-labelledby="usage-watching">
      <h2 id="usage-watching">Watching</h2>
      <WatchingStateNotice state={watching} variant="panel" />
      {watching?.kind === 'paused_by_buyer' && (
        <button
          type="button"
          className="primary"
          disabled={busy || !mayPause}
          title={why}
          onClick={() => void setPause(null)}
        >
          Resume watching
        </button>
      )}
      {watching?.kind === 'running' && (
        <>
          <button
            type="button"
            disabled={busy || !mayPause}
            title={why}
            onClick={() => void setPause(appNow() + HOUR)}
          >
            Pause for 1 hour
          </button>
          <button
            type="button"
            disabled={busy || !mayPause}
            title={why}
            onClick={() => void setPause(nextMorning(appNow()))}
          >
            {isSameDay(morning, now) ? 'Pause until 8:00 AM' : 'Pause until tomorrow 8:00 AM'}
          </button>
        </>
      )}
      {why && watching && (watching.kind === 'running' || watching.kind === 'paused_by_buyer') && (
        <p className="muted small">{why}</p>
      )}
      {error && <ErrorNotice error={error} />}
    </section>
  );
}

/**
 * Usage: the plan's quota from response headers and the request budget (`status.get`), requests per hour over
 * 24 hours and the request log (`requests.list`), and the key's usage from GET /usage, fetched only on demand
 * because it spends a request. Follows `quota.changed`, `poll.finished` and `settings.changed` (a pause set from
 * the tray) live; the buyer can pause watching here too.
 */
export function UsageView() {
  const api = useApi();
  const call = useCaller();
  const status = useCall('status.get');
  const log = useCall('requests.list', { limit: 1000 });
  const [now, setNow] = useState(() => appNow());
  const [usage, setUsage] = useState<{ data: Record<string, unknown>; at: number } | null>(null);
  const [usageError, setUsageError] = useState<ErrorPayload | null>(null);
  const [fetching, setFetching] = useState(false);
  const [paceNote, setPaceNote] = useState<string | null>(null);
  const [paceError, setPaceError] = useState<ErrorPayload | null>(null);
  const refreshStatus = status.run;
  const refreshLog = log.run;
  const me = useMe();

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = api.on((e) => {
      if (e.name !== 'quota.changed' && e.name !== 'poll.finished' && e.name !== 'settings.changed') return;
      // Polls finish in bursts; one refresh per burst is enough.
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        setNow(appNow());
        void refreshStatus();
        void refreshLog();
      }, 400);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [api, refreshStatus, refreshLog]);

  const fetchUsage = async () => {
    setFetching(true);
    const r = await call('usage.fetch');
    setFetching(false);
    if (r.ok) {
      setUsage({ data: r.value.usage, at: appNow() });
      setUsageError(null);
      setNow(appNow());
      void refreshStatus();
      void refreshLog();
    } else {
      setUsageError(r.error);
    }
  };

  const rows = useMemo(() => log.data?.rows ?? [], [log.data]);
  const buckets = useMemo(() => hourly(rows, now), [rows, now]);
  const s = status.data;
  // The plan's requests are used up for the period: said with the date it ends, never as seconds to wait.
  const spent = s !== null && (s.pause_kind === 'quota_spent' || s.budget.periodRemaining === 0);
  const spentUntil = s?.pause_kind === 'quota_spent' ? s.paused_until : (s?.budget.periodEnd ?? null);
  const headline = s ? paceHeadline(s.budget) : null;
  const shownUsage = useMemo(() => (usage ? readableUsage(usage.data) : null), [usage]);

  return (
    <div className="usage">
      {s && (
        <WatchingRow
          onChanged={() => {
            setNow(appNow());
            void refreshStatus();
          }}
        />
      )}
      <div className="usage-cards">
        <section className="usage-card" aria-labelledby="usage-budget">
          <h2 id="usage-budget">Request budget</h2>
          {status.error && <ErrorNotice error={status.error} onRetry={() => void status.run()} />}
          {!s && !status.error && <p className="muted">Loading…</p>}
          {s && (
            <>
              <p className={`usage-headline${headline?.over ? ' over' : ''}`}>{headline?.text}</p>
              <Meter
                value={s.budget.projectedNext24h}
                max={s.budget.allowedPerDay}
                label="Projected requests of the daily allowance"
              />
              {headline?.over && !spent && s.budget.allowedPerDay > 0 && (
                <PaceAdvice
                  budget={s.budget}
                  onDone={(text) => {
                    setPaceError(null);
                    setPaceNote(text);
                    setNow(appNow());
                    void refreshStatus();
                  }}
                  onError={(e) => {
                    setPaceNote(null);
                    setPaceError(e);
                  }}
                />
              )}
              {paceNote && (
                <p className="usage-done" role="status">
                  {paceNote}
                </p>
              )}
              {paceError && <ErrorNotice error={paceError} />}
              <ul className="usage-sentences">
                {budgetSentences(s).map((t) => (
                  <li key={t}>{t}</li>
                ))}
              </ul>
              {spent ? (
                <p className="usage-warning" role="status">
                  {quotaSpentSentence(spentUntil)} Saved searches and watches wait until then and start again
                  by themselves; everything stored stays in the Library.
                </p>
              ) : (
                s.budget.allowedPerDay === 0 && (
                  <p className="usage-warning" role="status">
                    Polling is paused: today's share of the plan is spent. It resumes by itself; everything
                    stored stays in the Library.
                  </p>
                )
              )}
              {!spent && s.pause_kind !== 'user' && s.paused_until !== null && s.paused_until > now && (
                <p className="usage-warning" role="status">
                  Polling is paused until {untilWords(s.paused_until)} ({relative(s.paused_until, now)}):{' '}
                  {s.pause_reason ?? 'the service said the quota or rate limit was reached'}. It resumes by
                  itself.
                </p>
              )}
            </>
          )}
        </section>

        <section className="usage-card" aria-labelledby="usage-quota">
          <h2 id="usage-quota">Plan quota</h2>
          {s && s.quota && (
            <>
              <p className="usage-headline">
                <strong>{integer(s.quota.remaining)}</strong> of {integer(s.quota.limit)} left
                {s.quota.periodEnd !== null ? ` until ${dayMonthYear(s.quota.periodEnd)}` : ' this period'}
              </p>
              {s.quota.limit !== null && s.quota.used !== null && (
                <Meter value={s.quota.used} max={s.quota.limit} label="Requests used of the plan's quota" />
              )}
              <ul className="usage-sentences">
                {quotaSentences(s.quota, s.budget.spentLast24h, rows, now).map((t) => (
                  <li key={t}>{t}</li>
                ))}
              </ul>
              <p className="muted small">
                From the service's answer headers, {relative(s.quota.at, now)}
                {s.mode === 'demo' ? ' (Demo mode: the simulated plan)' : ''}.
              </p>
            </>
          )}
          {s && !s.quota && (
            <p className="muted">
              No quota reported yet. The service reports it with every answer, so it appears after the first
              request; or refresh the usage below.
            </p>
          )}
        </section>
      </div>

      <section className="usage-section" aria-labelledby="usage-service">
        <div className="usage-section-head">
          <h2 id="usage-service">Usage reported by the service</h2>
          <button
            type="button"
            onClick={() => void fetchUsage()}
            disabled={fetching}
            aria-describedby="usage-cost"
          >
            {fetching ? 'Asking the service…' : 'Refresh from service'}
          </button>
          <span className="muted small" id="usage-cost">
            Spends 1 request (GET /usage).
          </span>
        </div>
        {usageError && <ErrorNotice error={usageError} onRetry={() => void fetchUsage()} />}
        {usage && shownUsage ? (
          <>
            <p className="muted small" role="status">
              Fetched at {format(usage.at, 'HH:mm:ss')}.
            </p>
            {shownUsage.period && <p className="usage-period">{shownUsage.period}</p>}
            <UsageDetails usage={shownUsage.details} />
          </>
        ) : (
          !usageError && (
            <p className="muted">
              Not fetched in this session. Refresh to see the key's usage and plan limits as the service
              reports them.
            </p>
          )
        )}
      </section>

      {/* Reloaded with the request log: a new request there is someone's new request. */}
      {me.team && <UsageByMember refresh={log.data} />}

      <section className="usage-section" aria-labelledby="usage-hours">
        <div className="usage-section-head">
          <h2 id="usage-hours">Requests per hour, last 24 hours</h2>
          <span className="legend">
            <span className="swatch ok" aria-hidden="true" /> answered{' '}
            <span className="swatch failed" aria-hidden="true" /> failed
          </span>
        </div>
        {log.error && <ErrorNotice error={log.error} onRetry={() => void log.run()} />}
        {log.data && (
          <RequestsChart buckets={buckets} thisQuota={log.data.last24h} mode={s?.mode ?? 'live'} />
        )}
      </section>

      <section className="usage-section" aria-labelledby="usage-log">
        <div className="usage-section-head">
          <h2 id="usage-log">Request log</h2>
          <span className="muted small">Newest first{log.loading && log.data ? ' · updating…' : ''}</span>
        </div>
        {!log.data && !log.error && <p className="muted">Loading the request log…</p>}
        {log.data && <RequestLog rows={rows} who={me.team} />}
      </section>
    </div>
  );
}

function Meter({ value, max, label }: { value: number; max: number; label: string }) {
  const ratio = max > 0 ? Math.min(1, value / max) : 0;
  return (
    <div
      className={`usage-meter${value > max ? ' over' : ratio > 0.85 ? ' high' : ''}`}
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.min(value, max)}
    >
      <span style={{ width: `${Math.round(ratio * 100)}%` }} />
    </div>
  );
}
