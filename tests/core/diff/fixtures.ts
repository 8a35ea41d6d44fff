import type { Vehicle } from '../../../src/shared/vehicle';
import { AlertRulesSchema, type AlertRules, type LotState, type QuietHours } from '../../../src/shared/watch';

/** 2025-05-14T14:00:00Z, a Wednesday: 10:00 AM in US Eastern daylight time. */
export const T0 = Date.UTC(2025, 4, 14, 14, 0, 0);
export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

/** An open Copart lot with a bid, observed at T0, auction a day later. */
export function lot(over: Partial<LotState> = {}): LotState {
  return {
    platform: 'copart',
    lot_number: '45416833',
    vin: 'WAUZZZF57JA000001',
    current_bid_usd: 3900,
    buy_now_usd: null,
    sale_price_usd: null,
    state: 'open',
    lot_status: 'Timed',
    lot_sub_status: 'Open',
    last_sold_status: null,
    auction_at: T0 + DAY,
    observed_at: T0,
    ...over,
  };
}

/** The normalised fields a buyer decides on beyond the specification's list, all unknown. */
export const NO_EXTRAS = {
  secondary_damage: null,
  body_style: null,
  engine: { raw: null, size_l: null, hp: null },
  run_condition: null,
  run_condition_label: null,
  has_key: null,
  title_document: { name: null, group: null, export: null, brand: null },
  seller: { name: null, type: null },
  yard: { id: null, name: null, zip: null, latitude: null, longitude: null },
} satisfies Partial<Vehicle>;

/** Pricing with nothing known (USD). */
export const NO_PRICES: Vehicle['pricing'] = {
  current_bid_usd: null,
  buy_now_usd: null,
  sale_price_usd: null,
  estimated_cost_from_usd: null,
  estimated_cost_to_usd: null,
  acv_usd: null,
  est_repair_usd: null,
  repair_to_value: null,
};

export function vehicle(over: Partial<Vehicle> = {}): Vehicle {
  return {
    platform: 'copart',
    lot_number: '45416833',
    vin: 'WAUZZZF57JA000001',
    title: '2018 AUDI S5',
    year: 2018,
    make: 'AUDI',
    model: 'S5',
    type: null,
    color: null,
    fuel_type: null,
    transmission: null,
    drive_type: null,
    odometer: null,
    damage: null,
    ...NO_EXTRAS,
    auction: {
      state: 'open',
      auction_at: '2025-05-15T10:00:00-04:00',
      lot_status: 'Timed',
      lot_sub_status: 'Open',
      last_sold_status: null,
      last_sold_day: null,
      is_buy_now: null,
    },
    pricing: { ...NO_PRICES, current_bid_usd: 3900 },
    location: { display: null, state: null, facility_id: null, ship_from: null },
    media: { thumbs_count: null, has_360: null, photos: [] },
    raw: {},
    ...over,
  };
}

export function rules(over: Partial<AlertRules> = {}): AlertRules {
  return AlertRulesSchema.parse(over);
}

export const QUIET_OFF: QuietHours = { enabled: false, start: '22:00', end: '07:00' };
export const NIGHT: QuietHours = { enabled: true, start: '22:00', end: '07:00' };
