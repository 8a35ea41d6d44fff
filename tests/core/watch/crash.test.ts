import { crashSuite, cyclesFrom } from './crash/scenario';

// Crash safety, the run in the soak tier (`npm run test:soak`): 20 kill -9 cycles (LOTWATCH_CRASH_CYCLES to change, LOTWATCH_CRASH_SEED
// to replay another seed); the chaos suite (`npm run test:chaos`) runs the same scenario with 200. See
// crash/scenario.ts for what is checked after every kill and at the end.
const cycles = cyclesFrom('LOTWATCH_CRASH_CYCLES', 20);
crashSuite({
  cycles,
  seed: cyclesFrom('LOTWATCH_CRASH_SEED', 20261122),
  timeoutMs: 100_000 + cycles * 5_000,
});
