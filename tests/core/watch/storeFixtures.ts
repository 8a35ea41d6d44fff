import type { Vehicle } from '../../../src/shared/vehicle';
import { NO_EXTRAS, NO_PRICES } from '../diff/fixtures';

/** A normalised Copart record (lot 50000001, an open 2003 Honda Accord, bid $500) with its raw record; `over` replaces fields, `bid` the current bid. */
export function vehicle(over: Partial<Vehicle> & { bid?: number | null } = {}): Vehicle {
  const { bid, ...rest } = over;
  const v: Vehicle = {
    platform: 'copart',
    lot_number: '50000001',
    vin: '1HGCM82633A004352',
    title: '2003 HONDA ACCORD EX',
    year: 2003,
    make: 'HONDA',
    model: 'ACCORD',
    type: 'AUTOMOBILE',
    color: 'Blue',
    fuel_type: 'Gasoline',
    transmission: 'Automatic',
    drive_type: 'FWD',
    odometer: 180000,
    damage: 'Front End',
    ...NO_EXTRAS,
    auction: {
      state: 'open',
      auction_at: '2026-11-23T15:00:00+00:00',
      lot_status: 'Timed',
      lot_sub_status: 'Open',
      last_sold_status: null,
      last_sold_day: null,
      is_buy_now: null,
    },
    pricing: { ...NO_PRICES, current_bid_usd: bid === undefined ? 500 : bid },
    location: { display: 'Dallas (TX)', state: 'TX', facility_id: '12', ship_from: null },
    media: { thumbs_count: 1, has_360: false, photos: ['https://cs.copart.com/x_hrs.jpg'] },
    raw: {},
    ...rest,
  };
  const { raw: _r, ...wire } = v;
  v.raw = { ...wire, extra_field_the_spec_does_not_list: 1 };
  return v;
}
