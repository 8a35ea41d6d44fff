import { describe, expect, it } from 'vitest';
import {
  runWorkload,
  WORKLOADS,
  workloadTable,
  type WatchOrder,
  type Workload,
} from '../../../bench/watch/harness';

// Short versions of the watcher benchmark's three workloads (bench/watch/harness.ts; the full one is
// `npm run bench:watch`): Lotwatch, the naive fixed-interval poller, round-robin and the time-to-sale poller side by side on one simulated
// market, a few simulated hours or days at one budget each. They assert what must hold whatever the scheduler does
// (no alert twice, no strategy past its budget) and print the table; how well each strategy does is the full
// benchmark's business.
// The free plan's budget is its quota, read from the service's headers.
const SHORT: { workload: Workload; days: number; budget?: number }[] = [
  { workload: WORKLOADS.free, days: 2 },
  { workload: WORKLOADS.buyer, days: 1, budget: 300 },
  { workload: WORKLOADS.dealer, days: 0.25, budget: 1000 },
];

describe('watcher benchmark, short workloads', () => {
  for (const s of SHORT) {
    it(`${s.workload.name}, ${s.days} simulated days: no duplicate alerts, every strategy within its budget`, async () => {
      const results = await runWorkload({
        workload: s.workload,
        days: s.days,
        ...(s.budget ? { budgets: [s.budget] } : {}),
      });
      console.log(`${s.workload.name}, ${s.days} days\n${workloadTable(results)}`);
      expect(results.map((r) => r.strategy)).toEqual(['lotwatch', 'naive', 'round_robin', 'time_to_sale']);
      for (const r of results) {
        expect(r.duplicates, `${r.strategy}: duplicate alerts`).toBe(0);
        // Lotwatch keeps to a rolling day's allowance (a plan's quota on the free plan), the setup's lookups
        // included; a baseline keeps to budget x days over the period.
        if (r.strategy !== 'lotwatch')
          expect(r.requests, `${r.strategy}: requests over the period`).toBeLessThanOrEqual(r.budget_total);
        else if (s.workload.plan)
          expect(r.requests + r.setup_requests, 'lotwatch: requests against the quota').toBeLessThanOrEqual(
            s.workload.plan.limit,
          );
        else
          expect(r.max_requests_24h, 'lotwatch: requests in any 24 hours').toBeLessThanOrEqual(
            r.budget_per_day,
          );
        expect(r.requests, `${r.strategy}: sent nothing`).toBeGreaterThan(0);
      }
    }, 600_000);
  }

  it('the watchlist added in reverse order faces the same market with the same setup (BENCH_WATCH_ORDER)', async () => {
    const run = (watchOrder: WatchOrder) =>
      runWorkload({
        workload: WORKLOADS.buyer,
        days: 0.25,
        budgets: [100],
        strategies: ['lotwatch'],
        watchOrder,
      });
    const [listed] = await run('listed');
    const [reverse] = await run('reverse');
    const events = (r: typeof listed) =>
      Object.fromEntries(Object.entries(r!.kinds).map(([k, v]) => [k, v.events]));
    // The ground truth is the market's and the picked lots': only what each strategy catches of it may move.
    expect(events(reverse)).toEqual(events(listed));
    expect(Object.values(events(listed)).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(reverse!.setup_requests).toBe(listed!.setup_requests);
  }, 600_000);
});
