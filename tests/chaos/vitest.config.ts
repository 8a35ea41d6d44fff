import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The chaos suite (`npm run test:chaos`, README "Testing"): kill -9 cycles, a full disk, and the RPC fuzzer at
// full counts. Long and heavy, so it is kept out of `npm test` (vitest.config.ts excludes *.chaos.test.ts) and its
// files run one at a time: the crash cycles must not compete with the fuzzer for the two cores.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['tests/chaos/**/*.chaos.test.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 1_800_000,
    hookTimeout: 120_000,
  },
});
