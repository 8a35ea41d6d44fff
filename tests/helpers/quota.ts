import type { QuotaSnapshot } from '../../src/shared/vehicle';

/** A quota snapshot of a 100-request plan with `remaining` left until `periodEnd` (ms): what the headers would say. */
export function quotaSnapshot(remaining: number, periodEnd: number): QuotaSnapshot {
  return {
    at: Date.now(),
    limit: 100,
    baseLimit: 100,
    extraLimit: 0,
    used: 100 - remaining,
    remaining,
    periodStart: null,
    periodEnd,
    perPageLimit: null,
    rateLimit: null,
    rateRemaining: null,
  };
}
