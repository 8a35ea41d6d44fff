import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

// The specification's shape shows lot_sub_status (Open, Live, Ended), the phases a reschedule moves; the real shape
// reads "open" for both Open and Live.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ lots: 500, shape: 'spec' });
});
afterAll(() => h.close());

const post = (body: unknown): Promise<Response> =>
  fetch(`${h.url}/__sandbox/reschedule`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

interface Rec {
  lot_number: string;
  auction: { auction_at: string; lot_sub_status: string; state: string };
}

async function openLot(): Promise<Rec> {
  const page = (await h.json('/vehicles?per_page=20')).body['data'] as Rec[];
  const lot = page.find(
    (r) => r.auction.lot_sub_status === 'Open' && Date.parse(r.auction.auction_at) > h.clock.t + 30 * 60_000,
  );
  if (!lot) throw new Error('no open lot half an hour away');
  return lot;
}

describe('reschedule on demand (test control)', () => {
  it('moves an open lot later, records the event, and the live phase follows the new date', async () => {
    const lot = await openLot();
    const before = Date.parse(lot.auction.auction_at);
    const to = before + 3 * 3_600_000;
    const r = await post({ lot_number: lot.lot_number, auction_at: new Date(to).toISOString() });
    expect(r.status).toBe(200);

    const now = (await h.json(`/vehicles/${lot.lot_number}`)).body['data'] as Rec;
    expect(Date.parse(now.auction.auction_at)).toBe(Math.floor(to / 1000) * 1000);
    const evs = (await (await fetch(`${h.url}/__sandbox/events?kind=reschedule`)).json()) as {
      data: { lot_number: string }[];
    };
    expect(evs.data.some((e) => e.lot_number === lot.lot_number)).toBe(true);

    // At the old date the lot is still open; some minutes after the new one (its turn on the block) it goes live.
    h.clock.t = before + 60_000;
    expect(((await h.json(`/vehicles/${lot.lot_number}`)).body['data'] as Rec).auction.lot_sub_status).toBe(
      'Open',
    );
    const { liveAt, endAt } = h.sb.market.timeline(lot.lot_number)!;
    expect(liveAt).toBeGreaterThanOrEqual(Math.floor(to / 1000) * 1000);
    h.clock.t = liveAt + 1_000;
    expect(((await h.json(`/vehicles/${lot.lot_number}`)).body['data'] as Rec).auction.lot_sub_status).toBe(
      'Live',
    );
    h.clock.t = endAt;
    expect(((await h.json(`/vehicles/${lot.lot_number}`)).body['data'] as Rec).auction.lot_sub_status).toBe(
      'Ended',
    );
  });

  it('refuses an unknown lot, an earlier date and a missing field with a 422 field map', async () => {
    const bad = await post({ lot_number: '1', auction_at: new Date(h.clock.t + 86_400_000).toISOString() });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { errors: Record<string, string[]> }).errors['lot_number']).toBeDefined();
    const lot = await openLot();
    const earlier = await post({ lot_number: lot.lot_number, auction_at: new Date(h.clock.t).toISOString() });
    expect(earlier.status).toBe(422);
    const missing = await post({ auction_at: 'not a date' });
    expect(missing.status).toBe(422);
  });
});
