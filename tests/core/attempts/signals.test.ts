import { describe, expect, it } from 'vitest';
import type { Attempt } from '../../../src/core/diff/attempts';
import { ordinal, sellerSignals } from '../../../src/core/diff/signals';

// Seller signals said as facts, from a vehicle's attempts.
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 20, 12);

function attempt(number: number, over: Partial<Attempt>): Attempt {
  return {
    number,
    platform: 'copart',
    lot_number: String(100 * number),
    day: `2026-06-0${number}`,
    auction_at: Date.UTC(2026, 5, number, 15),
    bid_usd: null,
    price_usd: null,
    outcome: 'open',
    basis: 'confirmed',
    sources: ['store'],
    first_seen_at: null,
    last_seen_at: null,
    ...over,
  };
}

describe('sellerSignals', () => {
  it('says a third attempt after two sales on approval, the falling bid and the days on the market', () => {
    const s = sellerSignals(
      [
        attempt(1, {
          outcome: 'sold_on_approval',
          price_usd: 6600,
          bid_usd: 6600,
          first_seen_at: Date.UTC(2026, 4, 25),
        }),
        attempt(2, { outcome: 'sold_on_approval', price_usd: 6200 }),
        attempt(3, { outcome: 'open', bid_usd: null }),
      ],
      NOW,
    );
    expect(s).toEqual({
      attempts: 3,
      relists: 2,
      approval_returns: 2,
      bids_usd: [6600, 6200, null],
      bid_trend: 'falling',
      days_on_market: 26,
      facts: [
        '3rd attempt; last two ended on approval at $6,600 and $6,200',
        'Sold on approval two times and listed again',
        'Bid fell from $6,600 to $6,200 between attempts',
        '26 days on the market so far',
      ],
    });
  });

  it('says a stalled bid, the one outcome before, and a bid not known as such', () => {
    const s = sellerSignals(
      [
        attempt(1, { outcome: 'relisted', basis: 'inferred', bid_usd: null }),
        attempt(2, { outcome: 'ended_unsold', bid_usd: 5000 }),
        attempt(3, { outcome: 'ended_unsold', bid_usd: 5100 }),
      ],
      NOW,
    );
    expect(s.bid_trend).toBe('stalled');
    expect(s.facts).toEqual([
      '3rd attempt ended unsold at $5,100; the one before ended unsold at $5,000',
      'Bid stalled at about $5,100',
      '2 days on the market',
    ]);
    expect(
      sellerSignals([attempt(1, { outcome: 'vanished', basis: 'inferred' }), attempt(2, {})], NOW).facts[0],
    ).toBe('2nd attempt; last one ended with no result seen');
  });

  it('a first attempt is only that; no attempts, no facts', () => {
    expect(
      sellerSignals([attempt(1, { first_seen_at: NOW - 3 * DAY, day: '2026-06-22' })], NOW).facts,
    ).toEqual(['1st attempt', '3 days on the market so far']);
    expect(sellerSignals([], NOW)).toMatchObject({
      attempts: 0,
      facts: [],
      bid_trend: null,
      days_on_market: null,
    });
  });

  it('writes ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '101st',
      '111th',
    ]);
  });
});
