import { defineConfig } from 'vitest/config';

// `npm run bench:sandbox`: the sandbox benchmark as one long vitest file, so it runs the TypeScript sources with
// the tools already installed. Not part of `npm test`.
export default defineConfig({
  test: {
    include: ['bench/sandbox/**/*.bench.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 120_000,
    silent: false,
  },
});
