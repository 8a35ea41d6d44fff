import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseHistory,
  parseLocations,
  parseShipping,
  parseVehicleDetail,
  parseVehicleList,
} from '../../../src/core/api';
import { parseErrorBody, parseObjectData } from '../../../src/core/api/parse';
import { lotNumberOf } from '../../../src/core/api/bounds';
import { parseQuotaHeaders, parseRetryAfter } from '../../../src/core/api/quota';
import { VehicleSchema } from '../../../src/shared/vehicle';
import { driftedRecord, page20, specRecord } from './fixtures/records';
import { realFinishedRecord, realOpenRecord } from './fixtures/realRecords';

describe('vehicle records', () => {
  it('a spec-shaped record parses without warnings', () => {
    const r = parseVehicleDetail({ ok: true, data: specRecord });
    if (!r.ok) throw new Error(r.reason);
    expect(r.warnings).toEqual([]);
    expect(r.value.data).toMatchObject({
      vin: specRecord.vin,
      odometer: 120000,
      pricing: { current_bid_usd: 25 },
    });
    expect(r.value.data.media.photos).toHaveLength(1);
    expect(() => VehicleSchema.parse(r.value.data)).not.toThrow();
  });

  it('a drifted real-world record parses without loss', () => {
    const r = parseVehicleDetail({ ok: true, data: driftedRecord });
    if (!r.ok) throw new Error(r.reason);
    const v = r.value.data;
    expect(v).toMatchObject({
      platform: 'copart',
      lot_number: '51015256',
      year: 2018,
      odometer: 91351,
      auction: { auction_at: '2026-04-30T20:00:00+00:00', lot_status: 'Timed' },
      pricing: { current_bid_usd: 4250, buy_now_usd: null },
      location: { facility_id: '136' },
      media: { thumbs_count: 17, has_360: true },
    });
    expect(v.media.photos).toEqual(['https://cs.copart.com/v1/AUTH_svc.pdoc00001/abc/0a1b_hrs.jpg']);
    // nothing lost: the record as received is kept whole, extra keys included
    expect(v.raw).toBe(driftedRecord);
    expect(v.raw).toHaveProperty('vehicle_specs.engine.hp', 354);
    expect(r.warnings.length).toBeGreaterThan(0);
    expect(() => VehicleSchema.parse(v)).not.toThrow();
  });

  it('a listed field of the wrong type is null with a warning, the record kept; one without a lot number is skipped', () => {
    const r = parseVehicleList({
      data: [
        { lot_number: '11', vin: 5, year: 'new', make: ['x'], auction: 'soon', media: { photos: 'x' } },
        'junk',
      ],
      meta: null,
    });
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.data).toHaveLength(1);
    expect(r.value.data[0]).toMatchObject({
      lot_number: '11',
      vin: '5',
      year: null,
      make: null,
      auction: { state: null },
    });
    expect(r.value.skipped).toBe(1);
    expect(r.warnings).toContain('data[1]: record skipped: no lot number Lotwatch can store');
    expect(r.warnings.length).toBeGreaterThanOrEqual(5);
    expect(r.value.meta).toBeNull();
  });

  it('odometer in km only is converted to miles', () => {
    const r = parseVehicleDetail({ data: { odometer: { km: 160934 } } });
    expect(r.ok && r.value.data.odometer).toBe(100000);
    expect(r.ok && r.warnings).toEqual([expect.stringContaining('data.odometer')]);
  });

  it("the real service's odometer object reads as miles without a warning; an empty one is counted", () => {
    const r = parseVehicleDetail({ data: { odometer: { mi: 91351, km: 147015 } } });
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.data.odometer).toBe(91351);
    expect(r.warnings).toEqual([]);
    const empty = parseVehicleDetail({ data: { odometer: {} } });
    expect(empty.ok && empty.value.data.odometer).toBeNull();
    expect(empty.ok && empty.warnings).toHaveLength(1);
  });

  it('envelopes that are not the documented shape fail with a reason', () => {
    for (const body of [null, 'x', [], {}, { data: 'x' }, { data: {} }]) {
      expect(parseVehicleList(body).ok).toBe(false);
    }
    expect(parseVehicleDetail({ data: [] }).ok).toBe(false);
  });

  it('meta extras are kept in raw and a 20-record page parses whole', () => {
    const body = page20();
    const r = parseVehicleList(body);
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.data).toHaveLength(20);
    expect(r.value.meta).toEqual({ per_page: 20, next_cursor: 'eyJ4IjoxfQ', prev_cursor: null });
    expect(r.value.raw).toBe(body);
  });
});

describe('other resources', () => {
  it('locations, shipping, filters, usage, errors', () => {
    const l = parseLocations({
      data: [{ platform: 'iaai', latitude: '25.1', longitude: -80, zip: 33166 }],
      meta: { per_page: 20, next_cursor: null, prev_cursor: null },
    });
    expect(l.ok && l.value.data[0]).toMatchObject({ latitude: 25.1, zip: '33166' });
    const s = parseShipping({ data: [{ port: 'Miami', price: 350, currency: 'USD', eta: 3 }] });
    expect(s.ok && s.value.data[0]?.raw).toHaveProperty('eta', 3);
    expect(parseObjectData({ data: { a: 1 } }).ok).toBe(true);
    expect(parseErrorBody({ message: 'm', errors: { vin: ['bad'], x: 'one' } })).toEqual({
      message: 'm',
      fields: { vin: ['bad'], x: ['one'] },
    });
    expect(parseErrorBody('<html>')).toEqual({ message: null, fields: {} });
  });

  it('error bodies are read field by field: a wrong-typed field costs neither the message nor the map', () => {
    expect(parseErrorBody({ ok: 0, status: '422', message: 'm', errors: { per_page: ['too big'] } })).toEqual(
      { message: 'm', fields: { per_page: ['too big'] } },
    );
    expect(parseErrorBody({ message: ['m'], errors: { vin: ['bad'] } })).toEqual({
      message: null,
      fields: { vin: ['bad'] },
    });
    // the vendor OpenAPI's `error` stands in for a missing message
    expect(parseErrorBody({ ok: false, error: 'Unauthenticated.' }).message).toBe('Unauthenticated.');
    expect(parseErrorBody({ error: { message: 'Plan limit.' } }).message).toBe('Plan limit.');
  });

  it('history in both shapes', () => {
    const a = parseHistory({
      data: [specRecord],
      meta: { per_page: 20, next_cursor: null, prev_cursor: null },
    });
    expect(a.ok && a.value.sales[0]?.date).toBe(specRecord.auction.auction_at);
    const b = parseHistory({
      data: {
        vehicle: driftedRecord,
        history: [{ platform: 'copart', date: '2025-01-01', price: '900', status: 'Sold' }],
      },
    });
    expect(b.ok && b.value.sales[0]?.price).toBe(900);
  });

  it('history {vehicle, history} with no sales (null) or a wrong-typed history keeps the page', () => {
    const none = parseHistory({ ok: true, data: { vehicle: specRecord, history: null }, meta: null });
    if (!none.ok) throw new Error(none.reason);
    expect(none.value.vehicle?.vin).toBe(specRecord.vin);
    expect(none.value.sales).toEqual([]);
    expect(none.warnings).toEqual([]);
    const odd = parseHistory({ data: { vehicle: specRecord, history: { a: 1 } } });
    if (!odd.ok) throw new Error(odd.reason);
    expect(odd.value.vehicle?.vin).toBe(specRecord.vin);
    expect(odd.warnings).toEqual([expect.stringContaining('data.history')]);
  });
});

describe('headers', () => {
  it('quota snapshot and Retry-After', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(parseQuotaHeaders({}, now)).toBeNull();
    expect(parseQuotaHeaders({ 'x-subscription-used': 'abc', 'x-per-page-limit': '100' }, now)).toMatchObject(
      { used: null, perPageLimit: 100 },
    );
    expect(parseRetryAfter({ 'retry-after': '3' }, now)).toBe(3000);
    expect(parseRetryAfter({ 'retry-after': new Date(now + 5000).toUTCString() }, now)).toBe(5000);
    expect(parseRetryAfter({ 'retry-after': new Date(now - 5000).toUTCString() }, now)).toBe(0);
    expect(parseRetryAfter({ 'retry-after': 'soon' }, now)).toBeNull();
  });
});

describe('parsers never throw (property)', () => {
  const parsers = [
    parseVehicleList,
    parseVehicleDetail,
    parseHistory,
    parseLocations,
    parseShipping,
    parseObjectData,
    parseErrorBody,
  ];

  it('on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        for (const p of parsers) p(v);
        for (const p of parsers) p({ data: v, meta: v });
        for (const p of parsers) p({ data: [v, { auction: v, pricing: v, media: v, odometer: v }], meta: v });
      }),
      { numRuns: 300 },
    );
  });

  it('on mutated records of both dialects, keeping every record whole and a schema-valid normalised form', () => {
    const keys = [
      'platform',
      'lot_number',
      'vin',
      'year',
      'odometer',
      'auction',
      'pricing',
      'location',
      'media',
      'make',
      'condition',
      'vehicle_specs',
      'sale_document',
      'seller',
      'facility',
    ];
    const nestedKeys = [
      'auction',
      'pricing',
      'location',
      'media',
      'condition',
      'vehicle_specs',
      'sale_document',
      'seller',
      'facility',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(driftedRecord, specRecord, realFinishedRecord(), realOpenRecord()),
        fc.array(fc.tuple(fc.constantFrom(...keys), fc.jsonValue()), { maxLength: 5 }),
        fc.array(
          fc.tuple(
            fc.constantFrom(...nestedKeys),
            fc.oneof(
              fc.string(),
              fc.constantFrom(
                'state',
                'last_sold_status',
                'last_sold_price_usd',
                'engine',
                'run_condition',
                'send_from',
              ),
            ),
            fc.jsonValue(),
          ),
          { maxLength: 5 },
        ),
        (base, top, nested) => {
          const rec: Record<string, unknown> = structuredClone(base);
          for (const [k, v] of top) rec[k] = v;
          for (const [k, sub, v] of nested) {
            const o = rec[k];
            if (o && typeof o === 'object' && !Array.isArray(o)) (o as Record<string, unknown>)[sub] = v;
          }
          const r = parseVehicleList({ data: [rec, rec], meta: null });
          expect(r.ok).toBe(true);
          if (r.ok) {
            // A record is dropped only when it names no lot number Lotwatch can store, and then counted.
            const kept = lotNumberOf(rec['lot_number']) === null ? 0 : 2;
            expect(r.value.data).toHaveLength(kept);
            expect(r.value.skipped).toBe(2 - kept);
            for (const v of r.value.data) {
              VehicleSchema.parse(v);
              // The record itself is never dropped: raw is the input, whatever its fields held.
              expect(v.raw).toBe(rec);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the real dialect (docs/service-contract.md "Records": real records do not carry the spec\'s flat fields)', () => {
  const normal = (rec: unknown) => {
    const r = parseVehicleDetail({ ok: true, data: rec });
    if (!r.ok) throw new Error(r.reason);
    return r;
  };

  it("reads the title document's export flag and IAAI's title brand, silently; none of it in the spec dialect", () => {
    const rec = realFinishedRecord() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    rec['details']['attributes']['TitleBrand'] = 'REPAIRABLE-COLLISION';
    const r = normal(rec);
    expect(r.warnings).toEqual([]);
    expect(r.value.data.title_document).toEqual({
      name: 'SALVAGE - REPAIRABLE-COLLISION',
      group: 'approved',
      export: true,
      brand: 'REPAIRABLE-COLLISION',
    });
    const blocked: Record<string, unknown> = {
      ...rec,
      sale_document: { ...rec['sale_document'], export: false },
    };
    delete blocked['details'];
    expect(normal(blocked).value.data.title_document).toMatchObject({ export: false, brand: null });
    // The brand only in sale_information (8 of the 68 surveyed records), and blank as no brand.
    const onlySale = {
      ...rec,
      details: { attributes: { TitleBrand: ' ' }, sale_information: { Brand: 'REPAIRABLE' } },
    };
    expect(normal(onlySale).value.data.title_document.brand).toBe('REPAIRABLE');
    const spec = normal(specRecord).value.data.title_document;
    expect([spec.export, spec.brand]).toEqual([null, null]);
  });

  it('maps every real path of the table into the specification field, silently', () => {
    const r = normal(realFinishedRecord());
    expect(r.warnings).toEqual([]);
    expect(r.value.data).toMatchObject({
      platform: 'iaai',
      lot_number: '45139005',
      odometer: 139084,
      damage: 'Front end',
      color: 'Gray',
      fuel_type: 'Gasoline',
      transmission: 'Automatic',
      drive_type: 'All Wheel Drive',
      auction: {
        state: 'finished',
        auction_at: '2026-08-04T13:30:00+00:00',
        lot_status: null,
        lot_sub_status: null,
        last_sold_status: 'Sold',
        last_sold_day: '2026-08-04',
      },
      pricing: {
        current_bid_usd: 9250,
        sale_price_usd: 9250,
        estimated_cost_from_usd: 1450,
        estimated_cost_to_usd: 15000,
      },
      location: { display: 'Boston - Shirley (MA)', state: 'MA', facility_id: '420', ship_from: 'Norfolk' },
      engine: { size_l: 3, hp: 349 },
    });
  });

  it('reads the specification field first when a record carries both', () => {
    const rec = {
      ...realFinishedRecord(),
      damage: 'Hail',
      color: 'Red',
      location: { display: 'Dallas (TX)', state: 'OK', facility_id: '12' },
    };
    expect(normal(rec).value.data).toMatchObject({
      damage: 'Hail',
      color: 'Red',
      location: { state: 'OK', facility_id: '12' },
    });
  });

  it('reads a last_sold_price_usd of 0, or any on an open lot, as no price (never "$0")', () => {
    expect(normal(realOpenRecord()).value.data.pricing.sale_price_usd).toBeNull();
    expect(
      normal(realFinishedRecord({ last_sold_status: null, last_sold_price_usd: 0 })).value.data.pricing
        .sale_price_usd,
    ).toBeNull();
    const openWithOldPrice = realFinishedRecord({
      state: 'open',
      last_sold_status: null,
      last_sold_price_usd: 8000,
    });
    expect(normal(openWithOldPrice).value.data.pricing.sale_price_usd).toBeNull();
  });

  it('gives null, never a guess, for a field in neither dialect', () => {
    const v = normal({
      lot_number: '1',
      platform: 'copart',
      location: { display: 'Somewhere without a code' },
    }).value.data;
    expect([
      v.damage,
      v.color,
      v.fuel_type,
      v.drive_type,
      v.odometer,
      v.run_condition,
      v.has_key,
      v.title_document.name,
      v.seller.name,
    ]).toEqual([null, null, null, null, null, null, null, null, null]);
    expect(v.location.state).toBeNull();
  });
});
