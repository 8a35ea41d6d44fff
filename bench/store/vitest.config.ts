import { defineConfig } from 'vitest/config';

// `npm run bench:store`: the store benchmark as one vitest file (runs the TypeScript sources directly). Not part
// of `npm test`.
export default defineConfig({
  test: {
    include: ['bench/store/**/*.bench.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 900_000,
    silent: false,
  },
});
