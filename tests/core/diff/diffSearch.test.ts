import { describe, expect, it } from 'vitest';
import { diffSearch } from '../../../src/core/diff';
import { lot, T0 } from './fixtures';

const a = lot({ lot_number: 'A' });
const b = lot({ lot_number: 'B', vin: 'VINB' });
const c = lot({ lot_number: 'C' });
const opts = { complete: true, baseline: false, observedAt: T0 + 1 };

describe('diffSearch', () => {
  it('reports new matches in result order, with membership-only fields', () => {
    const cs = diffSearch(new Set(['copart:A']), [c, a, b], opts);
    expect(cs.map((x) => [x.kind, x.lot_key])).toEqual([
      ['new_match', 'copart:C'],
      ['new_match', 'copart:B'],
    ]);
    expect(cs[1]).toEqual({
      kind: 'new_match',
      lot_key: 'copart:B',
      vin: 'VINB',
      field: null,
      before: null,
      after: null,
      related_lot_key: null,
      outcome: null,
      observed_at: T0 + 1,
    });
  });

  it('reports no new match for a lot first seen after its sale time (nothing left to bid on)', () => {
    const sold = lot({ lot_number: 'D', auction_at: T0 - 10 * 60_000 });
    const later = lot({ lot_number: 'E', auction_at: T0 + 10 * 60_000 });
    const cs = diffSearch(new Set(['copart:A']), [a, sold, later], { ...opts, observedAt: T0 });
    expect(cs.map((x) => [x.kind, x.lot_key])).toEqual([['new_match', 'copart:E']]);
  });

  it('reports no new match on the baseline run', () => {
    expect(diffSearch(new Set(), [a, b], { ...opts, baseline: true })).toEqual([]);
  });

  it('reports dropped_out for members absent from a complete run, sorted by key', () => {
    const cs = diffSearch(new Set(['copart:C', 'copart:A', 'copart:B']), [b], opts);
    expect(cs.map((x) => [x.kind, x.lot_key, x.vin])).toEqual([
      ['dropped_out', 'copart:A', null],
      ['dropped_out', 'copart:C', null],
    ]);
  });

  it('reports no dropped_out when the run was incomplete', () => {
    expect(diffSearch(new Set(['copart:A']), [b], { ...opts, complete: false }).map((x) => x.kind)).toEqual([
      'new_match',
    ]);
  });

  it('still reports dropped_out on a complete baseline run (membership is known)', () => {
    expect(diffSearch(new Set(['copart:A']), [], { ...opts, baseline: true }).map((x) => x.kind)).toEqual([
      'dropped_out',
    ]);
  });

  it('counts a lot seen twice across pages once', () => {
    const cs = diffSearch(new Set(), [a, { ...a, current_bid_usd: 1 }, a], opts);
    expect(cs).toHaveLength(1);
  });

  it('reports nothing when results equal members', () => {
    expect(diffSearch(new Set(['copart:A', 'copart:B']), [b, a], opts)).toEqual([]);
  });
});
