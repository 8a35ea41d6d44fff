import { hash32 } from './rng';
import type { Facility } from './geo';
import type { Lot } from './market';

/**
 * Wire shapes of the sandbox's records. The default shape is the specification's Vehicle (spec "Vehicle",
 * "AuctionInfo", "PricingInfo", "VehicleLocation", "MediaInfo") plus harmless extra keys that the real service
 * also sends (REAL-SERVICE.md "Records in practice"). The drift shape is what public consumers see from the real
 * service: odometer as {mi, km}, extra auction/pricing/media keys, a raw `details` object.
 */

/** "2026-06-22T13:30:00+00:00": ISO 8601 with an explicit offset, as in the vendor OpenAPI example. */
export function isoOffset(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** "2026-06-22 13:30:00": the SQL-ish form the real cursor and `ad` field carry (UTC). */
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

/** The photo URL of a lot's photo `idx` (0-based) on the platform's real image host; `large` or thumbnail. */
export function photoUrl(seed: number, lot: Lot, idx: number, large: boolean): string {
  if (lot.platform === 'copart') {
    const n = Number(lot.lotNumber);
    const hex = n.toString(16).padStart(8, '0') + idx.toString(16).padStart(2, '0') + hexTail(seed, n, idx);
    const d = new Date(lot.createdAt);
    const mmyy = `${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCFullYear() % 100).padStart(2, '0')}`;
    return `https://cs.copart.com/v1/AUTH_svc.pdoc00001/lpp/${mmyy}/${hex}_${large ? 'hrs' : 'thb'}.jpg`;
  }
  const [w, h] = large ? [845, 633] : [400, 300];
  return `https://vis.iaai.com/resizer?imageKeys=${lot.lotNumber}~SID~I${idx + 1}&width=${w}&height=${h}`;
}

export interface PhotoRef {
  lotNumber: string;
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
      lotNumber: String(n),
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
      lotNumber: m[1] as string,
      idx: Number(m[2]) - 1,
      width: Math.min(1600, Math.max(16, Math.round(w))),
      height: Math.min(1200, Math.max(16, Math.round(h))),
      format: fmt === 'png' ? 'png' : fmt === 'webp' ? 'webp' : 'jpeg',
    };
  }
  return 'invalid';
}

/** "2018-audi-s5-30t-premium-plus-WAUC4CF57JA035732", the real service's slug_vin. */
export function slugVin(lot: Lot): string {
  const slug = `${lot.v.year} ${lot.v.spec.make} ${lot.v.spec.model} ${lot.v.trim}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${slug}-${lot.v.vin}`;
}

/** VehicleLocation.display: "human-readable place, city with state code" (spec), e.g. "Dallas (TX)". */
export function locationDisplay(f: Facility): string {
  return `${f.city} (${f.state})`;
}

export interface RecordOptions {
  seed: number;
  /** Market time now, ms (for countdowns in the drift shape). */
  now: number;
  drift: boolean;
  detail: boolean;
}

/** The wire record of one lot (spec "Vehicle"); see the file comment for the default and drift shapes. */
export function vehicleRecord(lot: Lot, o: RecordOptions): Record<string, unknown> {
  const v = lot.v;
  const photos: string[] = [];
  for (let i = 0; i < lot.photos; i++) photos.push(photoUrl(o.seed, lot, i, true));
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
      engine: v.engineL > 0 ? { raw: `${v.engineL.toFixed(1)}L ${v.cylinders}`, size_l: v.engineL, hp: v.hp } : { raw: 'ELECTRIC', size_l: null, hp: v.hp },
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
    rec['lot_url'] =
      lot.platform === 'copart'
        ? `https://www.copart.com/lot/${lot.lotNumber}/${lot.titleLower.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`
        : `https://www.iaai.com/VehicleDetail/${lot.itemId}~US`;
    rec['relisted_from'] = lot.relistOf ? lot.relistOf.lotNumber : null;
  }
  if (o.drift) applyDrift(rec, lot, o, photos);
  return rec;
}

function applyDrift(rec: Record<string, unknown>, lot: Lot, o: RecordOptions, photos: string[]): void {
  rec['odometer'] = { mi: lot.v.odometer, km: Math.round(lot.v.odometer * 1.609344) };
  rec['subLot'] = null;
  const auction = rec['auction'] as Record<string, unknown>;
  const d = new Date(lot.auctionAt);
  auction['formatted'] = d.toUTCString();
  auction['full_date'] = isoOffset(lot.auctionAt);
  auction['countdown'] = Math.max(0, Math.round((lot.auctionAt - o.now) / 1000));
  auction['is_timed'] = lot.lotStatus === 'Timed';
  auction['is_buy_now'] = lot.lotStatus === 'Buy Now';
  auction['timed_end_at'] = null;
  const prev = lot.relistOf;
  auction['last_sold_day'] = prev && prev.salePrice !== null ? sqlTime(prev.auctionAt) : null;
  auction['last_sold_status'] = prev && prev.salePrice !== null ? (prev.outcome === 'sold' ? 'Sold' : 'Sold on Approval') : null;
  const pricing = rec['pricing'] as Record<string, unknown>;
  pricing['current_bid2_usd'] = lot.currentBid;
  pricing['last_sold_price_usd'] = prev?.salePrice ?? null;
  pricing['estimated_cost'] = {
    from: Math.round(lot.v.value * 0.2),
    to: Math.round(lot.v.value * 0.5),
    text: `$${Math.round(lot.v.value * 0.2)} - $${Math.round(lot.v.value * 0.5)}`,
  };
  const media = rec['media'] as Record<string, unknown>;
  // The real service's thumbs_count can exceed the URLs it lists.
  media['thumbs_count'] = lot.photos + (lot.photos > 0 ? 2 : 0);
  media['thumbs'] = photos.map((_, i) => photoUrl(o.seed, lot, i, false));
  media['items'] = photos.map((p, i) => ({ type: 'image', thumb: photoUrl(o.seed, lot, i, false), large: p, url: p }));
  media['has_video'] = false;
  if (lot.platform === 'iaai') {
    rec['details'] = {
      StockNumber: lot.lotNumber,
      ItemId: lot.itemId,
      BranchName: lot.facility.name,
      Keys: lot.hasKey ? 'Present' : 'Missing',
      StartCode: lot.runLabel,
      Odometer: `${lot.v.odometer.toLocaleString('en-US')} mi (Actual)`,
    };
  }
}
