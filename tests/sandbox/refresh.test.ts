import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Market, type MarketEvent } from '../../src/sandbox/market';
import { START, startHarness, type Harness } from './harness';

type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const MIN = 60_000;
const HOUR = 60 * MIN;
const LOTS = 1500;

// The service shows each lot as of its last refresh (states and prices within 15 min, live bids within 15 s);
// the market's events are the ground truth, each with the time the service first shows it.
describe('the refresh lag', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ lots: LOTS, speed: 0, refresh: 'real', shape: 'spec' });
  });
  afterAll(() => h.close());

  const rec = async (lotNumber: string): Promise<Rec> =>
    (await h.json(`/vehicles/${lotNumber}`)).body['data'] as Rec;
  const to = (t: number): void => h.sb.advance(t - h.sb.marketNow());

  it('a sale is in the ground truth at once and in the service only from its visible time, at most 15 min later', async () => {
    to(START + 6 * HOUR);
    const m = h.sb.market;
    const ends = m.events.filter((e) => e.kind === 'state' && e.data['lot_sub_status'] === 'Ended');
    expect(ends.length).toBeGreaterThan(20);
    for (const e of ends) {
      expect(e.visible_t).toBeGreaterThanOrEqual(e.t);
      expect(e.visible_t - e.t).toBeLessThanOrEqual(15 * MIN);
    }
    // Some lags are long, not all zero: the lag is drawn per lot.
    expect(ends.some((e) => e.visible_t - e.t > 2 * MIN)).toBe(true);
    // A sale still to come whose lag is at least a minute: before its visible time the service says Open or Live.
    const soon = future(m, 12 * HOUR).find(
      (e) => e.kind === 'state' && e.data['lot_sub_status'] === 'Ended' && e.visible_t - e.t >= MIN,
    )!;
    to(soon.t);
    expect(m.findLot(soon.lot_number)!.subStatus).toBe('Ended');
    expect((await rec(soon.lot_number))['auction']['lot_sub_status']).not.toBe('Ended');
    to(soon.visible_t - 1000);
    expect((await rec(soon.lot_number))['auction']['lot_sub_status']).not.toBe('Ended');
    to(soon.visible_t);
    const shown = await rec(soon.lot_number);
    expect(shown['auction']['lot_sub_status']).toBe('Ended');
    expect(shown['pricing']['sale_price_usd']).toBe(m.findLot(soon.lot_number)!.salePrice);
    // Lists answer from the same records: an ended search finds it only now.
    const ended = (await h.json(`/vehicles?lot_sub_status=Ended&s=${soon.lot_number}`)).body['data'] as Rec[];
    expect(ended.map((r) => r['lot_number'])).toEqual([soon.lot_number]);
  });

  it('a live bid shows within 15 s, while the live state waits for the lot refresh', async () => {
    const m = h.sb.market;
    const ahead = future(m, 24 * HOUR);
    const liveShown = new Map(
      ahead
        .filter((e) => e.kind === 'state' && e.data['lot_sub_status'] === 'Live')
        .map((e) => [e.lot_number, e]),
    );
    // A bid on the block that the service shows before it shows the lot as live.
    const bid = ahead.find((e) => {
      const live = liveShown.get(e.lot_number);
      return (
        e.kind === 'bid' &&
        live !== undefined &&
        e.t > live.t &&
        e.visible_t < live.visible_t &&
        e.visible_t - e.t >= 2000
      );
    })!;
    expect(bid).toBeDefined();
    expect(bid.visible_t - bid.t).toBeLessThanOrEqual(15_000);
    to(bid.visible_t - 1000);
    expect((await rec(bid.lot_number))['pricing']['current_bid_usd']).toBe(bid.data['from']);
    to(bid.visible_t);
    const r = await rec(bid.lot_number);
    expect(r['pricing']['current_bid_usd']).toBe(bid.data['to']);
    expect(m.findLot(bid.lot_number)!.subStatus).toBe('Live');
    expect(r['auction']['lot_sub_status']).toBe('Open');
  });

  it('a new lot is not listed before its first refresh', async () => {
    const m = h.sb.market;
    const before = m.events.length;
    let arrival: MarketEvent | undefined;
    for (let t = h.sb.marketNow(), end = t + 2 * 24 * HOUR; !arrival && t < end; t += 10 * MIN) {
      to(t);
      arrival = m.events.slice(before).find((e) => e.kind === 'new_lot' && e.visible_t > h.sb.marketNow());
    }
    if (!arrival) throw new Error('no new lot shown after it arrived');
    expect((await h.json(`/vehicles/${arrival.lot_number}`)).status).toBe(404);
    to(arrival.visible_t);
    expect((await h.json(`/vehicles/${arrival.lot_number}`)).status).toBe(200);
  });

  it("'instant' shows every change at once: the visible time is the event's time", () => {
    const m = new Market({ seed: 5, lots: 800, startTime: START, refresh: 'instant' });
    m.advanceTo(START + 24 * HOUR);
    expect(m.service).toBe(m);
    expect(m.events.length).toBeGreaterThan(100);
    expect(m.events.every((e) => e.visible_t === e.t)).toBe(true);
  });

  it('the lag does not change the ground truth, and is the same for the same seed', () => {
    const plain = new Market({ seed: 9, lots: 800, startTime: START, refresh: 'instant' });
    const lagged = new Market({ seed: 9, lots: 800, startTime: START, refresh: 'real' });
    const again = new Market({ seed: 9, lots: 800, startTime: START, refresh: 'real' });
    for (const m of [plain, lagged, again]) m.advanceTo(START + 36 * HOUR);
    const truth = (m: Market): unknown[] => m.events.map(({ visible_t: _v, ...e }) => e);
    expect(truth(lagged)).toEqual(truth(plain));
    expect(lagged.events).toEqual(again.events);
    expect(lagged.events.some((e) => e.visible_t > e.t)).toBe(true);
  });

  it('refuses a malformed refresh period', async () => {
    await expect(startHarness({ refresh: { periodMs: [0, 60_000] } })).rejects.toThrow(RangeError);
  });
});

/** The ground-truth events after the market's present up to `ms` later, from a copy of the same market run ahead. */
function future(m: Market, ms: number): MarketEvent[] {
  const copy = new Market({ seed: m.seed, lots: LOTS, startTime: m.startTime, refresh: 'real' });
  copy.advanceTo(m.now + ms);
  return copy.events.filter((e) => e.t > m.now);
}
