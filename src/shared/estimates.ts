/**
 * The estimates a record carries about a lot, and the one ratio buyers of damaged cars judge a lot by: repair to
 * value, the estimated repair cost over the actual cash value (ACV: the vehicle's value before the damage). A ratio
 * near or above 1 means the insurer's own numbers say the car costs about as much to repair as it is worth. Whose
 * estimate each figure is (docs/service-contract.md "Searching ended lots"):
 * - the price estimate range (`pricing.estimated_cost_from_usd` / `_to_usd`): the service's own estimate of the sale
 *   price, never a repair cost;
 * - the ACV and the estimated repair cost (`pricing.acv_usd`, `pricing.est_repair_usd`): IAAI's figures, from the
 *   raw record's `details`; Copart records seen so far carry neither, so both are null there.
 * Pure and zod-free: the normaliser, the rules and the renderer compute and word the ratio the same way.
 */

/**
 * Repair to value: `repairUsd / acvUsd` as a ratio (0.5 = the repair is estimated at half the ACV), or null when
 * either figure is unknown (null, not finite), the ACV is 0 or less (no value to divide by) or the repair cost is
 * negative. Both in USD. Throws nothing.
 */
export function repairToValue(
  acvUsd: number | null | undefined,
  repairUsd: number | null | undefined,
): number | null {
  if (acvUsd == null || repairUsd == null) return null;
  if (!Number.isFinite(acvUsd) || !Number.isFinite(repairUsd) || acvUsd <= 0 || repairUsd < 0) return null;
  return repairUsd / acvUsd;
}

/** A ratio to 4 decimal places for a file (the CSV): 1.134721 -> 1.1347; null, undefined or not finite -> null. */
export function roundRatio(ratio: number | null | undefined): number | null {
  return typeof ratio === 'number' && Number.isFinite(ratio) ? Math.round(ratio * 10_000) / 10_000 : null;
}

/** A repair-to-value ratio as a buyer reads it: 1.1347 -> "113%", 0.004 -> "0.4%"; null -> null. */
export function ratioPercent(ratio: number | null | undefined): string | null {
  if (ratio == null || !Number.isFinite(ratio)) return null;
  const pct = ratio * 100;
  return `${pct < 1 && pct > 0 ? pct.toFixed(1) : Math.round(pct).toLocaleString('en-US')}%`;
}

/**
 * Why a lot's repair to value is unknown, in a buyer's words, or null when it is known: which of IAAI's two figures
 * the record lacks ("no ACV", "no estimated repair cost", "no ACV or estimated repair cost"), or "ACV of $0".
 */
export function repairToValueUnknownWhy(
  acvUsd: number | null | undefined,
  repairUsd: number | null | undefined,
): string | null {
  if (repairToValue(acvUsd, repairUsd) !== null) return null;
  const noAcv = acvUsd == null || !Number.isFinite(acvUsd);
  const noRepair = repairUsd == null || !Number.isFinite(repairUsd) || repairUsd < 0;
  if (noAcv && noRepair) return 'no ACV or estimated repair cost';
  if (noAcv) return 'no ACV';
  if (noRepair) return 'no estimated repair cost';
  return 'ACV of $0';
}
