import { defineConfig } from 'vitest/config';

// `npm run bench:watch`: the watcher benchmark over a simulated week (BENCH_DAYS) for Lotwatch and the naive
// baseline. Not part of `npm test`; the one-day version runs there as tests/core/watch/watchBench.test.ts.
export default defineConfig({
  test: {
    include: ['bench/watch/**/*.bench.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 3_600_000,
    silent: false,
  },
});
