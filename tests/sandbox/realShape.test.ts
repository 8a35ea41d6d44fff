import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDemoService } from '../../src/sandbox/demo';
import { DEMO_KEY, VENDOR_SAMPLES, createSandbox } from '../../src/sandbox/index';
import { exportOf } from '../../src/sandbox/realShape';
import { bothDialects, type Harness, type Rec, START, startHarness } from './harness';

// The sandbox as the real service's twin (its default shape), checked against what the real service returns:
// docs/service-contract.md and the survey of 68 real records (fixtures/real-records-field-survey.txt, so the test
// needs nothing outside the repo). The specification's dialect (`shape: 'spec'`) is checked alongside where the two
// differ.

let h: Harness;
let hs: Harness;
bothDialects((real, spec) => ([h, hs] = [real, spec]));

// ---- the survey ---------------------------------------------------------------------------------------------

type SurveyType = 'boolean' | 'number' | 'string' | 'date-time' | 'date' | 'null' | 'list';
interface SurveyPath {
  path: string;
  type: SurveyType;
}

/**
 * Numerals the real service sends as strings (the survey prints values without quotes): the lot number (spec
 * Vehicle.lot_number is a string; the OpenAPI example "45416833"), a ZIP code (leading zeros, as the raw
 * details.attributes.Zip "01464" shows) and the engine size (docs/service-contract.md "Records": size_l is a string,
 * "3.0").
 */
const STRING_NUMERALS = new Set(['lot_number', 'facility.zip', 'vehicle_specs.engine.size_l']);
/**
 * Paths that are null on some sandbox records though all 68 surveyed (ended, sold) records had a value:
 * last_sold_status / last_sold_day while a lot is open or when it ended unsold
 * (docs/service-contract.md "Sale results"); buy_now_usd without a Buy Now price (spec PricingInfo: number or null);
 * secondary_damage when the vehicle has a single damage; engine size_l and layout of an electric vehicle, which has
 * neither.
 */
const NULLABLE = new Set([
  'auction.last_sold_status',
  'auction.last_sold_day',
  'pricing.buy_now_usd',
  'condition.secondary_damage',
  'vehicle_specs.engine.size_l',
  'vehicle_specs.engine.layout',
]);

/** Every path of the survey outside `details`, with the type its samples show (EMPTY or no sample: null). */
function surveyPaths(): SurveyPath[] {
  const text = readFileSync(new URL('./fixtures/real-records-field-survey.txt', import.meta.url), 'utf8');
  const out: SurveyPath[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*\d+\/\d+\s+(EMPTY\s+)?(\S+)\s*(.*)$/.exec(line);
    if (!m) continue;
    const path = m[2] as string;
    if (path.startsWith('details.')) continue;
    if (path.endsWith('[]')) {
      out.push({ path: path.slice(0, -2), type: 'list' });
      continue;
    }
    const samples = (m[3] ?? '').trim();
    if (m[1] || samples === '') {
      out.push({ path, type: 'null' });
      continue;
    }
    const values = samples.split('; ');
    let type: SurveyType = 'string';
    if (values.every((x) => x === 'True' || x === 'False')) type = 'boolean';
    else if (values.every((x) => /^-?\d+(\.\d+)?$/.test(x)))
      type = STRING_NUMERALS.has(path) ? 'string' : 'number';
    else if (values.every((x) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/.test(x))) type = 'date-time';
    else if (values.every((x) => /^\d{4}-\d\d-\d\d$/.test(x))) type = 'date';
    out.push({ path, type });
  }
  return out;
}

const at = (rec: Rec, path: string): { found: boolean; value: unknown } => {
  let cur: unknown = rec;
  for (const k of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(k in (cur as Rec)))
      return { found: false, value: undefined };
    cur = (cur as Rec)[k];
  }
  return { found: true, value: cur };
};

function hasType(value: unknown, type: SurveyType): boolean {
  switch (type) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'date-time':
      return typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/.test(value);
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d\d-\d\d$/.test(value);
    case 'null':
      return value === null;
    case 'list':
      return Array.isArray(value);
  }
}

/** Leaf paths of a record outside `details` (lists are leaves). */
function leafPaths(rec: Rec, prefix = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(rec)) {
    const p = prefix ? `${prefix}.${k}` : k;
    if (p === 'details') continue;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.push(...leafPaths(v as Rec, p));
    else out.push(p);
  }
  return out;
}

/** Real-shape records of open and ended lots of both platforms, from list and detail answers. */
async function sampleRecords(on: Harness): Promise<Rec[]> {
  const out: Rec[] = [];
  for (const q of [
    'platform=copart',
    'platform=iaai',
    'platform=copart&lot_sub_status=Ended',
    'platform=iaai&lot_sub_status=Ended',
    'fuel_type=Electric',
    'lot_status=Buy Now',
  ]) {
    out.push(...((await on.json(`/vehicles?per_page=20&${q}`)).body['data'] as Rec[]));
  }
  for (const s of VENDOR_SAMPLES) out.push((await on.json(`/vehicles/${s.vin}`)).body['data'] as Rec);
  return out;
}

describe('real-shape records carry every path of the survey outside details, with its type', () => {
  const survey = surveyPaths();
  let records: Rec[];
  beforeAll(async () => {
    records = await sampleRecords(h);
  });

  it('the survey parses into the paths the task names', () => {
    const paths = survey.map((p) => p.path);
    expect(paths.length).toBe(81);
    for (const p of [
      'ad',
      'auction.countdown.days',
      'condition.run_condition.class_hint',
      'facility.office_name',
      'media.items',
      'media.thumbs',
      'odometer.km',
      'pricing.estimated_cost.text',
      'sale_document.sale_document_group',
      'seller.text_class',
      'vehicle_specs.engine.size_l',
      'year',
    ]) {
      expect(paths, p).toContain(p);
    }
    expect(paths.some((p) => p.startsWith('details'))).toBe(false);
    expect(survey.find((p) => p.path === 'subLot')!.type).toBe('boolean');
    expect(survey.find((p) => p.path === 'auction.auction_at')!.type).toBe('date-time');
    expect(survey.find((p) => p.path === 'auction.timed_end_at')!.type).toBe('null');
  });

  it('on every sampled record: each path present, of the survey type (or null where the sandbox may say so)', () => {
    expect(records.length).toBeGreaterThan(100);
    for (const rec of records) {
      for (const { path, type } of survey) {
        const { found, value } = at(rec, path);
        expect(found, `${rec['lot_number']}: ${path} missing`).toBe(true);
        const ok = hasType(value, type) || (NULLABLE.has(path) && value === null);
        expect(ok, `${rec['lot_number']}: ${path} = ${JSON.stringify(value)} is not ${type}`).toBe(true);
      }
    }
  });

  it('each typed path has its survey type on at least one record (null is never the whole story)', () => {
    for (const { path, type } of survey) {
      if (type === 'null') continue;
      expect(
        records.some(
          (r) =>
            hasType(at(r, path).value, type) &&
            (type !== 'list' || (at(r, path).value as unknown[]).length > 0),
        ),
        path,
      ).toBe(true);
    }
  });

  it('lists: thumbs are URLs, items are {type: image, thumb, large}', () => {
    const open = records.filter((r) => r['auction']['state'] === 'open' && r['media']['items'].length > 0);
    expect(open.length).toBeGreaterThan(0);
    for (const r of open) {
      expect(r['media']['thumbs'].length).toBe(r['media']['thumbs_count']);
      for (const t of r['media']['thumbs'])
        expect(t).toMatch(/^https:\/\/(cs\.copart\.com|vis\.iaai\.com)\//);
      for (const i of r['media']['items'])
        expect(i).toEqual({ type: 'image', thumb: expect.any(String), large: expect.any(String) });
    }
  });

  it('no path outside the survey (the record is the real one, not the spec one with extras)', () => {
    const known = new Set(survey.map((p) => p.path));
    for (const rec of records)
      for (const p of leafPaths(rec)) expect(known.has(p), `${rec['lot_number']}: ${p}`).toBe(true);
  });

  it('the real vocabulary and value styles', () => {
    for (const r of records) {
      expect(['copart', 'iaai']).toContain(r['platform']);
      expect(r['platform_id']).toBe(r['platform'] === 'copart' ? 1 : 2);
      expect(['open', 'finished']).toContain(r['auction']['state']);
      expect(['RUNS AND DRIVES', 'ENGINE START PROGRAM', 'STATIONARY / NO INFORMATION']).toContain(
        r['condition']['run_condition']['value'],
      );
      expect(['Runs and drives', 'Engine start program', 'Stationary / no information']).toContain(
        r['condition']['run_condition']['label'],
      );
      expect(['insurance', 'non_insurance', 'unknown']).toContain(r['seller']['type']);
      expect(['approved', 'warning']).toContain(r['sale_document']['sale_document_group']);
      expect(r['sale_document']['type']).toBe(
        r['sale_document']['sale_document_group'] === 'approved' ? 'success' : 'danger',
      );
      expect(['All Wheel Drive', 'Front Wheel Drive', 'Rear Wheel Drive']).toContain(
        r['vehicle_specs']['drive_type'],
      );
      expect(r['odometer']['km']).toBe(Math.round(r['odometer']['mi'] * 1.609344));
      expect(r['location']['display']).toMatch(/^[A-Za-z .'-]+ \([A-Z]{2}\)$/);
      expect(r['location']['state']).toBeNull();
      expect(r['ad']).toBe(r['auction']['auction_at']);
      expect(r['auction']['full_date']).toBe(r['auction']['auction_at']);
      expect(r['auction']['formatted']).toMatch(/^[A-Z][a-z]{2} \d\d, \d{4} \d\d:\d\d$/);
      expect(r['slug_vin'].endsWith(`-${r['vin']}`)).toBe(true);
      const size = r['vehicle_specs']['engine']['size_l'];
      if (r['vehicle_specs']['fuel_type'] === 'Electric') expect(size).toBeNull();
      else expect(size).toMatch(/^\d+\.\d$/);
      expect(r['pricing']['estimated_cost']['text']).toMatch(/^\$[\d,]+ - \$[\d,]+$/);
    }
    // Damage words as the real records spell them, collision words included.
    const damages = new Set(records.map((r) => r['condition']['primary_damage']));
    expect(
      [...damages].some((d) =>
        ['Front end', 'Rear end', 'Left Front', 'Right Front', 'All over'].includes(d),
      ),
    ).toBe(true);
    expect(records.some((r) => r['seller']['type'] === 'unknown' && r['seller']['name'] === 'unknown')).toBe(
      true,
    );
  });

  it('IAAI records carry a small raw details (attributes, sale_information with ACV and repair estimate); Copart none', () => {
    for (const r of records) {
      if (r['platform'] === 'copart') {
        expect(r).not.toHaveProperty('details');
        continue;
      }
      const a = r['details']['attributes'] as Rec;
      expect(Object.keys(r['details'])).toEqual(['attributes', 'sale_information']);
      // The survey's spellings: "$18,349 USD" text in sale_information, the repair estimate also a number.
      const sale = r['details']['sale_information'] as Rec;
      expect(sale['ActualCashValue']).toMatch(/^\$\d{1,3}(,\d{3})* USD$/);
      expect(sale['EstimatedRepairCost']).toMatch(/^\$\d{1,3}(,\d{3})* USD$/);
      expect(Number(sale['EstimatedRepairCost'].replace(/[$, USD]/g, ''))).toBe(a['EstRepairCost']);
      expect(typeof a['TitleBrand']).toBe('string');
      expect(Object.keys(a).length).toBeGreaterThanOrEqual(12);
      expect(a['Id']).toMatch(/^\d+~US$/);
      expect(a['StockNumber']).toBe(r['lot_number']);
      expect(a['VIN']).toBe(r['vin']);
      expect(a['ODOValue']).toBe(r['odometer']['mi']);
      expect(a['ODOUoM']).toBe('mi');
      expect(a['Keys']).toBe(r['condition']['has_key']);
      expect(['AWD', 'FWD', 'RWD']).toContain(a['DriveLineTypeDesc']);
      expect(a['BranchName']).toMatch(/ \([A-Z]{2}\)$/);
      expect(typeof a['LossTypeDesc']).toBe('string');
      expect(typeof a['EngineInformation']).toBe('string');
    }
  });
});

describe('sale_document.export as the real service sends it', () => {
  /** Open records of one sale document type code, a few pages of the real shape. */
  async function ofDocument(code: string): Promise<Rec[]> {
    const body = (await h.json(`/vehicles?per_page=20&sale_document_type=${code}`)).body;
    return body['data'] as Rec[];
  }

  it('a certificate of destruction and parts-only papers never export; a clear title always does', async () => {
    for (const code of ['certificate_of_destruction', 'parts_only']) {
      const recs = await ofDocument(code);
      expect(recs.length, code).toBeGreaterThan(0);
      for (const r of recs) expect(r['sale_document']['export'], `${code} ${r['lot_number']}`).toBe(false);
    }
    const clear = await ofDocument('clean');
    expect(clear.length).toBeGreaterThan(0);
    for (const r of clear) expect(r['sale_document']['export']).toBe(true);
  });

  it('salvage papers carry both true and false, as the surveyed ones do, the same lots for a seed', async () => {
    const salvage = await ofDocument('salvage');
    const flags = salvage.map((r) => r['sale_document']['export'] as boolean);
    expect(flags).toContain(true);
    expect(flags).toContain(false);
    const again = await ofDocument('salvage');
    expect(again.map((r) => r['sale_document']['export'])).toEqual(flags);
    // Another seed marks other lots.
    const lots = Array.from({ length: 200 }, (_, id) => ({ id, docName: 'SALVAGE' }));
    expect(lots.map((l) => exportOf(7, l))).not.toEqual(lots.map((l) => exportOf(8, l)));
    const share = lots.filter((l) => !exportOf(7, l)).length / lots.length;
    expect(share).toBeGreaterThan(0.1);
    expect(share).toBeLessThan(0.3);
  });
});

describe('no spec-only flat field in the real shape; the spec shape keeps them', () => {
  const specOnly = [
    'color',
    'damage',
    'fuel_type',
    'transmission',
    'drive_type',
    'auction.lot_status',
    'auction.lot_sub_status',
    'pricing.sale_price_usd',
    'media.photos',
    'location.facility_id',
  ];
  it('real shape', async () => {
    const records = await sampleRecords(h);
    for (const r of records) {
      for (const p of specOnly) expect(at(r, p).found, `${r['lot_number']}: ${p}`).toBe(false);
      expect(typeof r['odometer']).toBe('object');
    }
    const hist = (await h.json(`/vehicles/${VENDOR_SAMPLES[0]!.vin}/history`)).body['data'] as Rec;
    expect(Array.isArray(hist)).toBe(false);
  });
  it('spec shape', async () => {
    const records = ((await hs.json('/vehicles?per_page=20')).body['data'] as Rec[]).concat(
      (await hs.json('/vehicles?per_page=20&lot_sub_status=Ended')).body['data'] as Rec[],
    );
    expect(records.length).toBe(40);
    for (const r of records) {
      for (const p of specOnly) expect(at(r, p).found, `${r['lot_number']}: ${p}`).toBe(true);
      expect(typeof r['odometer']).toBe('number');
      expect(['open', 'live', 'sold', 'approval', 'unsold']).toContain(r['auction']['state']);
    }
  });
});

describe('auction state and sale result on the wire', () => {
  const get = async (lotNumber: string): Promise<Rec> =>
    (await h.json(`/vehicles/${lotNumber}`)).body['data'] as Rec;
  it('finished lots: Sold, Sold on Approval, and ended unsold', async () => {
    const m = h.sb.market;
    for (const [state, word] of [
      ['sold', 'Sold'],
      ['approval', 'Sold on Approval'],
    ] as const) {
      const lots = m.lots.filter((l) => l.state === state).slice(0, 5);
      expect(lots.length, state).toBe(5);
      for (const l of lots) {
        const r = await get(l.lotNumber);
        expect(r['auction']).toMatchObject({
          state: 'finished',
          last_sold_status: word,
          last_sold_day: new Date(l.endedAt!).toISOString().slice(0, 10),
        });
        expect(r['pricing']['last_sold_price_usd']).toBe(l.salePrice);
        expect(r['pricing']['last_sold_price_usd']).toBeGreaterThan(0);
        expect(r['auction']['diff_minutes']).toBeLessThan(0);
        expect(r['auction']['countdown']).toEqual({ days: 0, hours: 0, minutes: 0 });
        expect(r['media']['thumbs']).toEqual([]);
      }
    }
    const unsold = m.lots.filter((l) => l.state === 'unsold').slice(0, 5);
    expect(unsold.length).toBe(5);
    for (const l of unsold) {
      const r = await get(l.lotNumber);
      expect(r['auction']).toMatchObject({
        state: 'finished',
        last_sold_status: null,
        last_sold_day: null,
        sold_timed: false,
      });
      expect(r['pricing']['last_sold_price_usd']).toBe(0);
    }
  });
  it('open and live lots read "open" with no result', async () => {
    const m = h.sb.market;
    const open = m.sorted.filter((l) => l.subStatus === 'Open').slice(0, 5);
    for (const l of open) {
      const r = await get(l.lotNumber);
      expect(r['auction']).toMatchObject({
        state: 'open',
        last_sold_status: null,
        last_sold_day: null,
        sold_buy_now: false,
        sold_timed: false,
      });
      expect(r['pricing']['last_sold_price_usd']).toBe(0);
      const ahead = l.auctionAt - m.now;
      expect(r['auction']['diff_minutes']).toBe(Math.round(ahead / 60_000));
      expect(r['auction']['countdown']['days']).toBe(Math.floor(ahead / 86_400_000));
    }
    const first = open[0]!;
    h.clock.t = m.timeline(first.lotNumber)!.liveAt + 1000;
    try {
      expect(m.findLot(first.lotNumber)!.subStatus).toBe('Open'); // brought to the new time by the next request
      const r = await get(first.lotNumber);
      expect(m.findLot(first.lotNumber)!.subStatus).toBe('Live');
      expect(r['auction']).toMatchObject({ state: 'open', last_sold_status: null });
    } finally {
      h.clock.t = START;
    }
  });
});

describe('history in the real shape', () => {
  it('{vehicle, history[]} of sales only, newest first, no lot numbers, per_page 50 by default', async () => {
    const m = h.sb.market;
    // A VIN with both a sale and an unsold listing: the unsold one is not a sale, so it is not listed.
    const [vin, lots] = [...m.byVin].find(
      ([, ls]) => ls.some((l) => l.state === 'unsold') && ls.some((l) => l.salePrice !== null),
    )!;
    const latest = lots[lots.length - 1]!;
    const { status, body } = await h.json(`/vehicles/${vin}/history`);
    expect(status).toBe(200);
    expect(body['ok']).toBe(true);
    expect(body['meta']).toEqual({ per_page: 50, next_cursor: null, prev_cursor: null });
    const data = body['data'] as Rec;
    expect(Object.keys(data).sort()).toEqual(['history', 'vehicle']);
    expect(data['vehicle']).toEqual({
      slug_vin: expect.stringMatching(new RegExp(`-${vin}$`)),
      vin,
      platform: latest.platform,
      lot_number: latest.lotNumber,
    });
    const sales = lots.filter((l) => l.salePrice !== null).sort((a, b) => b.auctionAt - a.auctionAt);
    expect(data['history']).toEqual(
      sales.map((l) => ({
        platform: l.platform,
        date: new Date(l.endedAt!).toISOString().slice(0, 10),
        price: l.salePrice,
        status: l.state === 'sold' ? 'Sold' : 'Sold on Approval',
      })),
    );
    for (const row of data['history'] as Rec[])
      expect(Object.keys(row).sort()).toEqual(['date', 'platform', 'price', 'status']);
  });
  it('pages by cursor', async () => {
    const vin = VENDOR_SAMPLES[0]!.vin;
    const p1 = (await h.json(`/vehicles/${vin}/history?per_page=1`)).body;
    expect((p1['meta'] as Rec)['per_page']).toBe(1);
    const next = (p1['meta'] as Rec)['next_cursor'] as string;
    expect(next).toEqual(expect.any(String));
    const p2 = (await h.json(`/vehicles/${vin}/history?per_page=1&cursor=${next}`)).body;
    const [a, b] = [(p1['data'] as Rec)['history'][0], (p2['data'] as Rec)['history'][0]];
    expect(a['date'] >= b['date']).toBe(true);
    expect((p2['meta'] as Rec)['next_cursor']).toBeNull();
    expect((await h.json(`/vehicles/${vin}/history?per_page=50`)).status).toBe(200);
  });
});

describe('filters in the real shape', () => {
  let data: Rec;
  beforeAll(async () => {
    data = (await h.json('/vehicles/filters')).body['data'] as Rec;
  });
  const values = (list: Rec[]): unknown[] => list.map((o) => o['value']);

  it('has exactly the 20 keys of the real body', () => {
    expect(Object.keys(data).sort()).toEqual(
      [
        'auction_date',
        'auction_type',
        'color',
        'cylinders',
        'damage',
        'drive_type',
        'engine_type',
        'fuel_type',
        'has_key',
        'location_filters',
        'lot',
        'make_model',
        'ranges',
        'running_condition',
        'sale_document_filters',
        'seller_type',
        'shipping',
        'today_only',
        'transmission',
        'types',
      ].sort(),
    );
  });
  it('the inner shapes docs/service-contract.md "Filters" gives', () => {
    expect(data['cylinders']).toEqual({ options: [1, 2, 3, 4, 5, 6, 8, 10, 12] });
    expect(data['engine_type']['options']).toContainEqual({ value: 'V', label: 'V - Engine' });
    expect(data['lot']['defaults']).toEqual({ lot_status: 'All', lot_sub_status: 'Open' });
    for (const k of ['status', 'sub_status'])
      for (const o of data['lot'][k])
        expect(o).toEqual({ value: expect.any(String), label: expect.any(String) });
    expect(data['make_model']['makes']).toContain('TOYOTA');
    expect(data['make_model']['models_by_make']['TOYOTA']).toContain('CAMRY');
    for (const o of data['running_condition']['options'])
      expect(o).toEqual({ value: expect.any(String), label: expect.any(String) });
    expect(data['seller_type']['param']).toBe('seller_type');
    for (const t of data['types'])
      expect(Object.keys(t).sort()).toEqual(['created_at', 'id', 'name', 'updated_at']);
    expect(data['ranges']['year']['min']).toBeLessThanOrEqual(data['ranges']['year']['max']);
  });
  it('every value the spec allows is offered, next to values it does not allow', () => {
    const spec = {
      damage: [
        'Fire',
        'Hail',
        'Theft',
        'Water',
        'Chemical',
        'Rollover',
        'Mechanical',
        'Vandalized',
        'Repossession',
      ],
      fuel_type: ['Diesel', 'Hybrid', 'Electric', 'Flexible', 'Gasoline', 'All others'],
      transmission: ['Manual', 'Unknown', 'Automatic'],
      drive_type: ['AWD', 'FWD', 'RWD'],
      running_condition: ['STATIONARY', 'NO INFORMATION', 'RUNS AND DRIVES', 'ENGINE START PROGRAM'],
      seller_type: ['dealer', 'finance', 'insurance', 'non_insurance'],
      has_key: ['No', 'All', 'With'],
      lot_status: ['All', 'Timed', 'Buy Now'],
      lot_sub_status: ['Live', 'Open', 'Ended'],
    };
    const offered: Record<keyof typeof spec, unknown[]> = {
      damage: data['damage']['options'],
      fuel_type: data['fuel_type']['options'],
      transmission: data['transmission']['options'],
      drive_type: values(data['drive_type']['options']),
      running_condition: values(data['running_condition']['options']),
      seller_type: values(data['seller_type']['options']),
      has_key: values(data['has_key']['options']),
      lot_status: values(data['lot']['status']),
      lot_sub_status: values(data['lot']['sub_status']),
    };
    for (const k of Object.keys(spec) as (keyof typeof spec)[])
      for (const v of spec[k]) expect(offered[k], `${k} ${v}`).toContain(v);
    // Like the real service: options the specification does not allow, which a client must leave out.
    expect(offered.damage.some((v) => !spec.damage.includes(v as string))).toBe(true);
    expect(offered.seller_type.some((v) => !spec.seller_type.includes(v as string))).toBe(true);
    // Damage options are include-only values: no collision words.
    for (const w of ['Front end', 'Rear end', 'Left Front', 'Right Front', 'Left side', 'All over'])
      expect(offered.damage).not.toContain(w);
    expect(data['types'].map((t: Rec) => t['name'])).toContain('AUTOMOBILE');
  });
  it('the spec shape keeps its own body', async () => {
    const spec = (await hs.json('/vehicles/filters')).body['data'] as Rec;
    expect(spec).toHaveProperty('makes');
    expect(spec).not.toHaveProperty('make_model');
  });
});

describe('the 429 of a spent quota', () => {
  for (const shape of ['real', 'spec'] as const) {
    it(`${shape} shape`, async () => {
      const q = await startHarness({ lots: 200, quota: { limit: 2, periodMs: 3_600_000 }, shape });
      try {
        expect((await q.get('/vehicles')).status).toBe(200);
        expect((await q.get('/usage')).status).toBe(200);
        const r = await q.get('/vehicles');
        expect(r.status).toBe(429);
        expect(r.headers.get('x-subscription-period-end')).toBe(
          new Date(START + 3_600_000).toISOString().replace('.000Z', '+00:00'),
        );
        expect(r.headers.get('x-subscription-remaining')).toBe('0');
        expect(r.headers.get('retry-after')).toBe('3600');
        const body = await r.json();
        if (shape === 'real') {
          expect(body).toEqual({
            ok: false,
            message: 'API request limit reached for current subscription period.',
            limit: 2,
            base_limit: 2,
            extra_limit: 0,
            used: 2,
            remaining: 0,
          });
        } else
          expect(body).toEqual({
            ok: false,
            status: 429,
            message: 'API quota exceeded for the current period.',
          });
      } finally {
        await q.close();
      }
    });
  }
});

describe("the vendor's sample identifiers", () => {
  const lotNumbers = ['51015256', '45416833', '78691915'];
  const vins = ['WBAVL1C58FVY28848', '5TFLA5DBXTX349827', '2HKRM4H7XEH623608'];
  it('each resolves on detail, history, shipping and related', async () => {
    for (const id of [...lotNumbers, ...vins]) {
      const detail = await h.json(`/vehicles/${id}`);
      expect(detail.status, id).toBe(200);
      const rec = detail.body['data'] as Rec;
      expect([rec['lot_number'], rec['vin']]).toContain(id);
      expect((await h.json(`/vehicles/${id}/history`)).status, id).toBe(200);
      const ship = await h.json(`/vehicles/${id}/shipping`);
      expect(ship.status, id).toBe(200);
      expect((ship.body['data'] as Rec[]).length, id).toBeGreaterThan(0);
      expect((await h.json(`/vehicles/${id}/related`)).status, id).toBe(200);
    }
    for (const n of lotNumbers) expect(h.sb.market.findLot(n)!.platform).toBe('copart');
    const histories = await Promise.all(
      vins.map(
        async (v) => ((await h.json(`/vehicles/${v}/history`)).body['data'] as Rec)['history'] as Rec[],
      ),
    );
    expect(histories.some((x) => x.length > 0)).toBe(true);
    // Also found by search, like any lot.
    expect(((await h.json('/vehicles?s=45416833')).body['data'] as Rec[])[0]!['vin']).toBe(
      '2HKRM4H7XEH623608',
    );
  });
  it('are there for every seed, deterministically, without changing the lot count', async () => {
    const a = createSandbox({ seed: 99, lots: 1000, startTime: START, now: () => START });
    const b = createSandbox({ seed: 99, lots: 1000, startTime: START, now: () => START });
    expect(a.market.lots.length).toBe(1000);
    for (const n of lotNumbers) {
      expect(a.market.findLot(n)).toBeDefined();
      expect({ ...a.market.findLot(n)!, steps: null, relistOf: null, relistedAs: null }).toEqual({
        ...b.market.findLot(n)!,
        steps: null,
        relistOf: null,
        relistedAs: null,
      });
    }
    expect(new Set(a.market.lots.map((l) => l.lotNumber)).size).toBe(1000);
    // A tiny market (unit tests) leaves them out, so its size is exact.
    expect(createSandbox({ seed: 99, lots: 10, startTime: START, now: () => START }).market.lots.length).toBe(
      10,
    );
  });
});

describe('choosing the shape', () => {
  it('createSandbox refuses an unknown shape', () => {
    expect(() => createSandbox({ lots: 10, shape: 'vendor' as never })).toThrow(RangeError);
    expect(createSandbox({ lots: 10 }).shape).toBe('real');
  });
  it('Demo mode answers in the real shape; LOTWATCH_SANDBOX_SHAPE=spec picks the spec one', async () => {
    const read = async (env: string | undefined): Promise<unknown> => {
      const saved = process.env['LOTWATCH_SANDBOX_SHAPE'];
      if (env === undefined) delete process.env['LOTWATCH_SANDBOX_SHAPE'];
      else process.env['LOTWATCH_SANDBOX_SHAPE'] = env;
      const demo = createDemoService({ lots: 300, startTime: START, now: () => START });
      try {
        const { baseUrl, apiKey } = await demo.get();
        expect(apiKey).toBe(DEMO_KEY);
        const body = (await (
          await fetch(`${baseUrl}/vehicles?per_page=1`, { headers: { 'X-API-Key': apiKey } })
        ).json()) as Rec;
        return body['data'][0]['odometer'];
      } finally {
        await demo.dispose();
        if (saved === undefined) delete process.env['LOTWATCH_SANDBOX_SHAPE'];
        else process.env['LOTWATCH_SANDBOX_SHAPE'] = saved;
      }
    };
    expect(await read(undefined)).toEqual({ mi: expect.any(Number), km: expect.any(Number) });
    expect(typeof (await read('spec'))).toBe('number');
  });
});
