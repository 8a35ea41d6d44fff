import { defineConfig } from 'vitest/config';

// `npm run bench:watch`: the watcher benchmark, one file per workload (free plan, buyer, dealer), run in parallel;
// then bench/watch/chart.mjs draws the chart from their JSON. Not part of `npm test`; short versions of the
// workloads run there as tests/core/watch/watchBench.test.ts.
export default defineConfig({
  test: {
    include: ['bench/watch/**/*.bench.test.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 6 * 3_600_000,
    silent: false,
  },
});
