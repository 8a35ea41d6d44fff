import { parseTags } from '../../shared/desk';
import { exportBlock, type TitleDocumentLike } from '../../shared/exportBlock';
import type { LotSummary, VehicleRow } from '../../shared/ipc/contract';
import { saleOutcomeOf, vehicleOutcome } from '../../shared/saleOutcome';
import type { Vehicle } from '../../shared/vehicle';
import { lotKeyOf } from '../../shared/watch';
import type { LotRecord, LotRow } from '../db/lotsRepo';
import { parseAuctionAt } from '../diff';

/**
 * A stored lot as the lists show it (watchlist, library, lot page header): its row's columns, the first photo of
 * its normalised record, whether its title blocks export (exportBlock of the record's title document), its sale
 * outcome, notes and tags. Pure; a record that is not JSON shows no photo and no block.
 */
export function lotSummary(r: LotRow): LotSummary {
  let photo: string | null = null;
  let block: LotSummary['export_block'] = null;
  let repairToValue: number | null = null;
  try {
    const n = JSON.parse(r.normalized) as {
      media?: { photos?: string[] };
      title_document?: TitleDocumentLike | null;
      pricing?: { repair_to_value?: number | null };
    };
    photo = n.media?.photos?.[0] ?? null;
    block = exportBlock(n.title_document);
    repairToValue = typeof n.pricing?.repair_to_value === 'number' ? n.pricing.repair_to_value : null;
  } catch {
    photo = null;
  }
  return {
    lot_key: r.lot_key,
    platform: r.platform,
    lot_number: r.lot_number,
    vin: r.vin ?? null,
    title: r.title ?? null,
    year: r.year ?? null,
    make: r.make ?? null,
    model: r.model ?? null,
    location: r.location ?? null,
    current_bid_usd: r.current_bid_usd ?? null,
    buy_now_usd: r.buy_now_usd ?? null,
    sale_price_usd: r.sale_price_usd ?? null,
    state: r.state ?? null,
    lot_status: r.lot_status ?? null,
    lot_sub_status: r.lot_sub_status ?? null,
    last_sold_status: r.last_sold_status ?? null,
    outcome: saleOutcomeOf({
      state: r.state ?? null,
      lot_sub_status: r.lot_sub_status ?? null,
      last_sold_status: r.last_sold_status ?? null,
      sale_price_usd: r.sale_price_usd ?? null,
    }),
    auction_at: r.auction_at ?? null,
    first_seen_at: r.first_seen_at,
    last_observed_at: r.last_observed_at,
    photo,
    notes: r.notes,
    tags: parseTags(r.tags),
    export_block: block,
    repair_to_value: repairToValue,
  };
}

/** The lot key a fetched record is stored under, or `unknown:<vin>` for one without a platform and lot number. */
export function vehicleKey(v: Vehicle): string {
  return v.platform && v.lot_number ? lotKeyOf(v.platform, v.lot_number) : `unknown:${v.vin ?? ''}`;
}

/**
 * A record fetched live as a results-table row (Search, related lots): the record's fields and its title's export
 * block (exportBlock), with when Lotwatch first and last saw it and the buyer's notes and tags from `stored` (its
 * stored copy, or null: seen `now`). Times in ms; pure.
 */
export function vehicleRow(v: Vehicle, stored: LotRecord | null, now: number): VehicleRow {
  return {
    lot_key: vehicleKey(v),
    platform: v.platform ?? '',
    lot_number: v.lot_number ?? '',
    vin: v.vin,
    title: v.title,
    year: v.year,
    make: v.make,
    model: v.model,
    location: v.location.display,
    current_bid_usd: v.pricing.current_bid_usd,
    buy_now_usd: v.pricing.buy_now_usd,
    sale_price_usd: v.pricing.sale_price_usd,
    state: v.auction.state,
    lot_status: v.auction.lot_status,
    lot_sub_status: v.auction.lot_sub_status,
    last_sold_status: v.auction.last_sold_status,
    outcome: vehicleOutcome(v),
    auction_at: parseAuctionAt(v.auction.auction_at),
    first_seen_at: stored?.first_seen_at ?? now,
    last_observed_at: stored?.last_observed_at ?? now,
    photo: v.media.photos[0] ?? null,
    notes: stored?.notes ?? '',
    tags: parseTags(stored?.tags ?? ''),
    export_block: exportBlock(v.title_document),
    odometer: v.odometer,
    damage: v.damage,
    color: v.color,
    fuel_type: v.fuel_type,
    transmission: v.transmission,
    drive_type: v.drive_type,
    type: v.type,
    photos: v.media.photos,
  };
}
