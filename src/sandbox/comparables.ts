import type { ModelSpec } from './catalog';
import type { Facility, Platform } from './geo';
import { compareLots, type Lot, type Outcome, type Vehicle } from './market';
import { Rng, hash32 } from './rng';

/**
 * Sold comparables for the first lots a new user meets. A buyer's first question about a lot is what cars like it
 * sold for, and Lotwatch answers it with one Ended search (platform, make, model, year +-1: the real service answers
 * `lot_sub_status=Ended` with finished lots and their results). A random market of 20,000 lots spreads its ended
 * lots over hundreds of models, years and two platforms, so most lots would find too few. The market therefore
 * makes sure the lots whose auctions come first at its start (the Demo's first page, from which its example watches
 * are picked) each have at least COMPARABLE_MIN vehicles with a priced ended lot (Sold or Sold on Approval, price
 * above 0) of the same platform, make, model and year +-1: it adds earlier, already ended sales of other vehicles of that model
 * where there are fewer.
 */

/** How many of the first open lots at the market's start are given comparables. */
export const COMPARABLE_LEAD = 40;
/** The priced comparables each of them gets at least. */
export const COMPARABLE_MIN = 5;
/** Smaller markets (unit tests of a few hundred lots) are left as drawn. */
export const COMPARABLE_MIN_MARKET = 2000;

const MIN = 60_000;
const DAY = 24 * 60 * MIN;

/**
 * How many of a market's `lots` (at start) are set aside for added comparables: COMPARABLE_LEAD x COMPARABLE_MIN
 * in a market of COMPARABLE_MIN_MARKET lots or more, else 0. The market draws that many fewer ordinary lots and
 * fills what the comparables leave of it with ended lots, so its lot count stays the one asked for.
 */
export function comparablesReserve(lots: number): number {
  return lots >= COMPARABLE_MIN_MARKET ? COMPARABLE_LEAD * COMPARABLE_MIN : 0;
}

/** What backfillComparables needs of the market under construction. */
export interface ComparableHost {
  readonly seed: number;
  /** Market start time, ms since the epoch. */
  readonly startTime: number;
  /** The market's current year (the newest model year). */
  readonly baseYear: number;
  readonly lots: readonly Lot[];
  readonly facilities: readonly Facility[];
  /** A new vehicle of `spec` and `year` drawn from `rng` (a VIN of its own). */
  vehicle(rng: Rng, spec: ModelSpec, year: number): Vehicle;
  /** Adds an ended lot of `v` at `facility`, auctioned at `auctionAt` (ms), ended with `outcome`; returns it. */
  addPast(rng: Rng, v: Vehicle, facility: Facility, auctionAt: number, outcome: Outcome): Lot;
}

const key = (platform: Platform, spec: ModelSpec): string => `${platform}|${spec.make}|${spec.model}`;
const priced = (l: Lot): boolean => l.subStatus === 'Ended' && l.salePrice !== null && l.salePrice > 0;

/**
 * Adds ended, priced sales so that each of the first COMPARABLE_LEAD open lots (list order) has COMPARABLE_MIN
 * comparables (vehicles, a relisted VIN once), at most `budget` lots in all. Each added lot is a new vehicle of the lot's model, of its year or one
 * either side (within the model's years), at a yard of its platform, auctioned 2 to 60 days before the start, Sold
 * (80%) or Sold on Approval, its price drawn like any lot's (pricing.ts). Drawn from the seed and the lot's id, so
 * the same market comes out on every run.
 * @returns how many lots were added. Throws nothing.
 */
export function backfillComparables(host: ComparableHost, budget: number): number {
  // The first COMPARABLE_LEAD open lots in list order, kept sorted in one pass (no sort of every open lot).
  const first: Lot[] = [];
  for (const l of host.lots) {
    if (l.subStatus !== 'Open') continue;
    const full = first.length === COMPARABLE_LEAD;
    if (full && compareLots(l, first[COMPARABLE_LEAD - 1] as Lot) >= 0) continue;
    let i = full ? COMPARABLE_LEAD - 1 : first.length;
    while (i > 0 && compareLots(l, first[i - 1] as Lot) < 0) i--;
    first.splice(i, 0, l);
    if (first.length > COMPARABLE_LEAD) first.pop();
  }
  // Vehicles with a priced ended lot, by platform, make and model, then by year. A VIN sold twice (on approval,
  // then again) counts once, as a buyer's comparables count it.
  const years = new Map<string, Map<number, number>>();
  const seen = new Set<Vehicle>();
  const count = (l: Lot): void => {
    if (seen.has(l.v)) return;
    seen.add(l.v);
    const k = key(l.platform, l.v.spec);
    const byYear = years.get(k) ?? new Map<number, number>();
    byYear.set(l.v.year, (byYear.get(l.v.year) ?? 0) + 1);
    years.set(k, byYear);
  };
  for (const l of host.lots) if (priced(l)) count(l);
  const yards = {
    copart: host.facilities.filter((f) => f.platform === 'copart'),
    iaai: host.facilities.filter((f) => f.platform === 'iaai'),
  };
  let added = 0;
  for (const lot of first) {
    const spec = lot.v.spec;
    const y = lot.v.year;
    const byYear = years.get(key(lot.platform, spec));
    const have = (byYear?.get(y - 1) ?? 0) + (byYear?.get(y) ?? 0) + (byYear?.get(y + 1) ?? 0);
    for (let i = have; i < COMPARABLE_MIN && added < budget; i++) {
      const rng = new Rng(hash32(host.seed, 0xc0a9, lot.id, i));
      const year = Math.min(host.baseYear, Math.max(spec.yearFrom, y + rng.int(-1, 1)));
      const v = host.vehicle(rng, spec, year);
      const at = Math.ceil((host.startTime - rng.int(2, 60) * DAY - rng.int(0, 600) * MIN) / MIN) * MIN;
      const facility = rng.pick(yards[lot.platform]);
      count(host.addPast(rng, v, facility, at, rng.chance(0.8) ? 'sold' : 'approval'));
      added++;
    }
  }
  return added;
}
