import { crashSuite, cyclesFrom } from '../core/watch/crash/scenario';

// Chaos: the crash-restart scenario of tests/core/watch/crash.test.ts with many more kill -9 cycles (default 200,
// LOTWATCH_CHAOS_CYCLES to change; LOTWATCH_CRASH_SEED to replay another seed). About 2 s a cycle, most of it the
// child's start.
const cycles = cyclesFrom('LOTWATCH_CHAOS_CYCLES', 200);
console.log(`[chaos] kill -9 cycles: ${cycles}`);
crashSuite({
  cycles,
  seed: cyclesFrom('LOTWATCH_CRASH_SEED', 20261122),
  timeoutMs: 120_000 + cycles * 5_000,
});
