import { useState } from 'react';
import { lotHref, openLot } from '../../app/navigation';
import { bidText, platformName, relative } from '../../lib/format';
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
