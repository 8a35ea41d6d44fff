import BetterSqlite3 from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll } from 'vitest';
import { Agent, buildConnector } from 'undici';
import type { Core } from '../../../src/core/app';
import type { Clock } from '../../../src/core/clock';
import { createSandbox, DEMO_KEY, type Sandbox } from '../../../src/sandbox/index';
import { contract, type Method } from '../../../src/shared/ipc/contract';
import { ERROR_CODES } from '../../../src/shared/ipc/errors';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { makeCore } from '../../helpers/core';
import { inputFor, type FuzzInput, type Known } from './arbitraries';

// The RPC fuzzer: every contract method called on a real core (real SQLite file, the Demo sandbox over real HTTP)
// with inputs derived from its zod schema, valid and mutated. Each answer is checked; violations are collected
// (not thrown at the first) so one run lists them all with a replayable seed, and the per-method counts are kept.

/** The most a user-facing message may weigh (bytes of UTF-8). */
export const MAX_MESSAGE_BYTES = 2048;
/** The most a whole error answer may weigh, field map included (bytes of its JSON). */
export const MAX_ERROR_BYTES = 8192;

/** Counts of one method's run. */
export interface MethodCounts {
  runs: number;
  valid: number;
  ok: number;
  errors: Record<string, number>;
  threw: number;
  /** Wall time spent in the calls, and the slowest call (ms) with how its input was made. */
  ms: number;
  slowest: { ms: number; how: string };
}

/** One broken rule, with what it takes to replay it. */
export interface Violation {
  where: string;
  method: string;
  rule: string;
  detail: string;
  how: string;
  input: string;
}

/** A short JSON-ish preview of an input (huge strings and deep nesting cut). */
export function preview(v: unknown, max = 300): string {
  let s: string;
  try {
    s =
      JSON.stringify(v, (_k, x: unknown) =>
        typeof x === 'bigint'
          ? `${x}n`
          : typeof x === 'string' && x.length > 40
            ? `${x.slice(0, 40)}…(${x.length} chars)`
            : x,
      ) ?? String(v);
  } catch (e) {
    s = `<${(e as Error).message}>`;
  }
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/**
 * Checks one RPC answer: a typed envelope ({ok:true,value} or {ok:false,error:{code,message,retryable,fields?}})
 * with a known code, never `internal`, a message of at most 2 KB, an error answer of at most 8 KB, and JSON that
 * survives a round trip. Returns the broken rules (empty when all hold).
 */
export function checkAnswer(r: unknown): { rule: string; detail: string }[] {
  const out: { rule: string; detail: string }[] = [];
  if (typeof r !== 'object' || r === null)
    return [{ rule: 'envelope', detail: `not an object: ${preview(r)}` }];
  const e = r as {
    ok?: unknown;
    value?: unknown;
    error?: { code?: unknown; message?: unknown; retryable?: unknown; fields?: unknown };
  };
  let json: string | undefined;
  try {
    json = JSON.stringify(r);
  } catch (x) {
    out.push({ rule: 'json', detail: `JSON.stringify threw: ${(x as Error).message}` });
  }
  if (json === undefined && out.length === 0)
    out.push({ rule: 'json', detail: 'JSON.stringify gave undefined' });
  if (e.ok === true) {
    if (!('value' in e)) out.push({ rule: 'envelope', detail: 'ok without value' });
    return out;
  }
  if (e.ok !== false || typeof e.error !== 'object' || e.error === null)
    return [...out, { rule: 'envelope', detail: preview(r) }];
  const { code, message, retryable, fields } = e.error;
  if (typeof code !== 'string' || !(ERROR_CODES as readonly string[]).includes(code))
    out.push({ rule: 'envelope', detail: `unknown code ${preview(code)}` });
  if (typeof message !== 'string' || message.length === 0)
    out.push({ rule: 'envelope', detail: `message ${preview(message)}` });
  if (typeof retryable !== 'boolean')
    out.push({ rule: 'envelope', detail: `retryable ${preview(retryable)}` });
  if (fields !== undefined && (typeof fields !== 'object' || fields === null))
    out.push({ rule: 'envelope', detail: `fields ${preview(fields)}` });
  if (code === 'internal') out.push({ rule: 'internal', detail: String(message) });
  if (typeof message === 'string' && Buffer.byteLength(message) > MAX_MESSAGE_BYTES) {
    out.push({
      rule: 'message > 2 KB',
      detail: `${code}: ${Buffer.byteLength(message)} bytes: ${message.slice(0, 120)}…`,
    });
  }
  if (json !== undefined && Buffer.byteLength(json) > MAX_ERROR_BYTES) {
    out.push({
      rule: 'error answer > 8 KB',
      detail: `${code}: ${Buffer.byteLength(json)} bytes (fields: ${preview(Object.keys(fields ?? {}), 160)})`,
    });
  }
  return out;
}

/**
 * An undici dispatcher that connects only to `allowed` (host:port on the loopback address): whatever service URL
 * the fuzzer sets, no request leaves this machine. Refused connections count in `refused`.
 */
export function loopbackOnly(allowed: () => string[]): { agent: Agent; refused: string[] } {
  const base = buildConnector({ timeout: 5_000 });
  const refused: string[] = [];
  const agent = new Agent({
    connect: (opts, cb) => {
      const at = `${opts.hostname}:${opts.port || (opts.protocol === 'https:' ? '443' : '80')}`;
      if (!allowed().includes(at)) {
        refused.push(at);
        cb(new Error(`the fuzzer refused a connection to ${at}`), null);
        return;
      }
      base(opts, cb);
    },
  });
  return { agent, refused };
}

/** What `fuzzCore` starts: the core, its sandbox and data file, and what there is to find in it. */
export type FuzzEnv = Awaited<ReturnType<typeof fuzzCore>>;

/**
 * For a fuzz test file (call at its top level): before its tests starts `fuzzCore` (a minute at most) and hands it to
 * `use`; after them cleans it up.
 */
export function fuzzCorePerFile(use: (env: FuzzEnv) => void): void {
  let env: FuzzEnv | undefined;
  beforeAll(async () => {
    env = await fuzzCore();
    use(env);
  }, 60_000);
  afterAll(async () => {
    await env?.cleanup();
  });
}

/** A core over a real file in a temp folder, on fake time, with the Demo sandbox over real HTTP. */
export async function fuzzCore(): Promise<{
  core: Core;
  sb: Sandbox;
  dbPath: string;
  dir: string;
  refused: string[];
  known: Known;
  cleanup(): Promise<void>;
}> {
  const sb = createSandbox({ seed: 7, lots: 1500, speed: 0, ratePerSecond: 0 });
  await sb.start(0, '127.0.0.1');
  const sandboxAt = new URL(sb.url!).host;
  const guard = loopbackOnly(() => [sandboxAt]);
  // The client's own waits run 20 times faster than real time: timeouts of a second, backoff of tens of ms.
  const fastClient: Clock = {
    now: () => Date.now(),
    setTimeout: (fn, ms) => {
      const t = setTimeout(fn, ms / 20);
      return () => clearTimeout(t);
    },
  };
  const made = makeCore({
    demoService: async () => ({ baseUrl: sb.baseUrl!, apiKey: DEMO_KEY, ratePerSecond: 1e6 }),
    dispatcher: guard.agent,
    clientClock: fastClient,
    autoStart: false,
    demoExamples: false,
  });
  const { core } = made;
  await core.ready;
  // Something to find: a search, watched lots, stored lots (through a search), alerts.
  const page = await core.call('vehicles.search', { params: { per_page: 20 } });
  const lots = page.lots.filter((l) => l.lot_number.length > 0);
  for (const l of lots.slice(0, 3)) await core.call('watchlist.add', { target: l.lot_number, label: 'fuzz' });
  await core.call('searches.create', {
    name: 'fuzz',
    params: { make: lots[0]?.make ?? 'TOYOTA' },
    schedule: '*/30 * * * *',
    max_pages: 2,
  });
  await core.call('searches.runNow', { id: 1 });
  const endpoints = await core.call('console.endpoints', undefined);
  // The guard holds: with a key and Demo mode off, a call to the real service is refused before any connection.
  await core.call('settings.update', { demoMode: false });
  await core.call('key.set', { key: 'fuzz-guard-check-key' });
  const probe = await core.invoke('key.test', undefined);
  if (guard.refused.length === 0)
    throw new Error(`the loopback guard did not stop key.test: ${JSON.stringify(probe)}`);
  guard.refused.length = 0;
  await resetState(core);
  const known: Known = {
    ids: [1, 2, 3],
    lotKeys: lots.map((l) => l.lot_key),
    vehicleIds: lots.flatMap((l) => [l.lot_number, ...(l.vin ? [l.vin] : [])]),
    endpointNames: endpoints.map((e) => e.name),
    photoUrls: lots.flatMap((l) => l.photos.slice(0, 1)),
    searchParams: [
      {},
      { make: lots[0]?.make ?? 'TOYOTA' },
      { lot_sub_status: 'Live', per_page: 5 },
      { year_from: 2015, price_max: 5000 },
    ],
    schedules: ['*/30 * * * *', '0 8 * * 1-5', '* * * * *'],
  };
  return {
    core,
    sb,
    dbPath: made.dbPath,
    dir: made.dir,
    refused: guard.refused,
    known,
    async cleanup() {
      await made.cleanup();
      await guard.agent.close();
      await sb.dispose();
    },
  };
}

/**
 * Puts the settings and key back as a fresh Demo install has them, and removes the searches and watches the fuzzer
 * created (the first search and three watches stay): between methods, so one cannot starve or slow the rest.
 */
export async function resetState(core: Core): Promise<void> {
  await core.invoke('key.clear', undefined);
  const { spendNoticesSeen: _seen, ...rest } = DEFAULT_SETTINGS;
  await core.invoke('settings.update', rest);
  for (const s of await core.call('searches.list', undefined))
    if (s.id > 1) await core.call('searches.remove', { id: s.id });
  for (const w of await core.call('watchlist.list', undefined))
    if (w.id > 3) await core.call('watchlist.remove', { id: w.id });
}

/** `PRAGMA integrity_check` of the file, read-only (the core disposed). */
export function integrity(dbPath: string): string {
  const db = new BetterSqlite3(dbPath, { readonly: true });
  try {
    return String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
}

/**
 * Calls each method `runs` times with inputs from its schema (seeded: `seed` + the method's index), checking every
 * answer; then, when `mixed` > 0, that many calls of methods drawn at random, state carried over between them
 * (reset every 100 calls).
 */
export async function fuzzMethods(
  core: Core,
  known: Known,
  opts: { runs: number; seed: number; mixed?: number; methods?: Method[]; onProgress?: (m: string) => void },
): Promise<{ counts: Map<string, MethodCounts>; violations: Violation[]; mixed: MethodCounts }> {
  const methods = opts.methods ?? (Object.keys(contract) as Method[]);
  const counts = new Map<string, MethodCounts>();
  const violations: Violation[] = [];
  const blank = (): MethodCounts => ({
    runs: 0,
    valid: 0,
    ok: 0,
    errors: {},
    threw: 0,
    ms: 0,
    slowest: { ms: 0, how: '' },
  });
  const call = async (where: string, method: Method, x: FuzzInput, c: MethodCounts) => {
    c.runs++;
    if (x.kind === 'valid') c.valid++;
    let r: unknown;
    const t0 = performance.now();
    try {
      r = await core.invoke(method, x.input);
      const ms = performance.now() - t0;
      c.ms += ms;
      if (ms > c.slowest.ms) c.slowest = { ms, how: x.how };
    } catch (e) {
      c.threw++;
      violations.push({
        where,
        method,
        rule: 'threw',
        detail: (e as Error)?.message ?? String(e),
        how: x.how,
        input: preview(x.input),
      });
      return;
    }
    const res = r as { ok: boolean; error?: { code: string } };
    if (res?.ok) c.ok++;
    else if (res?.error) c.errors[res.error.code] = (c.errors[res.error.code] ?? 0) + 1;
    for (const v of checkAnswer(r))
      violations.push({ where, method, ...v, how: x.how, input: preview(x.input) });
  };
  for (const [i, method] of methods.entries()) {
    opts.onProgress?.(method);
    await resetState(core);
    const c = blank();
    counts.set(method, c);
    const seed = opts.seed + i;
    const inputs = fc.sample(inputFor(contract[method].input, known), { seed, numRuns: opts.runs });
    for (const [n, x] of inputs.entries()) await call(`${method} seed ${seed} run ${n}`, method, x, c);
  }
  const mixed = blank();
  if (opts.mixed) {
    await resetState(core);
    const arb = fc
      .constantFrom(...methods)
      .chain((m) => inputFor(contract[m].input, known).map((x) => ({ m, x })));
    const inputs = fc.sample(arb, { seed: opts.seed + 1000, numRuns: opts.mixed });
    for (const [n, { m, x }] of inputs.entries()) {
      // State carries over for 100 calls at a time (a mode switched off, a key set, searches piling up).
      if (n > 0 && n % 100 === 0) await resetState(core);
      await call(`mixed seed ${opts.seed + 1000} run ${n}`, m, x, mixed);
    }
  }
  return { counts, violations, mixed };
}

/** The per-method table: runs, valid inputs, ok answers, typed errors by code. */
export function countsTable(counts: Map<string, MethodCounts>): string {
  const rows = [...counts].map(([m, c]) => [
    m,
    String(c.runs),
    String(c.valid),
    String(c.ok),
    Object.entries(c.errors)
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') + (c.threw ? `, THREW ${c.threw}` : ''),
  ]);
  rows.forEach((r, i) => {
    const c = [...counts.values()][i]!;
    r.splice(4, 0, `${Math.round(c.ms)}`, `${Math.round(c.slowest.ms)}`);
  });
  const head = ['method', 'runs', 'valid', 'ok', 'ms', 'slowest', 'typed errors by code'];
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((x, i) => (i === r.length - 1 ? x : x.padEnd(w[i]!))).join('  ');
  const total = [...counts.values()].reduce((s, c) => ({ runs: s.runs + c.runs, ok: s.ok + c.ok }), {
    runs: 0,
    ok: 0,
  });
  return [line(head), ...rows.map(line), `${counts.size} methods, ${total.runs} calls, ${total.ok} ok`].join(
    '\n',
  );
}

/** Violations grouped by method and rule, one example each, for the report. */
export function violationSummary(vs: Violation[]): string {
  const groups = new Map<string, Violation[]>();
  for (const v of vs) {
    const k = `${v.method} | ${v.rule}`;
    groups.set(k, [...(groups.get(k) ?? []), v]);
  }
  return [...groups]
    .map(
      ([k, g]) =>
        `${k}: ${g.length}x\n    e.g. ${g[0]!.where}: ${g[0]!.detail.slice(0, 300)}\n    input (${g[0]!.how}): ${g[0]!.input}`,
    )
    .join('\n');
}
