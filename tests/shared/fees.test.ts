import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import copartJson from '../../data/fees/copart.json';
import iaaiJson from '../../data/fees/iaai.json';
import {
  FEE_FILES,
  FeeScheduleError,
  FeeScheduleFile,
  buyerFees,
  landedCost,
  maxBid,
  type FeeSchedule,
  type OwnLine,
} from '../../src/shared/fees';
import { PLATFORMS } from '../../src/shared/vehicle';

const copart = FEE_FILES.copart!.schedules;
const iaai = FEE_FILES.iaai!.schedules;

/** The code of the FeeScheduleError `fn` throws (fails the test if it throws nothing or something else). */
function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FeeScheduleError);
    return (e as FeeScheduleError).code;
  }
  throw new Error('did not throw');
}

/** A schedule kind that must exist in the data files. */
function kind(schedules: Record<string, FeeSchedule>, name: string): FeeSchedule {
  const s = schedules[name];
  if (!s) throw new Error(`no schedule ${name}`);
  return s;
}

describe('the fee files', () => {
  it('both parse, each under its own platform, with at least two membership kinds', () => {
    for (const [platform, json] of [
      ['copart', copartJson],
      ['iaai', iaaiJson],
    ] as const) {
      const file = FeeScheduleFile.parse(json);
      expect(file.platform).toBe(platform);
      expect(Object.keys(file.schedules).length).toBeGreaterThanOrEqual(2);
    }
    expect(Object.keys(FEE_FILES).sort()).toEqual([...PLATFORMS].sort());
  });

  it('every kind prices every whole-dollar sale price up to $100,000 (no gaps, open top tier)', () => {
    const uncovered: string[] = [];
    for (const file of Object.values(FEE_FILES)) {
      for (const [name, s] of Object.entries(file!.schedules)) {
        for (let p = 0; p <= 100_000; p += 1) {
          try {
            buyerFees(p, s);
          } catch {
            uncovered.push(`${file!.platform} ${name} $${p}`);
            break;
          }
        }
      }
    }
    expect(uncovered).toEqual([]);
  });

  it('rejects overlapping tiers and a tier with both a fee and a percent', () => {
    const bad = structuredClone(copartJson) as { schedules: Record<string, { tiers: unknown[] }> };
    bad.schedules['standard_non_clean_secured']!.tiers[1] = { from_usd: 40, to_usd: 99.99, fee_usd: 45 };
    expect(FeeScheduleFile.safeParse(bad).success).toBe(false);
    const both = structuredClone(copartJson) as { schedules: Record<string, { tiers: unknown[] }> };
    both.schedules['standard_non_clean_secured']!.tiers[0] = {
      from_usd: 0,
      to_usd: 49.99,
      fee_usd: 25,
      percent: 1,
    };
    expect(FeeScheduleFile.safeParse(both).success).toBe(false);
  });
});

describe('buyerFees', () => {
  const s = kind(copart, 'standard_non_clean_secured');

  it('looks tiers up by whole dollars and charges a percentage tier to the cent', () => {
    // $2,399.50 is in the $2,000.00 - $2,399.99 tier ($535), not the $2,400 one ($570).
    expect(buyerFees(2399.5, s).lines[0]).toEqual({ id: 'buyer_fee', label: 'Buyer fee', usd: 535 });
    // $15,001 × 7.50 % = $1,125.075, rounded to $1,125.08.
    expect(buyerFees(15001, s).lines[0]?.usd).toBe(1125.08);
  });

  it('leaves out omitted lines and adds custom ones', () => {
    // $2,450: buyer fee 570 + environmental 15 + title 20 + broker 199.99 = 804.99 (no bid fee, no gate fee).
    const r = buyerFees(2450, s, {
      omit: ['bid_fee', 'gate_fee'],
      custom: [{ id: 'broker', label: 'Broker fee', usd: 199.99 }],
    });
    expect(r.lines.map((l) => l.id)).toEqual(['buyer_fee', 'environmental_fee', 'title_fee', 'broker']);
    expect(r.total_usd).toBe(804.99);
  });

  it('throws the typed error for a bad price and for a price no tier covers', () => {
    for (const bad of [-1, -0.01, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(codeOf(() => buyerFees(bad, s))).toBe('bad_price');
    }
    expect(codeOf(() => landedCost({ bid_usd: -5, schedule: s, shipping_usd: null, lines: [] }))).toBe(
      'bad_price',
    );
    const closed: FeeSchedule = { ...s, tiers: [{ from_usd: 0, to_usd: 999.99, fee_usd: 10 }] };
    expect(buyerFees(999.99, closed).lines[0]?.usd).toBe(10);
    expect(codeOf(() => buyerFees(1000, closed))).toBe('no_tier');
  });
});

describe('copart by hand', () => {
  const s = kind(copart, 'standard_non_clean_secured');

  it('lands a $2,450 lot', () => {
    // Non-clean title, secured payment. Buyer fee: $2,400.00 - $2,499.99 tier = 570. Virtual bid fee (live):
    // $2,000.00 - $3,999.99 = 110. Fixed: gate 95 + environmental 15 + title 20 = 130. Fees = 570 + 110 + 130 = 810.
    // Shipping to the port 425. Duty 2.5 % of 2,450 = 61.25.
    // Total = 2,450 + 810 + 425 + 61.25 = 3,746.25.
    const r = landedCost({
      bid_usd: 2450,
      schedule: s,
      shipping_usd: 425,
      lines: [{ id: 'duty', label: 'Import duty', percent: 2.5 }],
    });
    expect(r.fees_usd).toBe(810);
    expect(r.own).toEqual([{ id: 'duty', label: 'Import duty', usd: 61.25 }]);
    expect(r.total_usd).toBe(3746.25);
  });

  it('puts the max bid on the last dollar below the $2,400 fee step', () => {
    // Shipping 425, ocean freight 1,150. For a bid b in $2,000 - $2,399 the buyer fee is 535 and the bid fee 110:
    //   total = b + 535 + 110 + 130 + 425 + 1,150 = b + 2,350, so b = 2,399 costs 4,749.
    // From $2,400 the buyer fee is 570: total = b + 2,385, so b = 2,400 costs 4,785.
    // Target 4,760: 2,399 fits (4,749); 2,400 does not (4,785), nor does any higher bid.
    // Solving the $2,400 tier alone would give 4,760 - 2,385 = 2,375, which is outside that tier.
    const input = {
      schedule: s,
      shipping_usd: 425,
      lines: [{ id: 'ocean', label: 'Ocean freight', usd: 1150 }] as OwnLine[],
    };
    expect(maxBid({ ...input, target_usd: 4760 })).toBe(2399);
    expect(landedCost({ ...input, bid_usd: 2399 }).total_usd).toBe(4749);
    expect(landedCost({ ...input, bid_usd: 2400 }).total_usd).toBe(4785);
  });
});

describe('iaai by hand', () => {
  const s = kind(iaai, 'licensed_standard_volume');

  it('lands a $7,200 lot', () => {
    // Buyer fee: $7,000.00 - $7,499.99 tier = 880. Live online bid fee: $6,000.00 - $7,999.99 = 145.
    // Fixed: service 105 + environmental 15 + title handling 20 = 140. Fees = 880 + 145 + 140 = 1,165.
    // Shipping 610. Repairs 1,500. Total = 7,200 + 1,165 + 610 + 1,500 = 10,475.
    const r = landedCost({
      bid_usd: 7200,
      schedule: s,
      shipping_usd: 610,
      lines: [{ id: 'repairs', label: 'Repairs', usd: 1500 }],
    });
    expect(r.fees_usd).toBe(1165);
    expect(r.total_usd).toBe(10475);
  });

  it('puts the max bid on the last dollar below the $8,000 fee step', () => {
    // Shipping 610, duty 2 % of the bid. For b in $7,500 - $7,999: buyer fee 900, bid fee 145, fixed 140:
    //   total(7,999) = 7,999 + 900 + 145 + 140 + 610 + 159.98 (2 % of 7,999) = 9,953.98.
    // At $8,000 both tables step up (buyer fee 925, bid fee 160):
    //   total(8,000) = 8,000 + 925 + 160 + 140 + 610 + 160 = 9,995.
    // Target 9,980: 7,999 fits, 8,000 does not, and the total only grows from there.
    const input = {
      schedule: s,
      shipping_usd: 610,
      lines: [{ id: 'duty', label: 'Import duty', percent: 2 }] as OwnLine[],
    };
    expect(maxBid({ ...input, target_usd: 9980 })).toBe(7999);
    expect(landedCost({ ...input, bid_usd: 7999 }).total_usd).toBe(9953.98);
    expect(landedCost({ ...input, bid_usd: 8000 }).total_usd).toBe(9995);
  });
});

describe('maxBid', () => {
  const kinds = Object.values(FEE_FILES).flatMap((f) => Object.values(f!.schedules));

  it('answers null when even a bid of 0 costs more than the target', () => {
    // At $0: buyer fee 25 + bid fee 0 + fixed 130 = 155 > 100.
    const s = kind(copart, 'standard_non_clean_secured');
    expect(maxBid({ target_usd: 100, schedule: s, shipping_usd: null, lines: [] })).toBeNull();
    expect(maxBid({ target_usd: 155, schedule: s, shipping_usd: null, lines: [] })).toBe(0);
  });

  it('stays exact when a table drops, where bisecting on "fits" would not', () => {
    // Buyer fee 500 below $1,000 and 0 from $1,000; no other fees. Target 1,200:
    // b < 1,000 costs b + 500 (fits up to 700); b >= 1,000 costs b (fits up to 1,200). Answer 1,200.
    // A bisection over [0, 1,200] tries 600 (fits), then 900 (costs 1,400, no) and settles near 700.
    const dropping: FeeSchedule = {
      label: 'test',
      tiers: [
        { from_usd: 0, to_usd: 999.99, fee_usd: 500 },
        { from_usd: 1000, to_usd: null, fee_usd: 0 },
      ],
      bid_fee_tiers: [{ from_usd: 0, to_usd: null, fee_usd: 0 }],
      fixed: [],
    };
    expect(maxBid({ target_usd: 1200, schedule: dropping, shipping_usd: null, lines: [] })).toBe(1200);
    expect(maxBid({ target_usd: 999, schedule: dropping, shipping_usd: null, lines: [] })).toBe(499);
  });

  it('throws the typed error for an unusable target or step', () => {
    const s = kind(iaai, 'licensed_standard_volume');
    const base = { schedule: s, shipping_usd: null, lines: [] };
    expect(codeOf(() => maxBid({ ...base, target_usd: Number.NaN }))).toBe('bad_amount');
    expect(codeOf(() => maxBid({ ...base, target_usd: 5000, step_usd: 0 }))).toBe('bad_amount');
  });

  it('returns a bid that fits while one step more does not, and no higher bid fits', () => {
    const cents = (max: number) => fc.integer({ min: 0, max }).map((c) => c / 100);
    const ownLine = fc.oneof(
      fc.record({ id: fc.constant('fixed'), label: fc.constant('Fixed'), usd: cents(300_000) }),
      fc.record({ id: fc.constant('pct'), label: fc.constant('Percent'), percent: cents(1500) }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds),
        fc.integer({ min: 0, max: 6_000_000 }).map((c) => c / 100),
        fc.option(fc.integer({ min: 0, max: 3000 }), { nil: null }),
        fc.array(ownLine, { maxLength: 3 }),
        fc.constantFrom(1, 5, 25, 100),
        fc.option(fc.constant(['bid_fee']), { nil: undefined }),
        fc.integer({ min: 1, max: 20_000 }),
        (schedule, target, shipping, lines, step, omit, beyond) => {
          const input = { schedule, shipping_usd: shipping, lines, opts: omit ? { omit } : undefined };
          const m = maxBid({ ...input, target_usd: target, step_usd: step });
          if (m === null) {
            expect(landedCost({ ...input, bid_usd: 0 }).total_usd).toBeGreaterThan(target);
            return;
          }
          expect(m % step).toBe(0);
          expect(landedCost({ ...input, bid_usd: m }).total_usd).toBeLessThanOrEqual(target);
          expect(landedCost({ ...input, bid_usd: m + step }).total_usd).toBeGreaterThan(target);
          expect(landedCost({ ...input, bid_usd: m + beyond * step }).total_usd).toBeGreaterThan(target);
        },
      ),
      { numRuns: 300 },
    );
  });
});
