import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffLot, diffSearch, isEnded, outcomeOf } from '../../../src/core/diff';
import type { Change, LotState } from '../../../src/shared/watch';
import { DAY, T0 } from './fixtures';

// Small value domains so that random pairs often agree and often differ; a few raw doubles (NaN, -0, Infinity)
// because a LotState built by hand may hold them.
const amount = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(null, 0, 100, 3900, 4250, 12_300) },
  { weight: 1, arbitrary: fc.double() },
);
const word = (ws: (string | null)[]) => fc.constantFrom(...ws);
const lotState = (lotNumber: fc.Arbitrary<string> = fc.constant('1')): fc.Arbitrary<LotState> =>
  fc.record({
    platform: fc.constantFrom('copart', 'iaai'),
    lot_number: lotNumber,
    vin: word([null, 'VIN1', 'VIN2']),
    current_bid_usd: amount,
    buy_now_usd: amount,
    sale_price_usd: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: amount }),
    state: word([null, 'open', 'live', 'sold', 'not_sold', 'on_approval', 'ENDED', 'upcoming', 'finished']),
    lot_status: word([null, 'Timed', 'Buy Now']),
    lot_sub_status: word([null, 'Open', 'Live', 'Ended', 'ended']),
    last_sold_status: word([null, null, 'Sold', 'Sold on Approval']),
    auction_at: fc.constantFrom(null, T0, T0 + DAY, T0 + 2 * DAY, T0 - DAY),
    observed_at: fc.integer({ min: T0, max: T0 + 10 * DAY }),
  });

/** Observations of one lot (same platform and number), in time order. */
const sequence = fc
  .tuple(fc.constantFrom('copart', 'iaai'), fc.array(lotState(), { minLength: 1, maxLength: 12 }))
  .map(([platform, ss]) => ss.map((s, i) => ({ ...s, platform, observed_at: T0 + i * 1000 })));

function walk(states: LotState[]): Change[] {
  const out: Change[] = [];
  let prev: LotState | null = null;
  for (const s of states) {
    out.push(...diffLot(prev, s));
    prev = s;
  }
  return out;
}

describe('diffLot properties', () => {
  it('diffLot(s, s) is empty', () => {
    fc.assert(fc.property(lotState(), (s) => diffLot(s, s).length === 0));
  });

  it('is deterministic, and independent of the order of the other lots of the VIN', () => {
    fc.assert(
      fc.property(
        fc.option(lotState(fc.constantFrom('1', '2')), { nil: null }),
        lotState(fc.constantFrom('1', '2')),
        fc.array(lotState(fc.constantFrom('1', '2', '3', '4')), { maxLength: 6 }),
        (prev, next, others) => {
          const a = diffLot(prev, next, { otherLotsOfVin: others });
          expect(diffLot(prev, next, { otherLotsOfVin: others })).toEqual(a);
          expect(diffLot(prev, next, { otherLotsOfVin: [...others].reverse() })).toEqual(a);
        },
      ),
    );
  });

  // The one exception, forced by the spec of `sale_result` (before = prev.sale_price_usd, which is always null since prev
  // had not ended; after = next.sale_price_usd, null when the lot ended without a price): a `sold` with both null
  // is the difference "not ended -> ended", which this property checks instead.
  it("every change's before !== after (a sale result without a price: the lot went from open to ended)", () => {
    fc.assert(
      fc.property(
        fc.option(lotState(), { nil: null }),
        lotState(),
        fc.array(lotState(fc.constantFrom('1', '2', '3')), { maxLength: 5 }),
        (prev, next, others) => {
          const p = prev && { ...prev, platform: next.platform };
          for (const c of diffLot(p, next, { otherLotsOfVin: others })) {
            if (c.kind === 'sale_result' && c.before === c.after) {
              // Open -> ended without a price, or an approval accepted at the same price.
              expect(p !== null && isEnded(next)).toBe(true);
              expect(c.outcome === 'sold' || !isEnded(p!)).toBe(true);
              continue;
            }
            expect(c.before !== c.after).toBe(true);
            expect(c.lot_key).toBe(`${next.platform}:${next.lot_number}`);
            expect(c.observed_at).toBe(next.observed_at);
          }
        },
      ),
    );
  });

  it('once ended and staying ended, a lot gets one sale result, and more only when an approval is accepted', () => {
    fc.assert(
      fc.property(sequence, (raw) => {
        let ended = false;
        // Once ended, every later observation still says so (the common case: results do not flip back).
        const states = raw.map((s) => {
          ended ||= isEnded(s);
          return ended && !isEnded(s) ? { ...s, lot_sub_status: 'Ended' } : s;
        });
        const results = walk(states).filter((c) => c.kind === 'sale_result');
        // After the first, a result is only ever an approval accepted: sold, right after a sold-on-approval state.
        for (const r of results.slice(1)) {
          const i = states.findIndex((s) => s.observed_at === r.observed_at);
          expect(r.outcome).toBe('sold');
          expect(outcomeOf(states[i - 1]!)).toBe('sold_on_approval');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('along any sequence, a sale result appears once per ending, plus once per approval accepted', () => {
    fc.assert(
      fc.property(sequence, (states) => {
        const endings = states.filter((s, i) => {
          if (i === 0 || !isEnded(s)) return false;
          const before = outcomeOf(states[i - 1]!);
          return before === 'open' || (before === 'sold_on_approval' && outcomeOf(s) === 'sold');
        }).length;
        expect(walk(states).filter((c) => c.kind === 'sale_result')).toHaveLength(endings);
      }),
      { numRuns: 300 },
    );
  });
});

describe('diffSearch properties', () => {
  const key = fc.constantFrom('A', 'B', 'C', 'D', 'E', 'F');
  it('never reports a key twice, nor both new_match and dropped_out for one key; new matches only where covered and still biddable', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(key.map((k) => `copart:${k}`)),
        fc.array(
          lotState(key).map((s) => ({ ...s, platform: 'copart' })),
          { maxLength: 10 },
        ),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom(null, T0, T0 + DAY),
        (members, current, complete, baseline, coveredUntil) => {
          const prev = new Set(members);
          const opts = { complete, baseline, observedAt: T0, coveredUntil };
          const cs = diffSearch(prev, current, opts);
          const keys = cs.map((c) => c.lot_key);
          expect(new Set(keys).size).toBe(keys.length);
          const now = new Set(current.map((s) => `copart:${s.lot_number}`));
          for (const c of cs) {
            if (c.kind === 'new_match') {
              // In a baseline run, only inside the covered part of the list (by the first state of the lot).
              const first = current.find((s) => `copart:${s.lot_number}` === c.lot_key)!;
              const covered =
                first.auction_at !== null && coveredUntil !== null && first.auction_at < coveredUntil;
              // And never for a lot past its sale time when first seen.
              const biddable = first.auction_at === null || first.auction_at > T0;
              expect(!prev.has(c.lot_key) && now.has(c.lot_key) && (!baseline || covered) && biddable).toBe(
                true,
              );
            } else {
              expect(c.kind === 'dropped_out' && prev.has(c.lot_key) && !now.has(c.lot_key) && complete).toBe(
                true,
              );
            }
          }
          // Every covered lot not a member is reported: none is lost.
          for (const s of current) {
            const k = `copart:${s.lot_number}`;
            const first = current.find((x) => `copart:${x.lot_number}` === k)!;
            const covered =
              !baseline ||
              (first.auction_at !== null && coveredUntil !== null && first.auction_at < coveredUntil);
            const biddable = first.auction_at === null || first.auction_at > T0;
            if (!prev.has(k) && covered && biddable)
              expect(cs.some((c) => c.kind === 'new_match' && c.lot_key === k)).toBe(true);
          }
          expect(diffSearch(prev, current, opts)).toEqual(cs);
        },
      ),
    );
  });
});
