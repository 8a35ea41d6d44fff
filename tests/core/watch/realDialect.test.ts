import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { makeCore } from '../../helpers/core';
import { realFinishedRecord, realOpenRecord } from '../api/fixtures/realRecords';

// A watched lot answered in the real service's dialect (docs/service-contract.md), from a real HTTP server on this
// machine: the lot is open, then finished with its sale result. Lotwatch must raise exactly one alert that says the
// outcome and the price, and store a lot page with the fields a buyer decides on.

type Rec = Record<string, unknown>;
const servers: Server[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** A one-lot service: GET {base}/vehicles/{lot} answers `current()` in the real envelope; counts requests. */
async function realService(current: () => Rec): Promise<{ baseUrl: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    const ok = req.url?.startsWith('/api/v1/vehicle-auction/vehicles/45139005');
    res.writeHead(ok ? 200 : 404, {
      'content-type': 'application/json',
      'x-subscription-limit': '30000',
      'x-subscription-remaining': '29000',
    });
    res.end(JSON.stringify(ok ? { ok: true, data: current(), meta: null } : { message: 'Not found' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/api/v1/vehicle-auction`, hits: () => hits };
}

async function watchThroughSale(finished: Rec) {
  let record: Rec = realOpenRecord();
  const svc = await realService(() => record);
  const shown: { title: string; body: string }[] = [];
  const h = makeCore({
    demoService: async () => ({ baseUrl: svc.baseUrl, apiKey: 'k', ratePerSecond: 1e9 }),
    demoExamples: false,
    autoStart: false,
    notifier: { notify: (n) => void shown.push(n) },
    tzOffsetMinutes: () => 0,
  });
  cleanups.push(h.cleanup);
  await h.core.ready;
  const call = async <T = Rec>(m: string, i?: unknown): Promise<T> => {
    const r = await h.core.invoke(m, i);
    if (!r.ok) throw new Error(`${m}: ${r.error.message}`);
    return r.value as T;
  };
  const w = await call<{ id: number }>('watchlist.add', { target: '45139005' });
  await call('watchlist.checkNow', { id: w.id });
  record = finished;
  h.clock.advance(60 * 60_000);
  await call('watchlist.checkNow', { id: w.id });
  h.clock.advance(60 * 60_000);
  await call('watchlist.checkNow', { id: w.id });
  const inbox = await call<{ alerts: { kind: string; title: string; body: string }[] }>('alerts.list');
  const lot = await call<{ summary: Rec; record: Rec; timeline: { kind: string; outcome: string | null }[] }>(
    'lots.get',
    {
      lot_key: 'iaai:45139005',
    },
  );
  return { inbox: inbox.alerts, lot, shown };
}

describe('the real dialect, end to end', () => {
  it('a finished + Sold record gives ONE sale-result alert with the outcome and the price', async () => {
    const { inbox, lot, shown } = await watchThroughSale(realFinishedRecord());
    const results = inbox.filter((a) => a.kind === 'sale_result');
    expect(results).toHaveLength(1);
    expect(results[0]?.title).toBe('2018 AUDI S5 3.0T PREMIUM PLUS · Sold for $9,250');
    // The ending is one event: no separate "state: finished" alert beside it.
    expect(inbox.filter((a) => a.kind === 'status_changed')).toEqual([]);
    expect(shown.map((n) => n.title)).toEqual(['2018 AUDI S5 3.0T PREMIUM PLUS · Sold for $9,250']);
    expect(lot.summary).toMatchObject({ outcome: 'sold', sale_price_usd: 9250, last_sold_status: 'Sold' });
    expect(lot.timeline.filter((c) => c.kind === 'sale_result')).toEqual([
      expect.objectContaining({ outcome: 'sold' }),
    ]);
  });

  it('keeps what a buyer decides on in the stored lot: damage, colour, fuel, drive, title, run condition, keys, seller', async () => {
    const { lot } = await watchThroughSale(realFinishedRecord());
    expect(lot.record).toMatchObject({
      damage: 'Front end',
      secondary_damage: 'Left Front',
      color: 'Gray',
      fuel_type: 'Gasoline',
      drive_type: 'All Wheel Drive',
      transmission: 'Automatic',
      odometer: 139084,
      run_condition: 'RUNS AND DRIVES',
      run_condition_label: 'Runs and drives',
      has_key: true,
      title_document: { name: 'SALVAGE - REPAIRABLE-COLLISION', group: 'approved' },
      seller: { name: 'Mapfre Usa', type: 'insurance' },
      engine: { raw: '3.0L V-6 DI, DOHC, VVT, turbo, 349HP', size_l: 3, hp: 349 },
      location: { display: 'Boston - Shirley (MA)', state: 'MA', facility_id: '420', ship_from: 'Norfolk' },
      yard: { id: '420', zip: '01464' },
    });
  });

  it('sold on approval is its own outcome, never announced as sold; an unsold end carries no price', async () => {
    const approval = await watchThroughSale(
      realFinishedRecord({ last_sold_status: 'Sold on Approval', last_sold_price_usd: 6600 }),
    );
    const a = approval.inbox.filter((x) => x.kind === 'sale_result');
    expect(a.map((x) => x.title)).toEqual(['2018 AUDI S5 3.0T PREMIUM PLUS · Sold on approval at $6,600']);
    expect(approval.lot.summary).toMatchObject({ outcome: 'sold_on_approval' });

    const unsold = await watchThroughSale(
      realFinishedRecord({ last_sold_status: null, last_sold_price_usd: 0, current_bid_usd: 4100 }),
    );
    const u = unsold.inbox.filter((x) => x.kind === 'sale_result');
    expect(u.map((x) => x.title)).toEqual(['2018 AUDI S5 3.0T PREMIUM PLUS · Auction ended, not sold']);
    expect(u[0]?.body).not.toMatch(/\$|Sold/);
    expect(unsold.lot.summary).toMatchObject({ outcome: 'ended_unsold', sale_price_usd: null });
  });
});
