import { saleOutcomeOf } from '../../../shared/saleOutcome';
import { titleGroupOf } from '../../../shared/titleGroup';
import type { CompLot, CompLots } from '../compsRepo';
import type { LotRow } from '../lotsRepo';

/*
 * Comparable sales' logic that is not SQL, shared by the SQLite repository (compsRepo.ts) and the Kysely one
 * (kysely/compsRepo.ts): which columns a comparable is read from, and how a row becomes a CompLot.
 */

/**
 * The columns of `lots` a comparable sale is read from; `normalized` is the Vehicle JSON (odometer, damage and
 * `auction.last_sold_day` live only there).
 */
export type CompRow = Pick<
  LotRow,
  | 'lot_key'
  | 'platform'
  | 'lot_number'
  | 'vin'
  | 'title'
  | 'year'
  | 'make'
  | 'model'
  | 'location'
  | 'current_bid_usd'
  | 'sale_price_usd'
  | 'state'
  | 'lot_sub_status'
  | 'last_sold_status'
  | 'auction_at'
  | 'normalized'
>;

/** The columns of CompRow, in the order the queries select them. */
export const COMP_COLUMN_NAMES = [
  'lot_key',
  'platform',
  'lot_number',
  'vin',
  'title',
  'year',
  'make',
  'model',
  'location',
  'current_bid_usd',
  'sale_price_usd',
  'state',
  'lot_sub_status',
  'last_sold_status',
  'auction_at',
  'normalized',
] as const satisfies readonly (keyof CompRow)[];

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The fields of the normalised record comparable sales read. */
interface NormalizedFacts {
  odometer: number | null;
  damage: string | null;
  sold_day: number | null;
  title_document: string | null;
  run_condition: string | null;
  run_condition_label: string | null;
  has_key: boolean | null;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** The fields of a stored normalised record comps need, or null when the text is not a JSON object. Pure. */
function readNormalized(json: string): NormalizedFacts | null {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return null;
  }
  if (!isObj(v)) return null;
  const odo = v['odometer'];
  const damage = v['damage'];
  const day = isObj(v['auction']) ? v['auction']['last_sold_day'] : null;
  const m = typeof day === 'string' ? DAY.exec(day) : null;
  const soldDay = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
  const doc = isObj(v['title_document']) ? v['title_document']['name'] : null;
  const hasKey = v['has_key'];
  return {
    odometer: typeof odo === 'number' && Number.isFinite(odo) && odo >= 0 ? odo : null,
    damage: text(damage),
    sold_day: soldDay !== null && Number.isFinite(soldDay) ? soldDay : null,
    title_document: text(doc),
    run_condition: text(v['run_condition']),
    run_condition_label: text(v['run_condition_label']) ?? text(v['run_condition']),
    has_key: typeof hasKey === 'boolean' ? hasKey : null,
  };
}

/**
 * Reads the rows whose auction is over as CompLots: a row still open is left out (not counted), a row whose
 * `normalized` is not a JSON object is left out and counted in `skipped`, so one damaged record never stops the page.
 * Pure.
 */
export function toCompLots(rows: CompRow[]): CompLots {
  const lots: CompLot[] = [];
  let skipped = 0;
  for (const r of rows) {
    const price =
      r.sale_price_usd !== null && Number.isFinite(r.sale_price_usd) && r.sale_price_usd > 0
        ? r.sale_price_usd
        : null;
    const outcome = saleOutcomeOf({
      state: r.state,
      lot_sub_status: r.lot_sub_status,
      last_sold_status: r.last_sold_status,
      sale_price_usd: r.sale_price_usd,
    });
    if (outcome === 'open') continue;
    const n = readNormalized(r.normalized);
    if (n === null) {
      skipped++;
      continue;
    }
    lots.push({
      lot_key: r.lot_key,
      platform: r.platform,
      lot_number: r.lot_number,
      vin: r.vin,
      title: r.title,
      year: r.year,
      make: r.make,
      model: r.model,
      location: r.location,
      odometer: n.odometer,
      damage: n.damage,
      title_group: titleGroupOf(n.title_document),
      title_document: n.title_document,
      run_condition: n.run_condition,
      run_condition_label: n.run_condition_label,
      has_key: n.has_key,
      outcome,
      sale_price_usd: outcome === 'ended_unsold' ? null : price,
      last_bid_usd:
        r.current_bid_usd !== null && Number.isFinite(r.current_bid_usd) ? r.current_bid_usd : null,
      sold_at: r.auction_at ?? n.sold_day,
    });
  }
  return { lots, skipped };
}
