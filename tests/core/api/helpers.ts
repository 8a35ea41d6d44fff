import { MockAgent } from 'undici';
import type { Clock } from '../../../src/core/clock';
import { createApiClient, type ApiClientOptions } from '../../../src/core/api';
import type { RequestRecord } from '../../../src/core/api';
import type { QuotaSnapshot } from '../../../src/shared/vehicle';

export const ORIGIN = 'https://apibara.tech';
export const BASE = `${ORIGIN}/api/v1/vehicle-auction`;
export const KEY = 'sk_live_SECRET_key_1234567890';

/**
 * A clock whose short timers (backoff, rate spacing) fire at once on the next macrotask while time jumps ahead,
 * so retries run without real sleeps; timers of a minute or more (the request timeout) fire only on `fireLong()`.
 */
export class JumpClock implements Clock {
  t = Date.UTC(2026, 10, 22, 12, 0, 0);
  sleeps: number[] = [];
  private long: (() => void)[] = [];
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): () => void {
    let cancelled = false;
    const run = () => {
      if (!cancelled) fn();
    };
    if (ms >= 60_000) this.long.push(run);
    else {
      this.sleeps.push(ms);
      setImmediate(() => {
        this.t += ms;
        run();
      });
    }
    return () => {
      cancelled = true;
    };
  }
  fireLong(): void {
    const l = this.long;
    this.long = [];
    l.forEach((f) => f());
  }
}

export interface Seen {
  path: string;
  headers: Record<string, string>;
}

/** A client over a MockAgent; `seen` records each request's path and headers. */
export function setup(over: Partial<ApiClientOptions> = {}) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(ORIGIN);
  const clock = new JumpClock();
  const records: RequestRecord[] = [];
  const quotas: QuotaSnapshot[] = [];
  const logs: string[] = [];
  const log = {
    debug: (m: string, d?: unknown) => logs.push(JSON.stringify({ m, d })),
    info: (m: string, d?: unknown) => logs.push(JSON.stringify({ m, d })),
    warn: (m: string, d?: unknown) => logs.push(JSON.stringify({ m, d })),
    error: (m: string, d?: unknown) => logs.push(JSON.stringify({ m, d })),
  };
  const client = createApiClient({
    baseUrl: BASE,
    apiKey: () => KEY,
    clock,
    dispatcher: agent,
    sink: (r) => records.push(r),
    onQuota: (q) => quotas.push(q),
    log,
    ratePerSecond: 10_000,
    random: () => 0.5,
    timeoutMs: 60_000,
    ...over,
  });
  const seen: Seen[] = [];
  /** Intercepts one GET of `path` (below the base URL unless it starts with /api/) with a reply. */
  const on = (path: string, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const full = path.startsWith('/api/') ? path : `/api/v1/vehicle-auction${path}`;
    const isText = typeof body === 'string' || body instanceof Uint8Array;
    return pool
      .intercept({
        path: (p: string) => p.split('?')[0] === full.split('?')[0] && (!full.includes('?') || p === full),
        method: 'GET',
      })
      .reply(
        status,
        (opts) => {
          const h = opts.headers as Record<string, string>;
          seen.push({ path: opts.path, headers: h });
          return (isText ? body : JSON.stringify(body)) as string;
        },
        { headers: isText ? headers : { 'content-type': 'application/json', ...headers } },
      );
  };
  return { agent, pool, clock, client, records, quotas, logs, seen, on };
}
