import { describe, expect, it } from 'vitest';
import type { DemoLiveBid } from '../../../src/shared/demoShowcase';
import { expectedAlertAt, firstAlertAt, pickShowcase } from '../../../src/core/demo/showcase';

const S = 1000;
const MIN = 60 * S;
const NOW = Date.UTC(2026, 10, 26, 22, 0);

/** A candidate whose bid comes `bidIn` ms from NOW, its sale time `saleAgo` ms before NOW. */
const lot = (n: string, bidIn: number, saleAgo = 0, endIn = bidIn + 2 * MIN): DemoLiveBid => ({
  lot_number: n,
  title: `2019 TESLA MODEL 3 ${n}`,
  auction_at: NOW - saleAgo,
  bid_at: NOW + bidIn,
  bid_usd: 2500,
  end_at: NOW + endIn,
});

describe('Demo examples chosen from the next bids on the block', () => {
  it('expects the alert one live-bid refresh plus one wait between looks after the bid', () => {
    // Sale time just passed: looks every 30 s while waiting for the block.
    expect(expectedAlertAt(lot('1', MIN, 0)) - NOW).toBe(MIN + 15 * S + 30 * S);
    // Sale time 16 minutes before the bid: looks an eighth of that apart (2 min).
    expect(expectedAlertAt(lot('2', MIN, 15 * MIN)) - NOW).toBe(MIN + 15 * S + 2 * MIN);
  });

  it('picks the three soonest expected alerts, not merely the soonest bids', () => {
    const picks = pickShowcase(
      [
        lot('100', 40 * S, 20 * MIN), // soonest bid, but a long wait between looks: 40 + 15 + 150 s
        lot('200', 60 * S),
        lot('300', 70 * S),
        lot('400', 90 * S),
        lot('500', 170 * S),
      ],
      NOW,
    );
    expect(picks.map((p) => p.lot_number)).toEqual(['200', '300', '400']);
    expect(firstAlertAt(picks)).toBe(NOW + 60 * S + 45 * S);
  });

  it('skips bids too close to now for the first fetch to see them before they move, and bids at or after the end', () => {
    const picks = pickShowcase([lot('1', 5 * S), lot('2', 30 * S, 0, 30 * S), lot('3', 45 * S)], NOW);
    expect(picks.map((p) => p.lot_number)).toEqual(['3']);
  });

  it('keeps one pick per lot number and gives none (and no time) without candidates', () => {
    expect(pickShowcase([lot('7', MIN), lot('7', 2 * MIN)], NOW, 3)).toHaveLength(1);
    expect(pickShowcase([], NOW)).toEqual([]);
    expect(firstAlertAt([])).toBeNull();
    expect(pickShowcase([lot('1', MIN)], NOW, 0)).toEqual([]);
  });
});
