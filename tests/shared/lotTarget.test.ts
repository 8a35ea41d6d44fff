import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lotPageUrl, parseLotTarget, PLATFORMS } from '../../src/shared/vehicle';

const lotNumber = fc.stringMatching(/^\d{1,12}$/);
const platform = fc.constantFrom(...PLATFORMS);

describe('what a buyer pastes to watch a lot', () => {
  it('reads back every lot URL Lotwatch emits, with or without its scheme and www', () => {
    fc.assert(
      fc.property(platform, lotNumber, (p, n) => {
        const url = lotPageUrl(p, n);
        expect(url).not.toBeNull();
        const forms = [
          url as string,
          (url as string).replace(/^https:\/\//, ''),
          (url as string).replace(/^https:\/\/www\./, ''),
          (url as string).replace(/^https:/, 'http:'),
          `  ${url as string}  `,
        ];
        for (const f of forms) expect(parseLotTarget(f)).toEqual({ kind: 'lot', lot_number: n, platform: p });
      }),
    );
  });

  it('reads a Copart lot URL with its slug, and an IAAI VehicleDetail page as a page to resolve', () => {
    expect(parseLotTarget('www.copart.com/lot/45416833/clean-title-2018-honda-civic-tx-dallas')).toEqual({
      kind: 'lot',
      lot_number: '45416833',
      platform: 'copart',
    });
    expect(parseLotTarget('iaai.com/VehicleDetail/41234567~US')).toEqual({
      kind: 'page',
      url: 'https://www.iaai.com/VehicleDetail/41234567~US',
      platform: 'iaai',
    });
  });

  it('reads VINs and bare lot numbers, and refuses foreign hosts, other pages and junk', () => {
    expect(parseLotTarget('1hgcm82633a004352')).toEqual({ kind: 'vin', vin: '1HGCM82633A004352' });
    expect(parseLotTarget('45416833')).toEqual({ kind: 'lot', lot_number: '45416833', platform: null });
    for (const s of [
      '',
      'hello there',
      'https://example.com/lot/1',
      'example.com/lot/1',
      'copart.com/lot/abc',
      'copart.com/search?query=honda',
      'iaai.com/Search?Keyword=honda',
      'https://www.copart.com:8443/lot/1',
      'ftp://www.copart.com/lot/1',
      'javascript:alert(1)',
    ])
      expect(parseLotTarget(s)).toBeNull();
  });
});
