import { expect, it } from 'vitest';
import { runWatchBench, table } from '../../../bench/watch/harness';

// The short watcher benchmark (bench/watch/harness.ts): one simulated day in CI; fails when recall drops below 99%
// or any duplicate alert appears, and never spends more than the budget.
it('watcher benchmark, one simulated day: recall >= 99%, no duplicates, within budget', async () => {
  const r = await runWatchBench({ strategy: 'lotwatch', days: 1, budgetPerDay: 1000 });
  console.log(table([r]));
  expect(r.recall).toBeGreaterThanOrEqual(0.99);
  expect(r.duplicates).toBe(0);
  expect(r.false_alerts).toBe(0);
  expect(r.requests).toBeLessThanOrEqual(1000);
}, 300_000);
