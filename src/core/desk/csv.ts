import { stringify } from 'csv-stringify/sync';
import type { LotRow } from '../db/lotsRepo';
import type { LotDesk } from '../../shared/ipc/contract';
import { roundRatio } from '../../shared/estimates';
import { saleOutcomeOf } from '../../shared/saleOutcome';
import { excludedText } from '../../shared/shipping';
import { lotPageUrl, type Vehicle } from '../../shared/vehicle';

/**
 * The library's CSV export (DeskService.exportCsv): one row per stored lot, every field a buyer filters on, then the
 * desk's figures and the user's own words. Amounts USD, odometer in miles, times ISO 8601 UTC, an unknown figure an
 * empty cell; lot numbers and VINs as text, never as numbers (a spreadsheet must not round a VIN or drop a lot
 * number's leading zero).
 */

/** The CSV's columns, in order: every field a buyer filters on, then the desk's figures and the user's own words. */
export const CSV_COLUMNS = [
  'lot_key',
  'platform',
  'lot_number',
  'vin',
  'title',
  'year',
  'make',
  'model',
  'type',
  'body_style',
  'color',
  'odometer_mi',
  'damage',
  'secondary_damage',
  'title_document',
  'title_group',
  'run_condition',
  'has_key',
  'seller',
  'seller_type',
  'location',
  'yard',
  'yard_zip',
  'ships_from',
  'engine',
  'fuel_type',
  'transmission',
  'drive_type',
  'current_bid_usd',
  'buy_now_usd',
  'sale_price_usd',
  'outcome',
  'auction_at',
  'service_estimate_from_usd',
  'service_estimate_to_usd',
  'acv_usd',
  'est_repair_usd',
  'repair_to_value',
  'buyer_fees_usd',
  'port',
  'shipping_usd',
  'landed_cost_usd',
  'landed_cost_excludes',
  'max_bid_usd',
  'max_bid_excludes',
  'notes',
  'tags',
  'first_seen_at',
  'last_observed_at',
  'lot_page',
] as const;

const iso = (t: number | null | undefined) => (typeof t === 'number' ? new Date(t).toISOString() : '');
const yesNo = (b: boolean | null | undefined) => (b === true ? 'yes' : b === false ? 'no' : '');

/**
 * One CSV row (in CSV_COLUMNS order) of stored lot `r` with its desk figures `f` and buyer fees `fees` (USD, null
 * when unknown). An unreadable record still exports its columns of `lots`: nothing is dropped. Pure; throws nothing.
 */
export function csvRow(r: LotRow, f: LotDesk, fees: number | null): (string | number)[] {
  let v: Partial<Vehicle> = {};
  try {
    v = JSON.parse(r.normalized) as Partial<Vehicle>;
  } catch {
    // Left empty: the record's own columns below still come from the row.
  }
  const row: Record<(typeof CSV_COLUMNS)[number], string | number | null | undefined> = {
    lot_key: r.lot_key,
    platform: r.platform,
    lot_number: r.lot_number,
    vin: r.vin,
    title: r.title,
    year: r.year,
    make: r.make,
    model: r.model,
    type: v.type,
    body_style: v.body_style,
    color: v.color,
    odometer_mi: v.odometer,
    damage: v.damage,
    secondary_damage: v.secondary_damage,
    title_document: v.title_document?.name,
    title_group: v.title_document?.group,
    run_condition: v.run_condition_label ?? v.run_condition,
    has_key: yesNo(v.has_key),
    seller: v.seller?.name,
    seller_type: v.seller?.type,
    location: r.location,
    // The real service leaves `facility.office_name` empty: the yard is then the one its location names
    // ("Boston - Shirley (MA)", IAAI's branch), from the record or, for an unreadable one, the row.
    yard: v.yard?.name || v.location?.display || r.location,
    yard_zip: v.yard?.zip,
    ships_from: v.location?.ship_from,
    engine: v.engine?.raw,
    fuel_type: v.fuel_type,
    transmission: v.transmission,
    drive_type: v.drive_type,
    current_bid_usd: r.current_bid_usd,
    buy_now_usd: r.buy_now_usd,
    sale_price_usd: r.sale_price_usd,
    outcome: saleOutcomeOf(r),
    auction_at: iso(r.auction_at),
    service_estimate_from_usd: v.pricing?.estimated_cost_from_usd,
    service_estimate_to_usd: v.pricing?.estimated_cost_to_usd,
    acv_usd: v.pricing?.acv_usd,
    est_repair_usd: v.pricing?.est_repair_usd,
    // A ratio (repair / ACV) to 4 places: 1.1347 is a repair estimated at 113.47% of the ACV.
    repair_to_value: roundRatio(v.pricing?.repair_to_value),
    buyer_fees_usd: fees,
    port: f.port,
    shipping_usd: f.shipping_usd,
    landed_cost_usd: f.landed_cost_usd,
    landed_cost_excludes: excludedText(f.landed_excludes),
    max_bid_usd: f.max_bid_usd,
    max_bid_excludes: excludedText(f.max_bid_excludes),
    notes: r.notes,
    tags: f.tags.join(', '),
    first_seen_at: iso(r.first_seen_at),
    last_observed_at: iso(r.last_observed_at),
    lot_page: lotPageUrl(r.platform, r.lot_number),
  };
  return CSV_COLUMNS.map((c) => row[c] ?? '');
}

/** The CSV text of `rows` (from csvRow) with the header line. Throws nothing. */
export function csvText(rows: readonly (string | number)[][]): string {
  return stringify(rows as (string | number)[][], { header: true, columns: [...CSV_COLUMNS] });
}
