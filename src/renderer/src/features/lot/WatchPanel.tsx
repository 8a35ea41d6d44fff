import { useState, type FormEvent } from 'react';
import type { WatchView } from '../../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { PLATFORMS } from '../../../../shared/vehicle';
import { useCall, useCaller } from '../../lib/useCall';
import { ErrorNotice, fieldMessage } from '../../components/ErrorNotice';

/**
 * Watch / Unwatch the lot and edit its rules: bid above, buy now under, reminders N minutes before the sale.
 * `watchId` is the lot's watch from `vehicles.get`; the rules come from `watchlist.list`.
 */
export function WatchPanel({
  lotNumber,
  platform,
  watchId: initialId,
}: {
  lotNumber: string;
  /** The lot's platform (a wire value): the watch is this lot, not one of the same number on the other platform. */
  platform: string;
  watchId: number | null;
}) {
  const call = useCaller();
  const [watch, setWatch] = useState<WatchView | null>(null);
  const [watchId, setWatchId] = useState(initialId);
  const list = useCall('watchlist.list', undefined, initialId !== null);
  const current = watch ?? list.data?.find((w) => w.id === watchId) ?? null;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);

  const add = async () => {
    setBusy(true);
    const r = await call('watchlist.add', {
      target: lotNumber,
      platform: PLATFORMS.find((p) => p === platform),
    });
    setBusy(false);
    if (r.ok) {
      setWatch(r.value);
      setWatchId(r.value.id);
      setError(null);
    } else setError(r.error);
  };
  const remove = async () => {
    if (watchId === null) return;
    setBusy(true);
    const r = await call('watchlist.remove', { id: watchId });
    setBusy(false);
    if (r.ok) {
      setWatch(null);
      setWatchId(null);
      setError(null);
    } else setError(r.error);
  };

  if (watchId === null) {
    return (
      <div className="watch">
        <p className="muted small">
          Watch this lot to have Lotwatch check it on a schedule and alert you about bids, status and the
          sale.
        </p>
        <button type="button" className="primary" onClick={() => void add()} disabled={busy}>
          {busy ? 'Adding…' : 'Watch this lot'}
        </button>
        {error && <ErrorNotice error={error} onRetry={() => void add()} />}
      </div>
    );
  }
  return (
    <div className="watch">
      <div className="watch-head">
        <span className="ok" role="status">
          ● Watching
        </span>
        <button type="button" onClick={() => void remove()} disabled={busy}>
          Unwatch
        </button>
      </div>
      {error && <ErrorNotice error={error} />}
      {list.error && <ErrorNotice error={list.error} onRetry={() => void list.run()} />}
      {current ? (
        <RulesForm key={current.id} watch={current} onSaved={setWatch} />
      ) : (
        list.loading && <p className="muted small">Loading rules…</p>
      )}
    </div>
  );
}

function RulesForm({ watch, onSaved }: { watch: WatchView; onSaved: (w: WatchView) => void }) {
  const call = useCaller();
  const r = watch.rules;
  const [bidAbove, setBidAbove] = useState(r.bid_above_usd?.toString() ?? '');
  const [buyNowUnder, setBuyNowUnder] = useState(r.buy_now_under_usd?.toString() ?? '');
  const [remind, setRemind] = useState(r.remind_minutes_before.join(', '));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const [saved, setSaved] = useState(false);
  const num = (s: string) => (s.trim() === '' ? null : Number(s));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const minutes = remind
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    setBusy(true);
    setSaved(false);
    const res = await call('watchlist.setRules', {
      id: watch.id,
      rules: {
        ...r,
        bid_above_usd: num(bidAbove),
        buy_now_under_usd: num(buyNowUnder),
        remind_minutes_before: minutes,
      },
    });
    setBusy(false);
    if (res.ok) {
      setError(null);
      setSaved(true);
      onSaved(res.value);
    } else setError(res.error);
  };
  const msg = (f: string) => fieldMessage(error, f) ?? fieldMessage(error, f.replace(/\.\d+$/, ''));
  const remindMsg =
    msg('remind_minutes_before') ??
    Object.entries(error?.fields ?? {}).find(([k]) => k.includes('remind_minutes_before'))?.[1][0];
  const inv = (m: string | undefined, id: string) =>
    m ? { 'aria-invalid': true as const, 'aria-describedby': id } : {};
  return (
    <form className="watch-rules" onSubmit={submit} noValidate aria-label="Watch rules">
      <label className="field">
        <span>Alert when the bid reaches (USD)</span>
        <input
          type="number"
          min={0}
          value={bidAbove}
          onChange={(e) => setBidAbove(e.target.value)}
          placeholder="off"
          {...inv(msg('bid_above_usd'), 'wr-bid')}
        />
        {msg('bid_above_usd') && (
          <span className="field-error" id="wr-bid">
            {msg('bid_above_usd')}
          </span>
        )}
      </label>
      <label className="field">
        <span>Alert when buy now is at most (USD)</span>
        <input
          type="number"
          min={0}
          value={buyNowUnder}
          onChange={(e) => setBuyNowUnder(e.target.value)}
          placeholder="off"
          {...inv(msg('buy_now_under_usd'), 'wr-bn')}
        />
        {msg('buy_now_under_usd') && (
          <span className="field-error" id="wr-bn">
            {msg('buy_now_under_usd')}
          </span>
        )}
      </label>
      <label className="field">
        <span>Remind me minutes before the sale</span>
        <input
          type="text"
          inputMode="numeric"
          value={remind}
          onChange={(e) => setRemind(e.target.value)}
          placeholder="e.g. 60, 10"
          {...inv(remindMsg, 'wr-rm')}
        />
        {remindMsg && (
          <span className="field-error" id="wr-rm">
            {remindMsg}
          </span>
        )}
      </label>
      {error && !error.fields && <ErrorNotice error={error} />}
      <div className="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save rules'}
        </button>
        {saved && (
          <span className="ok small" role="status">
            Rules saved.
          </span>
        )}
      </div>
    </form>
  );
}
