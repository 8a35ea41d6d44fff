import type { Database } from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { normalizeVehicle } from '../../../src/core/api/parse';
import type { CompLot } from '../../../src/core/db/compsRepo';
import type { Async, Store } from '../../../src/core/db/store';
import type { CompsRepo } from '../../../src/core/db/compsRepo';
import {
  compareComps,
  compStats,
  findComps,
  odometerWindowMi,
  similarity,
  type CompSubject,
} from '../../../src/core/db/comps';
import { BadInputError } from '../../../src/core/errors';
import type { Vehicle } from '../../../src/shared/vehicle';
import { realFinishedRecord } from '../api/fixtures/realRecords';
import { NO_EXTRAS, NO_PRICES, QUIET_OFF } from '../diff/fixtures';
import { Recorder } from '../../../src/core/watch/recorder';
import { AlertRulesSchema, type Change } from '../../../src/shared/watch';
import { FakeClock } from '../../helpers/fakeClock';
import { storesPerTest } from '../../helpers/store';

const stores = storesPerTest();

/** A real data file (every migration run) in a fresh temporary folder, with the comparables' repository. */
function openStore(): { db: Database; store: Store; repo: Async<CompsRepo> } {
  const { db, s } = stores();
  return { db, store: s, repo: s.comps };
}

const SUBJECT_VIN = '2HGFC2F59JH000000';

interface Civic {
  lot: string;
  year?: number;
  make?: string;
  model?: string;
  vin?: string;
  odometer: number | null;
  damage: string;
  /** ISO 8601 with offset. */
  at: string;
}

/**
 * A Honda Civic in the specification's dialect: `auction.state` words (`sold`, `open`), `lot_sub_status` Ended,
 * `pricing.sale_price_usd`.
 */
function specCivic(c: Civic, sale: { state: string; price: number | null; bid?: number }): Vehicle {
  const year = c.year ?? 2018;
  const v: Vehicle = {
    platform: 'copart',
    lot_number: c.lot,
    vin: c.vin ?? `2HGFC2F5${String(year).slice(2)}H${c.lot.slice(2)}`,
    title: `${year} ${c.make ?? 'HONDA'} ${c.model ?? 'CIVIC'} LX`,
    year,
    make: c.make ?? 'HONDA',
    model: c.model ?? 'CIVIC',
    type: 'AUTOMOBILE',
    color: 'White',
    fuel_type: 'Gasoline',
    transmission: 'Automatic',
    drive_type: 'FWD',
    odometer: c.odometer,
    damage: c.damage,
    ...NO_EXTRAS,
    auction: {
      state: sale.state,
      auction_at: c.at,
      lot_status: 'Timed',
      lot_sub_status: sale.state === 'open' ? 'Open' : 'Ended',
      last_sold_status: null,
      last_sold_day: null,
      is_buy_now: null,
    },
    pricing: { ...NO_PRICES, current_bid_usd: sale.bid ?? sale.price, sale_price_usd: sale.price },
    location: { display: 'Dallas (TX)', state: 'TX', facility_id: '12', ship_from: null },
    media: { thumbs_count: 0, has_360: false, photos: [] },
    raw: null,
  };
  const { raw: _r, ...wire } = v;
  v.raw = wire;
  return v;
}

/**
 * A Honda Civic in the real service's dialect, through the real normaliser: `auction.state` "finished" with
 * `auction.last_sold_status` ("Sold", "Sold on Approval", null) and `pricing.last_sold_price_usd` (0: nothing paid),
 * odometer as `{mi, km}`, damage as `condition.primary_damage`.
 */
function realCivic(c: Civic, sale: { status: string | null; price: number; bid: number }): Vehicle {
  const base = realFinishedRecord({
    last_sold_status: sale.status,
    last_sold_price_usd: sale.price,
    current_bid_usd: sale.bid,
  });
  const year = c.year ?? 2018;
  const record = {
    ...base,
    lot_number: c.lot,
    vin: c.vin ?? `19XFC2F5${String(year).slice(2)}H${c.lot.slice(2)}`,
    year,
    make: c.make ?? 'HONDA',
    model: c.model ?? 'CIVIC',
    title: `${year} HONDA CIVIC EX`,
    odometer: c.odometer === null ? null : { mi: c.odometer, km: Math.round(c.odometer * 1.609344) },
    condition: { ...(base['condition'] as object), primary_damage: c.damage },
    auction: {
      ...(base['auction'] as object),
      auction_at: c.at,
      full_date: c.at,
      ad: c.at,
      last_sold_day: c.at.slice(0, 10),
    },
  };
  const warnings: string[] = [];
  return normalizeVehicle(record, warnings);
}

/**
 * The subject: an open 2018 Honda Civic, 100,000 miles, front end damage. Its odometer window is 30 % = 30,000
 * miles (wider than the 20,000 floor): 70,000 to 130,000 miles.
 */
const SUBJECT: CompSubject = {
  lot_key: 'copart:70000000',
  vin: SUBJECT_VIN,
  make: 'honda',
  model: 'Civic ',
  year: 2018,
  odometer: 100_000,
  damage: 'Front End',
};

/** Seeds the store through the real Store, as a poll would; returns nothing. */
async function seed(store: Store, db: Database): Promise<void> {
  const lots: Vehicle[] = [
    // The subject itself, still open.
    specCivic(
      {
        lot: '70000000',
        vin: SUBJECT_VIN,
        odometer: 100_000,
        damage: 'Front End',
        at: '2026-08-10T15:00:00+00:00',
      },
      { state: 'open', price: null, bid: 5500 },
    ),
    // Six sold Civics, 2017-2019, known prices and odometers; four front end, three not (one more front end below).
    specCivic(
      { lot: '70000001', odometer: 95_000, damage: 'Front End', at: '2026-06-01T15:00:00+00:00' },
      { state: 'sold', price: 8000 },
    ),
    realCivic(
      {
        lot: '70000002',
        year: 2017,
        odometer: 110_000,
        damage: 'Front end',
        at: '2026-05-10T13:30:00+00:00',
      },
      { status: 'Sold', price: 6500, bid: 6500 },
    ),
    realCivic(
      { lot: '70000003', year: 2019, odometer: 80_000, damage: 'Front end', at: '2026-05-20T13:30:00+00:00' },
      { status: 'Sold', price: 9500, bid: 9500 },
    ),
    specCivic(
      {
        lot: '70000004',
        make: 'Honda',
        model: 'Civic',
        odometer: 100_000,
        damage: 'Rear End',
        at: '2026-04-01T15:00:00-05:00',
      },
      { state: 'sold', price: 7200 },
    ),
    specCivic(
      { lot: '70000005', year: 2017, odometer: 120_000, damage: 'Side', at: '2026-04-02T15:00:00+00:00' },
      { state: 'sold', price: 5000 },
    ),
    realCivic(
      { lot: '70000006', year: 2019, odometer: 90_000, damage: 'Hail', at: '2026-04-03T13:30:00+00:00' },
      { status: 'Sold', price: 10_000, bid: 10_000 },
    ),
    // Sold on approval (real dialect): its price counts.
    realCivic(
      { lot: '70000007', odometer: 105_000, damage: 'Front end', at: '2026-07-01T13:30:00+00:00' },
      { status: 'Sold on Approval', price: 7801, bid: 7801 },
    ),
    // Ended unsold (real dialect: finished, no status, price 0): a comparable, but its $4,000 bid is no price.
    realCivic(
      { lot: '70000008', odometer: 98_000, damage: 'Front end', at: '2026-07-10T13:30:00+00:00' },
      { status: null, price: 0, bid: 4000 },
    ),
    // Not comparables: out of the year range, another model, an odometer far off (250,000 > 130,000), still open.
    specCivic(
      {
        lot: '70000009',
        year: 2015,
        odometer: 100_000,
        damage: 'Front End',
        at: '2026-06-05T15:00:00+00:00',
      },
      { state: 'sold', price: 4000 },
    ),
    specCivic(
      {
        lot: '70000010',
        model: 'ACCORD',
        odometer: 100_000,
        damage: 'Front End',
        at: '2026-06-06T15:00:00+00:00',
      },
      { state: 'sold', price: 9000 },
    ),
    specCivic(
      { lot: '70000011', odometer: 250_000, damage: 'Front End', at: '2026-06-07T15:00:00+00:00' },
      { state: 'sold', price: 3000 },
    ),
    specCivic(
      { lot: '70000012', odometer: 100_000, damage: 'Front End', at: '2026-08-20T15:00:00+00:00' },
      { state: 'open', price: null, bid: 5000 },
    ),
    // An earlier lot of the subject's VIN (sold on approval, then relisted as the subject): history, never a comp.
    realCivic(
      {
        lot: '70000013',
        vin: SUBJECT_VIN,
        odometer: 99_500,
        damage: 'Front end',
        at: '2026-07-20T13:30:00+00:00',
      },
      { status: 'Sold on Approval', price: 7500, bid: 7500 },
    ),
    // Two sold Civics whose stored record gets damaged below: skipped and counted.
    specCivic(
      { lot: '70000014', odometer: 100_000, damage: 'Front End', at: '2026-06-08T15:00:00+00:00' },
      { state: 'sold', price: 8800 },
    ),
    specCivic(
      { lot: '70000016', odometer: 100_000, damage: 'Front End', at: '2026-06-09T15:00:00+00:00' },
      { state: 'sold', price: 8900 },
    ),
    // A sold Civic whose odometer is unknown: kept, after the known odometers.
    specCivic(
      { lot: '70000015', odometer: null, damage: 'FRONT END', at: '2026-06-15T15:00:00+00:00' },
      { state: 'sold', price: 7000 },
    ),
  ];
  await store.transaction(async () => {
    for (const [i, v] of lots.entries())
      expect(await store.lots.observe(v, 1_000 + i, 'test')).not.toBeNull();
  });
  const damage = db.prepare<[string, string]>('UPDATE lots SET normalized = ? WHERE lot_key = ?');
  damage.run('{"odometer": 100000, "damage": "Fro', 'copart:70000014');
  damage.run('[1, 2]', 'copart:70000016');
}

const numbers = (cs: readonly { lot_number: string }[]) => cs.map((c) => c.lot_number);

describe('findComps over a real store', () => {
  it('ranks the comparables, prices them, gives the VIN history, and skips damaged records', async () => {
    const { db, store, repo } = openStore();
    await seed(store, db);
    const r = await findComps(repo, SUBJECT);

    // Front end first ("Front end", "FRONT END" and "Front End" are one damage), then by the matches after it: in the
    // odometer band (within 30,000 miles of 100,000) and the same year 08 (2,000), 07 and 01 (5,000 each: 07 sold
    // later, 2026-07-01 > 06-01); in the band a year away 02 (10,000), 03 (20,000); the same year outside the band
    // 11 (250,000 miles: ranked, not left out) and 15 (odometer unknown, last). Other damages after: 04 (2018, in
    // the band), 06 (2019, 10,000), 05 (2017, 20,000). Not there: the subject 00, 09 (2015), 10 (Accord), 12 (open),
    // 13 (the subject's VIN), 14 and 16 (damaged records).
    expect(numbers(r.comps)).toEqual([
      '70000008',
      '70000007',
      '70000001',
      '70000002',
      '70000003',
      '70000011',
      '70000015',
      '70000004',
      '70000006',
      '70000005',
    ]);
    expect(r.comps.map((c) => c.same_damage)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    const byLot = new Map(r.comps.map((c) => [c.lot_number, c]));
    expect(byLot.get('70000008')).toMatchObject({
      outcome: 'ended_unsold',
      sale_price_usd: null,
      last_bid_usd: 4000,
      odometer_delta_mi: -2000,
    });
    expect(byLot.get('70000007')).toMatchObject({
      outcome: 'sold_on_approval',
      sale_price_usd: 7801,
      platform: 'iaai',
    });
    expect(byLot.get('70000001')).toMatchObject({
      outcome: 'sold',
      sale_price_usd: 8000,
      odometer: 95_000,
      year_delta: 0,
    });
    expect(byLot.get('70000002')).toMatchObject({
      outcome: 'sold',
      sale_price_usd: 6500,
      odometer: 110_000,
      year_delta: -1,
    });
    expect(byLot.get('70000015')).toMatchObject({
      odometer: null,
      odometer_delta_mi: null,
      same_damage: true,
    });
    expect(byLot.get('70000004')).toMatchObject({
      make: 'Honda',
      damage: 'Rear End',
      sold_at: Date.parse('2026-04-01T20:00:00Z'),
    });

    // Prices paid, ascending (08 ended unsold: none): 3000 5000 6500 7000 7200 7801 8000 9500 10000, n = 9.
    // median: position 8 * 0.5 = 4 -> 7200. p25: position 2 -> 6500. p75: position 6 -> 8000.
    expect(r.stats).toMatchObject({
      count: 10,
      priced: 9,
      median_usd: 7200,
      p25_usd: 6500,
      p75_usd: 8000,
      min_usd: 3000,
      max_usd: 10_000,
    });
    // Apart: sold 3000 5000 6500 7000 7200 8000 9500 10000 (n = 8: median (7000 + 7200) / 2 = 7100, p25 at 1.75
    // 5000 + 0.75 * 1500 = 6125, p75 at 5.25 8000 + 0.25 * 1500 = 8375); on approval 7801 alone.
    expect(r.stats.sold).toEqual({
      count: 8,
      median_usd: 7100,
      p25_usd: 6125,
      p75_usd: 8375,
      min_usd: 3000,
      max_usd: 10_000,
    });
    expect(r.stats.sold_on_approval).toMatchObject({ count: 1, median_usd: 7801, min_usd: 7801 });

    expect(numbers(r.history)).toEqual(['70000013']);
    expect(r.history[0]).toMatchObject({
      outcome: 'sold_on_approval',
      sale_price_usd: 7500,
      same_damage: true,
      vin: SUBJECT_VIN,
    });
    expect(r.skipped).toBe(2);
  });

  it('cuts the list at the limit and computes the statistics over the comparables returned', async () => {
    const { db, store, repo } = openStore();
    await seed(store, db);
    const r = await findComps(repo, SUBJECT, { limit: 3 });
    expect(numbers(r.comps)).toEqual(['70000008', '70000007', '70000001']);
    // 08 is unpriced. Prices 7801, 8000: median (7801 + 8000) / 2 = 7900.5 -> 7901;
    // p25 7801 + 0.25 * 199 = 7850.75 -> 7851; p75 7801 + 0.75 * 199 = 7950.25 -> 7950.
    expect(r.stats).toMatchObject({
      count: 3,
      priced: 2,
      median_usd: 7901,
      p25_usd: 7851,
      p75_usd: 7950,
      min_usd: 7801,
      max_usd: 8000,
    });
    await expect(findComps(repo, SUBJECT, { limit: 0 })).rejects.toThrow(BadInputError);
    await expect(findComps(repo, SUBJECT, { limit: 2.5 })).rejects.toThrow(BadInputError);
  });

  it('drops the odometer criterion when the subject has none', async () => {
    const { db, store, repo } = openStore();
    await seed(store, db);
    const r = await findComps(repo, { ...SUBJECT, odometer: null });
    // Without odometer distances the 2018 front end lots order by sale date: 08 (07-10), 07 (07-01), 15 (06-15),
    // 11 (06-07, 250,000 miles, now in), 01 (06-01).
    expect(numbers(r.comps)).toEqual([
      '70000008',
      '70000007',
      '70000015',
      '70000011',
      '70000001',
      '70000003',
      '70000002',
      '70000004',
      '70000006',
      '70000005',
    ]);
  });

  it('never lists the subject among its own comparables, and has only history without a year', async () => {
    const { db, store, repo } = openStore();
    await seed(store, db);
    const asSubject: CompSubject = {
      lot_key: 'copart:70000001',
      vin: null,
      make: 'HONDA',
      model: 'CIVIC',
      year: 2018,
      odometer: 95_000,
      damage: 'Front End',
    };
    const r = await findComps(repo, asSubject);
    expect(numbers(r.comps)).not.toContain('70000001');
    // Without a VIN, the other lots of a VIN are ordinary comparables: 08 (3,000 miles away), 13 (4,500), 07, ...
    expect(numbers(r.comps).slice(0, 3)).toEqual(['70000008', '70000013', '70000007']);
    expect(r.history).toEqual([]);

    const noYear = await findComps(repo, { ...SUBJECT, year: null });
    expect(noYear.comps).toEqual([]);
    expect(noYear.stats.median_usd).toBeNull();
    expect(numbers(noYear.history)).toEqual(['70000013']);
  });

  it('reads the candidates of a make and model case-insensitively, over only, the subject left out', async () => {
    const { db, store, repo } = openStore();
    await seed(store, db);
    const found = await repo.candidates({
      make: 'Honda',
      model: 'civic',
      year_from: 2017,
      year_to: 2019,
      except_key: 'copart:70000001',
    });
    expect(numbers(found.lots).sort()).toEqual(
      ['02', '03', '04', '05', '06', '07', '08', '11', '13', '15'].map((n) => `700000${n}`),
    );
    expect(found.skipped).toBe(2);
    expect(await repo.otherSalesOfVin(SUBJECT_VIN, 'iaai:70000013')).toEqual({ lots: [], skipped: 0 });
  });
});

describe('the pure rules', () => {
  const lot = (over: Partial<CompLot>): CompLot => ({
    lot_key: 'copart:1',
    platform: 'copart',
    lot_number: '1',
    vin: null,
    title: null,
    year: 2018,
    make: 'HONDA',
    model: 'CIVIC',
    location: null,
    odometer: 100_000,
    damage: 'Front End',
    title_group: 'unknown',
    title_document: null,
    run_condition: null,
    run_condition_label: null,
    has_key: null,
    outcome: 'sold',
    sale_price_usd: 5000,
    last_bid_usd: 5000,
    sold_at: 0,
    ...over,
  });

  it('widens the odometer band to 20,000 miles for a low odometer, and has none for an unknown one', () => {
    expect(odometerWindowMi(100_000)).toBe(30_000);
    expect(odometerWindowMi(10_000)).toBe(20_000);
    expect(odometerWindowMi(null)).toBeNull();
    const low = { ...SUBJECT, odometer: 10_000 };
    expect(similarity(low, lot({ odometer: 30_000 }))).toMatchObject({
      odometer_delta_mi: 20_000,
      same_odometer_band: true,
      reasons: ['same damage: Front End', 'similar odometer: 20,000 mi more', 'same year'],
    });
    // Outside the band: still a comparable, ranked after, without the odometer reason.
    expect(similarity(low, lot({ odometer: 30_001 }))).toMatchObject({
      same_odometer_band: false,
      reasons: ['same damage: Front End', 'same year'],
    });
    expect(similarity(SUBJECT, lot({ year: 2016 }))).toBeNull();
    expect(similarity(SUBJECT, lot({ year: null }))).toBeNull();
    expect(similarity(SUBJECT, lot({ damage: 'front-end' }))).toMatchObject({ same_damage: true });
    expect(similarity({ ...SUBJECT, damage: null }, lot({ damage: null }))).toMatchObject({
      same_damage: false,
    });
  });

  it('gives null statistics when nothing is priced, and never counts an unsold bid', () => {
    const none = { median_usd: null, p25_usd: null, p75_usd: null, min_usd: null, max_usd: null };
    const empty = {
      count: 0,
      priced: 0,
      ...none,
      sold: { count: 0, ...none },
      sold_on_approval: { count: 0, ...none },
    };
    expect(compStats([])).toEqual(empty);
    expect(
      compStats([lot({ outcome: 'ended_unsold', sale_price_usd: 9999 }), lot({ sale_price_usd: null })]),
    ).toEqual({
      ...empty,
      count: 2,
    });
    expect(compStats([lot({ sale_price_usd: 4999.6 })])).toMatchObject({
      median_usd: 5000,
      min_usd: 5000,
      max_usd: 5000,
    });
  });

  it('orders ties by the lot key, so the order never depends on the store', () => {
    const a = {
      ...lot({ lot_key: 'iaai:2' }),
      same_damage: true,
      same_title_group: false,
      same_run_condition: false,
      same_keys: false,
      same_odometer_band: true,
      year_delta: 0,
      odometer_delta_mi: 0,
      reasons: [],
      attempts: 1,
    };
    const b = { ...a, lot_key: 'copart:9' };
    expect([a, b].sort(compareComps).map((c) => c.lot_key)).toEqual(['copart:9', 'iaai:2']);
  });
});

describe('a saved search judged against comparable sales', () => {
  it('alerts a new match only under its share of the comps median, and names the median in the alert', async () => {
    const { db, store } = openStore();
    await seed(store, db);
    const clock = new FakeClock();
    const recorder = new Recorder({
      store,
      quota: () => null,
      clock,
      quiet: () => QUIET_OFF,
      tzOffsetMinutes: () => 0,
    });
    const search = async (percent: number) =>
      (await store.searches.getSearch(
        await store.searches.insertSearch(
          {
            name: `Civics under ${percent} %`,
            params: {},
            schedule: '0 * * * *',
            rules: AlertRulesSchema.parse({ comps_below_percent: percent }),
            max_pages: 1,
            paused: false,
            is_example: false,
          },
          clock.now(),
        ),
      ))!;
    const match: Change = {
      kind: 'new_match',
      lot_key: 'copart:70000000',
      vin: SUBJECT_VIN,
      field: null,
      before: null,
      after: null,
      related_lot_key: null,
      outcome: null,
      observed_at: clock.now(),
    };
    // The subject's bid is $5,500 and its comps' median $7,200: 70 % of it is $5,040 (no alert), 80 % $5,760.
    expect((await recorder.record([match], clock.now(), () => null, await search(70))).alerts).toBe(0);
    expect((await recorder.record([match], clock.now(), () => null, await search(80))).alerts).toBe(1);
    const [alert] = await store.alerts.list(false, Number.MAX_SAFE_INTEGER, 10);
    expect(alert!.body).toContain('Comps median $7,200');
  });
});
