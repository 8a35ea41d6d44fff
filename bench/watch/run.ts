import { randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { sandboxSeeds } from '../../src/sandbox/index';
import {
  BUDGETS,
  compact,
  claimFailures,
  poolResults,
  shortfalls,
  runWorkload,
  STRATEGIES,
  WORKLOADS,
  type Strategy,
  workloadTable,
  type BenchResult,
  type WatchOrder,
  type WorkloadId,
} from './harness';

/** The market seeds of a run without BENCH_SEEDS: two (the service-realism requirement: several markets). */
const DEFAULT_SEEDS = sandboxSeeds(2, 2026);

/**
 * BENCH_SEEDS=random: a fresh pair drawn per process (each workload file runs in its own process, so each draws
 * its own pair unless BENCH_SEEDS lists them), printed so a run can be repeated with BENCH_SEEDS=a,b.
 */
const RANDOM_SEEDS = sandboxSeeds(2, randomInt(1, 2 ** 31));

/**
 * One workload of `npm run bench:watch`: every strategy at every budget over the workload's period, once per market
 * seed, the seeds' scores pooled per strategy and budget (harness.ts poolResults), printed as one table and written
 * to bench/results/watch-<workload>.json (bench/watch/chart.mjs draws the README's chart from those files; `seeds`
 * lists the seeds, `per_seed` each seed's recall and requests). Environment: BENCH_WORKLOADS (e.g. `buyer,dealer`;
 * default all), BENCH_BUDGETS (e.g. `30,300`), BENCH_DAYS (overrides every workload's days), BENCH_SEEDS (e.g.
 * `2026,7`, or `random` for a fresh printed pair; default two seeds, DEFAULT_SEEDS), BENCH_SEED (one seed, when BENCH_SEEDS is not set), BENCH_SHAPE=spec
 * (the specification's dialect). For tuning only: BENCH_STRATEGIES (e.g. `lotwatch`) runs a subset, and BENCH_CACHE (a
 * folder) keeps each seed's results there and fills the strategies not run from it (the baselines' choices do not
 * depend on Lotwatch's scheduler, so they need running once per seed, budget list and period). For the benchmark's
 * resolution: BENCH_WATCH_ORDER=reverse adds the watched lots in reverse order (harness.ts WorkloadOptions
 * watchOrder). The README's tables come from a run of every strategy without a cache, in the picked order.
 */
export function benchWorkload(id: WorkloadId): void {
  const only = process.env['BENCH_WORKLOADS']?.split(',').map((s) => s.trim());
  const w = WORKLOADS[id];
  const days = process.env['BENCH_DAYS'] ? Number(process.env['BENCH_DAYS']) : w.days;
  const budgets = process.env['BENCH_BUDGETS']
    ? process.env['BENCH_BUDGETS'].split(',').map(Number)
    : [...BUDGETS];
  const seedsEnv = process.env['BENCH_SEEDS'] ?? process.env['BENCH_SEED'];
  const seeds =
    seedsEnv === 'random'
      ? RANDOM_SEEDS
      : seedsEnv
        ? seedsEnv.split(',').map((s) => Number(s.trim()))
        : DEFAULT_SEEDS;
  const shape = process.env['BENCH_SHAPE'] === 'spec' ? 'spec' : 'real';
  const orderEnv = process.env['BENCH_WATCH_ORDER'];
  const watchOrder: WatchOrder = orderEnv === 'reverse' ? 'reverse' : 'listed';
  it.skipIf(only !== undefined && !only.includes(id))(
    `watcher benchmark, ${w.name}: ${days} simulated days, seeds ${seeds.join(', ')}`,
    async () => {
      if (seeds.some((s) => !Number.isInteger(s) || s < 0))
        throw new Error(`BENCH_SEEDS must be whole numbers, not ${seedsEnv}`);
      if (orderEnv !== undefined && orderEnv !== 'listed' && orderEnv !== 'reverse')
        throw new Error(`BENCH_WATCH_ORDER takes listed or reverse, not ${orderEnv}`);
      const runs: BenchResult[][] = [];
      const strategies = process.env['BENCH_STRATEGIES']
        ? (process.env['BENCH_STRATEGIES'].split(',').map((s) => s.trim()) as Strategy[])
        : STRATEGIES;
      const unknown = strategies.filter((s) => !STRATEGIES.includes(s));
      if (unknown.length)
        throw new Error(`BENCH_STRATEGIES takes ${STRATEGIES.join(', ')}, not ${unknown.join(', ')}`);
      const cacheDir = process.env['BENCH_CACHE'];
      for (const seed of seeds) {
        const file =
          cacheDir &&
          join(cacheDir, `${id}-${seed}-${days}-${shape}${watchOrder === 'reverse' ? '-reverse' : ''}.json`);
        const cached: BenchResult[] =
          file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as BenchResult[]) : [];
        const fresh = await runWorkload({ workload: w, budgets, days, seed, shape, strategies, watchOrder });
        const cell = (r: BenchResult) => `${r.strategy}@${r.budget_per_day}`;
        const freshCells = new Set(fresh.map(cell));
        const merged = [...fresh, ...cached.filter((r) => !freshCells.has(cell(r)))];
        if (file) {
          mkdirSync(cacheDir, { recursive: true });
          writeFileSync(file, JSON.stringify(merged));
        }
        const order = (r: BenchResult) =>
          budgets.indexOf(r.budget_per_day) * 10 + STRATEGIES.indexOf(r.strategy);
        runs.push(
          merged
            .filter((r) => budgets.includes(r.budget_per_day) || 'plan' in w)
            .sort((a, b) => order(a) - order(b)),
        );
      }
      const results = poolResults(runs);
      const title = `watcher benchmark: ${w.name} (${w.lots} lots, ${w.searches} searches, ${days} days${'plan' in w ? `, the plan's ${w.plan.limit} requests a month from the service's headers` : ''}), ${shape} dialect${watchOrder === 'reverse' ? ', watchlist added in reverse order' : ''}, seeds ${seeds.join(', ')} pooled`;
      const short = shortfalls(results);
      const claim = claimFailures(results);
      console.log(
        `${title}\n${workloadTable(results)}\n\nWhere Lotwatch falls short (ties and losses), seeds ${seeds.join(', ')}:\n${short.length ? short.map((x) => `- ${x}`).join('\n') : '- none'}\n\nThe claim (recall, bid thresholds, sale-result p95, no duplicate or false alert), seeds ${seeds.join(', ')}: ${claim.length ? `${claim.length} cells fail\n${claim.map((x) => `- ${x}`).join('\n')}` : 'holds in every cell'}`,
      );
      const perSeed = runs.flatMap((run, i) =>
        run.map((r) => ({
          seed: seeds[i],
          strategy: r.strategy,
          budget_per_day: r.budget_per_day,
          recall: r.recall,
          weighted_recall: r.weighted_recall,
          requests: r.requests,
        })),
      );
      mkdirSync('bench/results', { recursive: true });
      writeFileSync(
        `bench/results/watch-${id}.json`,
        JSON.stringify(
          {
            workload: id,
            title,
            seeds,
            days,
            shape,
            results: results.map(compact),
            per_seed: perSeed,
            shortfalls: short,
            claim_failures: claim,
          },
          null,
          2,
        ) + '\n',
      );
      runs.forEach((run, i) => {
        for (const r of run)
          expect(
            r.requests,
            `seed ${seeds[i]}, ${r.strategy} at ${r.budget_per_day}/day`,
          ).toBeLessThanOrEqual(r.budget_total);
      });
    },
  );
}
