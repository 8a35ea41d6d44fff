import { defineConfig } from 'vitest/config';

// `npm run bench:idle`: the watcher's CPU with a spent budget, on real time. Not part of `npm test` (it sleeps).
export default defineConfig({
  test: {
    include: ['bench/idle/**/*.bench.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 900_000,
    silent: false,
  },
});
