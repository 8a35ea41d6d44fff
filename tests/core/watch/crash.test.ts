import { crashSuite, cyclesFrom } from './crash/scenario';

// Crash safety, the run in the soak tier (`npm run test:soak`): 20 kill -9 cycles on each engine, the desktop's SQLite
// file and a team's PostgreSQL database (skipped with PG_MISSING when the run has no test cluster);
// LOTWATCH_CRASH_CYCLES to change the count, LOTWATCH_CRASH_SEED to replay another seed. The chaos suite
// (`npm run test:chaos`) runs the same scenario with 200. See crash/scenario.ts for what is checked after every kill
// and at the end.
const cycles = cyclesFrom('LOTWATCH_CRASH_CYCLES', 20);
const seed = cyclesFrom('LOTWATCH_CRASH_SEED', 20261122);
const timeoutMs = 100_000 + cycles * 5_000;
crashSuite({ cycles, seed, timeoutMs });
crashSuite({ cycles, seed, timeoutMs, engine: 'postgres' });
