import { useState } from 'react';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useCall, useCaller } from '../../lib/useCall';

/**
 * The browser shell's calendar subscription (docs/architecture.md "The buyer's desk"): the address a calendar app
 * on this computer subscribes to, which holds a secret of its own that shows the watched sales and opens nothing
 * else in Lotwatch; whether it survives a restart (only on a port the buyer chose with `--port`) and how to make it
 * so; and a button that makes a new address, after which the old one stops working (for an address shared by
 * mistake). Shows nothing in the desktop app, which has no address (it exports a file).
 */
export function CalendarSubscription() {
  const cal = useCall('plan.calendar');
  const call = useCaller();
  const [renewed, setRenewed] = useState<{ address: string; port_fixed: boolean } | null>(null);
  const [renewing, setRenewing] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const current =
    renewed ?? (cal.data?.address ? { address: cal.data.address, port_fixed: cal.data.port_fixed } : null);
  if (!current) return null;
  const port = new URL(current.address).port;

  const renew = async () => {
    setRenewing(true);
    const r = await call('plan.renewCalendar');
    setRenewing(false);
    if (r.ok) {
      setRenewed(r.value);
      setError(null);
    } else setError(r.error);
  };

  return (
    <section className="plan-subscribe muted small" aria-label="Calendar subscription">
      <p>
        Subscribe from a calendar app on this computer: <code className="mono">{current.address}</code>
      </p>
      <p>
        {current.port_fixed
          ? `This address stays the same when you start Lotwatch again with --port ${port} on the same data folder.`
          : `This address changes when Lotwatch starts again, because it picks a new port at each start. To keep it, start Lotwatch with a fixed port (for example npm run serve -- --port ${port}), then subscribe with the address shown here.`}{' '}
        It shows your watched sales and opens nothing else in Lotwatch. If you shared it by mistake, make a
        new one: the old address then stops working.
      </p>
      <p>
        <button type="button" onClick={() => void renew()} disabled={renewing}>
          {renewing ? 'Making a new address…' : 'Make a new address'}
        </button>{' '}
        {renewed && (
          <span role="status">
            New address made. Calendar apps subscribed with the old one get no more updates: subscribe them
            again with this one.
          </span>
        )}
      </p>
      {error && <ErrorNotice error={error} onRetry={() => void renew()} />}
    </section>
  );
}
