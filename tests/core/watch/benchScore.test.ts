import { describe, expect, it } from 'vitest';
import {
  claimFailures,
  KINDS,
  pickTimeToSale,
  shortfalls,
  weightedRecall,
  type BenchResult,
  type Kind,
  type KindScore,
  type WatchSeen,
} from '../../../bench/watch/harness';

// The watch benchmark's scoring and its time-to-sale baseline's choice, on hand-made inputs (the full runs are
// `npm run bench:watch` and, short, watchBench.test.ts in the soak tier).

const MIN = 60_000;
const HOUR = 60 * MIN;
const NOW = Date.UTC(2026, 5, 2, 12);

const kindsOf = (x: Partial<Record<Kind, [number, number, number?]>>): Record<Kind, KindScore> =>
  Object.fromEntries(
    KINDS.map((k) => {
      const [caught, events, p50] = x[k] ?? [0, 0];
      return [
        k,
        {
          events,
          caught,
          duplicates: 0,
          false_alerts: 0,
          delays_ms: [] as number[],
          delay_p50_ms: p50 ?? null,
          delay_p95_ms: p50 ?? null,
        },
      ];
    }),
  ) as unknown as Record<Kind, KindScore>;

const result = (strategy: BenchResult['strategy'], kinds: Record<Kind, KindScore>): BenchResult => {
  const ks = Object.values(kinds);
  const events = ks.reduce((n, k) => n + k.events, 0);
  return {
    strategy,
    kinds,
    budget_per_day: 30,
    recall: ks.reduce((n, k) => n + k.caught, 0) / events,
    weighted_recall: weightedRecall(kinds),
  } as BenchResult;
};

describe('watch benchmark scoring', () => {
  it('weighs a sale result five times a new match', () => {
    // 1 sale result of 1 caught, 0 of 5 new matches: 5 / (5 + 5).
    expect(weightedRecall(kindsOf({ sale_result: [1, 1], new_match: [0, 5] }))).toBe(0.5);
    expect(weightedRecall(kindsOf({}))).toBe(1);
  });

  it("lists Lotwatch's losses and ties against each baseline, and nothing where it is ahead", () => {
    const lw = result('lotwatch', kindsOf({ sale_result: [2, 2, 10 * MIN], new_match: [8, 10, HOUR] }));
    const naive = result('naive', kindsOf({ sale_result: [2, 2, HOUR], new_match: [9, 10, HOUR] }));
    const rr = result('round_robin', kindsOf({ sale_result: [1, 2, HOUR], new_match: [7, 10, 2 * HOUR] }));
    const out = shortfalls([lw, naive, rr]);
    expect(out).toEqual([
      '30/day vs naive: recall LOSS 83.3% < 91.7%',
      '30/day vs naive: weighted recall LOSS 90.0% < 95.0%',
      '30/day vs naive: new match LOSS caught 8 < 9 of 10',
    ]);
  });
});

describe("the benchmark's claim", () => {
  it('fails a cell on lower recall, fewer or slower bid thresholds from 30 a day, a slower p95 sale result', () => {
    const at = (budget: number, r: BenchResult): BenchResult => ({ ...r, budget_per_day: budget });
    const kinds = (thr: [number, number, number], sale: number) =>
      kindsOf({ threshold: thr, sale_result: [2, 2, sale], new_match: [8, 10] });
    const lw = result('lotwatch', kinds([3, 3, 2 * HOUR], 10 * MIN));
    const naive = result('naive', kinds([3, 3, HOUR], HOUR));
    const tts = result(
      'time_to_sale',
      kindsOf({ threshold: [2, 3, 5 * HOUR], sale_result: [2, 2, 5 * MIN], new_match: [9, 10] }),
    );
    // From 30 a day up the bid-threshold p50 counts; below it only recall, thresholds caught and the sale p95.
    expect(claimFailures([at(10, lw), at(10, naive), at(10, tts)])).toEqual([
      '10/day vs time_to_sale: sale-result p95 10.0 min > 5.0 min',
    ]);
    expect(claimFailures([at(30, lw), at(30, naive), at(30, tts)])).toEqual([
      '30/day vs time_to_sale: sale-result p95 10.0 min > 5.0 min',
      '30/day: bid-threshold p50 2.0 h > best baseline 1.0 h',
    ]);
    // A false alert fails the cell whatever else holds.
    const noisy = { ...at(30, lw), duplicates: 0, false_alerts: 1 };
    expect(claimFailures([noisy, at(30, naive)])).toEqual([
      '30/day: 0 duplicates, 1 false alerts',
      '30/day: bid-threshold p50 2.0 h > best baseline 1.0 h',
    ]);
  });
});

describe('the time-to-sale baseline', () => {
  const watch = (id: number, outcome: string, auctionAt: number | null, lastChecked: number | null) =>
    [{ watch: id, lastRun: lastChecked }, { id, outcome, auctionAt, lastChecked } as WatchSeen] as const;

  it('takes the lot selling soonest first, and never a sold one', () => {
    const entries = [
      watch(1, 'open', NOW + 50 * MIN, NOW - 30 * MIN),
      watch(2, 'open', NOW + 20 * MIN, NOW - 30 * MIN),
      watch(3, 'sold', NOW - 2 * HOUR, NOW - 24 * HOUR),
    ];
    const seen = new Map(entries.map(([, w]) => [w.id, w]));
    const targets = entries.map(([t]) => t);
    expect(pickTimeToSale(targets, seen, NOW, 15 * MIN)?.watch).toBe(2);
    expect(pickTimeToSale([targets[2]!], seen, NOW, 15 * MIN)).toBeNull();
  });

  it('runs a saved search when it is due on its schedule and no lot is near its sale', () => {
    const [t, w] = watch(1, 'open', NOW + 3 * 24 * HOUR, NOW - HOUR);
    const search = { search: 7, lastRun: NOW - 20 * MIN };
    const seen = new Map([[1, w]]);
    expect(pickTimeToSale([t, search], seen, NOW, 15 * MIN)).toBe(search);
    expect(pickTimeToSale([t, { ...search, lastRun: NOW - 5 * MIN }], seen, NOW, 15 * MIN)).toBeNull();
  });
});
