import { useState } from 'react';
import { usd } from '../../lib/format';
import { useCall } from '../../lib/useCall';
import { ErrorNotice } from '../../components/ErrorNotice';

/** Destination ports of the spec's documented example list. */
export const PORTS = [
  'Chicago',
  'NY',
  'Miami',
  'Savannah',
  'Norfolk',
  'Houston',
  'LA',
  'Seattle',
  'Moto_ATV',
] as const;
export const PORT_LABEL: Record<string, string> = { NY: 'New York', LA: 'Los Angeles', Moto_ATV: 'Moto/ATV' };

/**
 * Shipping prices to the chosen ports, from either endpoint: the vehicle's own (`/vehicles/{id}/shipping`) or
 * auction-to-port by lot number and VIN. One request per "Get prices".
 */
export function Shipping({
  lotNumber,
  vin,
  lotKey,
  onPrices,
}: {
  lotNumber: string;
  vin: string | null;
  lotKey?: string;
  onPrices?: () => void;
}) {
  const [ports, setPorts] = useState<string[]>(['Savannah', 'NY', 'Houston', 'LA']);
  const [endpoint, setEndpoint] = useState<'vehicle' | 'auction-to-port'>('vehicle');
  const s = useCall('shipping.get', undefined, false);
  // The prices are kept with the stored lot (lot_key), for its landed cost.
  const keep = lotKey ? { lot_key: lotKey } : {};
  const get = async () => {
    const r = await s.run(
      endpoint === 'vehicle'
        ? { endpoint, id: vin ?? lotNumber, ...(ports.length ? { ports } : {}), ...keep }
        : {
            endpoint,
            lot_number: lotNumber,
            ...(vin ? { vin } : {}),
            ...(ports.length ? { ports } : {}),
            ...keep,
          },
    );
    if (r) onPrices?.();
  };
  const toggle = (p: string, on: boolean) => setPorts((xs) => (on ? [...xs, p] : xs.filter((x) => x !== p)));
  const prices = s.data?.prices ?? [];
  return (
    <div className="shipping">
      <fieldset className="ship-ports">
        {/* The legend says what Get prices asks for: the ticked ports, or every port when none is ticked. */}
        <legend>{ports.length ? 'Ports' : 'All ports'}</legend>
        {!ports.length && (
          <p className="muted small ship-ports-note">No port is ticked, so Get prices asks for every port.</p>
        )}
        <div className="ship-port-list">
          {PORTS.map((p) => (
            <label key={p} className="chip">
              <input
                type="checkbox"
                checked={ports.includes(p)}
                onChange={(e) => toggle(p, e.target.checked)}
              />
              <span>{PORT_LABEL[p] ?? p}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="ship-actions">
        <label className="ship-endpoint">
          <span className="muted small">Source</span>
          <select value={endpoint} onChange={(e) => setEndpoint(e.target.value as typeof endpoint)}>
            <option value="vehicle">This vehicle</option>
            <option value="auction-to-port">Auction to port</option>
          </select>
        </label>
        <button type="button" className="primary" onClick={() => void get()} disabled={s.loading}>
          {s.loading ? 'Getting prices…' : 'Get prices'}
        </button>
      </div>
      {s.error && <ErrorNotice error={s.error} onRetry={() => void get()} />}
      {s.data && !prices.length && (
        <p className="muted small">The service has no shipping price for these ports. Try other ports.</p>
      )}
      {prices.length > 0 && (
        <table className="lot-table ship-table" aria-label="Shipping prices">
          <tbody>
            {prices.map((p, i) => (
              <tr key={`${p.port}-${i}`}>
                <th scope="row">{PORT_LABEL[p.port ?? ''] ?? p.port ?? '–'}</th>
                <td className="num">
                  {p.currency && p.currency !== 'USD' ? `${p.price ?? '–'} ${p.currency}` : usd(p.price)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
