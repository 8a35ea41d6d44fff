import type { Rng } from './rng';

/**
 * The time distributions of the simulated market: when a lot's live phase starts and how long it lasts, when an
 * unsold (or sold-on-approval) lot comes back as a relist, and how far a reschedule moves a sale. Every draw comes
 * from the market's seeded Rng, so a seed gives the same timeline every run.
 *
 * Sources: docs/service-contract.md "Sale results" ("Relists are common"; lots sold on approval "often come back as
 * relists") where it says something; everything else is an ASSUMPTION, stated as such below. The defaults are deliberately continuous distributions with tails rather than
 * fixed windows, so that a watcher cannot be tuned to one generator's constants (a check a fixed time after the
 * sale, relist checks at fixed hours).
 */

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** A log-normal duration clamped to [minMs, maxMs]: median `medianMs`, `sigma` the spread of its logarithm. */
export interface DurationDist {
  medianMs: number;
  sigma: number;
  minMs: number;
  maxMs: number;
}

export interface MarketTiming {
  /**
   * From the listed sale time (auction.auction_at) to the lot's own turn on the block, when it goes live.
   * ASSUMPTION: lots of one sale run one after another, so a lot goes live some minutes after the listed time, not
   * at it. Default median 4 min, sigma 1 (p95 about 20 min), clamped to 0..30 min.
   */
  startDelay: DurationDist;
  /**
   * Length of the live phase (bidding on the block). ASSUMPTION: the old generator used a flat 1-4 min; a
   * log-normal with median 2 min, sigma 0.5 keeps most lots there with a tail; clamped to 30 s..8 min.
   */
  live: DurationDist;
  /**
   * From a lot's end to its relist (a new lot number for the same VIN). docs/service-contract.md "Sale results":
   * relists are common (one VIN sold four times in a month), lots sold on approval often come back. The shape is
   * an ASSUMPTION: median 20 h, sigma 1 (p5 about 4 h, p95 about 4 days), clamped to 1 h..6 days.
   */
  relistDelay: DurationDist;
  /** Chance an unsold first listing is relisted (ASSUMPTION, as before: 0.6), and an unsold relist again (0.3). */
  relistUnsold: number;
  relistUnsoldAgain: number;
  /** Chance a lot sold on approval is relisted (the contract's "often"; the 0.4 is an ASSUMPTION). */
  relistApproval: number;
  /** A relist's sale date, days after the relist: uniform in [min, max] (ASSUMPTION, as before: 2..10). */
  relistAuctionDays: [number, number];
  /** Chance a lot is rescheduled before its sale (ASSUMPTION, as before: 0.06). */
  rescheduleChance: number;
  /**
   * How far a reschedule moves the sale. ASSUMPTION: median 2 days, sigma 0.9 (from hours to a couple of weeks),
   * clamped to 30 min..14 days, on a whole minute.
   */
  rescheduleShift: DurationDist;
}

/** The default distributions; see MarketTiming for each one's source. */
export const DEFAULT_TIMING: Readonly<MarketTiming> = Object.freeze<MarketTiming>({
  startDelay: { medianMs: 4 * MIN, sigma: 1, minMs: 0, maxMs: 30 * MIN },
  live: { medianMs: 2 * MIN, sigma: 0.5, minMs: 30 * SEC, maxMs: 8 * MIN },
  relistDelay: { medianMs: 20 * HOUR, sigma: 1, minMs: HOUR, maxMs: 6 * DAY },
  relistUnsold: 0.6,
  relistUnsoldAgain: 0.3,
  relistApproval: 0.4,
  relistAuctionDays: [2, 10],
  rescheduleChance: 0.06,
  rescheduleShift: { medianMs: 2 * DAY, sigma: 0.9, minMs: 30 * MIN, maxMs: 14 * DAY },
});

/**
 * The timing of a market: the defaults with `over` laid on top (each field whole).
 * @throws RangeError when a duration has minMs > maxMs, a negative bound, or a chance outside 0..1.
 */
export function resolveTiming(over: Partial<MarketTiming> = {}): MarketTiming {
  const t: MarketTiming = { ...DEFAULT_TIMING, ...over };
  for (const k of ['startDelay', 'live', 'relistDelay', 'rescheduleShift'] as const) {
    const d = t[k];
    if (!(d.minMs >= 0 && d.minMs <= d.maxMs && d.medianMs > 0 && d.sigma >= 0))
      throw new RangeError(`timing.${k} must have 0 <= minMs <= maxMs, medianMs > 0, sigma >= 0`);
  }
  for (const k of ['relistUnsold', 'relistUnsoldAgain', 'relistApproval', 'rescheduleChance'] as const) {
    if (!(t[k] >= 0 && t[k] <= 1))
      throw new RangeError(`timing.${k} must be a chance from 0 to 1, not ${t[k]}`);
  }
  const [lo, hi] = t.relistAuctionDays;
  if (!(lo >= 1 && lo <= hi))
    throw new RangeError('timing.relistAuctionDays must be [min, max] with 1 <= min <= max');
  return t;
}

/** One draw of `d` in ms, rounded to the whole second (market steps are on whole seconds). */
export function drawDuration(rng: Rng, d: DurationDist): number {
  const x = rng.logNormal(d.medianMs, d.sigma);
  return Math.round(Math.min(d.maxMs, Math.max(d.minMs, x)) / SEC) * SEC;
}
