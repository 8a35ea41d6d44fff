import { ratioPercent, repairToValue, repairToValueUnknownWhy } from '../../shared/estimates';

/**
 * The rule "repair cost under N % of ACV" (src/shared/watch.ts `repair_under_acv_percent`), judged on a lot's own
 * figures: the platform's estimated repair cost over its actual cash value (src/shared/estimates.ts repairToValue).
 * Pure.
 */

/** A lot's two figures as the normalised record carries them (`pricing.acv_usd`, `pricing.est_repair_usd`), USD. */
export interface LotEstimates {
  acv_usd: number | null;
  est_repair_usd: number | null;
}

/** Whether a lot passes the rule, and the sentence an alert's body carries about it. */
export interface RepairVerdict {
  /** True only when the ratio is known and strictly under the rule's share. */
  passes: boolean;
  /**
   * Exactly one of: `Repair 25% of ACV, under your 40%`; `Repair 113% of ACV, not under your 40%`;
   * `Repair to ACV unknown (no ACV), so not under your 40%` (the reason from repairToValueUnknownWhy).
   */
  text: string;
}

/**
 * Judges a lot against "repair cost under `percent` % of ACV" (1 to 200). Unknown figures (null `estimates`, no ACV,
 * no repair cost, an ACV of $0) never pass: the text says which figure is missing. Throws nothing.
 */
export function repairVerdict(percent: number, estimates: LotEstimates | null | undefined): RepairVerdict {
  const acv = estimates?.acv_usd ?? null;
  const repair = estimates?.est_repair_usd ?? null;
  const ratio = repairToValue(acv, repair);
  if (ratio === null) {
    const why = repairToValueUnknownWhy(acv, repair) ?? 'no ACV';
    return { passes: false, text: `Repair to ACV unknown (${why}), so not under your ${percent}%` };
  }
  const pct = ratio * 100;
  // 1e-9 absorbs floating point: 2,000 / 5,000 is exactly 40%, "not under" a 40% rule.
  const passes = pct < percent - 1e-9;
  // Near the line a whole percent would read "40% of ACV, under your 40%": two decimals there.
  const shown = Math.round(pct) === percent ? `${pct.toFixed(2)}%` : ratioPercent(ratio);
  return { passes, text: `Repair ${shown} of ACV, ${passes ? 'under' : 'not under'} your ${percent}%` };
}
