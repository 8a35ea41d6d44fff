import { MINOR_DAMAGES, SEVERE_DAMAGES } from './catalog';
import type { Lot } from './market';
import { hash32 } from './rng';

/**
 * What a lot sells for in the simulated market, and the price facts its record carries beside the result: the
 * service's estimate band (`pricing.estimated_cost`) and IAAI's ACV and repair estimate (`details`).
 *
 * A lot's final bid is its vehicle's pre-damage value (Vehicle.value: the model's new price lowered by age and
 * odometer, so a newer, lower-mileage car is worth more) times a sale factor for the damage, run condition and title
 * document, with noise: a uniform draw inside the damage class's band. So comparable sales behave the way buyers read
 * them (real salvage auctions: clean titles and light damage sell higher) while a single sale still surprises.
 */

/**
 * The share of a car's value a title document keeps at auction, from a clean title (1) down to scrap-only papers:
 * a salvage or bill-of-sale car needs inspection and rebranding before it can be registered, a non-repairable one
 * sells for parts. Unknown names count as salvage.
 */
export const TITLE_FACTOR: Readonly<Record<string, number>> = {
  CLEAR: 1,
  REBUILT: 0.85,
  'BILL OF SALE': 0.78,
  SALVAGE: 0.7,
  'NON-REPAIRABLE': 0.45,
  'PARTS ONLY': 0.4,
  'CERTIFICATE OF DESTRUCTION': 0.34,
};

/** A damage class's band of the share of value a lot fetches: [low, width]; the noise draw picks inside it. */
function damageBand(damage: string): readonly [number, number] {
  if (SEVERE_DAMAGES.includes(damage)) return [0.16, 0.26];
  if (MINOR_DAMAGES.includes(damage)) return [0.58, 0.38];
  return [0.33, 0.38];
}

/** How much a run condition keeps: a stationary car sells for less than one that starts or runs. */
function runFactor(runCond: string): number {
  return runCond === 'STATIONARY' ? 0.75 : runCond === 'NO INFORMATION' ? 0.85 : 1;
}

/**
 * The share of the vehicle's value (Vehicle.value, USD) a lot's auction reaches: damage band x run condition x
 * title document x 0.9 for a relist (a car that came back has been seen and refused once).
 * @param u the noise draw, 0 <= u < 1 (the market draws it from the lot's seeded generator; 0.5 is the band's middle).
 * Pure; throws nothing. Source: the product's reading of real salvage results (clean titles and light damage sell
 * higher), which the comparable statistics rely on.
 */
export function saleFactor(
  damage: string,
  runCond: string,
  docName: string,
  relist: boolean,
  u: number,
): number {
  const [low, width] = damageBand(damage);
  const title = TITLE_FACTOR[docName] ?? TITLE_FACTOR['SALVAGE'] ?? 0.7;
  return (low + width * u) * runFactor(runCond) * title * (relist ? 0.9 : 1);
}

const round = (n: number, step: number): number => Math.round(n / step) * step;

/**
 * The middle price a lot's terms point at, USD: Vehicle.value x saleFactor with no noise (u = 0.5); what the
 * estimate band is drawn around, so it is known while the lot is open. Pure; throws nothing.
 */
export function expectedPrice(lot: Lot): number {
  return lot.v.value * saleFactor(lot.damage, lot.runCond, lot.docName, lot.relistOf !== null, 0.5);
}

/** "$1,450": `n` USD rounded to whole dollars with thousands separators, as the real records write money. */
export function usd(n: number): string {
  return `$${String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}

/**
 * The record's `pricing.estimated_cost {from, to, text}`, USD: a wide band around the price the lot's terms point
 * at (about 0.15x to 1.7x of it), as in the real records, where Audi S5s that sold for about $9,250 carry
 * "$1,450 - $15,000" and "$200 - $15,200" (a survey of 68 real IAAI records: it reads as an estimate of the sale
 * price, not a repair cost). The same while the lot is open and after it ends (it does not know the result);
 * the noise band of saleFactor lies inside it, so a sold price falls in it unless a test forced the sale.
 */
export function estimatedCost(lot: Lot): { from: number; to: number; text: string } {
  const mid = expectedPrice(lot);
  const from = Math.max(100, round(mid * 0.15, 50));
  const to = Math.max(from + 500, round(mid * 1.7, 100));
  return { from, to, text: `${usd(from)} - ${usd(to)}` };
}

/**
 * IAAI's valuation of a lot, USD: `acv` the actual cash value (the vehicle's pre-damage value) and `repair` the
 * repair estimate, a share of the ACV that grows with the damage (light damage about a quarter, ordinary collision
 * about 70%, fire, water or rolled over beyond the car's worth), with a per-lot spread from the seed. The survey's
 * Audi S5s show an ACV of $18,349-25,250 beside repair estimates of $20,821-25,100 (details.sale_information).
 */
export function iaaiValuation(seed: number, lot: Lot): { acv: number; repair: number } {
  const acv = Math.max(500, Math.round(lot.v.value));
  const spread = (hash32(seed, 0xac7, lot.id) % 1000) / 1000;
  const share = SEVERE_DAMAGES.includes(lot.damage)
    ? 0.95 + 0.4 * spread
    : MINOR_DAMAGES.includes(lot.damage)
      ? 0.12 + 0.25 * spread
      : 0.5 + 0.45 * spread;
  return { acv, repair: Math.round(acv * share) };
}

/**
 * IAAI's title brand (`details.attributes.TitleBrand`, `sale_information.Brand`), from the market's document name
 * and damage: REPAIRABLE-COLLISION or REPAIRABLE on salvage papers (the survey's two values), the document's own
 * words for the scrap-only ones, and an empty string for clean and bill-of-sale papers (no brand).
 */
export function titleBrand(lot: Lot, collision: boolean): string {
  switch (lot.docName) {
    case 'SALVAGE':
      return collision ? 'REPAIRABLE-COLLISION' : 'REPAIRABLE';
    case 'REBUILT':
      return 'REBUILT';
    case 'NON-REPAIRABLE':
    case 'PARTS ONLY':
    case 'CERTIFICATE OF DESTRUCTION':
      return lot.docName;
    default:
      return '';
  }
}
