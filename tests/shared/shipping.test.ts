import { describe, expect, it } from 'vitest';
import { DeskSettingsSchema } from '../../src/shared/desk';
import {
  costQualifier,
  excludedText,
  gapSentence,
  maxBidExcludes,
  portsToAsk,
  resolveCosts,
  unpricedPorts,
  type KeptPrice,
} from '../../src/shared/shipping';

const desk = (over: object = {}) => DeskSettingsSchema.parse({ port: 'Savannah', ...over });
const kept: KeptPrice[] = [
  { port: 'Moto_ATV', price_usd: 245, currency: 'USD' },
  { port: 'LA', price_usd: 720, currency: 'USD' },
  { port: 'Savannah', price_usd: 1570, currency: 'USD' },
  { port: 'Houston', price_usd: null, currency: null },
  { port: 'Miami', price_usd: 90_000, currency: 'MXN' },
];

describe('resolveCosts', () => {
  it("uses the buyer's port, or the cheapest priced one; never a port without a USD price nor the Moto/ATV rate", () => {
    expect(resolveCosts(kept, desk())).toMatchObject({
      port: 'Savannah',
      shipping_usd: 1570,
      chosen: { port: 'Savannah', usd: 1570 },
      cheapest: { port: 'LA', usd: 720 },
      gaps: [],
    });
    expect(resolveCosts(kept, desk({ port_choice: 'cheapest' }))).toMatchObject({
      port: 'LA',
      shipping_usd: 720,
      gaps: [],
    });
  });

  it('names the port whose price is missing, and why', () => {
    expect(resolveCosts(kept, desk({ port: 'Houston' })).gaps).toEqual([
      { part: 'shipping', port: 'Houston', reason: 'no_price' },
    ]);
    expect(resolveCosts(kept, desk({ port: 'Miami' })).gaps).toEqual([
      { part: 'shipping', port: 'Miami', reason: 'not_usd' },
    ]);
    expect(resolveCosts([], desk()).gaps).toEqual([
      { part: 'shipping', port: 'Savannah', reason: 'not_fetched' },
    ]);
    expect(resolveCosts([], desk({ port_choice: 'cheapest' }))).toMatchObject({
      port: null,
      gaps: [{ part: 'shipping', port: null, reason: 'not_fetched' }],
    });
  });

  it("adds the chosen port's destination, compares ports with their ocean freight, and names a port without one", () => {
    const destinations = [
      { port: 'Savannah', country: 'Nigeria', ocean_freight_usd: 900, duty_percent: 35 },
      { port: 'LA', country: 'South Korea', ocean_freight_usd: 2000, duty_percent: 8 },
    ];
    const c = resolveCosts(kept, desk({ port_choice: 'cheapest', destinations }));
    // LA $720 + $2,000 freight costs more than Savannah $1,570 + $900.
    expect(c).toMatchObject({ port: 'Savannah', shipping_usd: 1570, gaps: [] });
    expect(c.lines).toEqual([
      { id: 'dest_ocean_freight', label: 'Ocean freight Savannah → Nigeria', usd: 900 },
      { id: 'dest_duty', label: 'Duty in Nigeria (35 % of the bid)', percent: 35 },
    ]);
    expect(resolveCosts(kept, desk({ port: 'LA', destinations: destinations.slice(0, 1) })).gaps).toEqual([
      { part: 'destination', port: 'LA', reason: 'no_destination' },
    ]);
    expect(() => desk({ destinations: [destinations[0], { ...destinations[1], port: 'savannah' }] })).toThrow(
      /one destination/,
    );
  });
});

describe('the qualifier', () => {
  it('says what is left out in one wording', () => {
    const ship = { part: 'shipping' as const, port: 'Savannah', reason: 'no_price' as const };
    expect(costQualifier([])).toBeNull();
    expect(costQualifier([ship])).toBe('excluding shipping');
    expect(costQualifier(['destination', 'shipping'])).toBe('excluding shipping, ocean freight and duty');
    expect(excludedText(['destination'])).toBe('ocean freight and duty');
    expect(gapSentence(ship)).toBe('No price for Savannah: the service does not price it for this lot.');
  });

  it('reads a max bid saved before the parts were recorded as excluding shipping; a typed one as a bid', () => {
    expect(maxBidExcludes({ max_bid_usd: 3555, target_landed_usd: 4500, max_bid_excludes: null })).toEqual([
      'shipping',
    ]);
    expect(maxBidExcludes({ max_bid_usd: 3555, target_landed_usd: 4500, max_bid_excludes: [] })).toEqual([]);
    expect(maxBidExcludes({ max_bid_usd: 3555, target_landed_usd: null, max_bid_excludes: null })).toEqual(
      [],
    );
  });
});

describe('one request for every port', () => {
  it("asks for the documented ports, the buyer's and the destinations', and names the ones without a price", () => {
    const asked = portsToAsk({
      port: 'Baltimore',
      destinations: [{ port: 'savannah', country: 'Ghana', ocean_freight_usd: 1, duty_percent: 1 }],
    });
    expect(asked).toEqual([
      'Chicago',
      'NY',
      'Miami',
      'Savannah',
      'Norfolk',
      'Houston',
      'LA',
      'Seattle',
      'Moto_ATV',
      'Baltimore',
    ]);
    expect(
      unpricedPorts(asked, [
        ...asked.filter((p) => p !== 'Baltimore' && p !== 'LA').map((port) => ({ port, price: 100 })),
        { port: 'LA', price: null },
      ]),
    ).toEqual(['LA', 'Baltimore']);
  });
});
