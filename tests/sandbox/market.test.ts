import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index';
import { Market, type MarketEvent } from '../../src/sandbox/market';
import { START, startHarness } from './harness';

type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const HOUR = 3600_000;

describe('determinism', () => {
  it('same seed, same start, same answers; another seed differs', async () => {
    const a = await startHarness({ seed: 11 });
    const b = await startHarness({ seed: 11 });
    const c = await startHarness({ seed: 12 });
    try {
      for (const path of [
        '/vehicles?per_page=20',
        '/vehicles?make=HONDA&lot_sub_status=Ended',
        '/locations?state=CA',
        '/vehicles/filters',
      ]) {
        expect((await a.json(path)).body, path).toEqual((await b.json(path)).body);
      }
      for (const h of [a, b]) h.clock.t += 5 * HOUR;
      expect((await a.json('/vehicles?per_page=20')).body).toEqual(
        (await b.json('/vehicles?per_page=20')).body,
      );
      expect(a.sb.market.events).toEqual(b.sb.market.events);
      expect((await c.json('/vehicles?per_page=5')).body).not.toEqual(
        (await a.json('/vehicles?per_page=5')).body,
      );
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
  it('events do not depend on how the clock is stepped', () => {
    const one = new Market({ seed: 3, lots: 1500, startTime: START });
    const many = new Market({ seed: 3, lots: 1500, startTime: START });
    one.advanceTo(START + 48 * HOUR);
    for (let t = START; t <= START + 48 * HOUR; t += 7 * 60_000 + 13) many.advanceTo(t);
    many.advanceTo(START + 48 * HOUR);
    expect(many.events).toEqual(one.events);
    expect(many.sorted.map((l) => l.id)).toEqual(one.sorted.map((l) => l.id));
  });
});

describe('the market clock', () => {
  it('at 1x: events happen when they should, in order, never ahead of market time', async () => {
    const h = await startHarness({ speed: 1 });
    const hs = await startHarness({ speed: 1, shape: 'spec' });
    try {
      const m = h.sb.market;
      const first = m.sorted.find((l) => l.subStatus === 'Open')!;
      expect(first.auctionAt - START).toBeLessThanOrEqual(15 * 60_000); // auctions start within minutes of a fresh start
      const { liveAt, endAt } = m.timeline(first.lotNumber)!;
      expect(liveAt).toBeGreaterThanOrEqual(first.auctionAt); // its turn on the block comes after the sale time
      const both = async (t: number): Promise<[Rec, Rec]> => {
        h.clock.t = hs.clock.t = t;
        const [real, spec] = await Promise.all([
          h.json(`/vehicles/${first.lotNumber}`),
          hs.json(`/vehicles/${first.lotNumber}`),
        ]);
        return [real.body['data'] as Rec, spec.body['data'] as Rec];
      };
      let [rec, specRec] = await both(liveAt - 1000);
      expect(rec['auction']['state']).toBe('open');
      expect(specRec['auction']['state']).toBe('open');
      // Live: the spec shape says so; the real shape still reads "open" with no result.
      [rec, specRec] = await both(liveAt);
      expect(specRec['auction']).toMatchObject({ state: 'live', lot_sub_status: 'Live' });
      expect(rec['auction']).toMatchObject({ state: 'open', last_sold_status: null, last_sold_day: null });
      expect(rec['pricing']['last_sold_price_usd']).toBe(0);
      [rec, specRec] = await both(endAt);
      expect(specRec['auction']['lot_sub_status']).toBe('Ended');
      expect(['sold', 'approval', 'unsold']).toContain(specRec['auction']['state']);
      expect(specRec['pricing']['sale_price_usd'] === null).toBe(specRec['auction']['state'] === 'unsold');
      const word = { sold: 'Sold', approval: 'Sold on Approval', unsold: null }[
        specRec['auction']['state'] as 'sold'
      ];
      expect(rec['auction']).toMatchObject({ state: 'finished', last_sold_status: word });
      expect(rec['pricing']['last_sold_price_usd']).toBe(specRec['pricing']['sale_price_usd'] ?? 0);
      const ev = (await (await fetch(`${h.url}/__sandbox/events?since=0`)).json()) as {
        data: (MarketEvent & { at: string })[];
        meta: Rec;
      };
      expect(ev.data.length).toBeGreaterThan(0);
      const times = ev.data.map((e) => e.t);
      expect([...times].sort((x, y) => x - y)).toEqual(times);
      expect(Math.max(...times)).toBeLessThanOrEqual(h.clock.t);
      const mine = ev.data.filter((e) => e.lot_number === first.lotNumber).map((e) => e.kind);
      expect(mine).toContain('state');
      expect(ev.data.find((e) => e.lot_number === first.lotNumber && e.kind === 'state')!.t).toBe(liveAt);
      // The live transition is invisible in the real shape, the end is not: the ground truth says which is which.
      const states = ev.data.filter((e) => e.lot_number === first.lotNumber && e.kind === 'state');
      expect(states.map((e) => [e.data['lot_sub_status'], e.data['visible_in_real_shape']])).toEqual([
        ['Live', false],
        ['Ended', true],
      ]);
      const next = (await (
        await fetch(`${h.url}/__sandbox/events?since=${ev.meta['next_since']}`)
      ).json()) as { data: unknown[] };
      expect(next.data).toEqual([]);
    } finally {
      await Promise.all([h.close(), hs.close()]);
    }
  });
  it('at 3600x: a real second is a market hour; bids rise, lots end, new lots arrive, relists reuse the VIN', async () => {
    const h = await startHarness({ speed: 3600 });
    try {
      h.clock.t = START + 10 * 24 * 1000; // 10 days of market time = 240 real seconds at 3600x
      const clock = (await (await fetch(`${h.url}/__sandbox/clock`)).json()) as { data: Rec };
      expect(clock.data['market_now_ms']).toBe(START + 10 * 24 * HOUR);
      const m = h.sb.market;
      const kinds = new Set(m.events.map((e) => e.kind));
      for (const k of ['new_lot', 'bid', 'state', 'sale', 'relist', 'reschedule'])
        expect(kinds, k).toContain(k);
      for (const e of m.events.filter((x) => x.kind === 'bid'))
        expect((e.data['to'] as number) > (e.data['from'] as number)).toBe(true);
      const relist = m.events.find((e) => e.kind === 'relist')!;
      const lot = m.findLot(relist.lot_number)!;
      expect(lot.relistOf!.lotNumber).toBe(relist.data['previous_lot_number']);
      expect(lot.relistOf!.v.vin).toBe(lot.v.vin);
      expect(lot.lotNumber).not.toBe(lot.relistOf!.lotNumber);
      expect(lot.auctionAt).toBeGreaterThan(relist.t);
      // The relisted lot ended unsold, so the real history (sales only) does not list it; its VIN's sales are there.
      const hist = (await h.json(`/vehicles/${lot.lotNumber}/history`)).body['data'] as Rec;
      expect(hist['vehicle']).toMatchObject({ vin: lot.v.vin, lot_number: lot.lotNumber });
      const sales = m.byVin.get(lot.v.vin)!.filter((l) => l.subStatus === 'Ended' && l.salePrice !== null);
      expect(hist['history']).toHaveLength(sales.length);
      expect(lot.relistOf!.salePrice).toBeNull();
      const arrivals = m.events.filter((e) => e.kind === 'new_lot').length;
      expect(arrivals).toBeGreaterThan(100);
      const { isSorted } = await import('../../src/sandbox/vehicleApi');
      expect(isSorted(m)).toBe(true);
      // Open searches start at firstUpcoming: no open lot may lie before it, after ten days of steps of every kind.
      const from = m.firstUpcoming();
      expect(from).toBeGreaterThan(0);
      expect(m.sorted.slice(0, from).some((l) => l.subStatus === 'Open')).toBe(false);
      expect(
        m.lots.filter((l) => l.subStatus === 'Open').every((l) => l.auctionAt + m.maxStartDelayMs > m.now),
      ).toBe(true);
    } finally {
      await h.close();
    }
  });
  it('POST /__sandbox/clock advances market time', async () => {
    const h = await startHarness({ speed: 0 });
    try {
      const res = await fetch(`${h.url}/__sandbox/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advance_ms: HOUR }),
      });
      expect(((await res.json()) as { data: Rec }).data['market_now_ms']).toBe(START + HOUR);
      expect(h.sb.marketNow()).toBe(START + HOUR);
    } finally {
      await h.close();
    }
  });
});

describe('size', () => {
  // How fast it builds is measured by `npm run bench:sandbox` (bench/sandbox), not asserted here.
  it('builds 20,000 lots over both platforms', () => {
    const sb = createSandbox({ seed: 42, startTime: START, now: () => START });
    expect(sb.market.lots.length).toBe(20_000);
    expect(new Set(sb.market.lots.map((l) => l.platform))).toEqual(new Set(['copart', 'iaai']));
  });
  it('rejects a speed outside 0..3600', () => {
    expect(() => createSandbox({ speed: 5000, lots: 10 })).toThrow(RangeError);
  });
});
