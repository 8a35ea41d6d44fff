import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { LotSummary, WatchView } from '../../../../shared/ipc/contract';
import { SALE_OUTCOME_LABEL } from '../../../../shared/saleOutcome';
import { ratioPercent, repairToValue, repairToValueUnknownWhy } from '../../../../shared/estimates';
import { ErrorNotice } from '../../components/ErrorNotice';
import { JsonViewer } from '../../components/JsonViewer';
import { Gallery } from './Gallery';
import { VinAttempts } from './Attempts';
import { RelatedLots } from './Sections';
import { Shipping } from './Shipping';
import { Costs, NotesAndTags } from './Desk';
import { MarketComps } from './MarketComps';
import { Timeline } from './Timeline';
import { useNow } from '../../lib/useNow';
import { WatchPanel } from './WatchPanel';
import { ExportMark } from '../../components/ExportMark';
import { StatusPill } from '../../components/StatusPill';
import {
  bidText,
  countdown,
  dateTime,
  lotPageUrl,
  miles,
  platformName,
  relative,
  usd,
} from '../../lib/format';
import { useCall } from '../../lib/useCall';
import './lot.css';

type Rec = Record<string, unknown>;

const obj = (v: unknown): Rec => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : {});
const str = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : null;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const yesNo = (v: unknown): string | null => (v === true ? 'Yes' : v === false ? 'No' : null);

/** Who sells, in words: "Mapfre Usa (insurance)"; the service's `unknown` type is left out. */
function sellerText(seller: Rec): string | null {
  const name = str(seller['name']);
  const type = str(seller['type']);
  const kind = type === 'insurance' ? 'insurance' : type === 'non_insurance' ? 'not insurance' : null;
  if (name && name.toLowerCase() !== 'unknown') return kind ? `${name} (${kind})` : name;
  return kind ? `Unnamed seller (${kind})` : null;
}

/** The engine in words: the listing's text, else "3.0 L · 349 hp". */
function engineText(engine: Rec): string | null {
  const raw = str(engine['raw']);
  if (raw) return raw;
  const parts = [
    num(engine['size_l']) !== null ? `${num(engine['size_l'])} L` : null,
    num(engine['hp']) !== null ? `${num(engine['hp'])} hp` : null,
  ];
  return parts.filter(Boolean).join(' · ') || null;
}

/**
 * The price block's headline: the sale result once the auction is over (never "Sold" for an unsold end), else the
 * current bid; a lot nobody has bid on reads "No bids yet" (or "No bids" once over), never "$0".
 */
function priceHeadline(s: LotSummary): { label: string; amount: string } {
  switch (s.outcome) {
    case 'sold':
      return { label: 'Sold for', amount: s.sale_price_usd ? usd(s.sale_price_usd) : 'Price not published' };
    case 'sold_on_approval':
      return { label: 'Sold on approval at', amount: bidText(s.sale_price_usd ?? s.current_bid_usd, true) };
    case 'ended_unsold':
      return s.current_bid_usd
        ? { label: 'Ended unsold · last bid', amount: usd(s.current_bid_usd) }
        : { label: 'Ended unsold', amount: bidText(null, true) };
    default:
      return { label: 'Current bid', amount: bidText(s.current_bid_usd) };
  }
}

/** A titled block of the lot page. */
function Section({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section className="lot-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** One "label: value" line of the facts list; an absent value shows a dash, never a blank. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="fact">
      <dt>{label}</dt>
      <dd>{children ?? '–'}</dd>
    </div>
  );
}

/** A price range with either end possibly unknown: "$1,450 – $15,000", "from $1,450 (upper end unknown)". */
function rangeText(from: number | null, to: number | null): string | null {
  if (from !== null && to !== null) return `${usd(from)} – ${usd(to)}`;
  if (from !== null) return `from ${usd(from)} (upper end unknown)`;
  if (to !== null) return `up to ${usd(to)} (lower end unknown)`;
  return null;
}

/**
 * The estimates a record carries, each labelled with whose estimate it is (docs/service-contract.md "Searching ended
 * lots"): the service's own estimate of the price (never a repair cost), the platform's ACV and estimated repair
 * cost, and repair to value as a percentage of the ACV (src/shared/estimates.ts), or why it is unknown. A figure the
 * record lacks says so: Copart records carry no ACV or repair estimate.
 */
function EstimateFacts({ platform, pricing }: { platform: string; pricing: Rec }) {
  const who = platformName(platform);
  const acv = num(pricing['acv_usd']);
  const repair = num(pricing['est_repair_usd']);
  const ratio = num(pricing['repair_to_value']) ?? repairToValue(acv, repair);
  const missing = platform === 'copart' ? 'Not given by Copart' : 'Not in this record';
  return (
    <>
      <Fact label="The service's price estimate (not a repair cost)">
        {rangeText(num(pricing['estimated_cost_from_usd']), num(pricing['estimated_cost_to_usd']))}
      </Fact>
      <Fact label={`${who}'s ACV (value before the damage)`}>{acv !== null ? usd(acv) : missing}</Fact>
      <Fact label={`${who}'s estimated repair cost`}>{repair !== null ? usd(repair) : missing}</Fact>
      <Fact label={`Repair to value (${who}'s repair ÷ ACV)`}>
        {ratio !== null
          ? `${ratioPercent(ratio)} of ACV`
          : `Unknown: ${repairToValueUnknownWhy(acv, repair) ?? 'no ACV'}`}
      </Fact>
    </>
  );
}

/**
 * One lot: photos, the listed fields, the raw record, the timeline Lotwatch observed, the VIN's every attempt, related lots,
 * shipping prices, a link to the platform's lot page, and watch / unwatch with rules. Loads through `vehicles.get`,
 * which refreshes from the service and falls back to the stored copy when the service cannot be reached (labelled
 * "offline"). History and related lots load at once in Demo mode; with a real key they wait for a click, since each
 * costs a request.
 */
export function LotView({ lotKey }: { lotKey: string }) {
  const detail = useCall('vehicles.get', { id: lotKey, refresh: true });
  // The buyer's desk for the stored lot: offline, so it loads at once (after the lot is stored by vehicles.get).
  const desk = useCall('desk.lot', { lot_key: lotKey }, false);
  const watches = useCall('watchlist.list', undefined, false);
  const [deskWatch, setDeskWatch] = useState<WatchView | null>(null);
  const storedKey = detail.data?.summary.lot_key;
  const loadDesk = desk.run;
  const reloadDesk = useCallback(() => {
    if (storedKey) void loadDesk({ lot_key: storedKey });
  }, [storedKey, loadDesk]);
  const loadWatches = watches.run;
  useEffect(() => {
    if (!storedKey) return;
    void loadDesk({ lot_key: storedKey });
    void loadWatches();
  }, [storedKey, loadDesk, loadWatches]);
  const info = useCall('app.info');
  const now = useNow(1000);
  const [refreshing, setRefreshing] = useState(false);
  // Sections that cost a request load at once only in Demo mode; they wait for app.info to know which it is.
  const demo = info.data?.mode === 'demo';
  const d = detail.data;

  const back = (
    <button type="button" className="link-button lot-back" onClick={() => history.back()}>
      ← Back
    </button>
  );

  if (!d) {
    return (
      <div className="lot-page">
        {back}
        {detail.loading && (
          <p className="muted" role="status" aria-live="polite">
            Loading lot {lotKey}…
          </p>
        )}
        {detail.error && <ErrorNotice error={detail.error} onRetry={() => void detail.run()} />}
      </div>
    );
  }

  const s = d.summary;
  const r = d.record;
  const loc = obj(r['location']);
  const media = obj(r['media']);
  const pricing = obj(r['pricing']);
  const doc = obj(r['title_document']);
  const yard = obj(r['yard']);
  const headline = priceHeadline(s);
  const photos = Array.isArray(media['photos'])
    ? (media['photos'] as unknown[]).filter((p): p is string => typeof p === 'string')
    : [];
  const title = s.title ?? ([s.year, s.make, s.model].filter(Boolean).join(' ') || `Lot ${s.lot_number}`);
  const page = lotPageUrl(s.platform, s.lot_number);
  const historyId = s.vin ?? s.lot_number;
  const refresh = async () => {
    setRefreshing(true);
    await detail.run({ id: lotKey, refresh: true });
    setRefreshing(false);
  };

  return (
    <div className="lot-page">
      <div className="lot-head">
        {back}
        <div className="lot-title">
          <h2 className="lot-name">{title}</h2>
          <div className="lot-sub">
            <span className={`plat plat-${s.platform}`}>{platformName(s.platform)}</span>
            <span>Lot {s.lot_number}</span>
            {s.vin && <span className="mono">VIN {s.vin}</span>}
            <StatusPill lot={s} />
            <ExportMark block={s.export_block} />
            {d.offline && (
              <span
                className="offline-badge"
                role="status"
                title="The service could not be reached; this is the copy stored on this computer."
              >
                Offline · stored {relative(s.last_observed_at, now)}
              </span>
            )}
          </div>
        </div>
        <div className="lot-actions">
          <button type="button" onClick={() => void refresh()} disabled={refreshing || detail.loading}>
            {refreshing ? 'Refreshing…' : 'Refresh'}
          </button>
          {page && (
            <a className="button-link" href={page} target="_blank" rel="noreferrer noopener">
              Open on {platformName(s.platform)} ↗
            </a>
          )}
        </div>
      </div>
      {detail.error && <ErrorNotice error={detail.error} onRetry={() => void refresh()} />}

      <div className="lot-top">
        <div className="lot-gallery">
          <Gallery photos={photos} lotKey={s.lot_key} title={title} thumbs={demo} />
        </div>
        <div className="lot-side">
          <div className="lot-price card">
            <div className="price-main">
              <span className="muted small">{headline.label}</span>
              <strong className="price-big">{headline.amount}</strong>
            </div>
            <dl className="facts">
              <Fact label="Buy now">{usd(s.buy_now_usd)}</Fact>
              <Fact label="Auction">
                {s.auction_at ? (
                  <>
                    {dateTime(s.auction_at)}
                    {s.auction_at > now && (
                      <span className="countdown"> · in {countdown(s.auction_at, now)}</span>
                    )}
                    {s.auction_at <= now && s.outcome === 'open' && (
                      <span className="muted"> · sale time passed, waiting for the result</span>
                    )}
                  </>
                ) : (
                  'Not scheduled'
                )}
              </Fact>
              <Fact label="Result">
                {s.outcome === 'open' ? 'Not sold yet' : SALE_OUTCOME_LABEL[s.outcome]}
              </Fact>
              <Fact label="Location">{s.location}</Fact>
              <Fact label="Observed">
                {d.observations} time{d.observations === 1 ? '' : 's'} · last{' '}
                {relative(s.last_observed_at, now)}
              </Fact>
            </dl>
          </div>
          <div className="card">
            <h3 className="card-title">Watch</h3>
            <WatchPanel
              key={d.watch_id ?? 'none'}
              lotNumber={s.lot_number}
              platform={s.platform}
              watchId={d.watch_id}
            />
          </div>
        </div>
      </div>

      <Section title="Vehicle" id="lot-vehicle">
        <dl className="facts facts-grid">
          <Fact label="Year">{num(r['year'])}</Fact>
          <Fact label="Make">{str(r['make'])}</Fact>
          <Fact label="Model">{str(r['model'])}</Fact>
          <Fact label="Type">{str(r['type'])}</Fact>
          <Fact label="Odometer">{num(r['odometer']) !== null ? miles(num(r['odometer'])) : null}</Fact>
          <Fact label="Damage">{str(r['damage'])}</Fact>
          <Fact label="Secondary damage">{str(r['secondary_damage'])}</Fact>
          <Fact label="Run condition">{str(r['run_condition_label']) ?? str(r['run_condition'])}</Fact>
          <Fact label="Keys">{yesNo(r['has_key'])}</Fact>
          <Fact label="Title document">
            {str(doc['name']) ?? '–'}
            {str(doc['brand']) && <span className="muted"> · brand {str(doc['brand'])}</span>}
          </Fact>
          <Fact label="Export">
            {s.export_block
              ? s.export_block.text
              : doc['export'] === true
                ? 'Exportable, as the service marks this title document'
                : 'Not stated by the service'}
          </Fact>
          <Fact label="Seller">{sellerText(obj(r['seller']))}</Fact>
          <Fact label="Color">{str(r['color'])}</Fact>
          <Fact label="Body">{str(r['body_style'])}</Fact>
          <Fact label="Engine">{engineText(obj(r['engine']))}</Fact>
          <Fact label="Fuel">{str(r['fuel_type'])}</Fact>
          <Fact label="Transmission">{str(r['transmission'])}</Fact>
          <Fact label="Drive">{str(r['drive_type'])}</Fact>
          <EstimateFacts platform={s.platform} pricing={pricing} />
          <Fact label="Yard">
            {[str(yard['name']) ?? str(loc['display']), str(yard['zip'])].filter(Boolean).join(' · ') ||
              str(loc['facility_id'])}
          </Fact>
          <Fact label="Ships from">{str(loc['ship_from'])}</Fact>
          <Fact label="State (location)">{str(loc['state'])}</Fact>
        </dl>
      </Section>

      {desk.data && (
        <div className="lot-two">
          <Section title="Your costs" id="lot-costs">
            <Costs
              key={`${s.lot_key}-${d.watch_id ?? 'none'}-${watches.data ? 'rules' : 'no-rules'}`}
              lot={s}
              data={desk.data}
              watch={deskWatch ?? watches.data?.find((w) => w.id === d.watch_id) ?? null}
              onWatchSaved={setDeskWatch}
              onPrices={reloadDesk}
            />
          </Section>
          <Section title="Notes and tags" id="lot-notes">
            <NotesAndTags
              key={s.lot_key}
              lotKey={s.lot_key}
              data={desk.data}
              onSaved={() => void desk.run({ lot_key: s.lot_key })}
            />
          </Section>
        </div>
      )}
      {desk.error && <ErrorNotice error={desk.error} onRetry={() => void desk.run({ lot_key: s.lot_key })} />}

      <Section title="Timeline" id="lot-timeline">
        <Timeline timeline={d.timeline} bids={d.bids} />
      </Section>

      <Section title="Sale history" id="lot-history">
        {info.data ? (
          <VinAttempts key={s.lot_key} lotKey={s.lot_key} auto={demo} />
        ) : (
          <p className="muted small">Loading…</p>
        )}
      </Section>

      <Section title="Shipping to port" id="lot-shipping">
        <Shipping
          lotNumber={s.lot_number}
          vin={s.vin}
          lotKey={s.lot_key}
          kept={desk.data?.shipping}
          onPrices={() => void desk.run({ lot_key: s.lot_key })}
        />
      </Section>

      <Section title="Comparable sales" id="lot-comps">
        {desk.data ? (
          <MarketComps
            key={s.lot_key}
            lotKey={s.lot_key}
            data={desk.data}
            demo={demo}
            onFetched={reloadDesk}
          />
        ) : (
          <p className="muted small">Loading…</p>
        )}
      </Section>

      <Section title="Related lots" id="lot-related">
        {info.data ? (
          <RelatedLots id={historyId} auto={demo} photos={demo} />
        ) : (
          <p className="muted small">Loading…</p>
        )}
      </Section>

      <Section title="All fields" id="lot-raw">
        <p className="muted small">
          The record exactly as the service sent it, including fields Lotwatch does not show above.
        </p>
        <JsonViewer value={d.raw} label="Raw record" openDepth={1} />
      </Section>
    </div>
  );
}
