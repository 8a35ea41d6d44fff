import { describe, expect, it } from 'vitest';
import { countsTable, fuzzCorePerFile, fuzzMethods, integrity, violationSummary } from './fuzz/harness';
import type { FuzzEnv } from './fuzz/harness';
import { fuzzHttp } from './fuzz/http';

// The RPC fuzzer's quick run, in `npm test`: every contract method with 20 inputs from its zod schema (half valid,
// half mutated) on a real core with the Demo sandbox over HTTP. `npm run test:chaos` runs 200 a method, then a
// mixed sequence, and the browser shell's HTTP route. Seeded: a failure names the seed and run to replay.
const RUNS = Number(process.env.LOTWATCH_FUZZ_RUNS ?? 20);
const SEED = Number(process.env.LOTWATCH_FUZZ_SEED ?? 4242);

let env: FuzzEnv;
fuzzCorePerFile((started) => (env = started));

describe(`RPC fuzz, ${RUNS} inputs a method (seed ${SEED})`, () => {
  it('answers every input with a typed envelope, never internal, and keeps the file sound', async () => {
    const { counts, violations } = await fuzzMethods(env.core, env.known, { runs: RUNS, seed: SEED });
    console.log(countsTable(counts));
    const http = await fuzzHttp(env.core, env.known, { runs: RUNS * 10, seed: SEED });
    console.log(
      `HTTP route: ${http.counts.runs} requests, ${http.counts.ok} ok, errors ${JSON.stringify(http.counts.errors)}`,
    );
    violations.push(...http.violations);
    if (violations.length) console.log(violationSummary(violations));
    await env.core.dispose();
    expect(integrity(env.dbPath)).toBe('ok');
    expect(violationSummary(violations)).toBe('');
  }, 120_000);
});
