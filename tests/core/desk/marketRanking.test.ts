import { describe, expect, it } from 'vitest';
import { normalizeVehicle } from '../../../src/core/api/parse';
import type { Store } from '../../../src/core/db/store';
import { DeskService } from '../../../src/core/desk/service';
import { DeskSettingsSchema } from '../../../src/shared/desk';
import { landedCost, maxBid, FEE_FILES } from '../../../src/shared/fees';
import type { MethodOutput } from '../../../src/shared/ipc/contract';
import { titleGroupOf } from '../../../src/shared/titleGroup';
import { AlertRulesSchema } from '../../../src/shared/watch';
import { realFinishedRecord } from '../api/fixtures/realRecords';
import { FakeClock } from '../../helpers/fakeClock';
import { storesPerTest } from '../../helpers/store';

// Comparable sales over a seeded real SQLite store, read through the desk as the lot page reads them: the ranking by
// damage, title group, run condition, keys, odometer band and year with the reasons shown, the statistics over prices
// actually paid (sold and sold on approval apart, a relisted VIN once at its last price paid, never an unsold bid
// or a price of 0), the bid range, and the refusal below 2 priced comparables.

const stores = storesPerTest();

interface S5 {
  lot: string;
  vin?: string;
  year?: number;
  odometer?: number;
  damage?: string;
  doc?: string;
  run?: 'RUNS AND DRIVES' | 'STATIONARY / NO INFORMATION';
  keys?: boolean;
  /** "Sold", "Sold on Approval", null (ended unsold), or "open". */
  status: string | null;
  price: number;
  day?: string;
}

/** A real-dialect IAAI Audi S5 record (the survey's shape), changed where `c` says, normalised as the client does. */
function s5(c: S5) {
  const base = realFinishedRecord({
    state: c.status === 'open' ? 'open' : 'finished',
    last_sold_status: c.status === 'open' ? null : c.status,
    last_sold_price_usd: c.price,
    current_bid_usd: c.price || 4000,
  });
  const day = c.day ?? '2026-08-04';
  const at = `${day}T13:30:00+00:00`;
  const rec = {
    ...base,
    lot_number: c.lot,
    vin: c.vin ?? `WAUB4CF56JA${c.lot.slice(-6)}`,
    year: c.year ?? 2018,
    odometer: { mi: c.odometer ?? 60_000, km: 0 },
    condition: {
      has_key: c.keys ?? true,
      primary_damage: c.damage ?? 'Front end',
      run_condition: {
        value: c.run ?? 'RUNS AND DRIVES',
        label: c.run === 'STATIONARY / NO INFORMATION' ? 'Stationary / no information' : 'Runs and drives',
      },
    },
    sale_document: { ...(base['sale_document'] as object), name: c.doc ?? 'SALVAGE - REPAIRABLE-COLLISION' },
    auction: {
      ...(base['auction'] as object),
      auction_at: at,
      full_date: at,
      ad: at,
      last_sold_day: c.status === 'open' ? null : day,
    },
    details: {
      sale_information: { ActualCashValue: '$18,349 USD', EstimatedRepairCost: '$20,821 USD' },
    },
  };
  return normalizeVehicle(rec, []);
}

const SUBJECT = 'iaai:80000000';

async function seed(store: Store, lots: S5[]): Promise<void> {
  const all = [
    // The subject: open, 2018, 60,000 mi, front end, salvage repairable, runs and drives, keys.
    s5({ lot: '80000000', vin: 'WAUB4CF56JA000000', status: 'open', price: 0 }),
    ...lots.map(s5),
  ];
  await store.transaction(async () => {
    for (const [i, v] of all.entries()) await store.lots.observe(v, 1_000 + i, 'test');
  });
}

function desk(store: Store, settings = DeskSettingsSchema.parse({})): DeskService {
  return new DeskService({
    store,
    clock: new FakeClock(),
    settings: () => settings,
    searchPage: () => Promise.reject(new Error('no service in this test')),
    source: () => 'demo',
    calendar: null,
    libraryKeys: () => Promise.resolve([]),
  });
}

type DeskLot = MethodOutput<'desk.lot'>;
const numbers = (d: DeskLot) => d.comps.comps.map((c) => c.lot_number);

describe('market comparables over a seeded store', () => {
  it('ranks by damage, title group, run condition, keys, odometer band and year, and says why', async () => {
    const { s } = stores();
    await seed(s, [
      // Everything the same as the subject but the year (2019): all matches but "same year".
      { lot: '80000001', year: 2019, status: 'Sold', price: 9000 },
      // Everything the same, same year: the closest.
      { lot: '80000002', odometer: 62_000, status: 'Sold', price: 8000, day: '2026-08-01' },
      // Same damage, but a clean title: the title group's match is lost, the rest kept.
      { lot: '80000003', doc: 'CLEAR', status: 'Sold', price: 15_000 },
      // Same damage and title, stationary, no keys, 150,000 mi (outside the band).
      {
        lot: '80000004',
        run: 'STATIONARY / NO INFORMATION',
        keys: false,
        odometer: 150_000,
        status: 'Sold on Approval',
        price: 5000,
      },
      // Another damage, everything else the same: after every front end.
      { lot: '80000005', damage: 'Rear end', status: 'Sold', price: 7000 },
      // Ended unsold: a comparable with no price paid.
      { lot: '80000006', odometer: 61_000, status: null, price: 0 },
      // A sale whose price is published as 0: no price.
      { lot: '80000007', odometer: 59_000, status: 'Sold', price: 0 },
      // A relisted VIN: sold on approval for $6,000, then sold for $6,800 a week later; it counts once, at $6,800.
      {
        lot: '80000008',
        vin: 'WAUB4CF56JA999999',
        status: 'Sold on Approval',
        price: 6000,
        day: '2026-07-20',
      },
      { lot: '80000009', vin: 'WAUB4CF56JA999999', status: 'Sold', price: 6800, day: '2026-07-27' },
      // Out of the band: 2016 (two years away), another model.
      { lot: '80000010', year: 2016, status: 'Sold', price: 3000 },
    ]);
    const d = await desk(s).lot(SUBJECT);
    // Every match first, by odometer distance: 09 (the relist's last attempt, 60,000 mi: 0), 06 and 07 (1,000 each,
    // the same sale day: by lot key), 02 (2,000); then 01 (all but the year); then 04 (same damage and title group,
    // the rest lost) before 03 (a clean title: the title group outweighs run condition, keys, odometer and year
    // together); 05 (another damage) last. 08 is the relist's earlier attempt, 10 two years away.
    expect(numbers(d)).toEqual([
      '80000009',
      '80000006',
      '80000007',
      '80000002',
      '80000001',
      '80000004',
      '80000003',
      '80000005',
    ]);
    const by = new Map(d.comps.comps.map((c) => [c.lot_number, c]));
    expect(by.get('80000002')!.reasons).toEqual([
      'same damage: Front end',
      'same title group: salvage, repairable',
      'same run condition: Runs and drives',
      'keys: yes, as this lot',
      'similar odometer: 2,000 mi more',
      'same year',
    ]);
    expect(by.get('80000001')!.reasons.at(-1)).toBe('1 year newer');
    expect(by.get('80000003')).toMatchObject({ title_group: 'clean', same_title_group: false });
    expect(by.get('80000004')!.reasons).toEqual([
      'same damage: Front end',
      'same title group: salvage, repairable',
      'same year',
    ]);
    expect(by.get('80000005')!.same_damage).toBe(false);
    expect(by.get('80000009')).toMatchObject({ attempts: 2, outcome: 'sold', sale_price_usd: 6800 });
    expect(by.has('80000008')).toBe(false);

    // Prices paid: sold 9000 8000 15000 7000 6800, on approval 5000 (06 unsold, 07's 0, 08's earlier price: none).
    // All six ascending 5000 6800 7000 8000 9000 15000: median (7000 + 8000) / 2, p25 at 1.25 -> 6800 + 50.
    expect(d.comps.stats).toMatchObject({
      count: 8,
      priced: 6,
      median_usd: 7500,
      p25_usd: 6850,
      p75_usd: 8750,
      min_usd: 5000,
      max_usd: 15_000,
    });
    expect(d.comps.stats.sold).toMatchObject({ count: 5, median_usd: 8000, min_usd: 6800, max_usd: 15_000 });
    expect(d.comps.stats.sold_on_approval).toMatchObject({ count: 1, median_usd: 5000 });

    // The bid range: p25 to median of the sales in the lot's own title group (salvage, repairable: 03's clean-title
    // $15,000 is left out), 5000 6800 7000 8000 9000: p25 at 1 -> 6800, median 7000; with the landed cost at each
    // end (no shipping kept: said, not guessed).
    const schedule = FEE_FILES.iaai!.schedules['licensed_standard_volume']!;
    const costs = { schedule, shipping_usd: null, lines: [], opts: { custom: [], omit: [] } };
    expect(d.bid_range).toMatchObject({
      low_usd: 6800,
      high_usd: 7000,
      landed_low_usd: Math.round(landedCost({ ...costs, bid_usd: 6800 }).total_usd),
      landed_high_usd: Math.round(landedCost({ ...costs, bid_usd: 7000 }).total_usd),
      shipping_included: false,
      capped: false,
      priced: 5,
      title_group: 'salvage_repairable',
      other_titles_left_out: 1,
      refusal: null,
    });
    expect([...d.bid_range.rests_on].sort()).toEqual(
      ['80000001', '80000002', '80000004', '80000005', '80000009'].map((n) => `iaai:${n}`),
    );
    // The lot's own estimates beside them: the service's range, IAAI's ACV and repair cost.
    expect(d.estimates).toEqual({
      service_from_usd: 1450,
      service_to_usd: 15_000,
      acv_usd: 18_349,
      repair_usd: 20_821,
      repair_to_value: 20_821 / 18_349,
    });

    // A watch with a target landed cost caps both ends at the max bid it allows.
    const target = Math.round(landedCost({ ...costs, bid_usd: 6900 }).total_usd);
    await s.watches.insertWatch(
      {
        kind: 'lot',
        vin: null,
        lot_key: SUBJECT,
        label: 'S5',
        rules: AlertRulesSchema.parse({ target_landed_usd: target }),
        is_example: false,
      },
      0,
    );
    const capped = (await desk(s).lot(SUBJECT)).bid_range;
    const cap = Math.floor(maxBid({ ...costs, target_usd: target })!);
    expect(cap).toBeLessThan(7000);
    expect(capped).toMatchObject({
      low_usd: Math.min(6800, cap),
      high_usd: cap,
      capped: true,
      target_usd: target,
    });
  });

  it('refuses a bid range below 2 priced comparables, and counts a relisted VIN once', async () => {
    const { s } = stores();
    await seed(s, [
      { lot: '80000011', status: 'Sold', price: 7000 },
      { lot: '80000012', status: null, price: 0 },
      { lot: '80000013', status: 'Sold', price: 0 },
      // One car sold twice: one priced comparable, not two.
      { lot: '80000014', vin: 'WAUB4CF56JA888888', status: 'Sold', price: 5000, day: '2026-07-01' },
      { lot: '80000015', vin: 'WAUB4CF56JA888888', status: null, price: 0, day: '2026-07-15' },
    ]);
    // Five ended lots, four cars, two with a price paid (07's VIN and 14's): a range. Without 11, one: refused.
    expect((await desk(s).lot(SUBJECT)).bid_range).toMatchObject({ priced: 2, refusal: null });
    s.db.prepare("DELETE FROM lots WHERE lot_key = 'iaai:80000011'").run();
    const d = await desk(s).lot(SUBJECT);
    expect(d.comps.stats).toMatchObject({ count: 3, priced: 1, median_usd: 5000 });
    expect(d.bid_range).toMatchObject({
      low_usd: null,
      high_usd: null,
      landed_low_usd: null,
      landed_high_usd: null,
      priced: 1,
      rests_on: ['iaai:80000014'],
    });
    expect(d.bid_range.refusal).toBe(
      "Only 1 comparable in this lot's title group (salvage, repairable) with a price paid: Lotwatch gives no bid range without at least 2.",
    );
  });

  it('never prices a lot by sales of another title group: a clean-title car among parts-only sales gets no range', async () => {
    const { s } = stores();
    // The subject is salvage, repairable; one priced sale of that group, two of non-repairable documents.
    await seed(s, [
      { lot: '80000021', status: 'Sold', price: 7000 },
      { lot: '80000022', doc: 'CERTIFICATE OF DESTRUCTION', status: 'Sold', price: 900 },
      { lot: '80000023', doc: 'NON-REPAIRABLE', status: 'Sold', price: 1200 },
    ]);
    const d = await desk(s).lot(SUBJECT);
    // The list still shows all three, ranked (the title group outweighs what follows it).
    expect(d.comps.stats).toMatchObject({ count: 3, priced: 3, median_usd: 1200 });
    expect(d.bid_range).toMatchObject({
      low_usd: null,
      high_usd: null,
      priced: 1,
      title_group: 'salvage_repairable',
      other_titles_left_out: 2,
      rests_on: ['iaai:80000021'],
    });
    expect(d.bid_range.refusal).toBe(
      "Only 1 comparable in this lot's title group (salvage, repairable) with a price paid: Lotwatch gives no bid range without at least 2 (2 sales of another or unknown title group left out: the title moves a car's price more than anything else).",
    );
    // A second sale of the group gives a range from those two alone: 7000 and 7400, never the parts-only prices.
    await seed(s, [{ lot: '80000024', status: 'Sold', price: 7400 }]);
    expect((await desk(s).lot(SUBJECT)).bid_range).toMatchObject({
      low_usd: 7100,
      high_usd: 7200,
      priced: 2,
      other_titles_left_out: 2,
    });
  });
});

describe('the pieces', () => {
  it('classifies title documents into clean, salvage-repairable and non-repairable', () => {
    expect(titleGroupOf('SALVAGE - REPAIRABLE-COLLISION')).toBe('salvage_repairable');
    expect(titleGroupOf('MV-907A')).toBe('salvage_repairable');
    expect(titleGroupOf('REBUILT')).toBe('salvage_repairable');
    expect(titleGroupOf('NON-REPAIRABLE')).toBe('non_repairable');
    expect(titleGroupOf('CERTIFICATE OF DESTRUCTION')).toBe('non_repairable');
    expect(titleGroupOf('PARTS ONLY')).toBe('non_repairable');
    expect(titleGroupOf('CLEAR')).toBe('clean');
    expect(titleGroupOf('clean title')).toBe('clean');
    expect(titleGroupOf('BILL OF SALE')).toBe('unknown');
    expect(titleGroupOf(null)).toBe('unknown');
  });
});
