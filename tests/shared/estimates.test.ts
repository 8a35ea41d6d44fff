import { describe, expect, it } from 'vitest';
import { ratioPercent, repairToValue, repairToValueUnknownWhy } from '../../src/shared/estimates';

describe('repair to value (estimated repair cost / ACV)', () => {
  it('is the ratio of the two figures', () => {
    expect(repairToValue(18_349, 20_821)).toBeCloseTo(1.13472, 5);
    expect(repairToValue(10_000, 2_500)).toBe(0.25);
    expect(repairToValue(10_000, 0)).toBe(0);
  });

  it.each([
    ['no ACV', null, 2_500],
    ['no repair cost', 10_000, null],
    ['neither', undefined, undefined],
    ['an ACV of 0', 0, 2_500],
    ['a negative ACV', -1, 2_500],
    ['a negative repair cost', 10_000, -5],
    ['NaN', Number.NaN, 2_500],
    ['an infinite repair cost', 10_000, Number.POSITIVE_INFINITY],
  ])('is unknown (null) with %s', (_, acv, repair) => {
    expect(repairToValue(acv, repair)).toBeNull();
  });

  it('says why it is unknown in a buyer’s words', () => {
    expect(repairToValueUnknownWhy(10_000, 2_500)).toBeNull();
    expect(repairToValueUnknownWhy(null, 2_500)).toBe('no ACV');
    expect(repairToValueUnknownWhy(10_000, null)).toBe('no estimated repair cost');
    expect(repairToValueUnknownWhy(null, null)).toBe('no ACV or estimated repair cost');
    expect(repairToValueUnknownWhy(0, 2_500)).toBe('ACV of $0');
  });

  it('reads as a percentage', () => {
    expect(ratioPercent(20_821 / 18_349)).toBe('113%');
    expect(ratioPercent(0.25)).toBe('25%');
    expect(ratioPercent(0.004)).toBe('0.4%');
    expect(ratioPercent(0)).toBe('0%');
    expect(ratioPercent(12.5)).toBe('1,250%');
    expect(ratioPercent(null)).toBeNull();
  });
});
