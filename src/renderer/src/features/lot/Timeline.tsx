import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { LotDetail } from '../../../../shared/ipc/contract';
import { SALE_OUTCOME_LABEL } from '../../../../shared/saleOutcome';
import {
  bidText,
  dateTime,
  KIND_SHORT,
  platformName,
  saleResultWords,
  statusWord,
  usd,
} from '../../lib/format';

type Change = LotDetail['timeline'][number];

const money = (v: Change['before']): number | null => (typeof v === 'number' && v > 0 ? v : null);
const time = (v: Change['before']): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const word = (v: Change['before']): string | null => (v === null || v === '' ? null : statusWord(String(v)));

/** A lot key ("copart:45416833") as a buyer reads it: "Copart lot 45416833". */
function lotWords(key: string): string {
  const i = key.indexOf(':');
  return i < 0 ? `lot ${key}` : `${platformName(key.slice(0, i))} lot ${key.slice(i + 1)}`;
}

/** The short word on a chart mark: the new status, or the kind of event (never a raw timestamp). */
function markLabel(c: Change): string {
  if (c.kind === 'status_changed' && word(c.after) !== null) return word(c.after) ?? '';
  if (c.kind === 'sale_result' && c.outcome !== null) return SALE_OUTCOME_LABEL[c.outcome];
  return KIND_SHORT[c.kind] ?? c.kind;
}

/**
 * What a change says, in the buyer's words: "Bid: $1,200 → $1,450", "Status: Open → Live", "Rescheduled: Nov 23,
 * 3:00 PM → Nov 25, 10:00 AM", "Sold for $9,250". Never a field name, a raw timestamp or "$0".
 */
export function describeChange(c: Change): string {
  switch (c.kind) {
    case 'new_match':
      return c.search_id !== null ? 'New match in a saved search' : 'New match';
    case 'dropped_out':
      return "Dropped out of a saved search's results";
    case 'bid_changed': {
      const [b, a] = [money(c.before), money(c.after)];
      return b === null && a !== null ? `First bid: ${bidText(a)}` : `Bid: ${bidText(b)} → ${bidText(a)}`;
    }
    case 'buy_now_changed': {
      const [b, a] = [money(c.before), money(c.after)];
      if (b === null) return a === null ? 'Buy now: not offered' : `Buy now offered: ${usd(a)}`;
      return a === null ? `Buy now withdrawn (was ${usd(b)})` : `Buy now: ${usd(b)} → ${usd(a)}`;
    }
    case 'status_changed': {
      // auction.lot_status is the sale type (Timed, Buy Now); the other status fields are the auction's status.
      const label = c.field === 'auction.lot_status' ? 'Sale type' : 'Status';
      const [b, a] = [word(c.before), word(c.after)];
      if (b === null) return `${label}: ${a ?? 'not given'}`;
      return `${label}: ${b} → ${a ?? 'not given'}`;
    }
    case 'rescheduled': {
      const [b, a] = [time(c.before), time(c.after)];
      if (b === null) return a === null ? 'Sale date changed' : `Sale date set: ${dateTime(a)}`;
      return a === null
        ? `Sale date removed (was ${dateTime(b)})`
        : `Rescheduled: ${dateTime(b)} → ${dateTime(a)}`;
    }
    case 'relisted': {
      const [b, a] = [time(c.before), time(c.after)];
      const next = a === null ? '' : `; new sale ${dateTime(a)}`;
      if (c.related_lot_key && c.related_lot_key !== c.lot_key) {
        const was = b === null ? '' : ` (sale ${dateTime(b)})`;
        return `Relisted: earlier ${lotWords(c.related_lot_key)}${was}${next}`;
      }
      // The same lot back on sale after it ended: only its date moved.
      return `Relisted${a === null ? '' : `: new sale ${dateTime(a)}`}${b === null ? '' : ` (was ${dateTime(b)})`}`;
    }
    case 'sale_result':
      return saleResultText(c);
    default:
      return KIND_SHORT[c.kind] ?? c.kind;
  }
}

/** A sale result in words: "Sold for $9,250", "Sold on approval at $6,600", "Ended unsold" (never "Sold" for it). */
export function saleResultText(c: Pick<Change, 'outcome' | 'after'>): string {
  return saleResultWords(
    c.outcome === null || c.outcome === 'open' ? 'ended_unsold' : c.outcome,
    money(c.after),
  );
}

/**
 * The lot's history as Lotwatch saw it: the bid over time (from stored observations) with status changes
 * marked, and every change as a list, newest first.
 */
export function Timeline({ timeline, bids }: { timeline: Change[]; bids: LotDetail['bids'] }) {
  const points = bids.filter((b): b is [number, number] => b[1] !== null).map(([t, v]) => ({ t, bid: v }));
  const marks = timeline.filter(
    (c) => c.kind === 'status_changed' || c.kind === 'sale_result' || c.kind === 'rescheduled',
  );
  const sorted = [...timeline].sort((a, b) => b.observed_at - a.observed_at);
  const distinct = new Set(points.map((p) => p.bid)).size;
  return (
    <div className="timeline">
      {points.length >= 2 ? (
        <figure
          className="bid-chart"
          aria-label={`Bid over time: ${points.length} observations, from ${usd(points[0]?.bid)} to ${usd(points[points.length - 1]?.bid)}`}
        >
          <ResponsiveContainer width="100%" height={200}>
            <LineChart data={points} margin={{ top: 8, right: 16, bottom: 4, left: 8 }}>
              <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
              <XAxis
                dataKey="t"
                type="number"
                scale="time"
                domain={['dataMin', 'dataMax']}
                tickFormatter={(t: number) => dateTime(t)}
                stroke="var(--muted)"
                fontSize={11}
                minTickGap={40}
              />
              <YAxis
                tickFormatter={(v: number) => usd(v)}
                stroke="var(--muted)"
                fontSize={11}
                width={70}
                domain={distinct > 1 ? ['auto', 'auto'] : [0, 'auto']}
              />
              <Tooltip
                labelFormatter={(t) => dateTime(Number(t))}
                formatter={(v) => [usd(Number(v)), 'Bid']}
                contentStyle={{
                  background: 'var(--panel)',
                  border: '1px solid var(--border)',
                  color: 'var(--text)',
                }}
              />
              {marks.map((c, i) => (
                <ReferenceLine
                  key={`${c.observed_at}-${i}`}
                  x={c.observed_at}
                  stroke="var(--danger)"
                  strokeDasharray="4 3"
                  label={{
                    value: markLabel(c),
                    position: 'insideTopRight',
                    fill: 'var(--muted)',
                    fontSize: 10,
                  }}
                />
              ))}
              <Line
                type="stepAfter"
                dataKey="bid"
                stroke="var(--accent)"
                strokeWidth={2}
                dot={points.length < 40}
                isAnimationActive={false}
              />
            </LineChart>
          </ResponsiveContainer>
        </figure>
      ) : (
        <p className="muted small">
          {points.length === 1
            ? `One observation so far (${points[0] && points[0].bid > 0 ? `bid ${usd(points[0].bid)}` : 'no bids yet'}). The chart fills in as Lotwatch checks this lot again; watch it to check it on a schedule.`
            : 'No bids observed yet.'}
        </p>
      )}
      {sorted.length ? (
        <ol className="changes">
          {sorted.map((c) => (
            <li key={c.id} className={`change change-${c.kind}`}>
              <time dateTime={new Date(c.observed_at).toISOString()}>{dateTime(c.observed_at)}</time>
              <span>{describeChange(c)}</span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted small">
          No changes recorded yet. Lotwatch records a change each time it sees the bid, status or date move.
        </p>
      )}
    </div>
  );
}
