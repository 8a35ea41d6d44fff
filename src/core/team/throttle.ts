/*
 * The sign-in throttle's rules (docs/architecture.md "A team on one server"), pure: how long a login or a client
 * address must wait after its failed sign-ins. The state lives in the team's database (`sign_in_throttle`), so every
 * server of the team counts the same failures.
 */

/** Failed sign-ins of one login before it must wait. */
export const LOGIN_FAILURES_ALLOWED = 5;
/** Failed sign-ins from one client address (any logins: an office shares one) before it must wait. */
export const ADDRESS_FAILURES_ALLOWED = 20;
/** The first wait (ms); each further failure doubles it. */
export const FIRST_WAIT_MS = 30_000;
/** The longest wait (ms). */
export const MAX_WAIT_MS = 15 * 60_000;
/** Failures older than this (ms) with no wait running are forgotten: the count starts again. */
export const FORGET_AFTER_MS = 60 * 60_000;

/** The throttle key of a login (compared without case) and of a client address. */
export const loginKey = (login: string) => `login:${login.trim().toLowerCase()}`;
export const addressKey = (address: string) => `addr:${address}`;

/** One key's state: failures counted, the last one's time and the end of its wait (ms; 0: none). */
export interface ThrottleState {
  failures: number;
  last_failure_at: number;
  locked_until: number;
}

/**
 * The state after one more failure at `now` for a key allowed `allowed` failures: the count grows (or starts again
 * when the last failure is older than FORGET_AFTER_MS and no wait runs); from `allowed` failures on, the key waits
 * FIRST_WAIT_MS, doubled per further failure, at most MAX_WAIT_MS.
 */
export function afterFailure(old: ThrottleState | undefined, now: number, allowed: number): ThrottleState {
  const stale = !old || (old.locked_until <= now && now - old.last_failure_at > FORGET_AFTER_MS);
  const failures = stale ? 1 : old.failures + 1;
  const over = failures - allowed;
  const wait = over < 0 ? 0 : Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.min(over, 20));
  return { failures, last_failure_at: now, locked_until: wait === 0 ? 0 : now + wait };
}

/** Seconds (whole, at least 1) until the longest of the waits ends, or 0 when none runs at `now`. */
export function retryAfterS(states: readonly Pick<ThrottleState, 'locked_until'>[], now: number): number {
  const until = Math.max(0, ...states.map((s) => s.locked_until));
  return until > now ? Math.max(1, Math.ceil((until - now) / 1000)) : 0;
}
