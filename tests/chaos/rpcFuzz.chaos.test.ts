import { describe, expect, it } from 'vitest';
import { countsTable, fuzzCorePerFile, fuzzMethods, integrity, violationSummary } from './fuzz/harness';
import type { FuzzEnv } from './fuzz/harness';
import { fuzzHttp } from './fuzz/http';

// Chaos: the RPC fuzzer at full count. Every contract method with 200 inputs derived from its zod schema (half
// valid, half mutated: anything in place of a field, __proto__/constructor keys, huge strings and keys, deep
// nesting, wrong types, special numbers, long arrays), on a real core with the Demo sandbox over HTTP; then 2,000
// calls of random methods, state carried over (settings, mode, key, new searches; reset every 100); then 1,000 requests
// to the browser shell's HTTP route. Per answer: never a throw, a typed envelope, never `internal`, a message of at
// most 2 KB, an error answer of at most 8 KB, JSON. After the run the file passes integrity_check. Counts:
// LOTWATCH_FUZZ_RUNS, LOTWATCH_FUZZ_MIXED, LOTWATCH_FUZZ_HTTP; seed: LOTWATCH_FUZZ_SEED.
const RUNS = Number(process.env.LOTWATCH_FUZZ_RUNS ?? 200);
const MIXED = Number(process.env.LOTWATCH_FUZZ_MIXED ?? 2000);
const HTTP = Number(process.env.LOTWATCH_FUZZ_HTTP ?? 1000);
const SEED = Number(process.env.LOTWATCH_FUZZ_SEED ?? 4242);

let env: FuzzEnv;
fuzzCorePerFile((started) => (env = started));

describe(`RPC fuzz, ${RUNS} inputs a method, ${MIXED} mixed, ${HTTP} over HTTP (seed ${SEED})`, () => {
  it('answers every method and input with a typed envelope', async () => {
    const r = await fuzzMethods(env.core, env.known, { runs: RUNS, seed: SEED, mixed: MIXED });
    console.log(`[fuzz] per method (seed ${SEED}):\n${countsTable(r.counts)}`);
    console.log(
      `[fuzz] mixed sequence: ${r.mixed.runs} calls, ${r.mixed.ok} ok, typed errors ${JSON.stringify(r.mixed.errors)}`,
    );
    console.log(
      `[fuzz] connections refused by the loopback guard (service URLs the fuzzer set): ${env.refused.length}`,
    );
    if (r.violations.length) console.log(`[fuzz] violations:\n${violationSummary(r.violations)}`);
    expect(violationSummary(r.violations)).toBe('');
  });

  it('answers every request of the browser shell with the envelope, its status and the security headers', async () => {
    const r = await fuzzHttp(env.core, env.known, { runs: HTTP, seed: SEED });
    console.log(
      `[fuzz] HTTP route: ${r.counts.runs} requests, ${r.counts.ok} ok, typed errors ${JSON.stringify(r.counts.errors)}`,
    );
    if (r.violations.length) console.log(`[fuzz] HTTP violations:\n${violationSummary(r.violations)}`);
    expect(violationSummary(r.violations)).toBe('');
  });

  it('leaves a sound data file', async () => {
    await env.core.dispose();
    expect(integrity(env.dbPath)).toBe('ok');
  });
});
