import { format, isSameDay } from 'date-fns';
import { useCallback, useEffect, useRef } from 'react';
import type { CompView, MethodOutput } from '../../../../shared/ipc/contract';
import { costQualifier } from '../../../../shared/shipping';
import { SALE_OUTCOME_LABEL } from '../../../../shared/saleOutcome';
import { TITLE_GROUP_LABEL } from '../../../../shared/titleGroup';
import { ratioPercent, repairToValueUnknownWhy } from '../../../../shared/estimates';
import { lotHref } from '../../app/navigation';
import { ErrorNotice } from '../../components/ErrorNotice';
import { dateTime, day, miles, platformName, usd } from '../../lib/format';
import { useCall } from '../../lib/useCall';
import { useNow } from '../../lib/useNow';

type DeskData = MethodOutput<'desk.lot'>;
type Market = NonNullable<DeskData['market']>;
type Stats = DeskData['comps']['stats'];

/** "today at 2:05 PM" or "Nov 23, 2:05 PM": when a band's answer came. */
function when(t: number, now: number): string {
  return isSameDay(t, now) ? `today at ${format(t, 'h:mm a')}` : dateTime(t);
}

/** The band in words: "Copart · HONDA PILOT · 2016–2018". */
const bandText = (m: Market) =>
  `${platformName(m.platform)} · ${m.make} ${m.model} · ${m.year_from}–${m.year_to}`;

/**
 * What asking the service costs now, said before the button is pressed: "0 requests: fetched today at 2:05 PM"
 * within a day of the band's answer, else "1 request, up to 2" (a second page only when the first is full).
 */
export function marketCost(m: Market, now: number): string {
  if (m.fresh && m.fetched_at !== null) return `0 requests: fetched ${when(m.fetched_at, now)}`;
  return '1 request, up to 2';
}

/** One line of statistics over prices paid: "5 · median $7,500 · middle half $6,850–$8,750 · range $5,000–$15,000". */
function statLine(s: Omit<Stats, 'priced' | 'sold' | 'sold_on_approval'>, n: number) {
  if (n === 0 || s.median_usd === null) return null;
  return (
    <>
      median <strong>{usd(s.median_usd)}</strong>
      {n > 1 && (
        <>
          {' '}
          · middle half {usd(s.p25_usd)}–{usd(s.p75_usd)} · range {usd(s.min_usd)}–{usd(s.max_usd)}
        </>
      )}
    </>
  );
}

/**
 * Count, median, middle half and range over prices paid, then sold and sold on approval apart; and, when some of those
 * prices are of another title group than the lot's (`range`: the bid range, which leaves them out), how many.
 */
function StatsBlock({ stats, range }: { stats: Stats; range: DeskData['bid_range'] }) {
  if (stats.count === 0) return <p className="desk-stats">No comparable sale stored yet.</p>;
  const apart = (label: string, s: Stats['sold']) =>
    s.count === 0 ? (
      <li>{label}: none</li>
    ) : (
      <li>
        {label}: {s.count} · {statLine(s, s.count)}
      </li>
    );
  return (
    <div className="desk-stats" role="status">
      <p>
        {stats.count} comparable sale{stats.count === 1 ? '' : 's'} (a relisted car once) · {stats.priced}{' '}
        with a price paid
        {stats.priced > 0 && <> · {statLine(stats, stats.priced)}</>}
      </p>
      <ul className="desk-apart">
        {apart('Sold', stats.sold)}
        {apart('Sold on approval (the seller accepted the bid later)', stats.sold_on_approval)}
      </ul>
      {stats.priced < stats.count && (
        <p className="muted small">
          Unsold lots and sales without a published price are listed but never counted: a bid the seller
          refused is no price paid.
        </p>
      )}
      {range.title_group !== null && range.other_titles_left_out > 0 && (
        <p className="small desk-title-note">
          {range.other_titles_left_out} of these {stats.priced} prices{' '}
          {range.other_titles_left_out === 1 ? 'is' : 'are'} of another or unknown title group than this lot's
          ({TITLE_GROUP_LABEL[range.title_group]}): counted here, left out of the bid range.
        </p>
      )}
    </div>
  );
}

/**
 * The lot's own estimates beside the statistics: the service's range, IAAI's ACV and repair cost, and repair to value
 * (or which figure it lacks when only one is known).
 */
function Estimates({ e }: { e: DeskData['estimates'] }) {
  const parts: string[] = [];
  if (e.service_from_usd !== null || e.service_to_usd !== null)
    parts.push(
      `the service's estimate ${usd(e.service_from_usd)}–${usd(e.service_to_usd)} (its own guess of the price, not a repair cost)`,
    );
  if (e.acv_usd !== null) parts.push(`IAAI's actual cash value (ACV) ${usd(e.acv_usd)}`);
  if (e.repair_usd !== null) parts.push(`IAAI's estimated repair cost ${usd(e.repair_usd)}`);
  if (e.repair_to_value !== null) parts.push(`repair ${ratioPercent(e.repair_to_value)} of ACV`);
  else if (e.acv_usd !== null || e.repair_usd !== null)
    parts.push(`repair to value unknown (${repairToValueUnknownWhy(e.acv_usd, e.repair_usd) ?? 'no ACV'})`);
  if (parts.length === 0) return null;
  return <p className="small">This lot: {parts.join(' · ')}.</p>;
}

/** "Bid up to $X–$Y" with its landed cost and what it rests on, or the refusal. */
function BidRange({
  r,
  comps,
  fees,
}: {
  r: DeskData['bid_range'];
  comps: readonly CompView[];
  /** The lot's fee table; without one the landed cost is unknown and its reason is said. */
  fees: DeskData['fee_table'];
}) {
  if (r.refusal !== null || r.low_usd === null || r.high_usd === null)
    return (
      <p className="desk-bid-range" role="status">
        <strong>No bid range.</strong> {r.refusal}
      </p>
    );
  const numbers = r.rests_on.map((k) => comps.find((c) => c.lot_key === k)?.lot_number ?? k);
  return (
    <div className="desk-bid-range" role="status">
      <p>
        Bid up to{' '}
        <strong className="mono">
          {usd(r.low_usd)}–{usd(r.high_usd)}
        </strong>
        {r.landed_low_usd !== null && r.landed_high_usd !== null ? (
          <>
            {' '}
            · landed {usd(r.landed_low_usd)}–{usd(r.landed_high_usd)} with fees and your own lines
            {r.shipping_included
              ? ' and shipping'
              : `, ${costQualifier(['shipping'])} (Get prices under Shipping to port)`}
          </>
        ) : (
          <>
            {' · landed cost unknown: '}
            {fees.schedule === null ? fees.reason : 'no fee schedule for this platform'}
            {r.target_usd !== null && fees.schedule === null
              ? ' Your target landed cost is not applied.'
              : ''}
          </>
        )}
        {r.capped && r.target_usd !== null && <> · capped by your target landed cost {usd(r.target_usd)}</>}
      </p>
      <p className="muted small">
        Low end: a quarter of these cars sold for less; high end: their median. Rests on {r.priced} comparable
        {r.priced === 1 ? '' : 's'}
        {r.title_group !== null && <> in this lot's title group ({TITLE_GROUP_LABEL[r.title_group]})</>} with
        a price paid: lot {numbers.join(', ')}.
        {r.other_titles_left_out > 0 && (
          <>
            {' '}
            {r.other_titles_left_out} {r.other_titles_left_out === 1 ? 'sale' : 'sales'} of another or unknown
            title group left out: the title moves a car's price more than anything else.
          </>
        )}
      </p>
    </div>
  );
}

function CompRow({ c }: { c: CompView }) {
  return (
    <tr>
      <td>
        <a href={lotHref(c.lot_key)} className="lw-link">
          {c.title ?? `Lot ${c.lot_number}`}
        </a>
        <div className="lw-sub mono">
          {platformName(c.platform)} #{c.lot_number}
          {c.vin && <> · {c.vin}</>}
        </div>
        {c.attempts > 1 && <div className="lw-sub">{c.attempts} attempts of this VIN, counted once</div>}
        <ul className="desk-reasons" aria-label="Why it matches">
          {c.reasons.map((r) => (
            <li key={r} className="lw-badge">
              {r}
            </li>
          ))}
        </ul>
      </td>
      <td className="num">{miles(c.odometer)}</td>
      <td>
        {c.damage ?? '–'}
        <div className="lw-sub">
          {c.title_group === 'unknown' ? (c.title_document ?? '–') : TITLE_GROUP_LABEL[c.title_group]}
        </div>
      </td>
      <td className="num">
        {c.sale_price_usd !== null ? (
          <strong>{usd(c.sale_price_usd)}</strong>
        ) : c.outcome === 'ended_unsold' && c.last_bid_usd !== null ? (
          <span className="muted">bid {usd(c.last_bid_usd)}, not paid</span>
        ) : (
          <span className="muted">no price</span>
        )}
        <div className="lw-sub">{SALE_OUTCOME_LABEL[c.outcome]}</div>
        <div className="lw-sub nowrap">{day(c.sold_at)}</div>
      </td>
    </tr>
  );
}

/** The band's state and the button that asks the service, with what it costs. */
function MarketAsk({
  market,
  demo,
  now,
  busy,
  onFind,
}: {
  market: Market | null;
  demo: boolean;
  now: number;
  busy: boolean;
  onFind: () => void;
}) {
  if (!market)
    return (
      <p className="muted small">
        Sold comparables from the service need the lot’s make, model and year; this lot has not all of them.
      </p>
    );
  return (
    <div className="desk-market">
      <p className="small">
        Sold lots of {bandText(market)}:{' '}
        {market.fetched_at === null
          ? 'not asked yet.'
          : `${market.found} lot${market.found === 1 ? '' : 's'} fetched ${when(market.fetched_at, now)} (${market.requests} request${market.requests === 1 ? '' : 's'}); kept on this computer.`}
      </p>
      {market.error !== null && market.error_at !== null && (
        <p className="lw-error-text small" role="alert">
          The last search for sold lots failed {when(market.error_at, now)}: {market.error}{' '}
          {market.fetched_at !== null
            ? `The answer of ${when(market.fetched_at, now)} is kept.`
            : 'Nothing was stored.'}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={onFind} disabled={busy || market.fresh}>
          {busy
            ? 'Searching sold lots…'
            : market.fetched_at === null
              ? 'Find sold comparables'
              : 'Refresh sold comparables'}
        </button>
        <span className="muted small">
          {marketCost(market, now)}
          {demo ? ' · Demo: no quota' : ''}
        </span>
      </div>
    </div>
  );
}

/**
 * The lot page's comparables panel: sold comparables of the whole market (an Ended search of the lot's platform,
 * make, model and year +-1, kept a day per band, its cost said on the button; in Demo mode it runs when the page
 * opens), the statistics over prices paid with sold and sold on approval apart, the lot's own estimates beside
 * them, the bid range or the refusal, and the ranked list with why each matches. The VIN's own earlier attempts are
 * the Sale history section's (one timeline per VIN), never repeated here.
 */
export function MarketComps({
  lotKey,
  data,
  demo,
  onFetched,
}: {
  lotKey: string;
  data: DeskData;
  demo: boolean;
  onFetched: () => void;
}) {
  const ask = useCall('desk.marketComps', undefined, false);
  const now = useNow(60_000);
  const { comps, stats } = data.comps;
  const market = data.market;
  const run = ask.run;
  const find = useCallback(async () => {
    await run({ lot_key: lotKey });
    // A failure is stored with the band too: read the desk again either way, so its sentence and the kept answer show.
    onFetched();
  }, [run, lotKey, onFetched]);
  // Demo requests are free: the first visit of a band asks at once, as Sale history loads at once in Demo mode.
  const asked = useRef(false);
  useEffect(() => {
    if (!demo || asked.current || !market || market.fresh || market.error !== null) return;
    asked.current = true;
    void find();
  }, [demo, market, find]);
  const r = ask.data;
  return (
    <div className="desk-comps">
      <MarketAsk market={market} demo={demo} now={now} busy={ask.loading} onFind={() => void find()} />
      {r && !r.cached && (
        <p className="muted small" role="status">
          {r.found === 0
            ? `No comparables found (${r.requests} request${r.requests === 1 ? '' : 's'}): the service knows no sold lot of this model in these years.`
            : `${r.found} sold or ended lot${r.found === 1 ? '' : 's'} found (${r.requests} request${r.requests === 1 ? '' : 's'}).`}
          {r.warning && <> {r.warning}</>}
        </p>
      )}
      {ask.error && <ErrorNotice error={ask.error} onRetry={() => void find()} />}
      <StatsBlock stats={stats} range={data.bid_range} />
      <Estimates e={data.estimates} />
      <BidRange r={data.bid_range} comps={comps} fees={data.fee_table} />
      {comps.length > 0 && (
        <div className="desk-comps-scroll">
          <table className="lw-table desk-comps-table" aria-label="Comparable sales">
            <thead>
              <tr>
                <th scope="col">Vehicle · why it matches</th>
                <th scope="col" className="num">
                  Odometer
                </th>
                <th scope="col">Damage · title</th>
                <th scope="col" className="num">
                  Price paid · result
                </th>
              </tr>
            </thead>
            <tbody>
              {comps.map((c) => (
                <CompRow key={c.lot_key} c={c} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
