import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CompLot } from '../../../../src/core/db/compsRepo';
import { engines, type EngineDb } from '../../../helpers/engines';
import { lotRow, restRepos, type RestRepos } from './restRepos';

// CompsRepo's contract (src/core/db/compsRepo.ts defines it) on every engine: the SQLite store's repository,
// KyselyCompsRepo over SQLite and over PostgreSQL give the same answers to the same calls.

const VIN = '2HGFC2F59JH000001';
const QUERY = { make: 'honda', model: 'CIVIC', year_from: 2017, year_to: 2019, except_key: 'copart:70' };

/** The stored lots: Civics sold, sold on approval, unsold, open, damaged, out of range; the VIN's relists. */
const LOTS = [
  lotRow({
    lot_key: 'copart:10',
    vin: VIN,
    title: '2018 HONDA CIVIC LX',
    year: 2018,
    make: 'HONDA',
    model: 'CIVIC',
    location: 'Dallas (TX)',
    current_bid_usd: 9000,
    sale_price_usd: 9000,
    state: 'sold',
    lot_sub_status: 'Ended',
    auction_at: 5_000,
    normalized: JSON.stringify({
      odometer: 90_000,
      damage: ' Front End ',
      title_document: { name: 'SALVAGE - REPAIRABLE' },
      run_condition: 'RUNS AND DRIVES',
      run_condition_label: 'Runs and drives',
      has_key: true,
    }),
  }),
  lotRow({
    lot_key: 'copart:11',
    vin: VIN,
    year: 2017,
    make: 'Honda',
    model: 'civic',
    current_bid_usd: 7000,
    lot_sub_status: 'Ended',
    last_sold_status: 'Sold on Approval',
    normalized: JSON.stringify({ odometer: -5, damage: '  ', auction: { last_sold_day: '2024-03-05' } }),
  }),
  lotRow({
    lot_key: 'copart:12',
    vin: VIN,
    year: 2019,
    make: 'HONDA',
    model: 'CIVIC',
    state: 'open',
    lot_sub_status: 'Open',
    auction_at: 9_000,
  }),
  lotRow({
    lot_key: 'copart:13',
    vin: VIN,
    year: 2018,
    make: 'HONDA',
    model: 'CIVIC',
    current_bid_usd: 5000,
    sale_price_usd: 0,
    lot_sub_status: 'Ended',
    auction_at: 6_000,
    normalized: JSON.stringify({ run_condition: 'STARTS', has_key: 'yes' }),
  }),
  lotRow({
    lot_key: 'copart:14',
    year: 2018,
    make: 'HONDA',
    model: 'CIVIC',
    state: 'sold',
    normalized: 'not json',
  }),
  lotRow({
    lot_key: 'copart:15',
    year: 2018,
    make: 'HONDA',
    model: 'CIVIC',
    state: 'sold',
    normalized: '[1]',
  }),
  lotRow({
    lot_key: 'copart:16',
    year: 2020,
    make: 'HONDA',
    model: 'CIVIC',
    state: 'sold',
    sale_price_usd: 1,
  }),
  lotRow({
    lot_key: 'copart:17',
    year: null,
    make: 'HONDA',
    model: 'CIVIC',
    state: 'sold',
    sale_price_usd: 1,
  }),
  lotRow({
    lot_key: 'copart:18',
    year: 2018,
    make: 'ACURA',
    model: 'CIVIC',
    state: 'sold',
    sale_price_usd: 1,
  }),
  lotRow({
    lot_key: 'copart:19',
    year: 2018,
    make: 'HONDA',
    model: 'CIVIC SI',
    state: 'sold',
    sale_price_usd: 1,
  }),
  lotRow({ lot_key: 'copart:70', vin: VIN, year: 2018, make: 'HONDA', model: 'CIVIC', state: 'sold' }),
  lotRow({
    lot_key: 'iaai:20',
    platform: 'iaai',
    vin: VIN,
    year: 2018,
    make: 'HONDA',
    model: 'CIVIC',
    state: 'sold',
    sale_price_usd: 100,
    auction_at: 6_000,
  }),
];

const SOLD: CompLot = {
  lot_key: 'copart:10',
  platform: 'copart',
  lot_number: '10',
  vin: VIN,
  title: '2018 HONDA CIVIC LX',
  year: 2018,
  make: 'HONDA',
  model: 'CIVIC',
  location: 'Dallas (TX)',
  odometer: 90_000,
  damage: 'Front End',
  title_group: 'salvage_repairable',
  title_document: 'SALVAGE - REPAIRABLE',
  run_condition: 'RUNS AND DRIVES',
  run_condition_label: 'Runs and drives',
  has_key: true,
  outcome: 'sold',
  sale_price_usd: 9000,
  last_bid_usd: 9000,
  sold_at: 5_000,
};

const ON_APPROVAL: CompLot = {
  lot_key: 'copart:11',
  platform: 'copart',
  lot_number: '11',
  vin: VIN,
  title: null,
  year: 2017,
  make: 'Honda',
  model: 'civic',
  location: null,
  odometer: null,
  damage: null,
  title_group: 'unknown',
  title_document: null,
  run_condition: null,
  run_condition_label: null,
  has_key: null,
  outcome: 'sold_on_approval',
  sale_price_usd: null,
  last_bid_usd: 7000,
  sold_at: Date.UTC(2024, 2, 5),
};

const UNSOLD: CompLot = {
  lot_key: 'copart:13',
  platform: 'copart',
  lot_number: '13',
  vin: VIN,
  title: null,
  year: 2018,
  make: 'HONDA',
  model: 'CIVIC',
  location: null,
  odometer: null,
  damage: null,
  title_group: 'unknown',
  title_document: null,
  run_condition: 'STARTS',
  run_condition_label: 'STARTS',
  has_key: null,
  outcome: 'ended_unsold',
  sale_price_usd: null,
  last_bid_usd: 5000,
  sold_at: 6_000,
};

const byKey = (a: CompLot, b: CompLot) => (a.lot_key < b.lot_key ? -1 : a.lot_key > b.lot_key ? 1 : 0);

for (const e of engines()) {
  describe.skipIf(e.skip)(`CompsRepo on ${e.name}`, () => {
    let d: EngineDb;
    let r: RestRepos;
    beforeEach(async () => {
      d = await e.open();
      r = restRepos(d);
      await r.seed.insertInto('lots').values(LOTS).execute();
    });
    afterEach(async () => {
      await r.done();
      await d.close();
    });

    it('finds the finished lots of a make and model (any case) in a year range, counting unreadable records', async () => {
      const found = await r.comps.candidates(QUERY);
      expect(found.skipped).toBe(2);
      expect(found.lots.sort(byKey).slice(0, 3)).toEqual([SOLD, ON_APPROVAL, UNSOLD]);
      expect(found.lots.map((l) => [l.lot_key, l.outcome, l.sale_price_usd])).toEqual([
        ['copart:10', 'sold', 9000],
        ['copart:11', 'sold_on_approval', null],
        ['copart:13', 'ended_unsold', null],
        ['iaai:20', 'sold', 100],
      ]);
      const narrow = await r.comps.candidates({
        ...QUERY,
        year_from: 2018,
        year_to: 2018,
        except_key: 'copart:10',
      });
      expect(narrow.lots.map((l) => l.lot_key).sort()).toEqual(['copart:13', 'copart:70', 'iaai:20']);
      expect(narrow.skipped).toBe(2);
      expect(await r.comps.candidates({ ...QUERY, make: 'HOND' })).toEqual({ lots: [], skipped: 0 });
      expect(await r.comps.candidates({ ...QUERY, year_from: 2021, year_to: 2030 })).toEqual({
        lots: [],
        skipped: 0,
      });
    });

    it("lists a VIN's other finished lots, newest auction first, then by key, a lot without a time last", async () => {
      const found = await r.comps.otherSalesOfVin(VIN, 'copart:70');
      expect(found.skipped).toBe(0);
      expect(found.lots.map((l) => l.lot_key)).toEqual(['copart:13', 'iaai:20', 'copart:10', 'copart:11']);
      expect(found.lots[0]).toEqual(UNSOLD);
      expect(found.lots[2]).toEqual(SOLD);
      expect(found.lots[3]).toEqual(ON_APPROVAL);
      expect((await r.comps.otherSalesOfVin(VIN, 'copart:10')).lots.map((l) => l.lot_key)).toEqual([
        'copart:13',
        'iaai:20',
        'copart:11',
        'copart:70',
      ]);
      expect(await r.comps.otherSalesOfVin('NOSUCHVIN', 'copart:70')).toEqual({ lots: [], skipped: 0 });
    });
  });
}
