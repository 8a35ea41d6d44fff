import { QuotaSpentError, RateLimitedError } from '../api/errors';
import type { Clock } from '../clock';
import type { QuotaSnapshot } from '../../shared/vehicle';
import { quotaSpentSentence } from '../../shared/quota';
import { MAX_WAIT_MS } from '../api/quota';

const HOUR = 3_600_000;

/**
 * Why polling is paused: the plan's requests are used up for the period, the per-second rate limit, or the buyer
 * paused watching (the tray's "Pause watching for 1 hour", Settings.watchPausedUntil).
 */
export type PauseKind = 'quota_spent' | 'rate_limited' | 'user';

/**
 * The pause after the service said 429: no polling until a time (ms), with the reason and kind shown to the user.
 * A spent quota also pauses through the stored snapshot (`remaining` 0 before the period ends), so a restart keeps it.
 */
export class PauseGate {
  private until = 0;
  private reason: string | null = null;
  private kind: PauseKind | null = null;

  constructor(
    private readonly clock: Clock,
    /** The last stored quota snapshot, or null. */
    private readonly quota: () => QuotaSnapshot | null,
    /** Until when the buyer paused watching (ms), or null. */
    private readonly userUntil: () => number | null = () => null,
  ) {}

  /**
   * Pauses after a failed request when it says so: a spent quota until its period ends (an hour without a known
   * end: one request, not one a minute), a rate limit for Retry-After (at least a minute). Other errors: nothing.
   * A pause never outlasts the stored plan period's end when that lies ahead, nor 35 days (MAX_WAIT_MS): a wait
   * longer than the period means "until the period ends".
   */
  hold(e: unknown, now: number): void {
    if (e instanceof QuotaSpentError) {
      // The plan's requests are used up until its period ends: nothing is sent before then. Without a known end,
      // look again in an hour (one request), not every minute.
      this.until = this.capped(e.periodEnd ?? now + Math.max(HOUR, e.retryAfterMs ?? HOUR), now);
      this.reason = e.message;
      this.kind = 'quota_spent';
    } else if (e instanceof RateLimitedError) {
      // The service said stop: every poll waits for Retry-After (or a minute) instead of spending more.
      this.until = this.capped(now + Math.max(60_000, e.retryAfterMs ?? 60_000), now);
      this.reason = e.message;
      this.kind = 'rate_limited';
    }
  }

  /** `until` (ms), at most the stored period's end when it lies ahead, and at most MAX_WAIT_MS after `now`. */
  private capped(until: number, now: number): number {
    const end = this.quota()?.periodEnd ?? null;
    return Math.min(until, end !== null && end > now ? end : Infinity, now + MAX_WAIT_MS);
  }

  /**
   * The end of the current pause (ms; <= now when not paused): after a 429, or while the last quota snapshot says
   * the plan has no requests left before its period ends.
   */
  end(now: number): number {
    return Math.max(this.until, this.spentUntil(now) ?? 0, this.userPause(now) ?? 0);
  }

  /** The buyer's pause end while it lies ahead, else null. */
  private userPause(now: number): number | null {
    const u = this.userUntil();
    return u !== null && u > now ? u : null;
  }

  /**
   * The period end while the stored snapshot says no requests remain, else null; at most MAX_WAIT_MS after the
   * snapshot was taken (a period end in the year 2343 is no plan's period).
   */
  private spentUntil(now: number): number | null {
    const q = this.quota();
    const end = q?.periodEnd == null ? null : Math.min(q.periodEnd, q.at + MAX_WAIT_MS);
    return q && q.remaining === 0 && end !== null && end > now ? end : null;
  }

  /**
   * Whether polling is paused, until when (ms) and why: for a spent quota, the period's end and "used up until
   * 12 December", never a count of seconds.
   */
  state(): { until: number | null; reason: string | null; kind: PauseKind | null } {
    const now = this.clock.now();
    const spent = this.spentUntil(now);
    if (spent !== null && spent >= this.until) {
      return { until: spent, reason: quotaSpentSentence(spent), kind: 'quota_spent' };
    }
    // The buyer's own pause, when it outlasts a 429's: the buyer asked for it, so it is the one to show.
    const user = this.userPause(now);
    if (user !== null && user >= this.until)
      return { until: user, reason: 'You paused watching.', kind: 'user' };
    return this.until > now
      ? { until: this.until, reason: this.reason, kind: this.kind }
      : { until: null, reason: null, kind: null };
  }

  /**
   * Ends a spent quota's hold when a newer snapshot says requests remain (the period rolled over, or the plan was
   * raised). Returns whether a hold ended, so the loop can be woken.
   */
  onQuota(q: QuotaSnapshot | null): boolean {
    if (this.kind !== 'quota_spent' || q === null || q.remaining === null || q.remaining <= 0) return false;
    this.reset();
    return true;
  }

  /** Ends a pause after a 429 (a new key, service or mode has its own quota). */
  reset(): void {
    this.until = 0;
    this.reason = null;
    this.kind = null;
  }
}
