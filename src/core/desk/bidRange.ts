import type { Comp } from '../db/comps';
import { compStats, pricePaid } from '../db/comps';
import { FeeScheduleError, landedCost, maxBid, type LandedInput } from '../../shared/fees';
import type { MethodOutput } from '../../shared/ipc/contract';
import { TITLE_GROUP_LABEL, type TitleGroup } from '../../shared/titleGroup';

/** The fewest comparables with a price paid a bid range rests on; below it Lotwatch gives no number. */
export const MIN_PRICED_COMPS = 2;

/** The bid range as the lot page shows it (contract `BidRangeSchema`). */
export type BidRange = MethodOutput<'desk.lot'>['bid_range'];

/** The buyer's costs a bid range is worked out with: the desk's landed cost inputs, without the bid. */
export type BuyerCosts = Omit<LandedInput, 'bid_usd'> | null;

/**
 * The range a buyer can bid, from the comparables' prices paid and the buyer's own costs (docs/architecture.md
 * "The buyer's desk"), over the comparables of the lot's own title group (`titleGroup`, titleGroupOf; every
 * comparable when it is unknown): a clean-title car is not priced by parts-only sales, nor a salvage one by clean
 * sales (`other_titles_left_out` counts the priced ones left out). Defined as:
 * - `low_usd` = the 25th percentile of the comparables' prices paid (sold and sold on approval, above 0; an unsold
 *   lot's bid never counts), `high_usd` = their median: bidding up to the low end wins about one car like this in
 *   four, up to the high end about one in two; above the median the buyer pays more than most buyers did;
 * - each capped by the max bid the buyer's target landed cost allows (`maxBid` over the fee schedule, shipping
 *   and own lines) when a target is set (`capped` says whether it cut either end);
 * - `landed_low_usd` / `landed_high_usd`: the landed cost at each end (bid + buyer fees + shipping + own lines),
 *   null without a fee schedule; `shipping_included` false when no shipping price is kept (the landed cost then
 *   leaves shipping out, and the lot page says so);
 * - `rests_on`: the lot keys of the priced comparables the numbers come from.
 * With fewer than MIN_PRICED_COMPS priced comparables of the group, or a target no bid fits, every number is null
 * and `refusal` says why. Amounts in whole USD. Pure; throws nothing (a fee schedule error leaves the landed cost
 * null).
 */
export function bidRange(
  all: readonly Comp[],
  costs: BuyerCosts,
  targetUsd: number | null,
  titleGroup: TitleGroup,
): BidRange {
  const group = titleGroup === 'unknown' ? null : titleGroup;
  const comps = group === null ? all : all.filter((c) => c.same_title_group);
  const stats = compStats(comps);
  const restsOn = comps.filter((c) => pricePaid(c) !== null).map((c) => c.lot_key);
  const leftOut = all.filter((c) => pricePaid(c) !== null).length - restsOn.length;
  const ofGroup = group === null ? '' : ` in this lot's title group (${TITLE_GROUP_LABEL[group]})`;
  const others =
    leftOut > 0
      ? ` (${leftOut} ${leftOut === 1 ? 'sale' : 'sales'} of another or unknown title group left out: the title moves a car's price more than anything else)`
      : '';
  const empty = {
    low_usd: null,
    high_usd: null,
    landed_low_usd: null,
    landed_high_usd: null,
    shipping_included: costs?.shipping_usd != null,
    target_usd: targetUsd,
    capped: false,
    rests_on: restsOn,
    priced: stats.priced,
    title_group: group,
    other_titles_left_out: leftOut,
  };
  if (stats.priced < MIN_PRICED_COMPS || stats.p25_usd === null || stats.median_usd === null) {
    return {
      ...empty,
      refusal:
        stats.priced === 0
          ? `No comparable${ofGroup} with a price paid yet: Lotwatch gives no bid range without at least ${MIN_PRICED_COMPS}${others}.`
          : `Only 1 comparable${ofGroup} with a price paid: Lotwatch gives no bid range without at least ${MIN_PRICED_COMPS}${others}.`,
    };
  }
  let cap: number | null = null;
  if (costs && targetUsd !== null) {
    try {
      cap = maxBid({ ...costs, target_usd: targetUsd });
    } catch (e) {
      if (!(e instanceof FeeScheduleError)) throw e;
    }
    if (cap === null)
      return {
        ...empty,
        refusal: `Fees, shipping and your own costs alone come to more than your target landed cost of $${targetUsd.toLocaleString('en-US')}: no bid fits it.`,
      };
  }
  const low = cap !== null ? Math.min(stats.p25_usd, Math.floor(cap)) : stats.p25_usd;
  const high = cap !== null ? Math.min(stats.median_usd, Math.floor(cap)) : stats.median_usd;
  const landed = (bid: number): number | null => {
    if (!costs) return null;
    try {
      return Math.round(landedCost({ ...costs, bid_usd: bid }).total_usd);
    } catch (e) {
      if (e instanceof FeeScheduleError) return null;
      throw e;
    }
  };
  return {
    ...empty,
    low_usd: low,
    high_usd: high,
    landed_low_usd: landed(low),
    landed_high_usd: landed(high),
    capped: low !== stats.p25_usd || high !== stats.median_usd,
    refusal: null,
  };
}
