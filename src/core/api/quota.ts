import type { Clock } from '../clock';
import type { QuotaSnapshot } from '../../shared/vehicle';

/**
 * Quota tracking: the X-Subscription-* and X-RateLimit-* headers of every response
 * (docs/service-contract.md "Envelope, headers, errors") read into a snapshot, and a client-side limiter that keeps
 * to the plan's requests per second.
 */

type Headers = Record<string, string | string[] | undefined>;

/**
 * The longest wait Lotwatch takes from the service, ms: 35 days. The longest plan period is a month (31 days), so no
 * honest Retry-After or period end lies further ahead; a longer one (Retry-After: 9999999999, an end in the year
 * 2343) would stop polling for good.
 */
export const MAX_WAIT_MS = 35 * 86_400_000;

/**
 * A wait the service asked for (ms), capped: never past the plan period's end when that is known and ahead (a wait
 * longer than the period is "until the period ends"), never longer than MAX_WAIT_MS. Null stays null.
 */
export function capWait(waitMs: number | null, periodEnd: number | null, now: number): number | null {
  if (waitMs === null) return null;
  const untilPeriodEnd = periodEnd !== null && periodEnd > now ? periodEnd - now : Infinity;
  return Math.max(0, Math.min(waitMs, untilPeriodEnd, MAX_WAIT_MS));
}

function header(h: Headers, name: string): string | null {
  const v = h[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined ? null : s.trim();
}

function int(h: Headers, name: string): number | null {
  const s = header(h, name);
  if (s === null || !/^\d{1,15}$/.test(s)) return null;
  return Number(s);
}

function time(h: Headers, name: string): number | null {
  const s = header(h, name);
  if (!s) return null;
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : null;
}

/**
 * Reads the quota headers (names lower-case, as undici gives them). Returns null when the response carries
 * none of them (e.g. an HTML error page from a proxy). Counts are requests; times ms since the epoch, as the service
 * says them: a wait taken from a period end is capped where it is taken (capWait, PauseGate).
 */
export function parseQuotaHeaders(h: Headers, now: number): QuotaSnapshot | null {
  const q: QuotaSnapshot = {
    at: now,
    limit: int(h, 'x-subscription-limit'),
    baseLimit: int(h, 'x-subscription-base-limit'),
    extraLimit: int(h, 'x-subscription-extra-limit'),
    used: int(h, 'x-subscription-used'),
    remaining: int(h, 'x-subscription-remaining'),
    periodStart: time(h, 'x-subscription-period-start'),
    periodEnd: time(h, 'x-subscription-period-end'),
    perPageLimit: int(h, 'x-per-page-limit'),
    rateLimit: int(h, 'x-ratelimit-limit'),
    rateRemaining: int(h, 'x-ratelimit-remaining'),
  };
  const { at: _at, ...values } = q;
  return Object.values(values).some((v) => v !== null) ? q : null;
}

/**
 * Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110), at most MAX_WAIT_MS (35 days). Null when
 * absent or unreadable; never negative.
 */
export function parseRetryAfter(h: Headers, now: number): number | null {
  const s = header(h, 'retry-after');
  if (!s) return null;
  if (/^\d{1,10}$/.test(s)) return Math.min(Number(s) * 1000, MAX_WAIT_MS);
  const t = Date.parse(s);
  return Number.isFinite(t) ? Math.min(Math.max(0, t - now), MAX_WAIT_MS) : null;
}

/**
 * Spaces requests at least 1000/rate ms apart on the injected clock. The rate is the configured one until the
 * service reports its own X-RateLimit-Limit (per second), which then wins.
 */
export class RateLimiter {
  private next = 0;
  private last = 0;
  private rate: number;

  constructor(
    private readonly clock: Clock,
    rate: number,
  ) {
    this.rate = rate > 0 ? rate : 1;
  }

  /** Requests per second in force. */
  get ratePerSecond(): number {
    return this.rate;
  }

  /** Adopts the service's reported rate (requests per second), ignoring nonsense values. */
  setRate(rate: number | null): void {
    if (rate === null || !(rate > 0) || rate > 10_000 || rate === this.rate) return;
    // Slots already reserved were spaced for the old rate; respace them for the new one.
    if (this.next > this.last) this.next = this.last + ((this.next - this.last) * this.rate) / rate;
    this.rate = rate;
  }

  /**
   * Resolves when the caller may send. Slots are reserved in call order, so concurrent callers are spaced too.
   * @throws the signal's reason when aborted while waiting.
   */
  acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const now = this.clock.now();
    const at = Math.max(now, this.next);
    this.last = at;
    this.next = at + 1000 / this.rate;
    // Sub-millisecond waits are below the clock's resolution.
    return at - now < 1 ? Promise.resolve() : sleep(this.clock, at - now, signal);
  }
}

/** Waits `ms` on the clock; rejects with the signal's reason when aborted. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      cancel();
      reject(signal?.reason);
    };
    const cancel = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
