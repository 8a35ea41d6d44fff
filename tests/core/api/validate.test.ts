import { describe, expect, it } from 'vitest';
import { ApiInputError, checkLotPageUrl, checkVin, vinCheckDigitOk } from '../../../src/core/api';
import {
  checkImageUrl,
  checkLotNumber,
  checkSearchParams,
  checkSlugVin,
  ENUMS,
  isCalendarDate,
} from '../../../src/core/api/validate';
import { AUCTION_TYPES, SEARCH_ENUMS, type SearchEnumParam } from '../../../src/shared/vehicleParams';
import { setup } from './helpers';

function fieldsOf(fn: () => unknown): Record<string, string[]> {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiInputError);
    expect((e as ApiInputError).code).toBe('bad_input');
    return (e as ApiInputError).fields ?? {};
  }
  throw new Error('expected ApiInputError');
}

describe('search parameters', () => {
  it('per_page must be 1..20 and whole', () => {
    for (const bad of [0, 21, 1.5, -1])
      expect(fieldsOf(() => checkSearchParams({ per_page: bad }))).toHaveProperty('per_page');
    expect(checkSearchParams({ per_page: 20 }).per_page).toBe(20);
  });
  it('enums are checked, singly and in lists', () => {
    expect(fieldsOf(() => checkSearchParams({ lot_status: 'Sold' as never }))).toHaveProperty('lot_status');
    expect(fieldsOf(() => checkSearchParams({ damage: ['Hail', 'Meteor' as never] }))).toHaveProperty(
      'damage',
    );
    expect(fieldsOf(() => checkSearchParams({ platform: 'ebay' as never }))).toHaveProperty('platform');
    expect(fieldsOf(() => checkSearchParams({ auction_type: 3 as never }))).toHaveProperty('auction_type');
    expect(fieldsOf(() => checkSearchParams({ units: 'ft' as never }))).toHaveProperty('units');
  });
  it('the enum lists are the shared ones the search form offers from: each value passes, a near miss does not', () => {
    expect(ENUMS).toBe(SEARCH_ENUMS);
    const multi = new Set(['fuel_type', 'transmission', 'drive_type', 'damage']);
    for (const [param, values] of Object.entries(SEARCH_ENUMS) as [SearchEnumParam, readonly string[]][]) {
      for (const v of values) {
        const input = { [param]: multi.has(param) ? [v] : v };
        expect(checkSearchParams(input as never)).toEqual(input);
        // The spec's spelling is the only one sent: a lower-cased value is refused before it costs a request.
        if (v.toLowerCase() !== v) {
          const lower = { [param]: multi.has(param) ? [v.toLowerCase()] : v.toLowerCase() };
          expect(fieldsOf(() => checkSearchParams(lower as never))).toHaveProperty(param);
        }
      }
    }
    for (const t of AUCTION_TYPES) expect(checkSearchParams({ auction_type: t }).auction_type).toBe(t);
    expect(fieldsOf(() => checkSearchParams({ damage: ['Vandalism' as never] }))).toHaveProperty('damage');
    expect(fieldsOf(() => checkSearchParams({ drive_type: ['All Wheel Drive' as never] }))).toHaveProperty(
      'drive_type',
    );
  });
  it('auction_type and platform are alternatives', () => {
    const f = fieldsOf(() => checkSearchParams({ auction_type: 1, platform: 'copart' }));
    expect(Object.keys(f).sort()).toEqual(['auction_type', 'platform']);
  });
  it('dates are real YYYY-MM-DD dates and ranges are not inverted', () => {
    for (const d of ['2026-02-30', '26-01-01', '2026-1-1', '2026-01-01T00:00:00Z']) {
      expect(fieldsOf(() => checkSearchParams({ auction_date_from: d }))).toHaveProperty('auction_date_from');
    }
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(fieldsOf(() => checkSearchParams({ year_from: 2020, year_to: 2010 }))).toHaveProperty('year_from');
    expect(
      fieldsOf(() => checkSearchParams({ auction_date_from: '2026-02-02', auction_date_to: '2026-02-01' })),
    ).toHaveProperty('auction_date_from');
  });
  it('unknown parameters, wrong types and a radius without zip are refused', () => {
    expect(fieldsOf(() => checkSearchParams({ upcoming: 'only' } as never))).toHaveProperty('upcoming');
    expect(fieldsOf(() => checkSearchParams({ today_only: 'yes' as never }))).toHaveProperty('today_only');
    expect(fieldsOf(() => checkSearchParams({ price_min: Number.NaN }))).toHaveProperty('price_min');
    expect(fieldsOf(() => checkSearchParams({ radius: 50 }))).toHaveProperty('radius');
  });
  it('blank values mean not given', () => {
    expect(checkSearchParams({ make: '', model: undefined })).toEqual({});
  });
});

describe('identifiers', () => {
  it('VIN: 17 characters of the alphabet; the check digit is a warning only', () => {
    expect(checkVin('1hgcm82633a004352').vin).toBe('1HGCM82633A004352');
    expect(checkVin('1HGCM82633A004352').warnings).toEqual([]);
    expect(vinCheckDigitOk('1HGCM82633A004352')).toBe(true);
    expect(checkVin('WAUZZZ8K9BA123456').warnings).toHaveLength(1);
    for (const bad of [
      '1HGCM82633A00435',
      '1HGCM82633A0043521',
      '1HGCM82633A00435O',
      'IHGCM82633A004352',
      123,
    ]) {
      expect(fieldsOf(() => checkVin(bad))).toHaveProperty('vin');
    }
  });
  it('lot numbers are digits', () => {
    expect(checkLotNumber('78691915')).toBe('78691915');
    expect(fieldsOf(() => checkLotNumber('78A91915'))).toHaveProperty('lot_number');
  });
  it('slugVin refuses path tricks and the fixed paths', () => {
    expect(checkSlugVin('2018-audi-s5-30t-premium-plus-WAUC4CF57JA035732')).toContain('audi');
    for (const bad of ['', '../usage', 'a/b', 'filters', 'urltodetails', 'a b', 'a?x=1']) {
      expect(fieldsOf(() => checkSlugVin(bad))).toHaveProperty('slugVin');
    }
  });
  it('lot page URLs of the two platforms only', () => {
    expect(checkLotPageUrl('https://www.copart.com/lot/51015256').platform).toBe('copart');
    expect(checkLotPageUrl('https://www.copart.com/lot/51015256/clean-title-2014-cadillac').id).toBe(
      '51015256',
    );
    expect(checkLotPageUrl('https://www.iaai.com/VehicleDetail/41234567~US').platform).toBe('iaai');
    for (const bad of [
      'http://www.copart.com/lot/51015256',
      'https://www.copart.com/lots/51015256',
      'https://www.iaai.com/VehicleDetail/41234567',
      'https://evil.example/lot/1',
      'https://www.copart.com.evil.example/lot/1',
      'not a url',
    ]) {
      expect(fieldsOf(() => checkLotPageUrl(bad))).toHaveProperty('url');
    }
  });
  it('image proxy URLs are http(s)', () => {
    expect(checkImageUrl('https://vis.iaai.com/resizer?imageKeys=1~SID~I1')).toContain('vis.iaai.com');
    for (const bad of ['ftp://x/y.jpg', 'javascript:alert(1)', '/relative.jpg', 'https://user:pw@x/y.jpg']) {
      expect(fieldsOf(() => checkImageUrl(bad))).toHaveProperty('url');
    }
  });
});

describe('bad input costs no quota', () => {
  it('every method refuses bad input before sending', async () => {
    const env = setup();
    const c = env.client;
    const calls: (() => Promise<unknown>)[] = [
      () => c.searchVehicles({ per_page: 50 }),
      () => c.getVehicle('a/b'),
      () => c.getHistory('V', { per_page: 0 }),
      () => c.getRelated(''),
      () => c.getVehicleShipping('V', { ports: ['Mi ami'] }),
      () => c.getAuctionToPortShipping({}),
      () => c.getAuctionToPortShipping({ vin: 'short' }),
      () => c.listLocations({ per_page: 21 }),
      () => c.resolveUrl('https://example.com/lot/1'),
      () => c.fetchImage('file:///etc/passwd'),
      async () => {
        for await (const _ of c.paginateVehicles({}, { maxPages: 0 })) void _;
      },
    ];
    for (const call of calls) await expect(call()).rejects.toBeInstanceOf(ApiInputError);
    expect(env.records).toHaveLength(0);
    await env.agent.close();
  });
});
