import { z } from 'zod';

/**
 * Normalised records of the Vehicle Auction Data Service (spec "Resources and their fields"), as the client in
 * src/core/api produces them and the UI displays them. Every listed field is nullable because the service's values
 * depend on source availability (spec rule 11); `raw` keeps the record exactly as received, so fields the
 * specification does not list are never lost.
 */

/** The 17-character VIN alphabet: digits and capitals without I, O and Q (match case-insensitively for input). */
export const VIN_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;

/** Wire values of the two platforms (spec: platform_a = copart, auction_type 1; platform_b = iaai, auction_type 2). */
export const PLATFORMS = ['copart', 'iaai'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** auction_type of each platform on the wire; 0 means all platforms. */
export const AUCTION_TYPE_OF: Readonly<Record<Platform, 1 | 2>> = { copart: 1, iaai: 2 };

/** The public lot page of a lot on its platform (opened in the system browser, linked from a calendar event). */
export function lotPageUrl(platform: string, lotNumber: string): string | null {
  if (platform === 'copart') return `https://www.copart.com/lot/${lotNumber}`;
  if (platform === 'iaai') return `https://www.iaai.com/Search?Keyword=${lotNumber}`;
  return null;
}

/**
 * What a buyer typed or pasted to watch a lot, taken apart:
 * - `vin`: a 17-character VIN (upper-cased);
 * - `lot`: a lot number, bare (`platform` null) or read from a lot URL whose path or query names it: every URL
 *   lotPageUrl emits (`copart.com/lot/{n}[/{slug}]`, `iaai.com/Search?Keyword={n}`), so a link Lotwatch itself
 *   gave out (lot view, calendar event, alert) watches its lot;
 * - `page`: an IAAI `VehicleDetail/{item id}~US` page, named by IAAI's item id rather than the lot number, which
 *   only the service's urltodetails can resolve (spec GET /vehicles/urltodetails); `url` is its https form.
 * A URL may come without its scheme (`www.copart.com/lot/45416833`) or with http; hosts are copart.com and
 * iaai.com, with or without `www.`.
 *
 * @returns the target, or null for anything else (a foreign host, a page that names no lot, junk). Throws nothing.
 */
export function parseLotTarget(
  input: string,
):
  | { kind: 'vin'; vin: string }
  | { kind: 'lot'; lot_number: string; platform: Platform | null }
  | { kind: 'page'; url: string; platform: Platform }
  | null {
  const t = input.trim();
  if (VIN_PATTERN.test(t.toUpperCase())) return { kind: 'vin', vin: t.toUpperCase() };
  if (/^\d{1,12}$/.test(t)) return { kind: 'lot', lot_number: t, platform: null };
  if (t.length > 2000 || /\s/.test(t)) return null;
  const withScheme = /^https?:\/\//i.test(t) ? t : /^[a-z][a-z0-9+.-]*:/i.test(t) ? null : `https://${t}`;
  if (withScheme === null || !URL.canParse(withScheme)) return null;
  const u = new URL(withScheme);
  if (u.username || u.password || u.port) return null;
  const host = u.hostname.toLowerCase().replace(/^www\./, '');
  if (host === 'copart.com') {
    const m = /^\/lot\/(\d{1,12})(?:\/[^/]*)?\/?$/.exec(u.pathname);
    return m ? { kind: 'lot', lot_number: m[1] as string, platform: 'copart' } : null;
  }
  if (host === 'iaai.com') {
    const keyword = u.searchParams.get('Keyword') ?? u.searchParams.get('keyword');
    if (/^\/search\/?$/i.test(u.pathname) && keyword !== null && /^\d{1,12}$/.test(keyword.trim()))
      return { kind: 'lot', lot_number: keyword.trim(), platform: 'iaai' };
    const m = /^\/VehicleDetail\/(\d{1,12})~US\/?$/i.exec(u.pathname);
    if (m) return { kind: 'page', url: `https://www.iaai.com/VehicleDetail/${m[1]}~US`, platform: 'iaai' };
  }
  return null;
}

const s = z.string().nullable();
const n = z.number().nullable();

const b = z.boolean().nullable();

/**
 * spec "AuctionInfo", plus the real service's sale result (docs/service-contract.md "Sale results"). `auction_at` is
 * ISO 8601 with offset, as received; `last_sold_day` is a YYYY-MM-DD date.
 */
export const AuctionInfoSchema = z.object({
  state: s,
  auction_at: s,
  lot_status: s,
  lot_sub_status: s,
  /** "Sold" | "Sold on Approval" | null (real dialect); read with saleOutcomeOf (src/shared/saleOutcome.ts). */
  last_sold_status: s,
  last_sold_day: s,
  /** The lot offers buy now (real `auction.is_buy_now`). */
  is_buy_now: b,
});

/**
 * spec "PricingInfo": amounts in US dollars. `sale_price_usd` is the spec field, else the real
 * `last_sold_price_usd`; 0 there means nothing was paid and reads as null, never "$0".
 */
export const PricingInfoSchema = z.object({
  current_bid_usd: n,
  buy_now_usd: n,
  sale_price_usd: n,
  /** The service's own estimate range (real `pricing.estimated_cost.{from,to}`), USD: it reads as an estimate of the sale
   * price, not a repair cost (docs/service-contract.md "Searching ended lots"). */
  estimated_cost_from_usd: n,
  estimated_cost_to_usd: n,
  /**
   * IAAI's actual cash value (the vehicle's value before the damage), USD: real
   * `details.sale_information.ActualCashValue` ("$18,349 USD"), else `details.attributes.ProviderACV`. Copart records
   * carry none (null). Defaults to null where a record lacks the field (stored records got it in migration 110).
   */
  acv_usd: n.default(null),
  /**
   * IAAI's estimated repair cost, USD: real `details.sale_information.EstimatedRepairCost` ("$20,821 USD"), else
   * `details.attributes.EstRepairCost` (20821). Copart records carry none (null).
   */
  est_repair_usd: n.default(null),
  /**
   * est_repair_usd / acv_usd as a ratio (src/shared/estimates.ts repairToValue); null when either is unknown or the
   * ACV is 0.
   */
  repair_to_value: n.default(null),
});

/**
 * spec "VehicleLocation". `state` falls back to the code inside `display` ("Boston - Shirley (MA)") because the real
 * service sends `location.state` null; `facility_id` falls back to the real `facility.id`.
 */
export const VehicleLocationSchema = z.object({
  display: s,
  state: s,
  facility_id: s,
  /** Where transport starts for shipping prices (real `location.send_from`, e.g. "Norfolk"). */
  ship_from: s,
});

/** The yard that holds the vehicle (real `facility`): id, name, ZIP, coordinates in decimal degrees. */
export const YardSchema = z.object({
  id: s,
  name: s,
  zip: s,
  latitude: n,
  longitude: n,
});

/** The engine as listed (real `vehicle_specs.engine`): raw text, size in litres, horsepower. */
export const EngineSchema = z.object({
  raw: s,
  size_l: n,
  hp: n,
});

/** The title document the vehicle sells with (real `sale_document`): e.g. "SALVAGE - REPAIRABLE-COLLISION". */
export const TitleDocumentSchema = z.object({
  name: s,
  /** "approved" | "warning" as the service groups documents. */
  group: s,
  /**
   * Whether the document lets the car be exported (real `sale_document.export`; false on some salvage documents
   * too); null when not sent (the specification lists no such field). Read with exportBlock (src/shared/exportBlock.ts).
   */
  export: b,
  /** IAAI's title brand (real `details.attributes.TitleBrand`, else `details.sale_information.Brand`), e.g. REPAIRABLE. */
  brand: s,
});

/** Who sells (real `seller`): a name and `insurance` | `non_insurance` | `unknown`. */
export const SellerSchema = z.object({
  name: s,
  type: s,
});

/** spec "MediaInfo". `photos` is never null: an absent list is empty. */
export const MediaInfoSchema = z.object({
  thumbs_count: n,
  has_360: z.boolean().nullable(),
  photos: z.array(z.string()),
});

/** spec "Vehicle" normalised; `odometer` is in miles. */
export const VehicleSchema = z.object({
  platform: s,
  lot_number: s,
  vin: s,
  title: s,
  year: n,
  make: s,
  model: s,
  type: s,
  color: s,
  fuel_type: s,
  transmission: s,
  drive_type: s,
  odometer: n,
  damage: s,
  /** Real `condition.secondary_damage`. */
  secondary_damage: s,
  /** Real `vehicle_specs.body_style`, e.g. "Coupe". */
  body_style: s,
  engine: EngineSchema,
  /** Real `condition.run_condition`: the wire value (RUNS AND DRIVES, ...) and its label. */
  run_condition: s,
  run_condition_label: s,
  /** Real `condition.has_key`: the keys are with the vehicle. */
  has_key: b,
  title_document: TitleDocumentSchema,
  seller: SellerSchema,
  yard: YardSchema,
  auction: AuctionInfoSchema,
  pricing: PricingInfoSchema,
  location: VehicleLocationSchema,
  media: MediaInfoSchema,
  /** The record as received (any JSON value). */
  raw: z.unknown(),
});
export type Vehicle = z.infer<typeof VehicleSchema>;

/** One sale of a vehicle's auction history (docs/service-contract.md "History": platform, date, price, status). */
export const SaleRecordSchema = z.object({
  platform: s,
  lot_number: s,
  /** Date or date-time as received. */
  date: s,
  /** US dollars. */
  price: n,
  /** As received: "Sold", "Sold on Approval", or a specification record's words. */
  status: s,
  raw: z.unknown(),
});
export type SaleRecord = z.infer<typeof SaleRecordSchema>;

/** spec "AuctionLocation". Coordinates in decimal degrees. */
export const AuctionLocationSchema = z.object({
  platform: s,
  facility_id: s,
  name: s,
  city: s,
  state: s,
  zip: s,
  latitude: n,
  longitude: n,
  raw: z.unknown(),
});
export type AuctionLocation = z.infer<typeof AuctionLocationSchema>;

/** spec "ShippingPrice": `price` in `currency` (USD in practice). */
export const ShippingPriceSchema = z.object({
  port: s,
  price: n,
  currency: s,
  raw: z.unknown(),
});
export type ShippingPrice = z.infer<typeof ShippingPriceSchema>;

/** spec "CursorMeta". Cursors are opaque; null when there is no such page. */
export const CursorMetaSchema = z.object({
  per_page: n,
  next_cursor: s,
  prev_cursor: s,
});
export type CursorMeta = z.infer<typeof CursorMetaSchema>;

/**
 * The plan quota as last reported by the service's response headers
 * (docs/service-contract.md "Envelope, headers, errors"). Counts are requests; times are ms since the epoch; null
 * when the header was absent or unreadable.
 */
export const QuotaSnapshotSchema = z.object({
  /** When the headers were read (ms since the epoch). */
  at: z.number(),
  limit: n,
  baseLimit: n,
  extraLimit: n,
  used: n,
  remaining: n,
  periodStart: n,
  periodEnd: n,
  perPageLimit: n,
  /** Requests per second allowed by the short-window rate limit (X-RateLimit-Limit). */
  rateLimit: n,
  rateRemaining: n,
});
export type QuotaSnapshot = z.infer<typeof QuotaSnapshotSchema>;
