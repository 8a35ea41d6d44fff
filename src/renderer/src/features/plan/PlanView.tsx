import { startOfDay } from 'date-fns';
import { useState } from 'react';
import type { WatchView } from '../../../../shared/ipc/contract';
import { costQualifier, gapSentence } from '../../../../shared/shipping';
import { lotHref } from '../../app/navigation';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ExportMark } from '../../components/ExportMark';
import { EmptyState, useContractEvents, useNow } from '../../components/watch/common';
import {
  auctionStatus,
  bidText,
  countdown,
  dateTime,
  pastSaleWords,
  platformName,
  usd,
} from '../../lib/format';
import { useCall } from '../../lib/useCall';
import { CalendarSubscription } from './CalendarSubscription';
import '../../components/lwTable.css';
import './plan.css';

const DAY = 86_400_000;

/** The plan's groups, in order, by sale time against local midnight today. */
const GROUPS = [
  { id: 'today', label: 'Today' },
  { id: 'tomorrow', label: 'Tomorrow' },
  { id: 'week', label: 'This week' },
  { id: 'later', label: 'Later' },
  { id: 'unscheduled', label: 'No sale time yet' },
  { id: 'over', label: 'Sale over' },
] as const;
type GroupId = (typeof GROUPS)[number]['id'];

/** Which group a watched lot's sale falls in (`now` and the sale time in ms; days are local). */
export function planGroup(w: WatchView, now: number): GroupId {
  const at = w.lot?.auction_at ?? null;
  if (w.lot && w.lot.outcome !== 'open') return 'over';
  if (at === null) return 'unscheduled';
  const today = startOfDay(now).getTime();
  if (at < today + DAY) return 'today';
  if (at < today + 2 * DAY) return 'tomorrow';
  if (at < today + 7 * DAY) return 'week';
  return 'later';
}

/** Downloads text as a file through the browser (both shells: the desktop app saves it where the user says). */
function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function PlanRow({ w, now }: { w: WatchView; now: number }) {
  const l = w.lot;
  const d = w.desk;
  const key = l?.lot_key ?? w.lot_key;
  const past = d?.max_bid_usd != null && (l?.current_bid_usd ?? 0) > d.max_bid_usd;
  return (
    <tr>
      <td className="nowrap">
        <div>{l?.auction_at ? dateTime(l.auction_at) : '–'}</div>
        <div className="lw-sub">
          {l?.auction_at && l.auction_at > now
            ? `in ${countdown(l.auction_at, now)}`
            : l?.auction_at && l.outcome === 'open'
              ? pastSaleWords(l.auction_at, now).line
              : l
                ? auctionStatus(l).label
                : ''}
        </div>
      </td>
      <td className="wrap">
        {key ? (
          <a className="lw-link" href={lotHref(key)}>
            {l?.title ?? w.label ?? key}
          </a>
        ) : (
          <strong>{w.label || w.vin}</strong>
        )}
        <div className="lw-sub mono">
          {l ? `${platformName(l.platform)} #${l.lot_number}` : ''}
          {(w.vin ?? l?.vin) ? ` · VIN ${w.vin ?? l?.vin}` : ''}
        </div>
        {l?.location && <div className="lw-sub">{l.location}</div>}
        <ExportMark block={l?.export_block} />
      </td>
      <td className="num">{bidText(l?.current_bid_usd, l ? l.outcome !== 'open' : false)}</td>
      <td className={past ? 'num lw-error-text' : 'num'}>
        {d?.max_bid_usd != null ? usd(d.max_bid_usd) : '–'}
        {d?.max_bid_usd != null && costQualifier(d.max_bid_excludes) && (
          <div className="lw-sub">{costQualifier(d.max_bid_excludes)}</div>
        )}
        {past && <div className="lw-sub">bid is past it</div>}
      </td>
      <td className="num">
        {d?.landed_cost_usd != null ? usd(d.landed_cost_usd) : '–'}
        {d && d.landed_cost_usd != null && costQualifier(d.landed_excludes) && (
          <div className="lw-sub" title={d.landed_excludes.map((g) => gapSentence(g)).join(' ')}>
            {costQualifier(d.landed_excludes)}
          </div>
        )}
      </td>
      <td className="wrap plan-notes">
        {d?.tags.map((t) => (
          <span key={t} className="lw-badge tag">
            {t}
          </span>
        ))}
        {d?.notes ? <div className="plan-note-text">{d.notes}</div> : null}
      </td>
    </tr>
  );
}

/**
 * The auction-day plan: every watched lot by sale time (today, tomorrow, this week, later), with the current bid,
 * the max bid, the landed cost, notes and a countdown; printable, and exported as a calendar (.ics) whose events
 * move when a sale is rescheduled; in the browser shell, an address a calendar app subscribes to (CalendarSubscription).
 * Offline: it reads the watchlist Lotwatch keeps, and spends no request.
 */
export function PlanView() {
  const list = useCall('watchlist.list');
  const cal = useCall('plan.calendar', undefined, false);
  const now = useNow();
  const [note, setNote] = useState<string | null>(null);
  useContractEvents((e) => {
    if (e.name === 'poll.finished' && e.payload.target.startsWith('watch:')) void list.run();
  });
  const watches = list.data ?? [];
  const groups = GROUPS.map((g) => ({
    ...g,
    rows: watches
      .filter((w) => planGroup(w, now) === g.id)
      .sort((a, b) => (a.lot?.auction_at ?? Infinity) - (b.lot?.auction_at ?? Infinity)),
  })).filter((g) => g.rows.length > 0);

  const exportIcs = async () => {
    const r = await cal.run();
    if (!r) return;
    download('lotwatch-sales.ics', 'text/calendar', r.ics);
    setNote(
      `${r.events} sale${r.events === 1 ? '' : 's'} exported${r.skipped ? `; ${r.skipped} without a sale time left out` : ''}. Export again after a reschedule: the events move.`,
    );
  };

  return (
    <section className="lw-view plan" aria-label="Auction day">
      <div className="lw-toolbar plan-toolbar">
        <span className="muted" aria-live="polite">
          {list.data ? `${watches.length} watched lot${watches.length === 1 ? '' : 's'}` : ''}
        </span>
        {note && (
          <span className="wl-note" role="status">
            {note}
          </span>
        )}
        <span className="spacer" />
        <button type="button" onClick={() => void exportIcs()} disabled={cal.loading || watches.length === 0}>
          {cal.loading ? 'Exporting…' : 'Export calendar (.ics)'}
        </button>
        <button type="button" onClick={() => window.print()} disabled={watches.length === 0}>
          Print
        </button>
      </div>
      <CalendarSubscription />
      {list.error && <ErrorNotice error={list.error} onRetry={() => void list.run()} />}
      {cal.error && <ErrorNotice error={cal.error} onRetry={() => void exportIcs()} />}
      {list.data && watches.length === 0 && (
        <EmptyState title="Nothing to plan yet">
          Watch a lot (from Search, a lot page or the Watchlist) and its sale shows here by day.
        </EmptyState>
      )}
      {groups.map((g) => (
        <section key={g.id} className="plan-group" aria-labelledby={`plan-${g.id}`}>
          <h2 id={`plan-${g.id}`}>
            {g.label} <span className="muted small">({g.rows.length})</span>
          </h2>
          <table className="lw-table plan-table">
            <thead>
              <tr>
                <th scope="col">Sale</th>
                <th scope="col">Lot</th>
                <th scope="col" className="num">
                  Current bid
                </th>
                <th scope="col" className="num">
                  Max bid
                </th>
                <th scope="col" className="num">
                  Landed
                </th>
                <th scope="col">Notes</th>
              </tr>
            </thead>
            <tbody>
              {g.rows.map((w) => (
                <PlanRow key={w.id} w={w} now={now} />
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </section>
  );
}
