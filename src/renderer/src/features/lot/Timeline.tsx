import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { LotDetail } from '../../../../shared/ipc/contract';
import { SALE_OUTCOME_LABEL } from '../../../../shared/saleOutcome';
import { dateTime, KIND_SHORT, usd } from '../../lib/format';

type Change = LotDetail['timeline'][number];

function show(v: Change['before'], field: string | null): string {
  if (v === null) return '–';
  if (typeof v === 'number' && field && /usd|bid|price/.test(field)) return usd(v);
  if (typeof v === 'number' && field === 'auction_at') return dateTime(v);
  return String(v);
}

/** The short word on a chart mark: the new status, or the kind of event (never a raw timestamp). */
function markLabel(c: Change): string {
  if (c.kind === 'status_changed' && c.after !== null) return String(c.after);
  if (c.kind === 'sale_result' && c.outcome !== null) return SALE_OUTCOME_LABEL[c.outcome];
  return KIND_SHORT[c.kind] ?? c.kind;
}

/** What a change says, in words: "Bid $1,200 → $1,450". */
export function describeChange(c: Change): string {
  const label = KIND_SHORT[c.kind] ?? c.kind;
  if (c.kind === 'new_match' || c.kind === 'dropped_out') return label;
  if (c.kind === 'relisted' && c.related_lot_key) return `${label} (earlier lot ${c.related_lot_key})`;
  if (c.kind === 'sale_result') return saleResultText(c);
  const what = c.field && c.kind === 'status_changed' ? `${label} (${c.field.replace(/^auction\./, '')})` : label;
  return `${what}: ${show(c.before, c.field)} → ${show(c.after, c.field)}`;
}

/** A sale result in words: "Sold for $9,250", "Sold on approval at $6,600", "Ended unsold" (never "Sold" for it). */
export function saleResultText(c: Pick<Change, 'outcome' | 'after'>): string {
  const price = typeof c.after === 'number' && c.after > 0 ? usd(c.after) : null;
  switch (c.outcome) {
    case 'sold':
      return price ? `Sold for ${price}` : 'Sold (price not published)';
    case 'sold_on_approval':
      return price ? `Sold on approval at ${price}` : 'Sold on approval';
    default:
      return SALE_OUTCOME_LABEL.ended_unsold;
  }
}

/**
 * The lot's history as Lotwatch saw it: the bid over time (from stored observations) with status changes
 * marked, and every change as a list, newest first.
 */
export function Timeline({ timeline, bids }: { timeline: Change[]; bids: LotDetail['bids'] }) {
  const points = bids.filter((b): b is [number, number] => b[1] !== null).map(([t, v]) => ({ t, bid: v }));
  const marks = timeline.filter((c) => c.kind === 'status_changed' || c.kind === 'sale_result' || c.kind === 'rescheduled');
  const sorted = [...timeline].sort((a, b) => b.observed_at - a.observed_at);
  const distinct = new Set(points.map((p) => p.bid)).size;
  return (
    <div className="timeline">
      {points.length >= 2 ? (
        <figure className="bid-chart" aria-label={`Bid over time: ${points.length} observations, from ${usd(points[0]?.bid)} to ${usd(points[points.length - 1]?.bid)}`}>
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
              <YAxis tickFormatter={(v: number) => usd(v)} stroke="var(--muted)" fontSize={11} width={70} domain={distinct > 1 ? ['auto', 'auto'] : [0, 'auto']} />
              <Tooltip
                labelFormatter={(t) => dateTime(Number(t))}
                formatter={(v) => [usd(Number(v)), 'Bid']}
                contentStyle={{ background: 'var(--panel)', border: '1px solid var(--border)', color: 'var(--text)' }}
              />
              {marks.map((c, i) => (
                <ReferenceLine
                  key={`${c.observed_at}-${i}`}
                  x={c.observed_at}
                  stroke="var(--danger)"
                  strokeDasharray="4 3"
                  label={{ value: markLabel(c), position: 'insideTopRight', fill: 'var(--muted)', fontSize: 10 }}
                />
              ))}
              <Line type="stepAfter" dataKey="bid" stroke="var(--accent)" strokeWidth={2} dot={points.length < 40} isAnimationActive={false} />
            </LineChart>
          </ResponsiveContainer>
        </figure>
      ) : (
        <p className="muted small">
          {points.length === 1
            ? `One observation so far (bid ${usd(points[0]?.bid)}). The chart fills in as Lotwatch checks this lot again; watch it to check it on a schedule.`
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
        <p className="muted small">No changes recorded yet. Lotwatch records a change each time it sees the bid, status or date move.</p>
      )}
    </div>
  );
}
