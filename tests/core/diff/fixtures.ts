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
    auction_at: T0 + DAY,
    observed_at: T0,
    ...over,
  };
}

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
    auction: {
      state: 'open',
      auction_at: '2025-05-15T10:00:00-04:00',
      lot_status: 'Timed',
      lot_sub_status: 'Open',
    },
    pricing: { current_bid_usd: 3900, buy_now_usd: null, sale_price_usd: null },
    location: { display: null, state: null, facility_id: null },
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
