import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import type { Core } from '../../../src/core/app';
import { silentLogger } from '../../../src/core/log';
import { createHeadlessServer, statusForError } from '../../../src/headless/server';
import { contract, type Method } from '../../../src/shared/ipc/contract';
import type { ErrorCode } from '../../../src/shared/ipc/errors';
import { inputFor, type Known } from './arbitraries';
import { checkAnswer, preview, type MethodCounts, type Violation } from './harness';

// The browser shell's RPC route under the fuzzer: `POST /rpc/<method>` on the real server (createHeadlessServer)
// in front of the fuzzed core, with bodies from the same schema-derived inputs, plus what only HTTP can carry
// (bodies that are not JSON, too large, the wrong media type, no token, odd method names). Every answer must be the
// typed envelope as JSON, with the security headers and the status its code calls for.

const SECURITY = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** One HTTP request the fuzzer sends. */
interface HttpCase {
  method: string;
  body: string | undefined;
  contentType: string | undefined;
  auth: boolean;
  how: string;
}

const BIGINT_JSON = (_k: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v);

function httpCase(known: Known): fc.Arbitrary<HttpCase> {
  const methods = Object.keys(contract) as Method[];
  const json = fc.constantFrom(...methods).chain((m) =>
    inputFor(contract[m].input, known).map((x): HttpCase => {
      let body: string | undefined;
      try {
        body = x.input === undefined ? undefined : JSON.stringify(x.input, BIGINT_JSON);
      } catch {
        body = '[[[[';
      }
      return { method: m, body, contentType: 'application/json', auth: true, how: `${x.kind}: ${x.how}` };
    }),
  );
  const odd = fc
    .record({
      method: fc.oneof(
        fc.constantFrom(...methods),
        fc.string({ maxLength: 60 }),
        fc.constantFrom(
          '__proto__',
          'constructor',
          'toString',
          '..%2f..%2fetc',
          '%E0%A4%A',
          'app.info%00',
          'x'.repeat(5000),
        ),
      ),
      body: fc.oneof(
        fc.constant(undefined),
        fc.string({ maxLength: 200 }),
        fc.constantFrom(
          '{',
          '{"a":',
          'null',
          '[]',
          '"x"',
          '1e999',
          '{"__proto__":{"polluted":1}}',
          '\uFEFF{}',
        ),
        fc.integer({ min: 1_048_000, max: 1_100_000 }).map((n) => JSON.stringify({ q: 'x'.repeat(n) })),
        fc.integer({ min: 5_000, max: 100_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
      ),
      contentType: fc.constantFrom(
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        undefined,
        'application/json; charset=latin1',
      ),
      auth: fc.boolean(),
    })
    .map((c): HttpCase => ({
      ...c,
      how: `odd request: ${c.contentType ?? 'no'} content type, ${c.auth ? '' : 'no '}token`,
    }));
  return fc.oneof({ arbitrary: json, weight: 4 }, { arbitrary: odd, weight: 1 });
}

/**
 * Sends `runs` seeded requests to the browser shell's RPC route in front of `core` and checks every answer:
 * JSON typed envelope (checkAnswer), the three security headers, application/json, and a status that matches the
 * code (200 for ok and domain errors; 400/404/500/503 per statusForError; 401/403 for a refused sender; 413/415
 * for a body too large or not JSON).
 */
export async function fuzzHttp(
  core: Core,
  known: Known,
  opts: { runs: number; seed: number },
): Promise<{ counts: MethodCounts; violations: Violation[] }> {
  const rendererDir = mkdtempSync(join(tmpdir(), 'lotwatch-fuzz-renderer-'));
  const token = 'fuzz-token-0123456789abcdef';
  const server = createHeadlessServer({ core, rendererDir, log: silentLogger, token });
  const agent = new Agent({ connections: 4 });
  const counts: MethodCounts = {
    runs: 0,
    valid: 0,
    ok: 0,
    errors: {},
    threw: 0,
    ms: 0,
    slowest: { ms: 0, how: '' },
  };
  const violations: Violation[] = [];
  try {
    const url = new URL(await server.start());
    const cases = fc.sample(httpCase(known), { seed: opts.seed, numRuns: opts.runs });
    for (const [n, c] of cases.entries()) {
      counts.runs++;
      const where = `http seed ${opts.seed} run ${n}`;
      const v = (rule: string, detail: string) =>
        violations.push({
          where,
          method: `POST /rpc/${c.method.slice(0, 40)}`,
          rule,
          detail,
          how: c.how,
          input: preview(c.body),
        });
      let status: number;
      let headers: Record<string, string | string[] | undefined>;
      let text: string;
      const t0 = performance.now();
      try {
        const res = await request(
          `${url.origin}/rpc/${c.method.includes('%') ? c.method : encodeURIComponent(c.method)}`,
          {
            method: 'POST',
            dispatcher: agent,
            headers: {
              ...(c.contentType ? { 'content-type': c.contentType } : {}),
              ...(c.auth ? { authorization: `Bearer ${token}` } : {}),
            },
            ...(c.body !== undefined ? { body: c.body } : {}),
          },
        );
        status = res.statusCode;
        headers = res.headers;
        text = await res.body.text();
        const ms = performance.now() - t0;
        counts.ms += ms;
        if (ms > counts.slowest.ms) counts.slowest = { ms, how: `${c.method.slice(0, 40)}: ${c.how}` };
      } catch (e) {
        counts.threw++;
        v('request failed', (e as Error).message);
        continue;
      }
      for (const [h, want] of Object.entries(SECURITY))
        if (headers[h] !== want) v('security header', `${h}: ${String(headers[h])} (status ${status})`);
      if (!String(headers['content-type'] ?? '').startsWith('application/json'))
        v('content type', `${String(headers['content-type'])} (status ${status})`);
      let answer: unknown;
      try {
        answer = JSON.parse(text);
      } catch {
        v('envelope', `status ${status}, body not JSON: ${text.slice(0, 120)}`);
        continue;
      }
      for (const x of checkAnswer(answer)) v(x.rule, x.detail);
      const a = answer as { ok?: boolean; error?: { code: ErrorCode } };
      if (a.ok === true) {
        counts.ok++;
        if (status !== 200) v('status', `ok answer with status ${status}`);
      } else if (a.error) {
        counts.errors[a.error.code] = (counts.errors[a.error.code] ?? 0) + 1;
        const code = a.error.code;
        const allowed =
          status === statusForError(code) ||
          (code === 'bad_input' && (status === 413 || status === 415)) ||
          ((code === 'unauthorized' || code === 'forbidden') && (status === 401 || status === 403));
        if (!allowed) v('status', `${code} answered with status ${status}`);
      }
    }
  } finally {
    await server.dispose();
    await agent.close();
    rmSync(rendererDir, { recursive: true, force: true });
  }
  return { counts, violations };
}
