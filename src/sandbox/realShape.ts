import { KM_PER_MILE, PORTS, milesBetween, type Facility } from './geo';
import type { Lot } from './market';
import { isoOffset, locationDisplay, photoSet, slugVin, type PhotoSet } from './records';
import { estimatedCost, iaaiValuation, titleBrand, usd } from './pricing';
import { hash32 } from './rng';

/**
 * The real service's record shape (the sandbox's default dialect): every path outside `details` of the survey of 68
 * real records with its type, the vocabulary of docs/service-contract.md ("Records", "Photo hosts", "Sale results"),
 * and on IAAI a small raw `details` (attributes, sale_information). None of the spec's flat fields is here (no color,
 * damage, fuel_type, transmission, drive_type; no auction.lot_status / lot_sub_status, pricing.sale_price_usd,
 * media.photos, location.facility_id): a client that reads only those reads nothing, as against the real service.
 *
 * The market keeps its own words (Lot.state open/live/sold/approval/unsold, subStatus, lotStatus, the spec's filter
 * values); this file only translates them to the wire.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** The real shape's auction result of a lot (docs/service-contract.md "Sale results"). */
export interface RealResult {
  /** "open" while the lot is open or live (live is not visible on this wire), "finished" once it ended. */
  state: 'open' | 'finished';
  /** "Sold" | "Sold on Approval"; null while open and for a lot that ended unsold. */
  lastSoldStatus: 'Sold' | 'Sold on Approval' | null;
  /** "YYYY-MM-DD" (UTC) of the day the lot ended with a sale; null otherwise. */
  lastSoldDay: string | null;
  /** The sale price, USD; 0 when nothing was paid (open or unsold), as the real records show. */
  lastSoldPrice: number;
}

/** "2026-08-04": the UTC day of a market time (ms). */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Translates a lot's market state to the real shape's words; see RealResult. */
export function realResult(lot: Lot): RealResult {
  if (lot.subStatus !== 'Ended')
    return { state: 'open', lastSoldStatus: null, lastSoldDay: null, lastSoldPrice: 0 };
  const status = lot.state === 'sold' ? 'Sold' : lot.state === 'approval' ? 'Sold on Approval' : null;
  if (status === null || lot.salePrice === null)
    return { state: 'finished', lastSoldStatus: null, lastSoldDay: null, lastSoldPrice: 0 };
  return {
    state: 'finished',
    lastSoldStatus: status,
    lastSoldDay: utcDay(lot.endedAt ?? lot.auctionAt),
    lastSoldPrice: lot.salePrice,
  };
}

/** vehicle_specs.drive_type: the real records' long words; the market (and the drive_type filter) keep AWD/FWD/RWD. */
export const DRIVE_WORDS: Readonly<Record<string, string>> = {
  AWD: 'All Wheel Drive',
  FWD: 'Front Wheel Drive',
  RWD: 'Rear Wheel Drive',
};

/**
 * condition.run_condition of the real records: three values, the spec's STATIONARY and NO INFORMATION folded into
 * one ("STATIONARY / NO INFORMATION"); the run_cond filter still tells them apart. class_hint is a CSS colour class:
 * the survey shows "success" and "warning"; the sandbox gives "warning" to both lesser conditions.
 */
export const RUN_WORDS: Readonly<Record<string, { value: string; label: string; class_hint: string }>> = {
  'RUNS AND DRIVES': { value: 'RUNS AND DRIVES', label: 'Runs and drives', class_hint: 'success' },
  'ENGINE START PROGRAM': {
    value: 'ENGINE START PROGRAM',
    label: 'Engine start program',
    class_hint: 'warning',
  },
  STATIONARY: {
    value: 'STATIONARY / NO INFORMATION',
    label: 'Stationary / no information',
    class_hint: 'warning',
  },
  'NO INFORMATION': {
    value: 'STATIONARY / NO INFORMATION',
    label: 'Stationary / no information',
    class_hint: 'warning',
  },
};

/**
 * sale_document of the real records, by the market's document name: sale_document_group "approved" | "warning"
 * and type "success" | "danger" (a colour class), export and registration flags, and page_id (the real service's
 * id of the document's help page; the sandbox numbers its documents). The name stays the market's, so the
 * sale_document_type filter and the record agree. `export` here is the document's own: a certificate of
 * destruction and parts-only papers never export; the other non-clean documents export unless exportOf says a lot's
 * does not.
 */
const SALE_DOCUMENTS: Readonly<
  Record<string, { group: 'approved' | 'warning'; page_id: number; export: boolean; registration: boolean }>
> = {
  CLEAR: { group: 'approved', page_id: 1, export: true, registration: true },
  SALVAGE: { group: 'approved', page_id: 8, export: true, registration: true },
  'CERTIFICATE OF DESTRUCTION': { group: 'warning', page_id: 3, export: false, registration: false },
  REBUILT: { group: 'approved', page_id: 4, export: true, registration: true },
  'PARTS ONLY': { group: 'warning', page_id: 5, export: false, registration: false },
  'NON-REPAIRABLE': { group: 'warning', page_id: 6, export: true, registration: false },
  'BILL OF SALE': { group: 'approved', page_id: 9, export: true, registration: false },
};

/** Percent of non-clean lots whose document the real service marks not exportable (the survey's salvage ones too). */
const NOT_EXPORTABLE_PERCENT = 20;

/**
 * sale_document.export of a lot: false for the documents that never export (certificate of destruction, parts
 * only), true for a clear title, and for every other document false on about one lot in five, the same lots for a
 * seed (the real survey's SALVAGE and MV-907A records carry both true and false: the name alone never says).
 */
export function exportOf(seed: number, lot: Pick<Lot, 'id' | 'docName'>): boolean {
  const own = SALE_DOCUMENTS[lot.docName]?.export ?? true;
  if (!own || lot.docName === 'CLEAR') return own;
  return hash32(seed, 0xe4b07, lot.id) % 100 >= NOT_EXPORTABLE_PERCENT;
}

/** sale_document.sale_document_group of a market document name: "approved", or "warning" for the scrap-only ones. */
export function saleDocumentGroup(name: string): 'approved' | 'warning' {
  return SALE_DOCUMENTS[name]?.group ?? 'approved';
}

/**
 * seller.type of the real records is insurance | non_insurance | unknown: the market's dealer and finance sellers
 * show as non_insurance (the seller_type filter still knows them apart), and about one IAAI seller in six is masked
 * as "unknown" (the survey: 12 of 68 "unknown" while the raw details say Origin "Insurance"). class and text_class
 * are CSS hints, as in the survey.
 */
function realSeller(
  seed: number,
  lot: Lot,
): { class: string; name: string; text_class: string; type: string } {
  if (lot.platform === 'iaai' && hash32(seed, 0x5e11, lot.id) % 100 < 18) {
    return { class: 'bg-282828', name: 'unknown', text_class: 'text-primary', type: 'unknown' };
  }
  const insurance = lot.sellerType === 'insurance';
  return {
    class: insurance ? 'bg-success-C2F7D7' : 'bg-282828',
    name: lot.sellerName,
    text_class: insurance ? 'text-success' : 'text-primary',
    type: insurance ? 'insurance' : 'non_insurance',
  };
}

/**
 * vehicle_specs.engine: raw text like "3.5L V-6 DOHC, 280HP", size_l a STRING "3.5"
 * (docs/service-contract.md "Records"), hp, layout "V" | "I" | "H" (the engine_type filter's letters). An electric
 * vehicle has no size or layout (null).
 */
function realEngine(lot: Lot): { hp: number; layout: string | null; raw: string; size_l: string | null } {
  const v = lot.v;
  if (v.engineL <= 0) return { hp: v.hp, layout: null, raw: 'ELECTRIC MOTOR', size_l: null };
  const layout = v.cylinders >= 6 ? 'V' : v.spec.make === 'SUBARU' ? 'H' : 'I';
  const size = v.engineL.toFixed(1);
  return { hp: v.hp, layout, raw: `${size}L ${layout}-${v.cylinders} DOHC, ${v.hp}HP`, size_l: size };
}

const COLLISION = new Set([
  'Front end',
  'Left Front',
  'Right Front',
  'Rear end',
  'Left Rear',
  'Right Rear',
  'Left side',
  'Right side',
  'All over',
  'Rollover',
]);
const RESTRAINTS = 'Front impact airbag driver;Front impact airbag passenger;Side curtain airbags';

const sendFrom = new WeakMap<Facility, string>();
/** location.send_from: the shipping origin, the port nearest the yard by road (e.g. "Norfolk"). */
function nearestPort(f: Facility): string {
  let name = sendFrom.get(f);
  if (name === undefined) {
    let best = Infinity;
    name = PORTS[0]?.port ?? '';
    for (const p of PORTS) {
      if (p.port === 'Moto_ATV') continue;
      const d = milesBetween(f.latitude, f.longitude, p.lat, p.lng);
      if (d < best) [best, name] = [d, p.port];
    }
    sendFrom.set(f, name);
  }
  return name;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));
/**
 * auction.formatted: "Aug 04, 2026 16:30". The survey pairs 13:30 UTC with "16:30": the vendor formats in its own
 * zone, three hours ahead of UTC; the sandbox uses that fixed offset.
 */
function formatted(ms: number): string {
  const d = new Date(ms + 3 * HOUR);
  return `${MONTHS[d.getUTCMonth()]} ${pad2(d.getUTCDate())}, ${d.getUTCFullYear()} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
}

interface MediaLists {
  thumbs: readonly string[];
  items: readonly { type: string; thumb: string; large: string }[];
}
const NO_MEDIA: MediaLists = { thumbs: [], items: [] };
const mediaOf = new WeakMap<PhotoSet, MediaLists>();
/** media.thumbs and media.items of an open lot, made once per cached photo set (shared: never mutated). */
function realMedia(seed: number, lot: Lot): MediaLists {
  const set = photoSet(seed, lot);
  let m = mediaOf.get(set);
  if (!m) {
    m = {
      thumbs: set.thumbs,
      items: set.thumbs.map((thumb, i) => ({ type: 'image', thumb, large: set.large[i] as string })),
    };
    mediaOf.set(set, m);
  }
  return m;
}

/**
 * The real-shape record of one lot at market time `now` (ms). Paths and types follow the survey; values:
 * - ad, auction.ad / auction_at / full_date: the auction date, ISO 8601 with offset ("2026-08-04T13:30:00+00:00").
 * - auction.countdown {days, hours, minutes} to the sale (zeros after it), diff_minutes (negative after it).
 * - auction.state / last_sold_status / last_sold_day and pricing.last_sold_price_usd: see realResult.
 * - auction.is_buy_now / is_timed mirror the lot_status filter (Buy Now / Timed); sold_timed = sold in a timed sale.
 * - odometer {mi, km}; pricing in USD; estimated_cost the service's band of the sale price with its
 *   "$1,450 - $15,000" text (pricing.ts estimatedCost).
 * - location {display "City (ST)", send_from, state null}; facility {id number, lat, lng, zip, office_name and
 *   state null}, as in all 68 surveyed records.
 * - media: thumbs (400x300) and items [{type "image", thumb, large}] of an open lot; a finished lot lists none while
 *   thumbs_count keeps the count (all 68 surveyed, ended, records had empty lists).
 * - distance: null (the search handler fills it in on a zip search).
 * - details (IAAI only): attributes, a few dozen of the raw keys of the survey in its spellings, and
 *   sale_information with the ACV and the repair estimate as "$18,349 USD" text (iaaiDetails).
 */
export function realRecord(lot: Lot, seed: number, now: number): Record<string, unknown> {
  const v = lot.v;
  const f = lot.facility;
  const r = realResult(lot);
  const at = isoOffset(lot.auctionAt);
  const ahead = Math.max(0, lot.auctionAt - now);
  const engine = realEngine(lot);
  const run = RUN_WORDS[lot.runCond] ?? {
    value: 'STATIONARY / NO INFORMATION',
    label: 'Stationary / no information',
    class_hint: 'warning',
  };
  const doc = SALE_DOCUMENTS[lot.docName] ?? {
    group: 'approved',
    page_id: 0,
    export: true,
    registration: false,
  };
  const media = r.state === 'open' ? realMedia(seed, lot) : NO_MEDIA;
  const isTimed = lot.lotStatus === 'Timed';
  const airbagsDeployed = hash32(seed, 0xa1b, lot.id) % 100 < (COLLISION.has(lot.damage) ? 55 : 6);
  const rec: Record<string, unknown> = {
    platform: lot.platform,
    platform_id: lot.platform === 'copart' ? 1 : 2,
    lot_number: lot.lotNumber,
    vin: v.vin,
    slug_vin: slugVin(lot),
    title: lot.title,
    year: v.year,
    make: v.spec.make,
    model: v.spec.model,
    type: v.spec.type,
    subLot: false,
    ad: at,
    distance: null,
    auction: {
      ad: at,
      auction_at: at,
      full_date: at,
      formatted: formatted(lot.auctionAt),
      countdown: {
        days: Math.floor(ahead / DAY),
        hours: Math.floor((ahead % DAY) / HOUR),
        minutes: Math.floor((ahead % HOUR) / MIN),
      },
      diff_minutes: Math.round((lot.auctionAt - now) / MIN),
      state: r.state,
      is_buy_now: lot.lotStatus === 'Buy Now',
      is_timed: isTimed,
      timed_end_at: null,
      last_sold_status: r.lastSoldStatus,
      last_sold_day: r.lastSoldDay,
      sold_buy_now: false,
      sold_timed: isTimed && r.lastSoldStatus !== null,
    },
    pricing: {
      current_bid_usd: lot.currentBid,
      // A second bid figure the real records carry (its meaning is not documented); the sandbox repeats the bid.
      current_bid2_usd: lot.currentBid,
      buy_now_usd: lot.buyNow,
      last_sold_price_usd: r.lastSoldPrice,
      estimated_cost: estimatedCost(lot),
    },
    odometer: { mi: v.odometer, km: Math.round(v.odometer * KM_PER_MILE) },
    condition: {
      run_condition: { value: run.value, label: run.label, class_hint: run.class_hint },
      has_key: lot.hasKey,
      loss: null,
      primary_damage: lot.damage,
      secondary_damage: lot.secondaryDamage,
    },
    vehicle_specs: {
      exterior_color: v.color,
      engine,
      transmission: v.transmission,
      fuel_type: v.fuel,
      drive_type: DRIVE_WORDS[v.drive] ?? v.drive,
      body_style: v.spec.body,
      airbags: airbagsDeployed ? 'Deployed' : 'Intact',
      restraint_system: v.spec.type === 'MOTORCYCLE' ? 'None' : RESTRAINTS,
    },
    location: { display: locationDisplay(f), send_from: nearestPort(f), state: null },
    facility: {
      id: Number(f.facility_id),
      lat: f.latitude,
      lng: f.longitude,
      zip: f.zip,
      office_name: null,
      state: null,
    },
    seller: realSeller(seed, lot),
    sale_document: {
      name: lot.docName,
      type: doc.group === 'approved' ? 'success' : 'danger',
      sale_document_group: doc.group,
      export: exportOf(seed, lot),
      registration: doc.registration,
      is_pending: lot.docPending,
      page_id: doc.page_id,
    },
    media: {
      thumbs_count: lot.photos,
      has_video: false,
      has_360: lot.has360,
      thumbs: media.thumbs,
      items: media.items,
    },
  };
  if (lot.platform === 'iaai') rec['details'] = iaaiDetails(seed, lot, engine.raw);
  return rec;
}

const LOSS: Readonly<Record<string, string>> = {
  Theft: 'Theft',
  Water: 'Water',
  Fire: 'Fire',
  Hail: 'Hail',
  Vandalized: 'Vandalism',
  Mechanical: 'Mechanical',
  Repossession: 'Repossession',
};

/**
 * The IAAI raw `details` of a lot: `attributes` (iaaiAttributes plus EstRepairCost, a number of USD, and
 * TitleBrand) and `sale_information` {ActualCashValue, EstimatedRepairCost ("$18,349 USD" text), SellingBranch,
 * Seller, SellerType, TitleSaleDoc, and Brand when the title is branded (8 of 68 surveyed records carry Brand)}.
 * The values come from pricing.ts iaaiValuation and titleBrand.
 */
function iaaiDetails(seed: number, lot: Lot, engineRaw: string): Record<string, unknown> {
  const { acv, repair } = iaaiValuation(seed, lot);
  const brand = titleBrand(lot, COLLISION.has(lot.damage));
  const branch = `${lot.facility.name} (${lot.facility.state})`;
  const sale: Record<string, unknown> = {
    SellingBranch: branch,
    ActualCashValue: `${usd(acv)} USD`,
    EstimatedRepairCost: `${usd(repair)} USD`,
    Seller: lot.sellerName,
    SellerType: lot.sellerType === 'insurance' ? 'Insurance' : 'Non-Insurance',
    TitleSaleDoc: `${lot.docName} (${lot.facility.state})`,
  };
  if (brand) sale['Brand'] = brand;
  const attributes = iaaiAttributes(lot, engineRaw);
  attributes['EstRepairCost'] = repair;
  attributes['TitleBrand'] = brand;
  return { attributes, sale_information: sale };
}

/**
 * The IAAI raw `details.attributes` subset, in the survey's spellings and value styles: Id "<salvage id>~US" (the
 * VehicleDetail page id), SalvageId, StockNumber (the lot number), BranchName "Name (ST)", ODOValue / ODOUoM /
 * ODOBrand, Keys, LossTypeDesc, PrimaryDamageDesc / SecondaryDamageDesc in capitals, DriveLineTypeDesc (short:
 * AWD), EngineInformation, Cylinders, FuelTypeDesc, ExteriorColor in capitals, StartsDesc, RunAndDrive,
 * ProviderName and Origin.
 */
function iaaiAttributes(lot: Lot, engineRaw: string): Record<string, unknown> {
  const v = lot.v;
  const runs = lot.runCond === 'RUNS AND DRIVES';
  return {
    Id: `${lot.itemId}~US`,
    SalvageId: Number(lot.itemId),
    StockNumber: lot.lotNumber,
    BranchName: `${lot.facility.name} (${lot.facility.state})`,
    BranchNumber: Number(lot.facility.facility_id),
    VIN: v.vin,
    Year: v.year,
    Make: v.spec.make,
    Model: v.spec.model,
    ODOValue: v.odometer,
    ODOUoM: 'mi',
    ODOBrand: 'ACTUAL',
    Keys: lot.hasKey,
    LossTypeDesc: LOSS[lot.damage] ?? 'Collision',
    PrimaryDamageDesc: lot.damage.toUpperCase(),
    SecondaryDamageDesc: (lot.secondaryDamage ?? 'Unknown').toUpperCase(),
    DriveLineTypeDesc: v.drive,
    EngineInformation: engineRaw,
    Cylinders: v.cylinders || null,
    FuelTypeDesc: v.fuel,
    ExteriorColor: v.color.toUpperCase(),
    StartsDesc: runs || lot.runCond === 'ENGINE START PROGRAM' ? 'Starts' : 'Stationary',
    RunAndDrive: runs,
    ProviderName: lot.sellerName,
    Origin: lot.sellerType === 'insurance' ? 'Insurance' : 'Non-Insurance',
  };
}

/**
 * One row of the real history (docs/service-contract.md "History"): {platform, date "YYYY-MM-DD" (the day the lot
 * ended), price (USD), status "Sold" | "Sold on Approval"}. No lot number. Only for a lot that ended with a sale.
 */
export function historyRow(lot: Lot): { platform: string; date: string; price: number; status: string } {
  const r = realResult(lot);
  return {
    platform: lot.platform,
    date: r.lastSoldDay ?? utcDay(lot.auctionAt),
    price: r.lastSoldPrice,
    status: r.lastSoldStatus ?? 'Sold',
  };
}
