import ICAL from 'ical.js';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippingPrices } from '../../../src/sandbox/geo';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { portsToAsk, SHIP_PORTS } from '../../../src/shared/shipping';
import { coresPerTest, type TestCore } from '../../helpers/core';
import { FakeClock } from '../../helpers/fakeClock';
import { startSandbox, type Sandbox } from '../../helpers/sandbox';

// Shipping in the landed cost through core, over a real SQLite file and the sandbox over HTTP: one "Get prices" is
// one request for every port, the cheapest port is found, a port without a price is named; and a max bid solved
// without a shipping price says "excluding shipping" in the watchlist (the plan's rows), the .ics, the CSV and the
// alert it raises.
const START = Date.UTC(2026, 5, 1, 12, 0, 0);
const MIN = 60_000;
let sb: Sandbox;
let clock: FakeClock;

beforeAll(async () => {
  clock = new FakeClock(START);
  sb = await startSandbox({
    seed: 21,
    lots: 3000,
    startTime: START,
    speed: 1,
    now: () => clock.now(),
    ratePerSecond: 0,
    refresh: 'instant',
  });
});
afterAll(async () => sb.dispose());
const startCore = coresPerTest();
const setup = () => startCore({ sandbox: sb, clock });

type Desk = {
  port: string | null;
  shipping_usd: number | null;
  landed_cost_usd: number | null;
  landed_excludes: { part: string; port: string | null; reason: string }[];
  max_bid_usd: number | null;
  max_bid_excludes: string[];
};

/** An open Copart lot with a bid, at a yard the service prices shipping from, stored in the core by a search. */
async function storedLot(value: TestCore['value']) {
  const m = sb.market;
  const lot = m.sorted.find(
    (l) =>
      l.platform === 'copart' &&
      l.subStatus === 'Open' &&
      l.currentBid > 500 &&
      l.auctionAt > clock.now() + 60 * MIN &&
      l.facility.hasShipping,
  )!;
  await value('vehicles.get', { id: lot.lotNumber });
  return { lot, key: `copart:${lot.lotNumber}` };
}

describe('shipping in the landed cost', () => {
  it('one Get prices is one request for every port: the cheapest port is used, a port without a price is named', async () => {
    const { value } = await setup();
    const desk = { ...DEFAULT_SETTINGS.desk, port: 'Baltimore', port_choice: 'cheapest' as const };
    await value('settings.update', { desk });
    const { lot, key } = await storedLot(value);
    const before = (await value<{ rows: { endpoint: string }[] }>('requests.list')).rows.length;
    const answer = await value<{ prices: { port: string; price: number }[]; unpriced: string[] }>(
      'shipping.get',
      { endpoint: 'vehicle', id: lot.lotNumber, ports: portsToAsk(desk), lot_key: key },
    );
    const log = (await value<{ rows: { endpoint: string }[] }>('requests.list')).rows;
    expect(log.length - before).toBe(1);
    expect(log[0]!.endpoint).toBe('/vehicles/{slugVin}/shipping');
    // The service prices every documented port from this yard; Baltimore, a port it does not know, is named.
    expect(answer.prices.map((p) => p.port).sort()).toEqual([...SHIP_PORTS].sort());
    expect(answer.unpriced).toEqual(['Baltimore']);

    const truth = shippingPrices(lot.facility).filter((p) => p.port !== 'Moto_ATV');
    const cheapest = [...truth].sort((a, b) => a.price - b.price || a.port.localeCompare(b.port))[0]!;
    const cheap = (await value<{ desk: Desk; shipping: { port: string; price_usd: number | null }[] }>(
      'desk.lot',
      { lot_key: key },
    ))!;
    expect(cheap.desk).toMatchObject({
      port: cheapest.port,
      shipping_usd: cheapest.price,
      landed_excludes: [],
    });
    // Kept as asked and not priced, so the buyer's own port is named offline, never dropped.
    expect(cheap.shipping.find((p) => p.port === 'Baltimore')).toMatchObject({ price_usd: null });

    await value('settings.update', { desk: { ...desk, port_choice: 'port' } });
    const own = await value<{ desk: Desk }>('desk.lot', { lot_key: key });
    expect(own.desk).toMatchObject({
      port: 'Baltimore',
      shipping_usd: null,
      landed_excludes: [{ part: 'shipping', port: 'Baltimore', reason: 'no_price' }],
    });
    // Reading the kept prices again spent nothing.
    expect((await value<{ rows: unknown[] }>('requests.list')).rows.length - before).toBe(1);
  });

  it('uses the ocean freight and duty of the chosen port’s destination, and names a port without one', async () => {
    const { value } = await setup();
    const nigeria = { port: 'Savannah', country: 'Nigeria', ocean_freight_usd: 1200, duty_percent: 20 };
    const desk = { ...DEFAULT_SETTINGS.desk, port: 'Savannah', destinations: [nigeria] };
    await value('settings.update', { desk });
    const { lot, key } = await storedLot(value);
    await value('shipping.get', {
      endpoint: 'vehicle',
      id: lot.lotNumber,
      ports: portsToAsk(desk),
      lot_key: key,
    });
    const withDest = (await value<{ desk: Desk }>('desk.lot', { lot_key: key })).desk;
    expect(withDest.landed_excludes).toEqual([]);
    await value('settings.update', { desk: { ...desk, port: 'Houston' } });
    const noDest = (await value<{ desk: Desk }>('desk.lot', { lot_key: key })).desk;
    expect(noDest.landed_excludes).toEqual([
      { part: 'destination', port: 'Houston', reason: 'no_destination' },
    ]);
    // Savannah's landed cost carries the freight and 20 % of the bid on top of the shipping difference.
    const savannah = shippingPrices(lot.facility).find((p) => p.port === 'Savannah')!.price;
    const houston = shippingPrices(lot.facility).find((p) => p.port === 'Houston')!.price;
    expect(withDest.landed_cost_usd! - noDest.landed_cost_usd!).toBeCloseTo(
      savannah - houston + 1200 + lot.currentBid * 0.2,
      2,
    );
  });

  it('labels a max bid without a shipping price "excluding shipping" in the watchlist, the .ics, the CSV and its alert', async () => {
    const { value } = await setup();
    const { lot, key } = await storedLot(value);
    const steps = (lot as unknown as { steps: { t: number; k: number; v: number }[] }).steps;
    // The first bid step above the current bid (Step.Bid is 0 in the sandbox's plan).
    const raise = steps.find((s) => s.k === 0 && s.t > clock.now() && s.v > lot.currentBid)!;
    const max = lot.currentBid;
    const w = await value<{ id: number }>('watchlist.add', {
      target: lot.lotNumber,
      rules: { max_bid_usd: max, target_landed_usd: max + 900, max_bid_excludes: ['shipping'] },
    });

    const list = await value<{ lot_key: string | null; desk: Desk | null }[]>('watchlist.list');
    const d = list.find((x) => x.lot_key === key)!.desk!;
    expect(d.max_bid_excludes).toEqual(['shipping']);
    expect(d.landed_excludes).toEqual([{ part: 'shipping', port: 'Savannah', reason: 'not_fetched' }]);

    const cal = await value<{ ics: string }>('plan.calendar');
    const event = new ICAL.Component(ICAL.parse(cal.ics))
      .getAllSubcomponents('vevent')
      .map((v) => new ICAL.Event(v))
      .find((e) => e.uid === `${key}@lotwatch`)!;
    expect(event.description).toContain(`Max bid: $${max.toLocaleString('en-US')} excluding shipping`);
    expect(event.description).toMatch(/Landed cost: \$[\d,]+ excluding shipping/);

    const csv = await value<{ csv: string }>('library.export', { lot_keys: [key] });
    const [row] = parse(csv.csv, { columns: true }) as Record<string, string>[];
    expect(row).toMatchObject({
      max_bid_usd: String(max),
      max_bid_excludes: 'shipping',
      landed_cost_excludes: 'shipping',
    });
    expect(Number(row!['landed_cost_usd'])).toBe(d.landed_cost_usd);

    clock.advanceTo(raise.t + MIN);
    await value('watchlist.checkNow', { id: w.id });
    const alerts = (await value<{ alerts: { title: string; body: string }[] }>('alerts.list')).alerts;
    // The raise may come with the sale result (the headline then says "seen only with the result").
    const past = alerts.find((a) => a.title.includes('is past your max bid'))!;
    expect(past.body).toContain(`Your max bid $${max.toLocaleString('en-US')} excluding shipping · `);
  });
});
