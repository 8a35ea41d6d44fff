import { describe, expect, it } from 'vitest';
import { lotNumberOf } from '../../../src/core/api/bounds';
import { parseVehicleDetail, parseVehicleList } from '../../../src/core/api/parse';
import { RateLimitedError } from '../../../src/core/api/errors';
import { capWait, MAX_WAIT_MS, parseQuotaHeaders, parseRetryAfter } from '../../../src/core/api/quota';
import { PauseGate } from '../../../src/core/watch/pause';
import { FakeClock } from '../../helpers/fakeClock';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const DAY = 86_400_000;

/** One record read from a detail answer at NOW, with its warnings. */
function read(rec: Record<string, unknown>) {
  const r = parseVehicleDetail({ data: { platform: 'copart', lot_number: '1', ...rec } }, NOW);
  if (!r.ok) throw new Error(r.reason);
  return { v: r.value.data, warnings: r.warnings };
}

describe('numbers out of their range read as unknown, with a warning', () => {
  it.each([
    [1e308, null],
    [Infinity, null],
    [-2019, null],
    [2019.5, null],
    [1899, null],
    [1900, 1900],
    [2028, 2028],
    [2029, null],
    ['2019', 2019],
    ['9'.repeat(400), null],
  ])('year %s -> %s', (year, expected) => {
    const { v, warnings } = read({ year });
    expect(v.year).toBe(expected);
    if (expected === null) expect(warnings.join('\n')).toMatch(/data\.year: /);
  });

  it('odometer, prices, engine, coordinates and counts', () => {
    const { v } = read({
      odometer: { mi: 2_000_001 },
      pricing: {
        current_bid_usd: -1,
        buy_now_usd: 10_000_001,
        sale_price_usd: 1e308,
        estimated_cost: { from: '-5', to: '9000' },
      },
      vehicle_specs: { engine: { size_l: '31', hp: 1e308 } },
      facility: { lat: 91, lng: -181 },
      media: { thumbs_count: 1e308 },
    });
    expect(v.odometer).toBeNull();
    expect(v.pricing).toMatchObject({
      current_bid_usd: null,
      buy_now_usd: null,
      sale_price_usd: null,
      estimated_cost_from_usd: null,
      estimated_cost_to_usd: 9000,
    });
    expect(v.engine).toMatchObject({ size_l: null, hp: null });
    expect(v.yard).toMatchObject({ latitude: null, longitude: null });
    expect(v.media.thumbs_count).toBeNull();
  });

  it('keeps every plausible value of a real record', () => {
    const { v, warnings } = read({
      year: 2021,
      odometer: { mi: 1_999_999, km: 3_218_686 },
      pricing: {
        current_bid_usd: 0,
        buy_now_usd: 9_999_999.5,
        estimated_cost: { from: '1450', to: '15000' },
      },
      vehicle_specs: { engine: { size_l: '3.0', hp: 354 } },
      facility: { lat: -33.9, lng: 151.2 },
    });
    expect(v).toMatchObject({ year: 2021, odometer: 1_999_999 });
    expect(v.pricing).toMatchObject({
      current_bid_usd: 0,
      buy_now_usd: 9_999_999.5,
      estimated_cost_from_usd: 1450,
    });
    expect(v.engine).toMatchObject({ size_l: 3, hp: 354 });
    expect(v.yard).toMatchObject({ latitude: -33.9, longitude: 151.2 });
    expect(warnings).toEqual([]);
  });
});

describe('lot numbers', () => {
  it.each([
    ['45416833', '45416833'],
    [' 45416833 ', '45416833'],
    [12345678, '12345678'],
    ['1', '1'],
    ['123456789012', '123456789012'],
    ['1234567890123', null],
    [1e308, null],
    [-5, null],
    [12.5, null],
    ['1e+308', null],
    ['ABC123', null],
    ['', null],
    [['45416833'], null],
    [null, null],
  ])('%j -> %j', (raw, expected) => {
    expect(lotNumberOf(raw)).toBe(expected);
  });

  it('a list skips and counts each record without one, naming its position; the rest is kept in order', () => {
    const r = parseVehicleList({
      data: [{ lot_number: '1' }, { lot_number: 1e308 }, { lot_number: 3 }, {}],
      meta: null,
    });
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.data.map((v) => v.lot_number)).toEqual(['1', '3']);
    expect(r.value.skipped).toBe(2);
    expect(r.warnings).toEqual(
      expect.arrayContaining([
        'data[1].lot_number: 1e+308 is not a lot number (1 to 12 digits)',
        'data[1]: record skipped: no lot number Lotwatch can store',
        'data[3]: record skipped: no lot number Lotwatch can store',
      ]),
    );
  });
});

describe('waits the service asks for', () => {
  it('a Retry-After of 9,999,999,999 seconds or a date in 2343 is at most 35 days', () => {
    expect(parseRetryAfter({ 'retry-after': '9999999999' }, NOW)).toBe(MAX_WAIT_MS);
    expect(parseRetryAfter({ 'retry-after': 'Sat, 17 Oct 2343 10:00:00 GMT' }, NOW)).toBe(MAX_WAIT_MS);
    expect(parseRetryAfter({ 'retry-after': '120' }, NOW)).toBe(120_000);
    expect(MAX_WAIT_MS).toBe(35 * DAY);
  });

  it('a wait past the known period end ends with the period', () => {
    expect(capWait(30 * DAY, NOW + 9 * DAY, NOW)).toBe(9 * DAY);
    expect(capWait(60_000, NOW + 9 * DAY, NOW)).toBe(60_000);
    expect(capWait(30 * DAY, NOW - DAY, NOW)).toBe(30 * DAY);
    expect(capWait(null, NOW + DAY, NOW)).toBeNull();
  });

  it('a spent quota whose period ends in 2343 pauses 35 days from its snapshot, said with the year', () => {
    const clock = new FakeClock(NOW);
    const end = Date.UTC(2343, 9, 17, 10);
    const q = parseQuotaHeaders(
      { 'x-subscription-period-end': new Date(end).toISOString(), 'x-subscription-remaining': '0' },
      NOW,
    );
    expect(q?.periodEnd).toBe(end);
    const gate = new PauseGate(clock, () => q);
    expect(gate.state()).toMatchObject({ until: NOW + MAX_WAIT_MS, kind: 'quota_spent' });
    expect(gate.state().reason).toBe("Your plan's monthly requests are used up until 27 December 2026.");
    // Time passing does not push the end further: the pause ends, and the next answer says the quota anew.
    clock.advance(MAX_WAIT_MS);
    expect(gate.state().until).toBeNull();
  });

  it('a 429 with a 9,999,999,999-second Retry-After holds polling until the stored period ends', () => {
    const q = parseQuotaHeaders(
      { 'x-subscription-period-end': '2026-12-01T00:00:00Z', 'x-subscription-remaining': '9' },
      NOW,
    );
    const gate = new PauseGate(new FakeClock(NOW), () => q);
    gate.hold(new RateLimitedError('/vehicles', null, 9_999_999_999_000, NOW), NOW);
    expect(gate.state().until).toBe(Date.UTC(2026, 11, 1));
  });
});
