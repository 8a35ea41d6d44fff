import { describe, expect, it } from 'vitest';
import { bothDialects, type Harness, type Rec, startHarness } from './harness';

// `h` answers in the real service's shapes (the default), `hs` in the specification's; same seed, same market.
let h: Harness;
let hs: Harness;
bothDialects((real, spec) => ([h, hs] = [real, spec]));

async function all(query: string, max = 2000): Promise<Rec[]> {
  const out: Rec[] = [];
  let cursor: string | null = null;
  do {
    const { body, status } = await h.json(
      `/vehicles?per_page=20&${query}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(status, JSON.stringify(body)).toBe(200);
    out.push(...(body['data'] as Rec[]));
    cursor = (body['meta'] as Rec)['next_cursor'];
  } while (cursor && out.length < max);
  return out;
}
const first = async (query: string, on: Harness = h): Promise<Rec[]> =>
  (await on.json(`/vehicles?${query}`)).body['data'] as Rec[];
/** The market's lot behind a record, for facts the real records do not show (lot_sub_status, cylinders, yard name). */
const lotOf = (r: Rec) => h.sb.market.findLot(r['lot_number'])!;
/** "TX" from a real record's location.display "Dallas (TX)": the only place the real shape names the state. */
const stateOf = (r: Rec): string => /\(([A-Z]{2})\)$/.exec(r['location']['display'])?.[1] ?? '';

describe('GET /vehicles filters really filter, in both shapes', () => {
  // [query, check of a spec-shape record, check of a real-shape record]. Filters act on the market, so both shapes
  // must also return the same lots in the same order; the real records show the fact under its real path.
  const cases: [string, (r: Rec) => boolean, (r: Rec) => boolean][] = [
    ['make=toyota', (r) => r['make'] === 'TOYOTA', (r) => r['make'] === 'TOYOTA'],
    ['make=HONDA&model=CR-V', (r) => r['model'] === 'CR-V', (r) => r['model'] === 'CR-V'],
    ['type=PICKUP', (r) => r['type'] === 'PICKUP', (r) => r['type'] === 'PICKUP'],
    [
      'year_from=2020&year_to=2022',
      (r) => r['year'] >= 2020 && r['year'] <= 2022,
      (r) => r['year'] >= 2020 && r['year'] <= 2022,
    ],
    [
      'price_min=1000&price_max=2000',
      (r) => r['pricing']['current_bid_usd'] >= 1000 && r['pricing']['current_bid_usd'] <= 2000,
      (r) => r['pricing']['current_bid_usd'] >= 1000 && r['pricing']['current_bid_usd'] <= 2000,
    ],
    [
      'auction_type=1',
      (r) => r['platform'] === 'copart',
      (r) => r['platform'] === 'copart' && r['platform_id'] === 1,
    ],
    [
      'auction_type=2',
      (r) => r['platform'] === 'iaai',
      (r) => r['platform'] === 'iaai' && r['platform_id'] === 2,
    ],
    ['platform=iaai', (r) => r['platform'] === 'iaai', (r) => r['platform'] === 'iaai'],
    [
      'color=Black&color=White',
      (r) => ['Black', 'White'].includes(r['color']),
      (r) => ['Black', 'White'].includes(r['vehicle_specs']['exterior_color']),
    ],
    ['color[]=Red', (r) => r['color'] === 'Red', (r) => r['vehicle_specs']['exterior_color'] === 'Red'],
    [
      'fuel_type=Diesel&fuel_type=Electric',
      (r) => ['Diesel', 'Electric'].includes(r['fuel_type']),
      (r) => ['Diesel', 'Electric'].includes(r['vehicle_specs']['fuel_type']),
    ],
    [
      'odometer_from=10000&odometer_to=50000',
      (r) => r['odometer'] >= 10000 && r['odometer'] <= 50000,
      (r) => r['odometer']['mi'] >= 10000 && r['odometer']['mi'] <= 50000,
    ],
    [
      'engine_size_from=3&engine_size_to=5',
      (r) => r['vehicle_specs']['engine']['size_l'] >= 3 && r['vehicle_specs']['engine']['size_l'] <= 5,
      (r) =>
        Number(r['vehicle_specs']['engine']['size_l']) >= 3 &&
        Number(r['vehicle_specs']['engine']['size_l']) <= 5,
    ],
    [
      'engine_hp_from=300',
      (r) => r['vehicle_specs']['engine']['hp'] >= 300,
      (r) => r['vehicle_specs']['engine']['hp'] >= 300,
    ],
    [
      'transmission=Manual',
      (r) => r['transmission'] === 'Manual',
      (r) => r['vehicle_specs']['transmission'] === 'Manual',
    ],
    [
      'cylinders=6&cylinders=8',
      (r) => [6, 8].includes(r['vehicle_specs']['cylinders']),
      (r) => [6, 8].includes(lotOf(r).v.cylinders) && /-(6|8) /.test(r['vehicle_specs']['engine']['raw']),
    ],
    [
      'drive_type=AWD',
      (r) => r['drive_type'] === 'AWD',
      (r) => r['vehicle_specs']['drive_type'] === 'All Wheel Drive',
    ],
    [
      'run_cond=STATIONARY',
      (r) => r['condition']['run_condition']['value'] === 'STATIONARY',
      (r) =>
        r['condition']['run_condition']['value'] === 'STATIONARY / NO INFORMATION' &&
        lotOf(r).runCond === 'STATIONARY',
    ],
    [
      'run_cond=NO INFORMATION',
      (r) => r['condition']['run_condition']['value'] === 'NO INFORMATION',
      (r) =>
        r['condition']['run_condition']['value'] === 'STATIONARY / NO INFORMATION' &&
        lotOf(r).runCond === 'NO INFORMATION',
    ],
    [
      'run_cond=RUNS AND DRIVES',
      (r) => r['condition']['run_condition']['value'] === 'RUNS AND DRIVES',
      (r) =>
        r['condition']['run_condition']['value'] === 'RUNS AND DRIVES' &&
        r['condition']['run_condition']['label'] === 'Runs and drives',
    ],
    [
      'run_cond=ENGINE START PROGRAM',
      (r) => r['condition']['run_condition']['value'] === 'ENGINE START PROGRAM',
      (r) => r['condition']['run_condition']['value'] === 'ENGINE START PROGRAM',
    ],
    [
      'damage=Hail&damage=Water',
      (r) => ['Hail', 'Water'].includes(r['damage']),
      (r) => ['Hail', 'Water'].includes(r['condition']['primary_damage']),
    ],
    [
      'damage=mechanical',
      (r) => r['damage'] === 'Mechanical',
      (r) => r['condition']['primary_damage'] === 'Mechanical',
    ],
    ['has_key=With', (r) => r['condition']['has_key'] === true, (r) => r['condition']['has_key'] === true],
    ['has_key=No', (r) => r['condition']['has_key'] === false, (r) => r['condition']['has_key'] === false],
    [
      'lot_status=Buy Now',
      (r) => r['auction']['lot_status'] === 'Buy Now' && r['pricing']['buy_now_usd'] > 0,
      (r) => r['auction']['is_buy_now'] === true && r['pricing']['buy_now_usd'] > 0,
    ],
    [
      'lot_status=Timed',
      (r) => r['auction']['lot_status'] === 'Timed',
      (r) => r['auction']['is_timed'] === true && r['auction']['is_buy_now'] === false,
    ],
    [
      'lot_sub_status=Ended',
      (r) => r['auction']['lot_sub_status'] === 'Ended',
      (r) => r['auction']['state'] === 'finished',
    ],
    [
      'loc_state=TX',
      (r) => r['location']['state'] === 'TX',
      (r) => stateOf(r) === 'TX' && r['location']['state'] === null,
    ],
    [
      'office_name=Dallas',
      (r) => r['facility']['name'] === 'Dallas',
      (r) => lotOf(r).facility.name === 'Dallas' && r['location']['display'] === 'Dallas (TX)',
    ],
    [
      'auction_date_from=2026-06-03&auction_date_to=2026-06-04',
      (r) => r['ad'] >= '2026-06-03' && r['ad'] < '2026-06-05',
      (r) => r['ad'] >= '2026-06-03' && r['ad'] < '2026-06-05',
    ],
    [
      'today_only=true',
      (r) => r['ad'].startsWith('2026-06-01'),
      (r) => r['auction']['auction_at'].startsWith('2026-06-01'),
    ],
    [
      'sale_document_pending=1',
      (r) => r['sale_document']['is_pending'] === true,
      (r) => r['sale_document']['is_pending'] === true,
    ],
    [
      'sale_document_type=salvage',
      (r) => r['sale_document']['type'] === 'salvage',
      (r) => r['sale_document']['name'] === 'SALVAGE' && r['sale_document']['type'] === 'success',
    ],
    [
      'seller_type=dealer',
      (r) => r['seller']['type'] === 'dealer',
      (r) => ['non_insurance', 'unknown'].includes(r['seller']['type']) && lotOf(r).sellerType === 'dealer',
    ],
    [
      'seller_type=insurance',
      (r) => r['seller']['type'] === 'insurance',
      (r) => ['insurance', 'unknown'].includes(r['seller']['type']),
    ],
    [
      'upcoming=only',
      (r) => Date.parse(r['auction']['auction_at']) > Date.UTC(2026, 5, 1, 12),
      (r) => Date.parse(r['auction']['auction_at']) > Date.UTC(2026, 5, 1, 12),
    ],
    [
      'zip=75201&radius=100',
      (r) => r['distance'] <= 100 && r['location']['state'] === 'TX',
      (r) => r['distance'] <= 100 && stateOf(r) === 'TX',
    ],
    ['zip=75201&radius=100&units=km', (r) => r['distance'] <= 100, (r) => r['distance'] <= 100],
  ];
  for (const [q, specPred, realPred] of cases) {
    it(q, async () => {
      const [specRows, realRows] = await Promise.all([
        first(`per_page=20&${q}`, hs),
        first(`per_page=20&${q}`, h),
      ]);
      expect(specRows.length, q).toBeGreaterThan(0);
      for (const r of specRows)
        expect(specPred(r), `spec ${q}: ${JSON.stringify(r).slice(0, 200)}`).toBe(true);
      for (const r of realRows)
        expect(realPred(r), `real ${q}: ${JSON.stringify(r).slice(0, 300)}`).toBe(true);
      expect(realRows.map((r) => r['lot_number'])).toEqual(specRows.map((r) => r['lot_number']));
    });
  }
  it('facility_id, has_shipping_price, s (lot, VIN, title) and updated_within_minutes', async () => {
    const [one] = await first('per_page=1&make=FORD');
    const facility = String(one!['facility']['id']);
    const sameYard = await first(`facility_id=${facility}`);
    expect(sameYard.length).toBeGreaterThan(0);
    expect(sameYard.every((r) => String(r['facility']['id']) === facility)).toBe(true);
    expect((await first(`s=${one!['lot_number']}`))[0]!['lot_number']).toBe(one!['lot_number']);
    expect((await first(`s=${one!['vin']}`))[0]!['vin']).toBe(one!['vin']);
    expect((await first('s=silverado')).every((r) => r['title'].includes('SILVERADO'))).toBe(true);
    const shipping = await first('has_shipping_price=true');
    expect(shipping.length).toBeGreaterThan(0);
    expect(shipping.every((r) => !['AK', 'HI'].includes(stateOf(r)))).toBe(true);
    expect((await first('lot_sub_status=Ended&updated_within_minutes=1')).length).toBe(0);
  });
  it('unknown free filter values give an empty page, not an error', async () => {
    for (const q of [
      'make=NOPE',
      'color=Plaid',
      'damage=Meteor',
      'zip=00000',
      'seller_type=pirate',
      'auction_type=1&platform=iaai',
    ]) {
      const { status, body } = await h.json(`/vehicles?${q}`);
      expect(status, q).toBe(200);
      expect(body['data'], q).toEqual([]);
      expect(body['meta']).toEqual({ per_page: 20, next_cursor: null, prev_cursor: null });
    }
  });
  it('defaults: lot_sub_status Open, per_page 20, order by auction date then update time', async () => {
    const rows = await first('', hs);
    expect(rows).toHaveLength(20);
    expect(rows.every((r) => r['auction']['lot_sub_status'] === 'Open')).toBe(true);
    const keys = rows.map((r) => `${r['ad']}|${r['updated_at']}`);
    expect([...keys].sort()).toEqual(keys);
    // The real records carry no lot_sub_status: they read "open" (live lots too), in the same order.
    const real = await first('');
    expect(real.map((r) => r['lot_number'])).toEqual(rows.map((r) => r['lot_number']));
    expect(real.every((r) => r['auction']['state'] === 'open' && lotOf(r).subStatus === 'Open')).toBe(true);
  });
});

describe('cursor pagination', () => {
  it('walks forward and back with next_cursor and prev_cursor, Laravel-style nulls', async () => {
    const p1 = (await h.json('/vehicles?per_page=5&make=TOYOTA')).body;
    expect((p1['meta'] as Rec)['prev_cursor']).toBeNull();
    const next = (p1['meta'] as Rec)['next_cursor'] as string;
    expect(JSON.parse(Buffer.from(next, 'base64url').toString())).toMatchObject({ _pointsToNextItems: true });
    const p2 = (await h.json(`/vehicles?per_page=5&make=TOYOTA&cursor=${next}`)).body;
    const back = (
      await h.json(`/vehicles?per_page=5&make=TOYOTA&cursor=${(p2['meta'] as Rec)['prev_cursor']}`)
    ).body;
    expect((back['data'] as Rec[]).map((r) => r['lot_number'])).toEqual(
      (p1['data'] as Rec[]).map((r) => r['lot_number']),
    );
    expect((back['meta'] as Rec)['prev_cursor']).toBeNull();
    const ids = new Set((p1['data'] as Rec[]).map((r) => r['lot_number']));
    for (const r of p2['data'] as Rec[]) expect(ids.has(r['lot_number'])).toBe(false);
  });
  it('a full walk sees every matching lot once and ends with next_cursor null', async () => {
    const rows = await all('make=TESLA');
    expect(new Set(rows.map((r) => r['lot_number'])).size).toBe(rows.length);
    const count = h.sb.market.lots.filter((l) => l.v.spec.make === 'TESLA' && l.subStatus === 'Open').length;
    expect(rows.length).toBe(count);
  });
});

describe('validation (422 in Laravel wording)', () => {
  const cases: [string, string, string][] = [
    ['/vehicles?per_page=abc', 'per_page', 'The per page field must be an integer.'],
    ['/vehicles?per_page=0', 'per_page', 'The per page field must be at least 1.'],
    ['/vehicles?per_page=21', 'per_page', 'The per page field must not be greater than 20.'],
    ['/vehicles?year_from=x', 'year_from', 'The year from field must be an integer.'],
    ['/vehicles?price_min=cheap', 'price_min', 'The price min field must be a number.'],
    ['/vehicles?lot_status=Sold', 'lot_status', 'The selected lot status is invalid.'],
    ['/vehicles?lot_sub_status=Closed', 'lot_sub_status', 'The selected lot sub status is invalid.'],
    ['/vehicles?auction_type=3', 'auction_type', 'The selected auction type is invalid.'],
    ['/vehicles?platform=ebay', 'platform', 'The selected platform is invalid.'],
    ['/vehicles?units=ft', 'units', 'The selected units is invalid.'],
    ['/vehicles?today_only=maybe', 'today_only', 'The today only field must be true or false.'],
    [
      '/vehicles?auction_date_from=2026-13-01',
      'auction_date_from',
      'The auction date from field must be a valid date.',
    ],
    [
      '/vehicles?auction_date_from=2026-06-05&auction_date_to=2026-06-01',
      'auction_date_to',
      'The auction date to field must be a date after or equal to auction date from.',
    ],
    ['/vehicles?radius=10', 'zip', 'The zip field is required when radius is present.'],
    ['/vehicles?cylinders=four', 'cylinders.0', 'The cylinders.0 field must be an integer.'],
    ['/vehicles?cursor=eyJmb28iOjF9', 'cursor', 'The cursor field format is invalid.'],
    ['/vehicles/WAUC4CF57/history', 'vin', 'The vin field must be 17 characters.'],
    ['/vehicles/x/history?per_page=51', 'per_page', 'The per page field must not be greater than 50.'],
    ['/locations?units=yd', 'units', 'The selected units is invalid.'],
    ['/image-proxy', 'url', 'The url field is required.'],
  ];
  for (const [path, field, msg] of cases) {
    it(path, async () => {
      const { status, body } = await h.json(path);
      expect(status).toBe(422);
      expect((body['errors'] as Rec)[field]).toEqual([msg]);
      expect(body['message']).toBe(msg);
    });
  }
  it('spec shape: history per_page stops at the spec limit, 20', async () => {
    const { status, body } = await hs.json('/vehicles/x/history?per_page=21');
    expect(status).toBe(422);
    expect((body['errors'] as Rec)['per_page']).toEqual(['The per page field must not be greater than 20.']);
  });
  it('several failures: message counts the others', async () => {
    const { body } = await h.json('/vehicles?per_page=0&year_from=x');
    expect(body['message']).toBe('The per page field must be at least 1. (and 1 more error)');
  });
});

describe('records, detail, history, related, shipping, locations', () => {
  it('VINs carry valid check digits and lots are unique', async () => {
    const { vinCheckDigit } = await import('../../src/sandbox/catalog');
    for (const l of h.sb.market.lots) expect(l.v.vin[8]).toBe(vinCheckDigit(l.v.vin));
    expect(new Set(h.sb.market.lots.map((l) => l.lotNumber)).size).toBe(h.sb.market.lots.length);
  });
  it('spec shape: history lists the ended lots of the VIN as records, newest first, paginated', async () => {
    const vin = [...hs.sb.market.byVin].find(
      ([, ls]) => ls.filter((l) => l.subStatus === 'Ended').length >= 2,
    )![0];
    const p1 = (await hs.json(`/vehicles/${vin}/history?per_page=1`)).body;
    const p2 = (
      await hs.json(`/vehicles/${vin}/history?per_page=1&cursor=${(p1['meta'] as Rec)['next_cursor']}`)
    ).body;
    const a = (p1['data'] as Rec[])[0]!;
    const b = (p2['data'] as Rec[])[0]!;
    expect(a['vin']).toBe(vin);
    expect(b['vin']).toBe(vin);
    expect(a['ad'] >= b['ad']).toBe(true);
    expect(a['auction']['lot_sub_status']).toBe('Ended');
  });
  it('related lists future lots of the same platform, make and model', async () => {
    const [one] = await first('make=FORD&model=F-150&per_page=1');
    const rel = (await h.json(`/vehicles/${one!['lot_number']}/related`)).body['data'] as Rec[];
    expect(rel.length).toBeGreaterThan(0);
    for (const r of rel) {
      expect([r['platform'], r['make'], r['model']]).toEqual([one!['platform'], 'FORD', 'F-150']);
      expect(r['lot_number']).not.toBe(one!['lot_number']);
    }
  });
  it('shipping prices grow with distance to the port, and ports= selects', async () => {
    const miami = h.sb.market.lots.find((l) => l.facility.city === 'Miami' && l.facility.hasShipping)!;
    const all = (await h.json(`/vehicles/${miami.lotNumber}/shipping`)).body['data'] as Rec[];
    expect(all.map((p) => p['port'])).toEqual([
      'Chicago',
      'NY',
      'Miami',
      'Savannah',
      'Norfolk',
      'Houston',
      'LA',
      'Seattle',
      'Moto_ATV',
    ]);
    const price = (p: string): number => all.find((x) => x['port'] === p)!['price'];
    expect(price('Miami')).toBeLessThan(price('Savannah'));
    expect(price('Savannah')).toBeLessThan(price('Seattle'));
    const two = (await h.json(`/vehicles/${miami.lotNumber}/shipping?ports=miami, Seattle`)).body[
      'data'
    ] as Rec[];
    expect(two.map((p) => p['port'])).toEqual(['Miami', 'Seattle']);
    expect(two.every((p) => p['currency'] === 'USD')).toBe(true);
  });
  it('locations: about 400 facilities, filters, zip radius in mi and km, cursor', async () => {
    expect(h.sb.market.facilities.length).toBe(400);
    const tx = (await h.json('/locations?state=TX&platform=copart')).body;
    expect((tx['data'] as Rec[]).every((f) => f['state'] === 'TX' && f['platform'] === 'copart')).toBe(true);
    const near = (await h.json('/locations?zip=10001&radius=30')).body['data'] as Rec[];
    expect(near.length).toBeGreaterThan(0);
    expect(near.every((f) => f['distance'] <= 30)).toBe(true);
    const km = (await h.json('/locations?zip=10001&radius=30&units=km')).body['data'] as Rec[];
    expect(km.length).toBeLessThanOrEqual(near.length);
    const p1 = (await h.json('/locations?per_page=20')).body;
    const p2 = (await h.json(`/locations?per_page=20&cursor=${(p1['meta'] as Rec)['next_cursor']}`)).body;
    expect((p2['data'] as Rec[])[0]!['facility_id']).not.toBe((p1['data'] as Rec[])[0]!['facility_id']);
    expect(((await h.json('/locations?facility_id=nope')).body['data'] as Rec[]).length).toBe(0);
  });
  it('image proxy: jpeg, png and webp by URL, 404 for an unknown photo index', async () => {
    const lot = h.sb.market.lots.find((l) => l.platform === 'copart' && l.photos > 2)!;
    const { photoUrl } = await import('../../src/sandbox/records');
    const url = photoUrl(7, lot, 1, false);
    for (const [u, type] of [
      [url, 'image/jpeg'],
      [url.replace('.jpg', '.png'), 'image/png'],
      [url.replace('.jpg', '.webp'), 'image/webp'],
    ] as const) {
      const res = await h.get(`/image-proxy?url=${encodeURIComponent(u)}`);
      expect(res.status, u).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(500);
    }
    const bad = photoUrl(7, lot, 1, false).replace(/[0-9a-f]{4}_thb/, 'ffff_thb');
    expect((await h.get(`/image-proxy?url=${encodeURIComponent(bad)}`)).status).toBe(404);
    // IAAI photos are keyed by the salvage id (the item id), not the lot number
    // (docs/service-contract.md "Photo hosts").
    const iaai = h.sb.market.lots.find((l) => l.platform === 'iaai' && l.photos > 0)!;
    const last = `https://vis.iaai.com/resizer?imageKeys=${iaai.itemId}~SID~I${iaai.photos}&width=400&height=300`;
    expect((await h.get(`/image-proxy?url=${encodeURIComponent(last)}`)).status).toBe(200);
    const over = `https://vis.iaai.com/resizer?imageKeys=${iaai.itemId}~SID~I${iaai.photos + 1}&width=400&height=300`;
    expect((await h.get(`/image-proxy?url=${encodeURIComponent(over)}`)).status).toBe(404);
    const byLotNumber = `https://vis.iaai.com/resizer?imageKeys=${iaai.lotNumber}~SID~I1&width=400&height=300`;
    expect((await h.get(`/image-proxy?url=${encodeURIComponent(byLotNumber)}`)).status).toBe(404);
  });
  it('spec shape: filters metadata lists makes with counts and ranges', async () => {
    const data = (await hs.json('/vehicles/filters')).body['data'] as Rec;
    expect(data['makes'].some((m: Rec) => m['value'] === 'TOYOTA' && m['count'] > 0)).toBe(true);
    expect(data['year']['min']).toBeLessThanOrEqual(data['year']['max']);
    expect(data['ports']).toContain('Moto_ATV');
  });
});

describe('keys, quota and rate limit', () => {
  it('401 without or with a wrong key; a custom key list replaces the demo key', async () => {
    const other = await startHarness({ keys: ['K1'], lots: 200 });
    try {
      expect((await other.get('/usage')).status).toBe(200);
      expect((await other.get('/usage', { key: 'lotwatch-demo-key' })).status).toBe(401);
      expect((await other.get('/usage', { key: null })).status).toBe(401);
    } finally {
      await other.close();
    }
  });
  it('quota per period: 429 with Retry-After when spent, counters in headers and /usage, new period resets', async () => {
    const q = await startHarness({ lots: 200, quota: { limit: 3, periodMs: 60_000 }, shape: 'spec' });
    try {
      const r1 = await q.get('/usage');
      expect(r1.headers.get('x-subscription-used')).toBe('1');
      expect(r1.headers.get('x-subscription-remaining')).toBe('2');
      expect(((await r1.json()) as Rec)['data']).toMatchObject({ used: 1, remaining: 2, limit: 3 });
      expect((await q.get('/vehicles?per_page=abc')).status).toBe(422); // 4xx answers count
      expect((await q.get('/vehicles')).status).toBe(200);
      const r4 = await q.get('/vehicles');
      expect(r4.status).toBe(429);
      expect(Number(r4.headers.get('retry-after'))).toBe(60);
      expect(((await r4.json()) as Rec)['message']).toMatch(/quota/i);
      q.clock.t += 60_000;
      const r5 = await q.get('/vehicles');
      expect(r5.status).toBe(200);
      expect(r5.headers.get('x-subscription-used')).toBe('1');
    } finally {
      await q.close();
    }
  });
  it('rate limit per second: 429 with Retry-After, then allowed in the next second', async () => {
    const q = await startHarness({ lots: 200, ratePerSecond: 2 });
    try {
      expect((await q.get('/vehicles')).headers.get('x-ratelimit-remaining')).toBe('1');
      expect((await q.get('/vehicles')).status).toBe(200);
      const r = await q.get('/vehicles');
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.headers.get('x-ratelimit-limit')).toBe('2');
      q.clock.t += 1000;
      expect((await q.get('/vehicles')).status).toBe(200);
    } finally {
      await q.close();
    }
  });
  it('test-control routes are 404 unless enabled', async () => {
    const q = await startHarness({ lots: 200, testControl: false });
    try {
      expect((await fetch(`${q.url}/__sandbox/events`)).status).toBe(404);
      expect((await fetch(`${h.url}/__sandbox/events`)).status).toBe(200);
    } finally {
      await q.close();
    }
  });
});
