import { defineConfig } from 'vitest/config';

// Unit and integration tests (README.md "Tests"): tests/core, tests/sandbox, tests/shell, tests/shared run in
// Node; tests/renderer run in jsdom. End-to-end specs (tests/e2e, *.spec.ts) belong to Playwright. The chaos suite's
// long runs (tests/chaos/*.chaos.test.ts) have their own config and command (`npm run test:chaos`).
export default defineConfig({
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    exclude: ['tests/e2e/**', 'tests/chaos/**/*.chaos.test.ts', 'node_modules/**'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
