import { hash32 } from './rng';
import type { Facility } from './geo';
import type { Lot } from './market';

/**
 * Wire shapes of the sandbox's records. Two dialects, chosen at startup (SandboxOptions.shape):
 * - 'real' (the default): what the real service returns (docs/service-contract.md "Records"), built in realShape.ts.
 * - 'spec': the specification's Vehicle (spec "Vehicle", "AuctionInfo", "PricingInfo", "VehicleLocation",
 *   "MediaInfo") with flat color/damage/odometer, lot_status/lot_sub_status and sale_price_usd, plus a few harmless
 *   extra keys; built here (specRecord).
 */
export type WireShape = 'real' | 'spec';

/** "2026-06-22T13:30:00+00:00": ISO 8601 with an explicit offset, as in the vendor OpenAPI example. */
export function isoOffset(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
}

/** "2026-06-22 13:30:00": the SQL-ish form (UTC) the real cursor carries, and the spec shape's `ad` field. */
export function sqlTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** Parses sqlTime output back to ms; NaN when malformed. */
export function parseSqlTime(s: string): number {
  if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(s)) return NaN;
  return Date.parse(`${s.replace(' ', 'T')}Z`);
}

const HEX_SALT = 0x9f07;

function hexTail(seed: number, lotNumber: number, idx: number): string {
  let s = '';
  for (let i = 0; i < 3; i++) s += hash32(seed, HEX_SALT, lotNumber, idx, i).toString(16).padStart(8, '0');
  return s.slice(0, 22);
}

/**
 * The photo URL of a lot's photo `idx` (0-based) on the platform's real image host; `large` or thumbnail
 * (docs/service-contract.md "Photo hosts"): Copart's cs.copart.com `<hex>_thb.jpg` / `_hrs.jpg`, IAAI's
 * vis.iaai.com/resizer?imageKeys=<salvage id>~SID~I<n> (the salvage id is the item id, not the lot number) at
 * 400x300 or 845x633.
 */
export function photoUrl(seed: number, lot: Lot, idx: number, large: boolean): string {
  const base = photoBase(seed, lot, idx, copartMonth(lot));
  return lot.platform === 'copart'
    ? `${base}_${large ? 'hrs' : 'thb'}.jpg`
    : `${base}${large ? '845&height=633' : '400&height=300'}`;
}

/** "0626": the month and year of a Copart lot's creation, in its photo paths. */
function copartMonth(lot: Lot): string {
  const d = new Date(lot.createdAt);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCFullYear() % 100).padStart(2, '0')}`;
}

/** A photo URL without its size suffix (Copart `_thb.jpg` / `_hrs.jpg`, IAAI the width and height values). */
function photoBase(seed: number, lot: Lot, idx: number, mmyy: string): string {
  if (lot.platform === 'copart') {
    const n = Number(lot.lotNumber);
    const hex = n.toString(16).padStart(8, '0') + idx.toString(16).padStart(2, '0') + hexTail(seed, n, idx);
    return `https://cs.copart.com/v1/AUTH_svc.pdoc00001/lpp/${mmyy}/${hex}`;
  }
  return `https://vis.iaai.com/resizer?imageKeys=${lot.itemId}~SID~I${idx + 1}&width=`;
}

/** A lot's photo URLs in photo order: thumbnails (400x300) and large ones. Shared: never mutate. */
export interface PhotoSet {
  thumbs: readonly string[];
  large: readonly string[];
}

/**
 * How many lots' photo URLs are kept. A page of 20 records needs several hundred URLs, and the same lots are asked
 * for again and again (a watcher polls its watchlist, a list its first page); bounded so a walk over every lot
 * does not keep them all (about 3 KB a lot).
 */
const PHOTO_CACHE_LOTS = 4096;
const photoCache = new Map<Lot, PhotoSet>();

/** The lot's photo URLs (see photoUrl and PhotoSet), from a small least-recently-used cache. */
export function photoSet(seed: number, lot: Lot): PhotoSet {
  const hit = photoCache.get(lot);
  if (hit) {
    photoCache.delete(lot);
    photoCache.set(lot, hit);
    return hit;
  }
  const mmyy = lot.platform === 'copart' ? copartMonth(lot) : '';
  const thumbs: string[] = [];
  const large: string[] = [];
  for (let i = 0; i < lot.photos; i++) {
    const base = photoBase(seed, lot, i, mmyy);
    thumbs.push(lot.platform === 'copart' ? `${base}_thb.jpg` : `${base}400&height=300`);
    large.push(lot.platform === 'copart' ? `${base}_hrs.jpg` : `${base}845&height=633`);
  }
  const set = { thumbs, large };
  photoCache.set(lot, set);
  if (photoCache.size > PHOTO_CACHE_LOTS) photoCache.delete(photoCache.keys().next().value as Lot);
  return set;
}

export interface PhotoRef {
  platform: 'copart' | 'iaai';
  /** The Copart lot number, or the IAAI salvage id (item id). */
  id: string;
  idx: number;
  width: number;
  height: number;
  format: 'jpeg' | 'png' | 'webp';
}

/**
 * Reads a photo URL of the sandbox's own shapes. 'invalid' when it is not an http(s) URL of a supported image
 * host and shape (the proxy answers 400); 'unknown' when the shape is right but no such photo exists (404).
 */
export function parsePhotoUrl(seed: number, raw: string): PhotoRef | 'invalid' | 'unknown' {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'invalid';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'invalid';
  if (u.hostname === 'cs.copart.com') {
    const m = /\/([0-9a-f]{32})_(thb|hrs|ful)\.(jpg|jpeg|png|webp)$/i.exec(u.pathname);
    if (!m) return 'invalid';
    const hex = (m[1] as string).toLowerCase();
    const n = parseInt(hex.slice(0, 8), 16);
    const idx = parseInt(hex.slice(8, 10), 16);
    if (hex.slice(10) !== hexTail(seed, n, idx)) return 'unknown';
    const ext = (m[3] as string).toLowerCase();
    const large = m[2] !== 'thb';
    return {
      platform: 'copart',
      id: String(n),
      idx,
      width: large ? 1024 : 320,
      height: large ? 768 : 240,
      format: ext === 'png' ? 'png' : ext === 'webp' ? 'webp' : 'jpeg',
    };
  }
  if (u.hostname === 'vis.iaai.com') {
    const keys = u.searchParams.get('imageKeys') ?? '';
    const m = /^(\d{5,9})~SID~I(\d{1,3})$/.exec(keys);
    if (!m || !u.pathname.startsWith('/resizer')) return 'invalid';
    const w = Number(u.searchParams.get('width') ?? 845);
    const h = Number(u.searchParams.get('height') ?? 633);
    if (!Number.isFinite(w) || !Number.isFinite(h)) return 'invalid';
    const fmt = (u.searchParams.get('format') ?? 'jpeg').toLowerCase();
    return {
      platform: 'iaai',
      id: m[1] as string,
      idx: Number(m[2]) - 1,
      width: Math.min(1600, Math.max(16, Math.round(w))),
      height: Math.min(1200, Math.max(16, Math.round(h))),
      format: fmt === 'png' ? 'png' : fmt === 'webp' ? 'webp' : 'jpeg',
    };
  }
  return 'invalid';
}

const slugs = new WeakMap<Lot['v'], string>();
/** "2018-audi-s5-30t-premium-plus-WAUC4CF57JA035732", the real service's slug_vin (one per vehicle, kept). */
export function slugVin(lot: Lot): string {
  let slug = slugs.get(lot.v);
  if (slug === undefined) {
    const words = `${lot.v.year} ${lot.v.spec.make} ${lot.v.spec.model} ${lot.v.trim}`
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    slug = `${words}-${lot.v.vin}`;
    slugs.set(lot.v, slug);
  }
  return slug;
}

/** VehicleLocation.display: "human-readable place, city with state code" (spec), e.g. "Dallas (TX)". */
export function locationDisplay(f: Facility): string {
  return `${f.city} (${f.state})`;
}

export interface RecordOptions {
  seed: number;
  /** The detail endpoints' record: adds trim, lot_url and relisted_from. */
  detail: boolean;
}

/**
 * The specification's Vehicle of one lot (spec "Vehicle" and its parts): odometer in miles, the market's own state
 * words (open, live, sold, approval, unsold), sale_price_usd in USD (null unless sold), photo URLs in media.photos.
 */
export function specRecord(lot: Lot, o: RecordOptions): Record<string, unknown> {
  const v = lot.v;
  const photos = photoSet(o.seed, lot).large;
  const rec: Record<string, unknown> = {
    platform: lot.platform,
    lot_number: lot.lotNumber,
    vin: v.vin,
    title: lot.title,
    year: v.year,
    make: v.spec.make,
    model: v.spec.model,
    type: v.spec.type,
    color: v.color,
    fuel_type: v.fuel,
    transmission: v.transmission,
    drive_type: v.drive,
    odometer: v.odometer,
    damage: lot.damage,
    auction: {
      state: lot.state,
      auction_at: isoOffset(lot.auctionAt),
      lot_status: lot.lotStatus,
      lot_sub_status: lot.subStatus,
    },
    pricing: {
      current_bid_usd: lot.currentBid,
      buy_now_usd: lot.buyNow,
      sale_price_usd: lot.salePrice,
    },
    location: {
      display: locationDisplay(lot.facility),
      state: lot.facility.state,
      facility_id: lot.facility.facility_id,
    },
    media: { thumbs_count: lot.photos, has_360: lot.has360, photos },
    slug_vin: slugVin(lot),
    platform_id: lot.platform === 'copart' ? 1 : 2,
    ad: sqlTime(lot.auctionAt),
    updated_at: sqlTime(lot.updatedAt),
    seller: { name: lot.sellerName, type: lot.sellerType },
    condition: {
      run_condition: { value: lot.runCond, label: lot.runLabel },
      has_key: lot.hasKey,
      primary_damage: lot.damage,
      secondary_damage: lot.secondaryDamage,
    },
    vehicle_specs: {
      exterior_color: v.color,
      engine:
        v.engineL > 0
          ? { raw: `${v.engineL.toFixed(1)}L ${v.cylinders}`, size_l: v.engineL, hp: v.hp }
          : { raw: 'ELECTRIC', size_l: null, hp: v.hp },
      cylinders: v.cylinders || null,
      transmission: v.transmission,
      fuel_type: v.fuel,
      drive_type: v.drive,
      body_style: v.spec.body,
    },
    sale_document: { name: lot.docName, type: lot.docType, is_pending: lot.docPending },
    facility: {
      id: lot.facility.facility_id,
      name: lot.facility.name,
      lat: lot.facility.latitude,
      lng: lot.facility.longitude,
      zip: lot.facility.zip,
    },
  };
  if (lot.itemId) rec['item_id'] = lot.itemId;
  if (o.detail) {
    rec['trim'] = v.trim;
    rec['lot_url'] = lotUrl(lot);
    rec['relisted_from'] = lot.relistOf ? lot.relistOf.lotNumber : null;
  }
  return rec;
}

/** The lot's page on its platform: copart.com/lot/{lot number}/{slug}, iaai.com/VehicleDetail/{item id}~US. */
export function lotUrl(lot: Lot): string {
  return lot.platform === 'copart'
    ? `https://www.copart.com/lot/${lot.lotNumber}/${lot.titleLower.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`
    : `https://www.iaai.com/VehicleDetail/${lot.itemId}~US`;
}
