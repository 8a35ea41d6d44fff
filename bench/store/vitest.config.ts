import { defineConfig } from 'vitest/config';

// `npm run bench:store`: the store benchmark as one vitest file (runs the TypeScript sources directly). Not part
// of `npm test`.
export default defineConfig({
  test: {
    include: ['bench/store/**/*.bench.test.ts'],
    // The PostgreSQL half runs on a throwaway cluster (tests/helpers/pgGlobal.ts), skipped without PostgreSQL.
    globalSetup: ['tests/helpers/pgGlobal.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 900_000,
    silent: false,
  },
});
