import type { MarketAnswer, MarketBand } from '../marketCompsRepo';

/*
 * Market comparables' logic that is not SQL, shared by the SQLite repository (marketCompsRepo.ts) and the Kysely one
 * (kysely/marketCompsRepo.ts): the band's key, the columns a band is stored under, and how a row is read.
 */

/** The key of a band's row: `<source>|<platform>|<MAKE>|<MODEL>|<from>-<to>`. Pure. */
export function bandKey(b: MarketBand): string {
  return [
    b.source,
    b.platform,
    b.make.toUpperCase(),
    b.model.toUpperCase(),
    `${b.year_from}-${b.year_to}`,
  ].join('|');
}

/** The columns that name a band in `market_comps`: its key, and make and model upper case. Pure. */
export function bandColumns(b: MarketBand): MarketBand & { band: string } {
  return {
    band: bandKey(b),
    source: b.source,
    platform: b.platform,
    make: b.make.toUpperCase(),
    model: b.model.toUpperCase(),
    year_from: b.year_from,
    year_to: b.year_to,
  };
}

/** A stored `market_comps` row: the answer's columns, `lot_keys` still the JSON text it is stored as. */
export interface MarketRow extends MarketBand {
  band: string;
  fetched_at: number | null;
  lot_keys: string;
  requests: number;
  pages: number;
  error: string | null;
  error_at: number | null;
}

/** The lot keys of a stored `lot_keys` text (a JSON array): its strings; [] for anything else. Pure. */
function keysOf(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

/** A stored row as the answer MarketCompsRepo.get returns. Pure. */
export function answerOf(r: MarketRow): MarketAnswer {
  return { ...r, lot_keys: keysOf(r.lot_keys) };
}

/** The lot keys as stored in `lot_keys` (JSON text). Pure. */
export function lotKeysText(lotKeys: readonly string[]): string {
  return JSON.stringify(lotKeys);
}
