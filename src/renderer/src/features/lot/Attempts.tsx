import type { AttemptView } from '../../../../shared/ipc/contract/lots';
import { lotHref, openLot } from '../../app/navigation';
import { ErrorNotice } from '../../components/ErrorNotice';
import { calendarDate, platformName, usd } from '../../lib/format';
import { useCall } from '../../lib/useCall';

/** What a buyer reads for each attempt's outcome; the inferred ones say what Lotwatch saw, never "unsold". */
const OUTCOME_TEXT: Record<AttemptView['outcome'], string> = {
  sold: 'Sold',
  sold_on_approval: 'Sold on approval',
  ended_unsold: 'Ended unsold',
  open: 'Open',
  relisted: 'Came back (relisted)',
  vanished: 'No result seen',
};

const SOURCE_TEXT: Record<AttemptView['sources'][number], string> = {
  store: 'Lotwatch',
  history: 'Sale history',
  ended_search: 'Ended search',
};

const BASIS_TITLE = {
  confirmed: 'The service reported this result (or showed the lot open).',
  inferred: 'Lotwatch concluded this: the lot left the results without a result, or the vehicle came back.',
} as const;

/** The bid column: the price for a sale, the highest bid seen otherwise, and "not known" when neither is. */
function bidCell(a: AttemptView): string {
  if ((a.outcome === 'sold' || a.outcome === 'sold_on_approval') && a.price_usd !== null)
    return usd(a.price_usd);
  if (a.bid_usd !== null) return `bid ${usd(a.bid_usd)}`;
  return 'not known';
}

/**
 * A VIN's every auction attempt (`vehicles.attempts`, docs/architecture.md "A VIN's attempts"): one row per attempt
 * across its lots and both platforms, each with its date, platform, lot, bid and outcome, marked confirmed or
 * inferred, and the seller signals above it as facts. Read from the store at once (no request); the service is
 * asked on the button (its cost said), or at once in Demo mode (`auto`). `lotKey` is the lot on screen (its row is
 * marked).
 */
export function VinAttempts({ lotKey, auto }: { lotKey: string; auto: boolean }) {
  const a = useCall('vehicles.attempts', { id: lotKey, ask: auto }, true);
  const data = a.data;
  const ask = () => void a.run({ id: lotKey, ask: true });
  const asked = data?.asked.history ?? false;
  return (
    <div className="vin-attempts" aria-busy={a.loading}>
      {a.error && <ErrorNotice error={a.error} onRetry={ask} />}
      {a.loading && !data && <p className="muted small">Loading attempts…</p>}
      {data?.notice && (
        <p className="muted small" role="status">
          {data.notice}
        </p>
      )}
      {data && data.signals.facts.length > 0 && (
        <ul className="attempt-facts" aria-label="Seller signals">
          {data.signals.facts.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
      )}
      {data && data.attempts.length > 0 && (
        <table className="lot-table" aria-label="Every attempt of this VIN">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Date</th>
              <th scope="col">Platform</th>
              <th scope="col">Lot</th>
              <th scope="col" className="num">
                Bid or price
              </th>
              <th scope="col">Outcome</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {data.attempts.map((x) => (
              <tr
                key={`${x.number}-${x.platform}-${x.lot_number}-${x.day}`}
                aria-current={x.lot_key === lotKey ? 'true' : undefined}
              >
                <td>{x.number}</td>
                <td className="nowrap">{x.day ? calendarDate(x.day) : 'date not known'}</td>
                <td>{platformName(x.platform)}</td>
                <td>
                  {x.lot_key && x.lot_key !== lotKey ? (
                    <a
                      href={lotHref(x.lot_key)}
                      onClick={(e) => {
                        e.preventDefault();
                        openLot(x.lot_key!);
                      }}
                    >
                      {x.lot_number}
                    </a>
                  ) : (
                    (x.lot_number ?? 'not given')
                  )}
                </td>
                <td className="num">{bidCell(x)}</td>
                <td>
                  {OUTCOME_TEXT[x.outcome]}{' '}
                  <span className={`attempt-basis attempt-${x.basis}`} title={BASIS_TITLE[x.basis]}>
                    {x.basis === 'confirmed' ? 'confirmed' : 'inferred'}
                  </span>
                </td>
                <td className="small">{x.sources.map((s) => SOURCE_TEXT[s]).join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data && data.attempts.length === 0 && !data.notice && (
        <p className="muted small">No attempt of this vehicle is known yet.</p>
      )}
      <p className="muted small">
        {asked ? (
          <>
            Asked the service: {data!.requests} request{data!.requests === 1 ? '' : 's'}
            {data!.asked.ended_search ? ' (its sale history was empty, so an Ended search by VIN too)' : ''}
            .{' '}
          </>
        ) : (
          'From what Lotwatch stored. '
        )}
        {data?.vin && (
          <button type="button" onClick={ask} disabled={a.loading}>
            {asked ? 'Ask again' : 'Ask the service'} (1 request, 2 when its sale history is empty)
          </button>
        )}
      </p>
    </div>
  );
}
