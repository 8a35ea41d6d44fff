import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { runWatchBench, table } from './harness';

const DAYS = Number(process.env['BENCH_DAYS'] ?? 7);
const BUDGET = Number(process.env['BENCH_BUDGET'] ?? 1000);
/** The sandbox's dialect: the real service's by default, `BENCH_SHAPE=spec` for the specification's. */
const SHAPE = process.env['BENCH_SHAPE'] === 'spec' ? 'spec' : 'real';

it(`watcher benchmark: ${DAYS} simulated days, ${BUDGET} requests a day, ${SHAPE} shape`, async () => {
  const lotwatch = await runWatchBench({ strategy: 'lotwatch', days: DAYS, budgetPerDay: BUDGET, shape: SHAPE });
  const naive = await runWatchBench({ strategy: 'naive', days: DAYS, budgetPerDay: BUDGET, shape: SHAPE });
  console.log(`watcher benchmark (${DAYS} days, budget ${BUDGET}/day, ${SHAPE} shape)\n${table([lotwatch, naive])}`);
  mkdirSync('bench/results', { recursive: true });
  const strip = (r: typeof lotwatch) => ({ ...r, kinds: Object.fromEntries(Object.entries(r.kinds).map(([k, v]) => [k, { ...v, delays_ms: undefined, delay_p50_ms: [...v.delays_ms].sort((a, b) => a - b)[Math.floor(v.delays_ms.length / 2)] ?? null }])) });
  writeFileSync('bench/results/watch.json', JSON.stringify({ days: DAYS, budget_per_day: BUDGET, shape: SHAPE, lotwatch: strip(lotwatch), naive: strip(naive) }, null, 2));
  expect(lotwatch.requests).toBeLessThanOrEqual(BUDGET * DAYS);
});
