import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { BUDGETS, compact, runWorkload, WORKLOADS, workloadTable, type WorkloadId } from './harness';

/**
 * One workload of `npm run bench:watch`: every strategy at every budget over the workload's period, printed as one
 * table and written to bench/results/watch-<workload>.json (bench/watch/chart.mjs draws the README's chart from
 * those files). Environment: BENCH_WORKLOADS (e.g. `buyer,dealer`; default all), BENCH_BUDGETS (e.g. `30,300`),
 * BENCH_DAYS (overrides every workload's days), BENCH_SEED, BENCH_SHAPE=spec (the specification's dialect).
 */
export function benchWorkload(id: WorkloadId): void {
  const only = process.env['BENCH_WORKLOADS']?.split(',').map((s) => s.trim());
  const w = WORKLOADS[id];
  const days = process.env['BENCH_DAYS'] ? Number(process.env['BENCH_DAYS']) : w.days;
  const budgets = process.env['BENCH_BUDGETS'] ? process.env['BENCH_BUDGETS'].split(',').map(Number) : [...BUDGETS];
  const seed = Number(process.env['BENCH_SEED'] ?? 2026);
  const shape = process.env['BENCH_SHAPE'] === 'spec' ? 'spec' : 'real';
  it.skipIf(only !== undefined && !only.includes(id))(`watcher benchmark, ${w.name}: ${days} simulated days`, async () => {
    const results = await runWorkload({ workload: w, budgets, days, seed, shape });
    const title = `watcher benchmark: ${w.name} (${w.lots} lots, ${w.searches} searches, ${days} days${'plan' in w ? `, the plan's ${w.plan.limit} requests a month from the service's headers` : ''}), ${shape} dialect, seed ${seed}`;
    console.log(`${title}\n${workloadTable(results)}`);
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(`bench/results/watch-${id}.json`, JSON.stringify({ workload: id, title, seed, days, shape, results: results.map(compact) }, null, 2) + '\n');
    for (const r of results) expect(r.requests).toBeLessThanOrEqual(r.budget_total);
  });
}
