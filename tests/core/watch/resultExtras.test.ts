import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/core/app';
import type { Lot, Sandbox } from '../../../src/sandbox/index';
import { FakeClock } from '../../helpers/fakeClock';
import { driveTo, endDay, HOUR, key, sellingBetween, START, watchedDay } from './simulatedDay';

// More sales than requests, and the looks go where they answer most (docs/architecture.md "Request budget", value.ts
// resultExtras): 30 watched lots selling 26 to 44 hours after the start on 10 requests a day, no saved search, the
// lots offered at buy now among them. Each look catches one sale result, so a third of the results are given up; a
// buy-now lot's result also tells the buyer its offer is gone, so those are the ones kept. Before, the looks went to
// whichever results came due first (then the most recent of the stale ones), whatever they answered.

const BUDGET = 10;
const LOTS = 30;
const BUY_NOW = 6;

describe('more sales than requests: the results that answer more are the ones looked at', () => {
  let sb: Sandbox;
  let core: Core;
  let cleanup: () => void;
  let watched: Lot[] = [];
  let buyNow: Lot[] = [];
  let results = new Set<string>();

  beforeAll(async () => {
    const clock = new FakeClock(START);
    const day = await watchedDay(
      clock,
      BUDGET,
      (m) => {
        const all = sellingBetween(m, 26, 44);
        // Evenly along the sale times, as a dealer adds a day's lots: a fifth of them offered at buy now.
        const even = (ls: Lot[], n: number) =>
          Array.from({ length: n }, (_, i) => ls[Math.floor((i * ls.length) / n)]!);
        buyNow = even(
          all.filter((l) => l.lotStatus === 'Buy Now'),
          BUY_NOW,
        );
        const plain = even(
          all.filter((l) => l.lotStatus !== 'Buy Now'),
          LOTS - BUY_NOW,
        );
        return [...buyNow, ...plain].sort((a, b) => a.auctionAt - b.auctionAt);
      },
      () => [],
    );
    ({ sb, core, cleanup, watched } = day);
    await driveTo({ core, sb }, clock, START + 56 * HOUR, day.fromSeq, 20_000);
    const alerts = (await day.ok('alerts.list', { limit: 500 }))['alerts'] as {
      kind: string;
      lot_key: string;
    }[];
    results = new Set(alerts.filter((a) => a.kind === 'sale_result').map((a) => a.lot_key));
  }, 180_000);

  afterAll(() => endDay({ core, sb, cleanup }));

  it('gives up plain lots’ results before those of lots offered at buy now', () => {
    expect(watched).toHaveLength(LOTS);
    expect(new Set(buyNow.map(key)).size).toBe(BUY_NOW);
    const plain = watched.filter((l) => !buyNow.includes(l));
    const buyNowSeen = buyNow.filter((l) => results.has(key(l))).length;
    const plainSeen = plain.filter((l) => results.has(key(l))).length;
    console.log(
      `[resultExtras] results of ${buyNowSeen} of ${buyNow.length} buy-now lots, ${plainSeen} of ${plain.length} others`,
    );
    // A third of the results go unseen; none of them a buy-now lot's.
    expect(plainSeen).toBeLessThan(plain.length);
    expect(buyNowSeen).toBe(buyNow.length);
  });
});
