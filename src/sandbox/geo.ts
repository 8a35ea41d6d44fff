import zipcodes from 'zipcodes';
import { Rng, hash32 } from './rng';

/**
 * Auction facilities at real US cities (ZIP, latitude, longitude from the `zipcodes` data), the destination ports
 * of the shipping endpoints, and distances. Spec: "AuctionLocation", "GET /locations", "ShippingPrice".
 */

export type Platform = 'copart' | 'iaai';

export interface Facility {
  /** Index in the facility table; also the cursor key of /locations. */
  idx: number;
  platform: Platform;
  facility_id: string;
  name: string;
  city: string;
  state: string;
  zip: string;
  latitude: number;
  longitude: number;
  /** Some yards (islands, remote) have no shipping quote: has_shipping_price filters on this. */
  hasShipping: boolean;
}

export interface Port {
  port: string;
  lat: number;
  lng: number;
  /** USD per road mile and fixed handling fee; Moto_ATV is the motorcycle/ATV rate via the nearest port. */
  perMile: number;
  base: number;
}

/** Destination ports of spec "GET /vehicles/{slugVin}/shipping" (the documented example list, in its order). */
export const PORTS: readonly Port[] = [
  { port: 'Chicago', lat: 41.8781, lng: -87.6298, perMile: 0.62, base: 150 },
  { port: 'NY', lat: 40.6681, lng: -74.0451, perMile: 0.6, base: 175 },
  { port: 'Miami', lat: 25.7743, lng: -80.1937, perMile: 0.58, base: 150 },
  { port: 'Savannah', lat: 32.0809, lng: -81.0912, perMile: 0.58, base: 150 },
  { port: 'Norfolk', lat: 36.8508, lng: -76.2859, perMile: 0.6, base: 150 },
  { port: 'Houston', lat: 29.7604, lng: -95.3698, perMile: 0.58, base: 150 },
  { port: 'LA', lat: 33.7405, lng: -118.2775, perMile: 0.66, base: 175 },
  { port: 'Seattle', lat: 47.6062, lng: -122.3321, perMile: 0.66, base: 175 },
  { port: 'Moto_ATV', lat: 0, lng: 0, perMile: 0.35, base: 100 },
];

// Cities with auction yards of one or both platforms in the real world.
const CITIES: readonly (readonly [string, string])[] = [
  ['Miami', 'FL'],
  ['Orlando', 'FL'],
  ['Tampa', 'FL'],
  ['Jacksonville', 'FL'],
  ['Tallahassee', 'FL'],
  ['Fort Pierce', 'FL'],
  ['Punta Gorda', 'FL'],
  ['Atlanta', 'GA'],
  ['Savannah', 'GA'],
  ['Macon', 'GA'],
  ['Augusta', 'GA'],
  ['Dallas', 'TX'],
  ['Houston', 'TX'],
  ['Austin', 'TX'],
  ['San Antonio', 'TX'],
  ['El Paso', 'TX'],
  ['Fort Worth', 'TX'],
  ['Corpus Christi', 'TX'],
  ['Lubbock', 'TX'],
  ['Amarillo', 'TX'],
  ['McAllen', 'TX'],
  ['Los Angeles', 'CA'],
  ['San Diego', 'CA'],
  ['Sacramento', 'CA'],
  ['Fresno', 'CA'],
  ['Bakersfield', 'CA'],
  ['Hayward', 'CA'],
  ['Rancho Cucamonga', 'CA'],
  ['Van Nuys', 'CA'],
  ['Redding', 'CA'],
  ['Phoenix', 'AZ'],
  ['Tucson', 'AZ'],
  ['Las Vegas', 'NV'],
  ['Reno', 'NV'],
  ['Salt Lake City', 'UT'],
  ['Denver', 'CO'],
  ['Colorado Springs', 'CO'],
  ['Albuquerque', 'NM'],
  ['Seattle', 'WA'],
  ['Spokane', 'WA'],
  ['Tacoma', 'WA'],
  ['Portland', 'OR'],
  ['Eugene', 'OR'],
  ['Boise', 'ID'],
  ['Billings', 'MT'],
  ['Helena', 'MT'],
  ['Casper', 'WY'],
  ['Chicago', 'IL'],
  ['Peoria', 'IL'],
  ['Springfield', 'IL'],
  ['Indianapolis', 'IN'],
  ['Fort Wayne', 'IN'],
  ['Detroit', 'MI'],
  ['Lansing', 'MI'],
  ['Grand Rapids', 'MI'],
  ['Flint', 'MI'],
  ['Columbus', 'OH'],
  ['Cleveland', 'OH'],
  ['Cincinnati', 'OH'],
  ['Dayton', 'OH'],
  ['Toledo', 'OH'],
  ['Milwaukee', 'WI'],
  ['Madison', 'WI'],
  ['Minneapolis', 'MN'],
  ['Saint Cloud', 'MN'],
  ['Des Moines', 'IA'],
  ['Davenport', 'IA'],
  ['Kansas City', 'MO'],
  ['Saint Louis', 'MO'],
  ['Springfield', 'MO'],
  ['Wichita', 'KS'],
  ['Omaha', 'NE'],
  ['Lincoln', 'NE'],
  ['Sioux Falls', 'SD'],
  ['Fargo', 'ND'],
  ['Bismarck', 'ND'],
  ['Oklahoma City', 'OK'],
  ['Tulsa', 'OK'],
  ['Little Rock', 'AR'],
  ['New Orleans', 'LA'],
  ['Baton Rouge', 'LA'],
  ['Shreveport', 'LA'],
  ['Jackson', 'MS'],
  ['Birmingham', 'AL'],
  ['Mobile', 'AL'],
  ['Montgomery', 'AL'],
  ['Nashville', 'TN'],
  ['Memphis', 'TN'],
  ['Knoxville', 'TN'],
  ['Louisville', 'KY'],
  ['Lexington', 'KY'],
  ['Charlotte', 'NC'],
  ['Raleigh', 'NC'],
  ['Greensboro', 'NC'],
  ['Columbia', 'SC'],
  ['Greenville', 'SC'],
  ['Richmond', 'VA'],
  ['Norfolk', 'VA'],
  ['Roanoke', 'VA'],
  ['Baltimore', 'MD'],
  ['Washington', 'DC'],
  ['Philadelphia', 'PA'],
  ['Pittsburgh', 'PA'],
  ['Harrisburg', 'PA'],
  ['Scranton', 'PA'],
  ['Newark', 'NJ'],
  ['Trenton', 'NJ'],
  ['Englishtown', 'NJ'],
  ['Albany', 'NY'],
  ['Buffalo', 'NY'],
  ['Rochester', 'NY'],
  ['Syracuse', 'NY'],
  ['Hartford', 'CT'],
  ['Providence', 'RI'],
  ['Boston', 'MA'],
  ['Worcester', 'MA'],
  ['Manchester', 'NH'],
  ['Portland', 'ME'],
  ['Burlington', 'VT'],
  ['Wilmington', 'DE'],
  ['Charleston', 'WV'],
  ['Anchorage', 'AK'],
  ['Honolulu', 'HI'],
];
const SUFFIXES = ['', 'North', 'South', 'East', 'West'];

/** Builds the facility table: about `count` yards split over both platforms, deterministic for the seed. */
export function buildFacilities(seed: number, count = 400): Facility[] {
  const rng = new Rng(hash32(seed, 0xfac));
  const places = CITIES.map(([city, state]) => ({
    city,
    state,
    zips: zipcodes.lookupByName(city, state),
  })).filter((p) => p.zips.length > 0);
  const out: Facility[] = [];
  const perPlatform = Math.ceil(count / 2);
  let copartId = 1;
  let iaaiId = 100;
  for (const platform of ['copart', 'iaai'] as const) {
    for (let i = 0; i < perPlatform; i++) {
      const place = places[i % places.length]!;
      const round = Math.floor(i / places.length);
      const suffix = SUFFIXES[round % SUFFIXES.length] ?? '';
      const zip = place.zips[(round * 7 + i) % place.zips.length]!;
      const name = suffix ? `${place.city} ${suffix}` : place.city;
      const id = platform === 'copart' ? (copartId += rng.int(1, 3)) : (iaaiId += rng.int(1, 9));
      out.push({
        idx: out.length,
        platform,
        facility_id: String(id),
        name,
        city: place.city,
        state: place.state,
        zip: zip.zip,
        latitude: zip.latitude,
        longitude: zip.longitude,
        hasShipping: !['AK', 'HI'].includes(place.state) && !rng.chance(0.03),
      });
    }
  }
  return out;
}

const EARTH_MI = 3958.8;
/** Great-circle distance in miles. */
export function milesBetween(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const dLat = (lat2 - lat1) * r;
  const dLng = (lng2 - lng1) * r;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_MI * Math.asin(Math.min(1, Math.sqrt(a)));
}

export const KM_PER_MILE = 1.609344;

/**
 * Facilities within `radius` (in `units`) of a US ZIP code, with their distance in those units; null when the ZIP is
 * unknown to the `zipcodes` data (the caller answers an empty page, docs/service-contract.md "Unknown values").
 */
export function facilitiesNearZip(
  facilities: readonly Facility[],
  zip: string,
  radius: number,
  units: 'mi' | 'km',
): Map<number, number> | null {
  const center = zipcodes.lookup(zip.trim());
  if (!center) return null;
  const radiusMi = units === 'km' ? radius / KM_PER_MILE : radius;
  const out = new Map<number, number>();
  for (const f of facilities) {
    const d = milesBetween(center.latitude, center.longitude, f.latitude, f.longitude);
    if (d <= radiusMi) out.set(f.idx, Math.round((units === 'km' ? d * KM_PER_MILE : d) * 10) / 10);
  }
  return out;
}

/**
 * Estimated auction-to-port prices in USD for a facility: a fixed fee plus a per-mile rate over road distance
 * (great circle x 1.2), rounded to $5. Moto_ATV prices motorcycles and ATVs to the nearest port at a lower rate.
 */
export function shippingPrices(
  f: Facility,
): { port: string; price: number; currency: string; distance_mi: number }[] {
  if (!f.hasShipping) return [];
  let nearest = Infinity;
  const out = [];
  for (const p of PORTS) {
    if (p.port === 'Moto_ATV') continue;
    const road = milesBetween(f.latitude, f.longitude, p.lat, p.lng) * 1.2;
    nearest = Math.min(nearest, road);
    out.push({
      port: p.port,
      price: Math.round((p.base + road * p.perMile) / 5) * 5,
      currency: 'USD',
      distance_mi: Math.round(road),
    });
  }
  const moto = PORTS[PORTS.length - 1]!;
  out.push({
    port: moto.port,
    price: Math.round((moto.base + nearest * moto.perMile) / 5) * 5,
    currency: 'USD',
    distance_mi: Math.round(nearest),
  });
  return out;
}
