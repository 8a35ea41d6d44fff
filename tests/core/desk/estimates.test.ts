import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { normalizeVehicle } from '../../../src/core/api/parse';
import type { Store } from '../../../src/core/db/store';
import { DeskService } from '../../../src/core/desk/service';
import { LotsService } from '../../../src/core/lots/service';
import { DeskSettingsSchema } from '../../../src/shared/desk';
import { contract } from '../../../src/shared/ipc/contract';
import type { Vehicle } from '../../../src/shared/vehicle';
import { realFinishedRecord } from '../api/fixtures/realRecords';
import { Recorder } from '../../../src/core/watch/recorder';
import { AlertRulesSchema, type Change } from '../../../src/shared/watch';
import { QUIET_OFF } from '../diff/fixtures';
import { FakeClock } from '../../helpers/fakeClock';
import { storesPerTest } from '../../helpers/store';

// The record's estimates in the Library's filters and in the CSV, over a real SQLite data file: repair to value at
// most N %, "has ACV", and the columns acv_usd, est_repair_usd, repair_to_value.

const stores = storesPerTest();

/** A real-dialect IAAI record with its own ACV and repair cost text (null leaves the figure out), normalised. */
function iaai(lot: string, acv: string | null, repair: string | null): Vehicle {
  const sale: Record<string, string> = {};
  if (acv !== null) sale['ActualCashValue'] = acv;
  if (repair !== null) sale['EstimatedRepairCost'] = repair;
  return normalizeVehicle(
    {
      ...realFinishedRecord(),
      lot_number: lot,
      vin: `WAUB4CF56JA${lot.slice(-6)}`,
      details: { sale_information: sale },
    },
    [],
  );
}

/** The same record as Copart sends it: no `details`, so no ACV and no repair cost. */
function copart(lot: string): Vehicle {
  const rec: Record<string, unknown> = {
    ...realFinishedRecord(),
    platform: 'copart',
    platform_id: 1,
    lot_number: lot,
  };
  delete rec['details'];
  return normalizeVehicle(rec, []);
}

/** A record stored before the normalised record carried the figures (its `pricing` without them). */
function storedBefore(lot: string): Vehicle {
  const v = iaai(lot, '$10,000 USD', '$1,000 USD');
  const { acv_usd: _a, est_repair_usd: _r, repair_to_value: _t, ...pricing } = v.pricing;
  return { ...v, pricing: pricing as Vehicle['pricing'] };
}

async function seed(store: Store): Promise<void> {
  const lots = [
    iaai('70000001', '$10,000 USD', '$2,500 USD'), // 25 %
    iaai('70000002', '$18,349 USD', '$20,821 USD'), // 113 %
    iaai('70000003', '$8,000 USD', '$3,200 USD'), // exactly 40 %
    iaai('70000004', '$12,000 USD', null), // ACV, no repair cost
    iaai('70000005', 'N/A', '$4,000 USD'), // a bad ACV: unknown
    copart('50314744'),
    storedBefore('70000006'),
  ];
  await store.transaction(async () => {
    for (const [i, v] of lots.entries()) await store.lots.observe(v, 1_000 + i, 'test');
  });
}

function lotsService(store: Store): LotsService {
  return new LotsService({
    lots: store.lots,
    library: store.library,
    watches: store.watches,
    desk: store.desk,
    engine: { ingest: () => Promise.reject(new Error('no engine in this test')) } as never,
    clock: new FakeClock(),
    client: () => null,
    clientOrThrow: () => {
      throw new Error('no service in this test');
    },
  });
}

/** library.search as the contract takes it (its defaults filled). */
async function search(store: Store, input: Record<string, unknown>) {
  const r = await lotsService(store).searchLibrary(contract['library.search'].input.parse(input));
  return { keys: r.lots.map((l) => l.lot_key).sort(), total: r.total, lots: r.lots };
}

describe('the Library filters on the record’s estimates', () => {
  it('repair to value at most N %: known ratios at or under N only, unknown figures left out', async () => {
    const { s } = stores();
    await seed(s);
    expect(await search(s, { repair_to_value_max_percent: 40 })).toMatchObject({
      keys: ['iaai:70000001', 'iaai:70000003'],
      total: 2,
    });
    expect((await search(s, { repair_to_value_max_percent: 39 })).keys).toEqual(['iaai:70000001']);
    expect((await search(s, { repair_to_value_max_percent: 200 })).keys).toEqual([
      'iaai:70000001',
      'iaai:70000002',
      'iaai:70000003',
    ]);
  });

  it('has ACV: only records carrying one (never Copart, never a bad or an old record)', async () => {
    const { s } = stores();
    await seed(s);
    expect(await search(s, { has_acv: true })).toMatchObject({
      keys: ['iaai:70000001', 'iaai:70000002', 'iaai:70000003', 'iaai:70000004'],
      total: 4,
    });
    expect((await search(s, { has_acv: true, repair_to_value_max_percent: 30 })).keys).toEqual([
      'iaai:70000001',
    ]);
  });

  it('combines with the search words and pages with a total of every passing lot', async () => {
    const { s } = stores();
    await seed(s);
    expect((await search(s, { q: '70000002', repair_to_value_max_percent: 200 })).keys).toEqual([
      'iaai:70000002',
    ]);
    expect((await search(s, { q: '70000002', repair_to_value_max_percent: 100 })).keys).toEqual([]);
    expect((await search(s, { q: '-70000001', repair_to_value_max_percent: 100 })).keys).toEqual([
      'iaai:70000003',
    ]);
    const page = await search(s, { has_acv: true, limit: 3, offset: 0 });
    expect(page.lots).toHaveLength(3);
    expect(page.total).toBe(4);
    expect((await search(s, { has_acv: true, limit: 3, offset: 3 })).lots).toHaveLength(1);
  });

  it('without the filters lists every lot, each with its repair to value or null', async () => {
    const { s } = stores();
    await seed(s);
    const all = await search(s, {});
    expect(all.total).toBe(7);
    const ratio = Object.fromEntries(all.lots.map((l) => [l.lot_key, l.repair_to_value]));
    expect(ratio['iaai:70000001']).toBe(0.25);
    expect(ratio['iaai:70000003']).toBe(0.4);
    expect(ratio['iaai:70000004']).toBeNull();
    expect(ratio['copart:50314744']).toBeNull();
    expect(ratio['iaai:70000006']).toBeNull();
  });

  it('refuses a percentage outside 1 to 1,000 with a field message', () => {
    const r = contract['library.search'].input.safeParse({ repair_to_value_max_percent: 0 });
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues[0]?.message).toBe('Enter 1 to 1,000 %.');
  });
});

describe('the CSV carries the estimates', () => {
  it('in USD and the ratio, empty where unknown', async () => {
    const { s } = stores();
    await seed(s);
    const desk = new DeskService({
      store: s,
      clock: new FakeClock(),
      settings: () => DeskSettingsSchema.parse({}),
      searchPage: () => Promise.reject(new Error('no service in this test')),
      source: () => 'demo',
      calendar: null,
      libraryKeys: () => Promise.resolve([]),
    });
    const out = await desk.exportCsv({ lot_keys: ['iaai:70000002', 'iaai:70000004', 'copart:50314744'] });
    const rows = parse(out.csv, { columns: true }) as Record<string, string>[];
    const cols = Object.keys(rows[0]!);
    expect(cols.slice(cols.indexOf('service_estimate_from_usd'), cols.indexOf('buyer_fees_usd'))).toEqual([
      'service_estimate_from_usd',
      'service_estimate_to_usd',
      'acv_usd',
      'est_repair_usd',
      'repair_to_value',
    ]);
    const pick = (r: Record<string, string>) => [
      r['lot_key'],
      r['service_estimate_from_usd'],
      r['acv_usd'],
      r['est_repair_usd'],
      r['repair_to_value'],
    ];
    expect(rows.map(pick)).toEqual([
      ['iaai:70000002', '1450', '18349', '20821', '1.1347'],
      ['iaai:70000004', '1450', '12000', '', ''],
      ['copart:50314744', '1450', '', '', ''],
    ]);
  });
});

describe('the rule "repair cost under N % of ACV" over the store', () => {
  const change = (
    lotKey: string,
    kind: Change['kind'] = 'new_match',
    after: Change['after'] = null,
  ): Change => ({
    kind,
    lot_key: lotKey,
    vin: null,
    field: kind === 'sale_result' ? 'sale_price_usd' : null,
    before: null,
    after,
    related_lot_key: null,
    outcome: kind === 'sale_result' ? 'sold' : null,
    observed_at: 5_000,
  });

  it('a saved search alerts only the new matches whose stored figures are under the share', async () => {
    const { s } = stores();
    await seed(s);
    const clock = new FakeClock();
    const recorder = new Recorder({
      store: s,
      quota: () => null,
      clock,
      quiet: () => QUIET_OFF,
      tzOffsetMinutes: () => 0,
    });
    const search = (await s.searches.getSearch(
      await s.searches.insertSearch(
        {
          name: 'Cheap repairs',
          params: {},
          schedule: '0 * * * *',
          rules: AlertRulesSchema.parse({ repair_under_acv_percent: 40 }),
          max_pages: 1,
          paused: false,
          is_example: false,
        },
        clock.now(),
      ),
    ))!;
    const keys = [
      'iaai:70000001', // 25 %
      'iaai:70000002', // 113 %
      'iaai:70000003', // exactly 40 %: not under
      'iaai:70000004', // no repair cost
      'copart:50314744', // no figures
      'iaai:70000006', // stored before the figures were read
    ];
    expect(
      (
        await recorder.record(
          keys.map((k) => change(k)),
          clock.now(),
          () => null,
          search,
        )
      ).alerts,
    ).toBe(1);
    const alerts = await s.alerts.list(false, Number.MAX_SAFE_INTEGER, 10);
    expect(alerts.map((a) => [a.lot_key, a.body])).toEqual([
      [
        'iaai:70000001',
        'Bid $9,250 · Auction Tue Aug 4, 1:30 PM · Repair 25% of ACV, under your 40% · iaai lot 70000001 · Saved search “Cheap repairs”',
      ],
    ]);
  });

  it('a watch on a Copart lot still hears its sale result, told the figure is unknown', async () => {
    const { s } = stores();
    await seed(s);
    const clock = new FakeClock();
    const recorder = new Recorder({
      store: s,
      quota: () => null,
      clock,
      quiet: () => QUIET_OFF,
      tzOffsetMinutes: () => 0,
    });
    await s.watches.insertWatch(
      {
        kind: 'lot',
        vin: null,
        lot_key: 'copart:50314744',
        label: 'Copart S5',
        rules: AlertRulesSchema.parse({ repair_under_acv_percent: 40 }),
        is_example: false,
      },
      clock.now(),
    );
    const sold = change('copart:50314744', 'sale_result', 9_250);
    expect((await recorder.record([sold], clock.now(), () => null, null)).alerts).toBe(1);
    const [alert] = await s.alerts.list(false, Number.MAX_SAFE_INTEGER, 10);
    expect(alert!.body).toBe(
      'Repair to ACV unknown (no ACV or estimated repair cost), so not under your 40% · copart lot 50314744 · Watch “Copart S5”',
    );
  });
});
