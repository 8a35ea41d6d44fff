import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The chaos suite (`npm run test:chaos`, README "Tests"): kill -9 cycles, a full disk, and the RPC fuzzer at
// full counts. Long and heavy, so it is kept out of `npm test` (vitest.config.ts excludes *.chaos.test.ts) and out of
// the soak tier (`npm run test:soak`, which runs the crash scenario with 20 cycles); its files run one at a time.
// The crash scenario's child is bundled once per run by tests/helpers/bundleChildren.ts.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['tests/chaos/**/*.chaos.test.ts'],
    environment: 'node',
    pool: 'forks',
    globalSetup: ['tests/helpers/bundleChildren.ts'],
    fileParallelism: false,
    testTimeout: 1_800_000,
    hookTimeout: 120_000,
  },
});
