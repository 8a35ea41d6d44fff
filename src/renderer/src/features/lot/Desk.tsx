import { useState, type FormEvent } from 'react';
import { MAX_NOTES_LENGTH, parseTags } from '../../../../shared/desk';
import { FeeScheduleError, landedCost, maxBid, type LandedCost } from '../../../../shared/fees';
import type { LotSummary, MethodOutput, WatchView } from '../../../../shared/ipc/contract';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { ErrorNotice } from '../../components/ErrorNotice';
import { platformName, usd } from '../../lib/format';
import { useCall, useCaller } from '../../lib/useCall';
import {
  costQualifier,
  excludedText,
  gapSentence,
  portLabel,
  qualified,
  resolveCosts,
  type CostPart,
} from '../../../../shared/shipping';
import { pricesInput } from './Shipping';
// The shared list styles (tables, badges, links) this page uses; a lot opened directly has loaded no list view yet.
import '../../components/lwTable.css';
import '../../components/watch/common.css';

type DeskData = MethodOutput<'desk.lot'>;

const cents = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
});
/** "$1,234.50" for a breakdown line (fees may carry cents), "$1,234" for whole dollars. */
const money = (n: number) => (Number.isInteger(n) ? usd(n) : cents.format(n));

/** A typed amount: a number of 0 or more (commas and a dollar sign allowed), else null. */
function amount(s: string): number | null {
  const t = s.replace(/[$,\s]/g, '');
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/**
 * What the lot costs landed, and the most to bid: the breakdown at any bid (bid, the buyer fees of the table core
 * chose for this lot from its title document and the buyer's membership, named with the reason it applies, shipping to the user's port kept from "Get prices", the user's own lines), worked out offline
 * with the same functions core uses for the watchlist; the max bid for a target landed cost, solved across the fee
 * steps, saved on the watch with a "bid reached N % of my max bid" alert.
 */
export function Costs({
  lot,
  data,
  watch,
  onWatchSaved,
  onPrices,
}: {
  lot: LotSummary;
  data: DeskData;
  watch: WatchView | null;
  onWatchSaved: (w: WatchView) => void;
  /** After the confirm step's "Get prices" kept new prices: the desk is read again. */
  onPrices?: () => void;
}) {
  const call = useCaller();
  const settings = useCall('settings.get');
  // The bid typed by the user; null follows the lot's current bid as it changes.
  const [typedBid, setBidText] = useState<string | null>(null);
  const bidText = typedBid ?? String(lot.current_bid_usd ?? 0);
  const [targetText, setTargetText] = useState(
    watch?.rules.target_landed_usd != null ? String(watch.rules.target_landed_usd) : '',
  );
  const [percent, setPercent] = useState(String(watch?.rules.max_bid_near_percent ?? 90));
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<ErrorPayload | null>(null);
  // The confirm step of a max bid that leaves a cost out: shown instead of saving, until the buyer chooses.
  const [confirming, setConfirming] = useState(false);
  const [fetching, setFetching] = useState(false);

  const desk = settings.data?.desk;
  if (!desk)
    return settings.error ? (
      <ErrorNotice error={settings.error} onRetry={() => void settings.run()} />
    ) : (
      <p className="muted small">Loading…</p>
    );
  const table = data.fee_table;
  const schedule = table.schedule;
  if (!schedule)
    return (
      <p className="field-error" role="alert" data-testid="desk-fee-table">
        No landed cost or max bid for this {platformName(lot.platform)} lot: {table.reason}
      </p>
    );
  // The port the landed cost uses (the buyer's or the cheapest), its price, the destination's lines, what is missing.
  const choice = resolveCosts(data.shipping, desk);
  const shipping = choice.shipping_usd;
  const shipGap = choice.gaps.find((g) => g.part === 'shipping');
  const destGap = choice.gaps.find((g) => g.part === 'destination');
  const base = {
    schedule,
    shipping_usd: shipping,
    lines: choice.lines,
    opts: { custom: desk.custom_fees, omit: desk.omit_fees },
  };
  const bid = amount(bidText);
  let breakdown: LandedCost | null = null;
  let problem: string | null = null;
  try {
    if (bid !== null) breakdown = landedCost({ ...base, bid_usd: bid });
  } catch (e) {
    problem = e instanceof FeeScheduleError ? e.message : String(e);
  }
  const target = amount(targetText);
  let max: number | null = null;
  try {
    max = target !== null ? maxBid({ ...base, target_usd: target }) : null;
  } catch (e) {
    problem = e instanceof FeeScheduleError ? e.message : String(e);
  }
  const pct = Number(percent);

  const excludes: CostPart[] = choice.gaps.map((g) => g.part);
  const getPrices = async () => {
    setFetching(true);
    const r = await call('shipping.get', pricesInput(lot, desk));
    setFetching(false);
    if (r.ok) onPrices?.();
    else setError(r.error);
  };
  const saveMax = async (e: FormEvent | null, anyway = false) => {
    e?.preventDefault();
    if (!watch || target === null) return;
    // A max bid whose landed cost leaves shipping (or ocean freight and duty) out asks first.
    if (max !== null && choice.gaps.length > 0 && !anyway) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    setSaving(true);
    setSaved(null);
    const r = await call('watchlist.setRules', {
      id: watch.id,
      rules: {
        ...watch.rules,
        max_bid_usd: max,
        target_landed_usd: target,
        max_bid_excludes: max === null ? null : excludes,
        max_bid_near_percent: Number.isInteger(pct) && pct > 0 ? pct : null,
      },
    });
    setSaving(false);
    if (r.ok) {
      setError(null);
      setSaved(
        max === null ? 'Target saved; no bid fits it.' : `Max bid ${qualified(usd(max), excludes)} saved.`,
      );
      onWatchSaved(r.value);
    } else setError(r.error);
  };

  return (
    <div className="desk-costs">
      <div className="desk-bid">
        <label className="field">
          <span>Bid (USD)</span>
          <input
            type="text"
            inputMode="decimal"
            name="desk-bid"
            value={bidText}
            onChange={(e) => setBidText(e.target.value)}
            aria-invalid={bid === null ? true : undefined}
          />
        </label>
        {typedBid !== null && (
          <button type="button" className="link-button" onClick={() => setBidText(null)}>
            Use the current bid
          </button>
        )}
        <p className="muted small">
          {schedule.label} · {table.version} schedule ·{' '}
          {desk.port_choice === 'cheapest' ? 'cheapest port' : `port ${portLabel(desk.port)}`} · membership
          and port in Settings
        </p>
      </div>
      {bid === null && <p className="field-error">Enter a bid of 0 or more, in dollars.</p>}
      {problem && <p className="field-error">{problem}</p>}
      {breakdown && (
        <table className="lot-table desk-breakdown" aria-label="Landed cost">
          <caption
            className={table.stricter ? 'lw-error-text small' : 'muted small'}
            data-testid="desk-fee-table"
          >
            Fees: {table.reason}
          </caption>
          <tbody>
            <tr>
              <th scope="row">Bid</th>
              <td className="num">{money(breakdown.bid_usd)}</td>
            </tr>
            {breakdown.fees.map((f) => (
              <tr key={f.id}>
                <th scope="row">{f.label}</th>
                <td className="num">{money(f.usd)}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">
                Shipping to {choice.port === null ? 'the cheapest port' : portLabel(choice.port)}
                {desk.port_choice === 'cheapest' && choice.port !== null ? ' (cheapest)' : ''}
              </th>
              <td className="num">
                {shipGap ? <span className="muted">{gapSentence(shipGap, true)}</span> : money(shipping ?? 0)}
              </td>
            </tr>
            {breakdown.own.map((f) => (
              <tr key={f.id}>
                <th scope="row">{f.label}</th>
                <td className="num">{money(f.usd)}</td>
              </tr>
            ))}
            {destGap && (
              <tr>
                <th scope="row">Ocean freight and duty</th>
                <td className="num">
                  <span className="muted">{gapSentence(destGap, true)}</span>
                </td>
              </tr>
            )}
            <tr className="desk-total">
              <th scope="row">Landed cost</th>
              <td className="num">
                {money(breakdown.total_usd)}
                {costQualifier(choice.gaps) && (
                  <div className="lw-sub desk-excludes">{costQualifier(choice.gaps)}</div>
                )}
              </td>
            </tr>
          </tbody>
        </table>
      )}
      <form className="desk-max" onSubmit={saveMax} aria-label="Max bid">
        <label className="field">
          <span>Target landed cost (USD)</span>
          <input
            type="text"
            inputMode="decimal"
            name="desk-target"
            value={targetText}
            placeholder="e.g. 9,500"
            onChange={(e) => setTargetText(e.target.value)}
          />
        </label>
        <div className="desk-max-result" role="status">
          {target === null ? (
            <span className="muted small">
              Enter the most the car may cost you landed; Lotwatch works out the highest bid.
            </span>
          ) : max === null ? (
            <span>
              Fees, shipping and your own costs alone come to more than {usd(target)}: no bid fits. Raise the
              target.
            </span>
          ) : (
            <span>
              Max bid <strong className="mono">{usd(max)}</strong>
              {costQualifier(choice.gaps) && (
                <span className="desk-excludes"> {costQualifier(choice.gaps)}</span>
              )}
              {lot.current_bid_usd !== null && lot.current_bid_usd > max ? (
                <span className="lw-error-text"> · the bid is already past it</span>
              ) : null}
            </span>
          )}
        </div>
        {watch ? (
          <div className="desk-max-save">
            <label className="field desk-pct">
              <span>Alert at % of max bid</span>
              <input
                type="number"
                min={1}
                max={99}
                name="desk-percent"
                value={percent}
                onChange={(e) => setPercent(e.target.value)}
              />
            </label>
            <button type="submit" disabled={saving || target === null}>
              {saving ? 'Saving…' : 'Save as max bid'}
            </button>
          </div>
        ) : (
          <p className="muted small">
            Watch this lot to keep the max bid and be alerted as the bid nears it.
          </p>
        )}
        {confirming && max !== null && choice.gaps.length > 0 && (
          <div className="desk-confirm" role="alertdialog" aria-label="Save a max bid that leaves costs out">
            <p>
              This max bid leaves out {excludedText(choice.gaps)}: it is too high by that much.{' '}
              {choice.gaps.map((g) => gapSentence(g, true)).join(' ')}
            </p>
            <div className="actions">
              {shipGap && shipGap.reason === 'not_fetched' && (
                <button
                  type="button"
                  className="primary"
                  disabled={fetching}
                  onClick={() => void getPrices()}
                >
                  {fetching ? 'Getting prices…' : 'Get prices'}
                </button>
              )}
              <button type="button" disabled={saving} onClick={() => void saveMax(null, true)}>
                Save without {excludedText(choice.gaps)}
              </button>
              <button type="button" className="link-button" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </div>
          </div>
        )}
        {saved && <span className="ok small">{saved}</span>}
        {error && <ErrorNotice error={error} />}
      </form>
    </div>
  );
}

/** Notes and tags on a lot: kept on this computer, searched by the library, shown in the watchlist and the CSV. */
export function NotesAndTags({
  lotKey,
  data,
  onSaved,
}: {
  lotKey: string;
  data: DeskData;
  onSaved: () => void;
}) {
  const call = useCaller();
  const [notes, setNotes] = useState(data.desk.notes);
  const [tags, setTags] = useState(data.desk.tags.join(', '));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const [saved, setSaved] = useState(false);
  const dirty = notes !== data.desk.notes || parseTags(tags).join(',') !== data.desk.tags.join(',');
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const r = await call('lots.setNotes', { lot_key: lotKey, notes, tags: parseTags(tags) });
    setBusy(false);
    if (r.ok) {
      setError(null);
      setSaved(true);
      onSaved();
    } else setError(r.error);
  };
  return (
    <form className="desk-notes" onSubmit={save} aria-label="Notes and tags">
      <label className="field">
        <span>Notes</span>
        <textarea
          name="notes"
          rows={4}
          maxLength={MAX_NOTES_LENGTH}
          value={notes}
          placeholder="What you saw in the photos, what the yard said, your plan for this car…"
          onChange={(e) => {
            setNotes(e.target.value);
            setSaved(false);
          }}
        />
      </label>
      <label className="field">
        <span>Tags, separated by commas</span>
        <input
          type="text"
          name="tags"
          list="desk-tags-in-use"
          value={tags}
          placeholder="export, needs title"
          onChange={(e) => {
            setTags(e.target.value);
            setSaved(false);
          }}
        />
        <datalist id="desk-tags-in-use">
          {data.tags_in_use.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
      </label>
      <div className="actions">
        <button type="submit" disabled={busy || !dirty}>
          {busy ? 'Saving…' : 'Save notes'}
        </button>
        {saved && !dirty && (
          <span className="ok small" role="status">
            Saved on this computer.
          </span>
        )}
      </div>
      {error && <ErrorNotice error={error} />}
    </form>
  );
}
