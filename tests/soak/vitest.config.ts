import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SOAK_TESTS from './files.json' with { type: 'json' };

// The soak tier (`npm run test:soak`, README "Tests"; `.ci/run` runs it after `npm test`): long runs that repeat a
// scenario many times or simulate market days, kept out of `npm test` (vitest.config.ts excludes ./files.json):
// - tests/core/watch/crash.test.ts: kill -9 cycles of a core on a stepped market clock;
// - tests/core/channels/kill.test.ts: kill -9 at three moments of each alert channel's send;
// - tests/core/watch/simday.test.ts: a simulated market day, three saved searches and ten watched lots;
// - tests/core/watch/pacing.test.ts: the request budget's pacing over simulated days;
// - tests/core/watch/watchBench.test.ts: the short versions of the watch benchmark (bench/watch runs the long ones).
// Every one runs on time the test drives (fake or stepped clocks), so none depends on how fast the machine is. The
// chaos suite (tests/chaos, `npm run test:chaos`) runs the crash scenario with ten times the cycles.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: SOAK_TESTS,
    globalSetup: ['tests/helpers/bundleChildren.ts', 'tests/helpers/pgGlobal.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
