import type { CompLot, CompLots, CompQuery } from './compsRepo';
import { BadInputError } from '../errors';
import { TITLE_GROUP_LABEL, type TitleGroup } from '../../shared/titleGroup';
import type { LotKey } from '../../shared/watch';

/**
 * Comparable sales: what vehicles like the one a buyer is about to bid on actually sold for, read from the lots
 * Lotwatch already stored, so the answer is offline and spends no request. Sale outcomes are decided by
 * saleOutcomeOf in either dialect (docs/service-contract.md "Sale results"). Pure: the only reads go through the
 * repository passed in.
 */

/** A comparable is within this many model years of the subject (either way). */
export const YEAR_SPAN = 1;
/** A comparable is in the subject's odometer band when its odometer is within this share of the subject's... */
export const ODOMETER_SHARE = 0.3;
/** ...or within this many miles, whichever is wider (30 % of a low odometer is too narrow to find anything). */
export const ODOMETER_FLOOR_MI = 20_000;
/** How many comparables findComps returns by default. */
export const DEFAULT_COMPS_LIMIT = 50;

/**
 * The lot a buyer is looking at. Odometer in miles; any field but `lot_key` may be null. Without make, model or year
 * there are no comparables (only the VIN's history); without an odometer, mileage is not a criterion; without a
 * damage, no comparable has `same_damage` (likewise title group, run condition and keys).
 */
export interface CompSubject {
  lot_key: LotKey;
  vin: string | null;
  make: string | null;
  model: string | null;
  year: number | null;
  odometer: number | null;
  damage: string | null;
  /** The subject's title group (titleGroupOf); `unknown` or absent matches nothing. */
  title_group?: TitleGroup;
  /** The run condition's wire value ("RUNS AND DRIVES"). */
  run_condition?: string | null;
  has_key?: boolean | null;
}

/** How a stored lot compares with the subject. */
export interface Similarity {
  /** Both primary damages are known and the same word (case, spaces and hyphens ignored). */
  same_damage: boolean;
  /** Both title groups are known (not `unknown`) and the same. */
  same_title_group: boolean;
  /** Both run conditions are known and the same value. */
  same_run_condition: boolean;
  /** Both say whether the keys are there, and say the same. */
  same_keys: boolean;
  /** Both odometers are known and the lot's is within the subject's odometer band (odometerWindowMi). */
  same_odometer_band: boolean;
  /** The lot's model year minus the subject's; null when either is unknown. */
  year_delta: number | null;
  /** The lot's odometer minus the subject's, miles; null when either is unknown. */
  odometer_delta_mi: number | null;
  /**
   * Why it is a comparable, in short texts the lot page shows, in the ranking's order: "same damage: Front End",
   * "same title group: salvage, repairable", "same run condition: Runs and drives", "keys: yes, as this lot",
   * "similar odometer: 5,000 mi fewer", "same year" / "1 year newer" / "1 year older".
   */
  reasons: string[];
  /**
   * How many ended lots of its VIN are in the store within the band (a relisted car), this one being its last
   * attempt with a price paid (else its last); 1 for a car seen once.
   */
  attempts: number;
}

/**
 * A comparable sale (or a sale of the VIN's history): the stored lot (CompLot: outcome sold | sold_on_approval |
 * ended_unsold, `sale_price_usd` in USD and null when ended unsold, odometer in miles, `sold_at` in ms) and how it
 * compares with the subject.
 */
export type Comp = CompLot & Similarity;

/** Price statistics of some prices paid, whole USD; every USD field null when `count` is 0. */
export interface PriceStats {
  count: number;
  median_usd: number | null;
  p25_usd: number | null;
  p75_usd: number | null;
  min_usd: number | null;
  max_usd: number | null;
}

/**
 * Price statistics of a list of comparables, whole USD. `count` is how many comparables were given, `priced` how
 * many have a price paid (sold or sold on approval, above 0); the top-level USD fields are over every price paid
 * and null when `priced` is 0; `sold` and `sold_on_approval` are the same statistics over each outcome apart (a
 * price on approval is what the seller accepted after the sale, so the buyer sees the two apart).
 */
export interface CompStats extends Omit<PriceStats, 'count'> {
  count: number;
  priced: number;
  sold: PriceStats;
  sold_on_approval: PriceStats;
}

/** The reads findComps needs (CompsRepo in src/core/db/compsRepo.ts, as the store answers them: promises). */
export interface CompsSource {
  candidates(q: CompQuery): Promise<CompLots>;
  otherSalesOfVin(vin: string, exceptKey: LotKey): Promise<CompLots>;
}

/** Options of findComps. `limit`: how many comparables at most (an integer of 1 or more, default 50). */
export interface CompsOptions {
  limit?: number;
}

/**
 * What findComps returns: the comparables, best first, with their price statistics; the VIN's other sales, newest
 * first; and how many stored rows were skipped because their record is unreadable.
 */
export interface CompsResult {
  comps: Comp[];
  stats: CompStats;
  history: Comp[];
  skipped: number;
}

/** Make, model and damage words compare without case, outer spaces, or the space/hyphen difference. */
function word(s: string | null): string {
  return (s ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, ' ');
}

const known = (n: number | null): n is number => n !== null && Number.isFinite(n);

/**
 * The half-width of a subject's odometer band (miles) for a subject with `odometerMi` miles: 30 % of it, but at
 * least 20,000 miles; null when the subject's odometer is unknown (mileage then matches nothing). A comparable in
 * the band has `same_odometer_band`; one outside it or with an unknown odometer is ranked after, never left out.
 *
 * @returns miles, or null. Throws nothing.
 */
export function odometerWindowMi(odometerMi: number | null): number | null {
  if (!known(odometerMi) || odometerMi < 0) return null;
  return Math.max(odometerMi * ODOMETER_SHARE, ODOMETER_FLOOR_MI);
}

/**
 * How `lot` compares with `subject`, or null when it is not a comparable: another make or model, or a year more than
 * one away (or an unknown year on either side): the band an Ended search asks for. Everything else (damage, title
 * group, run condition, keys, odometer) ranks instead of filtering, each match said in `reasons`: a buyer still
 * learns from a sale with another damage or mileage, ranked after the closer ones. The subject's own lot is never
 * its comparable.
 *
 * @returns the Similarity, or null. Throws nothing.
 */
export function similarity(subject: CompSubject, lot: CompLot): Similarity | null {
  if (lot.lot_key === subject.lot_key) return null;
  if (word(subject.make) === '' || word(lot.make) !== word(subject.make)) return null;
  if (word(subject.model) === '' || word(lot.model) !== word(subject.model)) return null;
  const shared = describe(subject, lot);
  if (shared.year_delta === null || Math.abs(shared.year_delta) > YEAR_SPAN) return null;
  return shared;
}

/** The Similarity fields of any lot against the subject (no filtering); `attempts` 1. */
function describe(subject: CompSubject, lot: CompLot): Similarity {
  const damage = word(subject.damage);
  const group = subject.title_group ?? 'unknown';
  const run = word(subject.run_condition ?? null);
  const keys = subject.has_key ?? null;
  const band = odometerWindowMi(subject.odometer);
  const odoDelta = known(subject.odometer) && known(lot.odometer) ? lot.odometer - subject.odometer : null;
  const yearDelta = known(subject.year) && known(lot.year) ? lot.year - subject.year : null;
  const s = {
    same_damage: damage !== '' && word(lot.damage) === damage,
    same_title_group: group !== 'unknown' && lot.title_group === group,
    same_run_condition: run !== '' && word(lot.run_condition) === run,
    same_keys: keys !== null && lot.has_key === keys,
    same_odometer_band: band !== null && odoDelta !== null && Math.abs(odoDelta) <= band,
  };
  const reasons: string[] = [];
  if (s.same_damage) reasons.push(`same damage: ${lot.damage ?? ''}`);
  if (s.same_title_group) reasons.push(`same title group: ${TITLE_GROUP_LABEL[group]}`);
  if (s.same_run_condition)
    reasons.push(`same run condition: ${lot.run_condition_label ?? lot.run_condition ?? ''}`);
  if (s.same_keys) reasons.push(keys ? 'keys: yes, as this lot' : 'no keys, as this lot');
  if (s.same_odometer_band && odoDelta !== null)
    reasons.push(
      odoDelta === 0
        ? 'same odometer'
        : `similar odometer: ${Math.abs(Math.round(odoDelta)).toLocaleString('en-US')} mi ${odoDelta > 0 ? 'more' : 'fewer'}`,
    );
  if (yearDelta === 0) reasons.push('same year');
  else if (yearDelta !== null)
    reasons.push(
      `${Math.abs(yearDelta)} year${Math.abs(yearDelta) === 1 ? '' : 's'} ${yearDelta > 0 ? 'newer' : 'older'}`,
    );
  return {
    ...s,
    year_delta: yearDelta,
    odometer_delta_mi: odoDelta,
    reasons,
    attempts: 1,
  };
}

/** |n|, an unknown being the farthest. */
const distance = (n: number | null): number => (n === null ? Number.POSITIVE_INFINITY : Math.abs(n));

/** The matches in ranking order: the same damage weighs more than every later match together, and so on. */
function matchScore(c: Similarity): number {
  return (
    (c.same_damage ? 32 : 0) +
    (c.same_title_group ? 16 : 0) +
    (c.same_run_condition ? 8 : 0) +
    (c.same_keys ? 4 : 0) +
    (c.same_odometer_band ? 2 : 0) +
    (c.year_delta === 0 ? 1 : 0)
  );
}

/**
 * The order of comparables, best first, by closeness: the same primary damage, then the same title group, run
 * condition, keys, odometer band and model year, each match outweighing every later one together; then the closest
 * year, the closest odometer (unknown last), the most recent sale (unknown last), and the lot key so that the order
 * never depends on the store's.
 *
 * @returns a negative number when `a` comes first (Array.prototype.sort). Throws nothing.
 */
export function compareComps(a: Comp, b: Comp): number {
  const score = matchScore(b) - matchScore(a);
  if (score !== 0) return score;
  const years = distance(a.year_delta) - distance(b.year_delta);
  if (years !== 0 && !Number.isNaN(years)) return years;
  const miles = distance(a.odometer_delta_mi) - distance(b.odometer_delta_mi);
  if (miles !== 0 && !Number.isNaN(miles)) return miles;
  const recent = (b.sold_at ?? Number.NEGATIVE_INFINITY) - (a.sold_at ?? Number.NEGATIVE_INFINITY);
  if (recent !== 0 && !Number.isNaN(recent)) return recent;
  return a.lot_key < b.lot_key ? -1 : a.lot_key > b.lot_key ? 1 : 0;
}

/** The price a buyer paid for this comparable, USD: sold or sold on approval with a price above 0; else null. */
export function pricePaid(c: Pick<CompLot, 'outcome' | 'sale_price_usd'>): number | null {
  if (c.outcome !== 'sold' && c.outcome !== 'sold_on_approval') return null;
  return known(c.sale_price_usd) && c.sale_price_usd > 0 ? c.sale_price_usd : null;
}

/** The p-quantile (0..1) of ascending `xs` by linear interpolation between closest ranks, rounded to whole USD. */
function quantile(xs: readonly number[], p: number): number {
  const at = (xs.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return Math.round(xs[lo]! + (xs[hi]! - xs[lo]!) * (at - lo));
}

/** PriceStats of some prices paid (any order), whole USD. */
function priceStats(prices: readonly number[]): PriceStats {
  const xs = [...prices].sort((a, b) => a - b);
  if (xs.length === 0)
    return { count: 0, median_usd: null, p25_usd: null, p75_usd: null, min_usd: null, max_usd: null };
  return {
    count: xs.length,
    median_usd: quantile(xs, 0.5),
    p25_usd: quantile(xs, 0.25),
    p75_usd: quantile(xs, 0.75),
    min_usd: Math.round(xs[0]!),
    max_usd: Math.round(xs[xs.length - 1]!),
  };
}

/**
 * Price statistics of comparables (CompStats), whole USD. Only prices paid count: a `sold` or `sold_on_approval`
 * comparable with a price above 0. An `ended_unsold` lot's last bid is not a price paid (the seller refused it),
 * so it never enters the numbers; a sold lot whose price the service did not publish (or published as 0) counts in
 * `count` only. Sold and sold on approval are also given apart. Quantiles interpolate linearly between the closest
 * ranks: the median of an even count is the mean of the two middle prices, p25 and p75 likewise, each rounded to
 * whole USD (half up).
 *
 * @returns the statistics; every USD field null when nothing is priced. Throws nothing.
 */
export function compStats(comps: readonly CompLot[]): CompStats {
  const paid = (o: CompLot['outcome']) =>
    comps
      .filter((c) => c.outcome === o)
      .map(pricePaid)
      .filter((p): p is number => p !== null);
  const sold = paid('sold');
  const approval = paid('sold_on_approval');
  const { count: priced, ...all } = priceStats([...sold, ...approval]);
  return {
    count: comps.length,
    priced,
    ...all,
    sold: priceStats(sold),
    sold_on_approval: priceStats(approval),
  };
}

/**
 * One comparable per VIN: a relisted car (several ended lots of one VIN) counts once, as its last attempt with a
 * price paid (else its last attempt), with `attempts` the number of its lots. Lots without a VIN stand alone.
 */
function oncePerVin(comps: readonly Comp[]): Comp[] {
  const byVin = new Map<string, Comp[]>();
  const out: Comp[] = [];
  for (const c of comps) {
    const v = word(c.vin);
    if (v === '') out.push(c);
    else byVin.set(v, [...(byVin.get(v) ?? []), c]);
  }
  const newest = (a: Comp, b: Comp) => (b.sold_at ?? -Infinity) - (a.sold_at ?? -Infinity);
  for (const lots of byVin.values()) {
    const sorted = [...lots].sort(newest);
    const last = sorted.find((c) => pricePaid(c) !== null) ?? sorted[0]!;
    out.push({ ...last, attempts: lots.length });
  }
  return out;
}

/**
 * The comparable sales of `subject` from the store, best first (compareComps), at most `opts.limit` (default 50), with
 * compStats over exactly the comparables returned (the numbers describe the list the buyer sees), and the VIN's
 * other finished lots (`history`, newest first, each compared with the subject but never filtered by similarity).
 * Candidates are the finished lots of the same make and model (case-insensitive) within a year of the subject's;
 * the subject's lot and the other lots of its VIN are never comparables (the same vehicle is its history, and a
 * relisted car sold several times would otherwise weigh several times in the median); likewise another VIN with
 * several ended lots counts once, as its last price paid (`attempts` says how many). `skipped` counts the stored
 * rows left out of both lists because their record is unreadable. Odometer in miles, prices in USD.
 *
 * @throws (rejects with) BadInputError when `opts.limit` is not an integer of 1 or more.
 * @throws (rejects with) what the repository throws (SqliteError from better-sqlite3, or the PostgreSQL driver's
 *   error, when the store fails).
 */
export async function findComps(
  repo: CompsSource,
  subject: CompSubject,
  opts: CompsOptions = {},
): Promise<CompsResult> {
  const limit = opts.limit ?? DEFAULT_COMPS_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new BadInputError('limit must be a whole number of 1 or more.', {
      limit: ['a whole number of 1 or more'],
    });
  }
  const vin = subject.vin?.trim() ?? '';
  let skipped = 0;
  const history: Comp[] = [];
  if (vin !== '') {
    const own = await repo.otherSalesOfVin(vin, subject.lot_key);
    skipped += own.skipped;
    for (const lot of own.lots) history.push({ ...lot, ...describe(subject, lot) });
  }
  const make = subject.make?.trim() ?? '';
  const model = subject.model?.trim() ?? '';
  const comps: Comp[] = [];
  if (make !== '' && model !== '' && known(subject.year)) {
    const found = await repo.candidates({
      make,
      model,
      year_from: subject.year - YEAR_SPAN,
      year_to: subject.year + YEAR_SPAN,
      except_key: subject.lot_key,
    });
    skipped += found.skipped;
    const sameVin = (lot: CompLot) => vin !== '' && word(lot.vin) === word(vin);
    const similar: Comp[] = [];
    for (const lot of found.lots) {
      if (sameVin(lot)) continue;
      const s = similarity(subject, lot);
      if (s) similar.push({ ...lot, ...s });
    }
    comps.push(...oncePerVin(similar).sort(compareComps));
  }
  const shown = comps.slice(0, limit);
  return { comps: shown, stats: compStats(shown), history, skipped };
}
