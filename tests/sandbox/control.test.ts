import { afterEach, describe, expect, it } from 'vitest';
import { SteppedClock } from '../../src/sandbox/steppedClock';
import { START, startHarness, type Harness } from './harness';

// The test-only control routes that move the market when a test says: a sale, a relist, and a clock step that runs
// the caller's due work (a stepped Demo). The real shape, as Demo mode answers.

const MIN = 60_000;
const HOUR = 60 * MIN;

interface Rec {
  lot_number: string;
  vin: string;
  title: string;
  auction: { auction_at: string; state: string };
  pricing: { current_bid_usd: number | null; sale_price_usd?: number | null };
}

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

async function harness(opts: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const h = await startHarness({ lots: 500, speed: 0, refresh: 'real', ...opts });
  harnesses.push(h);
  return h;
}

const post = (h: Harness, route: string, body: unknown): Promise<Response> =>
  fetch(`${h.url}/__sandbox/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** An open lot whose sale is more than an hour away, as the service lists it. */
async function openLot(h: Harness): Promise<Rec> {
  const page = (await h.json('/vehicles?per_page=20')).body['data'] as Rec[];
  const lot = page.find((r) => r.auction.state === 'open' && Date.parse(r.auction.auction_at) > START + HOUR);
  if (!lot) throw new Error('no open lot an hour away');
  return lot;
}

const record = async (h: Harness, lotNumber: string): Promise<Rec> =>
  (await h.json(`/vehicles/${lotNumber}`)).body['data'] as Rec;

describe('POST /__sandbox/sell', () => {
  it('ends an open lot now at the price, shown by the service at once (no refresh lag), with its events', async () => {
    const h = await harness();
    const lot = await openLot(h);
    const price = (lot.pricing.current_bid_usd ?? 0) + 1_000;
    const res = await post(h, 'sell', { lot_number: lot.lot_number, price });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: Record<string, unknown> }).data).toMatchObject({
      state: 'sold',
      sale_price_usd: price,
      current_bid_usd: price,
    });

    const now = await record(h, lot.lot_number);
    expect(now.auction.state).not.toBe('open');
    expect(now.pricing.current_bid_usd).toBe(price);
    const evs = (await (await fetch(`${h.url}/__sandbox/events`)).json()) as {
      data: {
        kind: string;
        lot_number: string;
        t: number;
        visible_t: number;
        data: Record<string, unknown>;
      }[];
    };
    const mine = evs.data.filter((e) => e.lot_number === lot.lot_number);
    expect(mine.map((e) => e.kind)).toEqual(['state', 'bid', 'state', 'sale']);
    expect(mine.every((e) => e.t === START && e.visible_t === START)).toBe(true);
    expect(mine[3]?.data).toMatchObject({ price, status: 'Sold' });
  });

  it('ends a lot unsold with its bid as it is, and no planned step of it runs later', async () => {
    const h = await harness();
    const lot = await openLot(h);
    expect((await post(h, 'sell', { lot_number: lot.lot_number, outcome: 'unsold' })).status).toBe(200);
    const before = h.sb.market.events.length;
    h.sb.advance(30 * 86_400_000);
    expect(h.sb.market.events.slice(before).some((e) => e.lot_number === lot.lot_number)).toBe(false);
    expect(h.sb.market.findLot(lot.lot_number)).toMatchObject({
      state: 'unsold',
      salePrice: null,
      currentBid: lot.pricing.current_bid_usd ?? 0,
    });
  });

  it('refuses an unknown lot, an ended lot, a sale without a price, a price under the bid and an unknown outcome', async () => {
    const h = await harness();
    const lot = await openLot(h);
    const refused = async (body: unknown, field: string) => {
      const r = await post(h, 'sell', body);
      expect(r.status).toBe(422);
      expect(((await r.json()) as { errors: Record<string, string[]> }).errors[field]).toBeDefined();
    };
    await refused({ lot_number: '1', price: 100 }, 'lot_number');
    await refused({ lot_number: lot.lot_number }, 'lot_number');
    await refused({ lot_number: lot.lot_number, price: 100, outcome: 'given away' }, 'outcome');
    await refused({ lot_number: lot.lot_number, price: -5 }, 'price');
    const bid = h.sb.market.findLot(lot.lot_number)?.currentBid ?? 0;
    if (bid > 0) await refused({ lot_number: lot.lot_number, price: bid - 1 }, 'lot_number');
    expect((await post(h, 'sell', { lot_number: lot.lot_number, price: bid + 25 })).status).toBe(200);
    await refused({ lot_number: lot.lot_number, price: bid + 50 }, 'lot_number');
  });
});

describe('POST /__sandbox/relist', () => {
  it('lists an unsold lot again now with the sale date asked, shown by the service at once', async () => {
    const h = await harness();
    const lot = await openLot(h);
    await post(h, 'sell', { lot_number: lot.lot_number, outcome: 'unsold' });
    const at = START + 2 * HOUR;
    const res = await post(h, 'relist', {
      lot_number: lot.lot_number,
      auction_at: new Date(at).toISOString(),
    });
    expect(res.status).toBe(200);
    const data = (
      (await res.json()) as { data: { lot_number: string; previous_lot_number: string; vin: string } }
    ).data;
    expect(data.previous_lot_number).toBe(lot.lot_number);
    expect(data.lot_number).not.toBe(lot.lot_number);
    expect(data.vin).toBe(lot.vin);

    const fresh = await record(h, data.lot_number);
    expect(Date.parse(fresh.auction.auction_at)).toBe(at);
    expect(fresh.auction.state).toBe('open');
    const evs = (await (await fetch(`${h.url}/__sandbox/events?kind=relist`)).json()) as {
      data: { lot_number: string; visible_t: number; data: Record<string, unknown> }[];
    };
    expect(evs.data).toEqual([
      expect.objectContaining({
        lot_number: data.lot_number,
        visible_t: START,
        data: expect.objectContaining({ previous_lot_number: lot.lot_number }),
      }),
    ]);
  });

  it('refuses an open lot, a lot sold outright, a second relist and a date already past', async () => {
    const h = await harness();
    const page = (await h.json('/vehicles?per_page=20')).body['data'] as Rec[];
    const [a, b, c] = page.filter(
      (r) => r.auction.state === 'open' && Date.parse(r.auction.auction_at) > START + HOUR,
    );
    if (!a || !b || !c) throw new Error('three open lots expected');
    const refused = async (body: unknown) => expect((await post(h, 'relist', body)).status).toBe(422);
    await refused({ lot_number: a.lot_number });
    await post(h, 'sell', { lot_number: b.lot_number, price: (b.pricing.current_bid_usd ?? 0) + 100 });
    await refused({ lot_number: b.lot_number });
    await post(h, 'sell', { lot_number: c.lot_number, price: null, outcome: 'unsold' });
    await refused({ lot_number: c.lot_number, auction_at: new Date(START - HOUR).toISOString() });
    expect((await post(h, 'relist', { lot_number: c.lot_number })).status).toBe(200);
    await refused({ lot_number: c.lot_number });
  });
});

describe('POST /__sandbox/clock on a stepped market', () => {
  it('steps the caller’s clock, runs its timers due in time order with the work settled between, and the market follows', async () => {
    const clock = new SteppedClock(START);
    const ran: string[] = [];
    let inFlight: Promise<void> = Promise.resolve();
    const h = await harness({
      marketNow: () => clock.now(),
      step: async (ms) => void (await clock.step(ms, () => inFlight)),
    });
    // A timer whose work takes a while: the next timer must not fire before it ends.
    clock.setTimeout(() => {
      ran.push(`slow@${clock.now() - START}`);
      inFlight = new Promise((r) => setImmediate(r)).then(() => void ran.push('slow done'));
    }, 5 * MIN);
    clock.setTimeout(() => ran.push(`late@${clock.now() - START}`), 90 * MIN);
    clock.setTimeout(() => ran.push(`first@${clock.now() - START}`), MIN);

    const res = await post(h, 'clock', { advance_ms: HOUR });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { market_now_ms: number } }).data.market_now_ms).toBe(START + HOUR);
    expect(ran).toEqual([`first@${MIN}`, `slow@${5 * MIN}`, 'slow done']);
    expect(clock.now()).toBe(START + HOUR);
    expect(h.sb.market.now).toBe(START + HOUR);
    expect(clock.pending).toBe(1);
  });

  it('answers the stepper’s refusal, and the routes are 404 without test control', async () => {
    const h = await harness({
      marketNow: () => START,
      step: () => Promise.reject(Object.assign(new Error('Demo mode is off.'), { statusCode: 409 })),
    });
    const refused = await post(h, 'clock', { advance_ms: MIN });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toBe('Demo mode is off.');
    expect((await post(h, 'clock', { advance_ms: -1 })).status).toBe(422);

    const closed = await harness({ testControl: false });
    for (const route of ['clock', 'sell', 'relist', 'reschedule'])
      expect((await post(closed, route, { lot_number: '1' })).status).toBe(404);
  });
});
