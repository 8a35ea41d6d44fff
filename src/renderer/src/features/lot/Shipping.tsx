import { useState } from 'react';
import type { DeskSettings } from '../../../../shared/desk';
import type { MethodInput, MethodOutput } from '../../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import {
  SHIP_PORTS,
  isRateNotPort,
  portChoiceLabel,
  portLabel,
  portsToAsk,
  resolveCosts,
  type KeptPrice,
} from '../../../../shared/shipping';
import { usd } from '../../lib/format';
import { useCall, useCaller } from '../../lib/useCall';
import { ErrorNotice } from '../../components/ErrorNotice';

type Endpoint = 'vehicle' | 'auction-to-port';

/**
 * The one "Get prices" request of a lot: every port at once (the documented list, the buyer's port and their
 * destinations' ports), comma-separated in `ports` (spec "GET /vehicles/{slugVin}/shipping and GET
 * /shipping/auction-to-port"), from the vehicle's own endpoint or auction-to-port; kept with the stored lot.
 */
export function pricesInput(
  lot: { lot_number: string; vin: string | null; lot_key?: string },
  desk: Pick<DeskSettings, 'port' | 'destinations'>,
  endpoint: Endpoint = 'vehicle',
): MethodInput<'shipping.get'> {
  const ports = portsToAsk(desk);
  const keep = lot.lot_key ? { lot_key: lot.lot_key } : {};
  return endpoint === 'vehicle'
    ? { endpoint, id: lot.vin ?? lot.lot_number, ports, ...keep }
    : { endpoint, lot_number: lot.lot_number, ...(lot.vin ? { vin: lot.vin } : {}), ports, ...keep };
}

/** An answer as the kept prices the desk reads: a port asked and not priced is a row without a price. */
function asKept(a: MethodOutput<'shipping.get'>): KeptPrice[] {
  const out: KeptPrice[] = a.prices
    .filter((p): p is typeof p & { port: string } => p.port !== null)
    .map((p) => ({ port: p.port, price_usd: p.price, currency: p.currency }));
  for (const port of a.unpriced)
    if (!out.some((k) => k.port === port)) out.push({ port, price_usd: null, currency: null });
  return out;
}

const priceText = (k: KeptPrice) =>
  k.price_usd === null
    ? 'no price'
    : k.currency && k.currency.toUpperCase() !== 'USD'
      ? `${k.price_usd} ${k.currency}`
      : usd(k.price_usd);

/**
 * Shipping prices of a lot: one "Get prices" asks for every port in one request, then the cheapest port and the
 * buyer's own port stand side by side (the one the landed cost uses is marked), every price below, and each port the
 * service did not price is named ("No price for Savannah"), never dropped. Before a request it shows the prices kept
 * with the lot (`kept`).
 */
export function Shipping({
  lotNumber,
  vin,
  lotKey,
  kept,
  onPrices,
}: {
  lotNumber: string;
  vin: string | null;
  lotKey?: string;
  /** The prices kept with the stored lot (desk.lot `shipping`), shown until a new answer comes. */
  kept?: readonly KeptPrice[];
  onPrices?: () => void;
}) {
  const [endpoint, setEndpoint] = useState<Endpoint>('vehicle');
  const settings = useCall('settings.get');
  const call = useCaller();
  const [answer, setAnswer] = useState<MethodOutput<'shipping.get'> | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const desk = settings.data?.desk;
  const get = async () => {
    if (!desk) return;
    setBusy(true);
    setError(null);
    const r = await call(
      'shipping.get',
      pricesInput({ lot_number: lotNumber, vin, ...(lotKey ? { lot_key: lotKey } : {}) }, desk, endpoint),
    );
    setBusy(false);
    if (r.ok) {
      setAnswer(r.value);
      onPrices?.();
    } else setError(r.error);
  };
  const rows: KeptPrice[] = answer ? asKept(answer) : [...(kept ?? [])];
  // Ports cheapest first; the Moto/ATV rate (a vehicle class, never the cheapest port) after them, so its lower
  // figure does not read as a cheaper port.
  const priced = rows
    .filter((k) => k.price_usd !== null)
    .sort(
      (a, b) => Number(isRateNotPort(a.port)) - Number(isRateNotPort(b.port)) || a.price_usd! - b.price_usd!,
    );
  const unpriced = rows.filter((k) => k.price_usd === null).map((k) => k.port);
  const choice = desk && rows.length ? resolveCosts(rows, desk) : null;
  return (
    <div className="shipping">
      <p className="muted small">
        Get prices asks for every port in one request:{' '}
        {(desk ? portsToAsk(desk) : [...SHIP_PORTS]).map(portLabel).join(', ')}.
      </p>
      <div className="ship-actions">
        <label className="ship-endpoint">
          <span className="muted small">Source</span>
          <select value={endpoint} onChange={(e) => setEndpoint(e.target.value as Endpoint)}>
            <option value="vehicle">This vehicle</option>
            <option value="auction-to-port">Auction to port</option>
          </select>
        </label>
        <button type="button" className="primary" onClick={() => void get()} disabled={busy || !desk}>
          {busy ? 'Getting prices…' : 'Get prices'}
        </button>
      </div>
      {error && <ErrorNotice error={error} onRetry={() => void get()} />}
      {settings.error && <ErrorNotice error={settings.error} onRetry={() => void settings.run()} />}
      {choice && desk && (
        <div className="ship-compare" role="group" aria-label="Cheapest port and your port">
          <div className={desk.port_choice === 'cheapest' ? 'ship-pick used' : 'ship-pick'}>
            <span className="muted small">Cheapest port</span>
            <strong>
              {choice.cheapest
                ? `${portLabel(choice.cheapest.port)} ${usd(choice.cheapest.usd)}`
                : 'no port priced'}
            </strong>
            {desk.port_choice === 'cheapest' && <span className="small">used for your landed cost</span>}
          </div>
          <div className={desk.port_choice === 'port' ? 'ship-pick used' : 'ship-pick'}>
            <span className="muted small">Your port</span>
            <strong>
              {portLabel(desk.port)} {choice.chosen.usd === null ? 'no price' : usd(choice.chosen.usd)}
            </strong>
            {desk.port_choice === 'port' && <span className="small">used for your landed cost</span>}
          </div>
        </div>
      )}
      {answer && !priced.length && (
        <p className="muted small">The service has no shipping price for this lot at any port.</p>
      )}
      {unpriced.length > 0 && (
        <p className="small" role="note">
          No price for {unpriced.map(portLabel).join(', ')}.
        </p>
      )}
      {priced.length > 0 && (
        <table className="lot-table ship-table" aria-label="Shipping prices">
          <tbody>
            {priced.map((k) => (
              <tr key={k.port}>
                <th scope="row">{portChoiceLabel(k.port)}</th>
                <td className="num">{priceText(k)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
