import { useState } from 'react';
import { SALE_OUTCOME_LABEL } from '../../../../shared/saleOutcome';
import { lotHref, openLot } from '../../app/navigation';
import { bidText, calendarDate, platformName, relative, usd } from '../../lib/format';
import { useCall } from '../../lib/useCall';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Photo } from '../../components/Photo';
import { useNow } from '../../lib/useNow';

/** "Load" prompt for a section that would spend a request on a real key. */
function LoadPrompt({ what, onLoad }: { what: string; onLoad: () => void }) {
  return (
    <p className="muted small">
      <button type="button" onClick={onLoad}>
        Load {what}
      </button>{' '}
      One request.
    </p>
  );
}

/**
 * Sale history of the vehicle (`vehicles.history` by VIN, else lot number), a page at a time by cursor.
 * Loads at once when `auto` (Demo mode), else on request.
 */
export function SaleHistory({ id, auto }: { id: string; auto: boolean }) {
  const h = useCall('vehicles.history', { id }, auto);
  const [page, setPage] = useState(1);
  const [asked, setAsked] = useState(auto);
  const go = (cursor: string | null | undefined, p: number) => {
    if (!cursor) return;
    setPage(p);
    void h.run({ id, cursor });
  };
  if (!asked)
    return (
      <LoadPrompt
        what="sale history"
        onLoad={() => {
          setAsked(true);
          void h.run();
        }}
      />
    );
  const sales = h.data?.sales ?? [];
  const meta = h.data?.meta ?? null;
  // The real service's history rows carry no lot number: the column shows only when some row has one.
  const withLot = sales.some((s) => s.lot_number !== null);
  return (
    <div aria-busy={h.loading}>
      {h.error && <ErrorNotice error={h.error} onRetry={() => void h.run()} />}
      {h.loading && !h.data && <p className="muted small">Loading sale history…</p>}
      {h.data && !sales.length && (
        <p className="muted small">No earlier sales of this vehicle are known to the service.</p>
      )}
      {sales.length > 0 && (
        <table className="lot-table">
          <thead>
            <tr>
              <th>Date</th>
              <th>Platform</th>
              {withLot && <th>Lot</th>}
              <th className="num">Price</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {sales.map((s, i) => (
              <tr key={`${s.platform}-${s.lot_number}-${s.date}-${i}`}>
                <td className="nowrap">{calendarDate(s.date)}</td>
                <td>{platformName(s.platform)}</td>
                {withLot && <td>{s.lot_number ?? '–'}</td>}
                <td className="num">{s.outcome === 'ended_unsold' ? '–' : usd(s.price)}</td>
                <td>{s.outcome ? SALE_OUTCOME_LABEL[s.outcome] : (s.status ?? '–')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(meta?.next_cursor || meta?.prev_cursor) && (
        <div className="lot-pager">
          <button
            type="button"
            disabled={h.loading || !meta.prev_cursor}
            onClick={() => go(meta.prev_cursor, Math.max(1, page - 1))}
          >
            ← Previous
          </button>
          <span className="muted small">Page {page}</span>
          <button
            type="button"
            disabled={h.loading || !meta.next_cursor}
            onClick={() => go(meta.next_cursor, page + 1)}
          >
            Next →
          </button>
        </div>
      )}
    </div>
  );
}

/** Related future lots of the same platform, make and model (`vehicles.related`); each opens its lot. */
export function RelatedLots({ id, auto, photos }: { id: string; auto: boolean; photos: boolean }) {
  const r = useCall('vehicles.related', { id }, auto);
  const [asked, setAsked] = useState(auto);
  const now = useNow(30_000);
  if (!asked)
    return (
      <LoadPrompt
        what="related lots"
        onLoad={() => {
          setAsked(true);
          void r.run();
        }}
      />
    );
  const lots = r.data?.lots ?? [];
  return (
    <div aria-busy={r.loading}>
      {r.error && <ErrorNotice error={r.error} onRetry={() => void r.run()} />}
      {r.loading && !r.data && <p className="muted small">Loading related lots…</p>}
      {r.data && !lots.length && (
        <p className="muted small">No upcoming lots of the same make and model on this platform.</p>
      )}
      {lots.length > 0 && (
        <ul className="related">
          {lots.map((l) => (
            <li key={l.lot_key}>
              <a
                href={lotHref(l.lot_key)}
                className="related-card"
                onClick={(e) => {
                  e.preventDefault();
                  openLot(l.lot_key);
                }}
              >
                {photos && <Photo url={l.photo} lotKey={l.lot_key} alt="" className="related-img" />}
                <span className="related-text">
                  <strong>{l.title ?? `${l.year ?? ''} ${l.make ?? ''} ${l.model ?? ''}`}</strong>
                  <span className="muted small">
                    <span className="related-lot">
                      {platformName(l.platform)} {l.lot_number}
                    </span>{' '}
                    · {l.location ?? '–'}
                  </span>
                  <span className="small">
                    {/* An upcoming lot nobody has bid on yet reads "No bids yet", never "$0". */}
                    {bidText(l.current_bid_usd)} · {relative(l.auction_at, now)}
                  </span>
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
