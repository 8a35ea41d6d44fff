import { defineConfig } from 'vitest/config';
import SOAK_TESTS from './tests/soak/files.json' with { type: 'json' };

// Unit and integration tests (README.md "Tests"): tests/core, tests/sandbox, tests/shell, tests/shared run in Node;
// tests/renderer run in jsdom. End-to-end specs (tests/e2e, *.spec.ts) belong to Playwright. The soak tier
// (tests/soak/files.json: crash and kill cycles, the simulated day, pacing, the short benchmark) runs as
// `npm run test:soak` and the chaos suite (tests/chaos/*.chaos.test.ts) as `npm run test:chaos`, each on its own
// config. The programs tests run as child processes are bundled once per run (tests/helpers/bundleChildren.ts).
export default defineConfig({
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    exclude: ['tests/e2e/**', 'tests/chaos/**/*.chaos.test.ts', ...SOAK_TESTS, 'node_modules/**'],
    globalSetup: ['tests/helpers/bundleChildren.ts', 'tests/helpers/pgGlobal.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
