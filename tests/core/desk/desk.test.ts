import ICAL from 'ical.js';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { landedCost } from '../../../src/shared/fees';
import { feeTableFor } from '../../../src/shared/feeTable';
import { coresPerTest } from '../../helpers/core';
import { sandboxPerFile, type Sandbox } from '../../helpers/sandbox';

// The buyer's desk through core, against the sandbox over HTTP: shipping prices kept with the lot feed its landed
// cost offline, notes and tags are searchable and exported with every field, and the watched sales come out as a
// calendar another library reads back.
const START = Date.UTC(2026, 5, 1, 12, 0, 0);
let sb: Sandbox;
sandboxPerFile(
  { seed: 5, lots: 3000, startTime: START, speed: 0, ratePerSecond: 0 },
  (started) => (sb = started),
);
const startCore = coresPerTest();
const makeCore = () => startCore({ sandbox: sb });

describe("the buyer's desk", () => {
  it('keeps shipping prices with the lot and works the landed cost out offline from them', async () => {
    const { value } = await makeCore();
    const own = [{ id: 'ocean', label: 'Ocean freight', usd: 1150 }];
    await value('settings.update', {
      desk: {
        membership: { copart: 'standard_secured', iaai: 'licensed_standard_volume' },
        port: 'Savannah',
        omit_fees: [],
        custom_fees: [],
        own_lines: own,
      },
    });
    const found = await value<{
      lots: {
        lot_key: string;
        platform: string;
        lot_number: string;
        vin: string | null;
        current_bid_usd: number | null;
      }[];
    }>('vehicles.search', { params: { platform: 'copart', per_page: 5 } });
    const lot = found.lots.find((l) => l.current_bid_usd !== null)!;
    const before = await value<{ desk: { shipping_usd: number | null; landed_cost_usd: number | null } }>(
      'desk.lot',
      { lot_key: lot.lot_key },
    );
    expect(before.desk.shipping_usd).toBeNull();
    const prices = await value<{ prices: { port: string; price: number }[] }>('shipping.get', {
      endpoint: 'vehicle',
      id: lot.vin ?? lot.lot_number,
      ports: ['Savannah'],
      lot_key: lot.lot_key,
    });
    const savannah = prices.prices.find((p) => p.port === 'Savannah')!;
    const after = await value<{
      desk: { shipping_usd: number; landed_cost_usd: number };
      shipping: { port: string }[];
    }>('desk.lot', { lot_key: lot.lot_key });
    expect(after.desk.shipping_usd).toBe(savannah.price);
    expect(after.shipping.map((p) => p.port)).toEqual(['Savannah']);
    // The lot's own fee table: its title document under the buyer's Copart membership.
    const detail = await value<{ record: { title_document: { name: string } | null } }>('lots.get', {
      lot_key: lot.lot_key,
    });
    const table = feeTableFor('copart', detail.record.title_document?.name, 'standard_secured');
    if (!table.ok) throw new Error(table.reason);
    const expected = landedCost({
      bid_usd: lot.current_bid_usd!,
      schedule: table.schedule,
      shipping_usd: savannah.price,
      lines: own,
    }).total_usd;
    expect(after.desk.landed_cost_usd).toBe(expected);
    // The landed cost moved by exactly the kept shipping price: the same bid, fees and own lines.
    expect(after.desk.landed_cost_usd - before.desk.landed_cost_usd!).toBeCloseTo(savannah.price, 2);
  });

  it('keeps notes and tags, finds them in the library and exports them with every field a buyer filters on', async () => {
    const { value } = await makeCore();
    const found = await value<{ lots: { lot_key: string; vin: string | null }[] }>('vehicles.search', {
      params: { make: 'KIA', per_page: 3 },
    });
    const key = found.lots[0]!.lot_key;
    const saved = await value<{ tags: string[] }>('lots.setNotes', {
      lot_key: key,
      notes: 'Front damage; keys, maybe — check',
      tags: ['export', ' Needs  title', 'EXPORT'],
    });
    expect(saved.tags).toEqual(['export', 'Needs title']);
    const hits = await value<{ lots: { lot_key: string }[] }>('library.search', {
      q: 'needs',
      limit: 10,
      offset: 0,
    });
    expect(hits.lots.map((l) => l.lot_key)).toEqual([key]);
    const csv = await value<{ csv: string; rows: number }>('library.export', { lot_keys: [key] });
    const [row] = parse(csv.csv, { columns: true }) as Record<string, string>[];
    expect(row).toMatchObject({
      lot_key: key,
      notes: 'Front damage; keys, maybe — check',
      tags: 'export, Needs title',
    });
    for (const c of [
      'odometer_mi',
      'damage',
      'title_document',
      'run_condition',
      'has_key',
      'seller',
      'location',
      'buyer_fees_usd',
      'landed_cost_usd',
      'max_bid_usd',
    ]) {
      expect(Object.keys(row!)).toContain(c);
    }
    expect(row!['vin']).toBe(found.lots[0]!.vin ?? '');
    expect(
      await value('lots.setNotes', { lot_key: 'copart:0', notes: 'x', tags: [] }).catch(
        (e: Error) => e.message,
      ),
    ).toMatch(/^lots.setNotes: not_found/);
  });

  it('writes the watched sales as a calendar that another library reads back, one event per lot', async () => {
    const { value } = await makeCore();
    const m = sb.market;
    const lots = m.sorted
      .filter((l) => l.subStatus === 'Open' && l.auctionAt > sb.marketNow() + 3_600_000)
      .slice(0, 2);
    for (const l of lots) await value('watchlist.add', { target: l.lotNumber, rules: { max_bid_usd: 5000 } });
    const cal = await value<{ ics: string; events: number; skipped: number; address: string | null }>(
      'plan.calendar',
    );
    expect(cal).toMatchObject({ events: 2, skipped: 0, address: null });
    const events = new ICAL.Component(ICAL.parse(cal.ics))
      .getAllSubcomponents('vevent')
      .map((v) => new ICAL.Event(v));
    expect(events.map((e) => e.uid).sort()).toEqual(
      lots.map((l) => `${l.platform}:${l.lotNumber}@lotwatch`).sort(),
    );
    for (const l of lots) {
      const e = events.find((x) => x.uid === `${l.platform}:${l.lotNumber}@lotwatch`)!;
      expect(e.startDate.toJSDate().getTime()).toBe(l.auctionAt);
      expect(e.description).toContain('Max bid: $5,000');
    }
  });

  it('gives each watched sale a calendar alarm per reminder of its watch', async () => {
    const { value } = await makeCore();
    const [a, b] = sb.market.sorted
      .filter((l) => l.subStatus === 'Open' && l.auctionAt > sb.marketNow() + 3_600_000)
      .slice(0, 2);
    await value('watchlist.add', { target: a!.lotNumber, rules: { remind_minutes_before: [15, 60] } });
    await value('watchlist.add', { target: b!.lotNumber });
    const cal = await value<{ ics: string }>('plan.calendar');
    const events = new ICAL.Component(ICAL.parse(cal.ics)).getAllSubcomponents('vevent');
    const alarmsOf = (l: typeof a) =>
      events
        .find((v) => v.getFirstPropertyValue('uid') === `${l!.platform}:${l!.lotNumber}@lotwatch`)!
        .getAllSubcomponents('valarm');
    const alarms = alarmsOf(a);
    expect(alarms.map((x) => String(x.getFirstPropertyValue('trigger')))).toEqual(['-PT1H', '-PT15M']);
    for (const x of alarms) {
      expect(x.getFirstPropertyValue('action')).toBe('DISPLAY');
      expect(String(x.getFirstPropertyValue('description'))).toContain(a!.lotNumber);
    }
    expect(alarmsOf(b)).toEqual([]);
  });
});
