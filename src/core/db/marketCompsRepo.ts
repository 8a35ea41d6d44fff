import type { Database, Statement } from 'better-sqlite3';
import { answerOf, bandColumns, bandKey, lotKeysText, type MarketRow } from './repoLogic/market';

export { bandKey };

/**
 * One band of market comparables: the platform, make, model and model years an Ended search asked for, from one
 * source ("demo" or the service URL). Make and model are kept upper case, so "Audi"/"AUDI" are one band.
 */
export interface MarketBand {
  source: string;
  platform: string;
  make: string;
  model: string;
  year_from: number;
  year_to: number;
}

/** The stored answer of a band: when it came (ms, null when no attempt ever succeeded), what it returned and cost. */
export interface MarketAnswer extends MarketBand {
  band: string;
  /** When the last answer arrived, ms since the epoch; null when every attempt failed. */
  fetched_at: number | null;
  /** The lot keys the answer returned (stored as lots by the search path). */
  lot_keys: string[];
  /** Requests the answer spent (1 or 2), pages read. */
  requests: number;
  pages: number;
  /** The last failed attempt's sentence and time (ms), kept beside the answer it did not replace; null when none. */
  error: string | null;
  error_at: number | null;
}

/**
 * The market comparables' answers per band (table `market_comps`, migration 100): what an Ended search returned
 * and when, so a second visit within the day spends nothing. Statements are prepared once; every method throws
 * only what better-sqlite3 throws (SqliteError on a closed or failing file).
 */
export class MarketCompsRepo {
  private readonly getRow: Statement<[string], MarketRow>;
  private readonly putRow: Statement<
    [string, string, string, string, string, number, number, number, string, number, number]
  >;
  private readonly failRow: Statement<
    [string, string, string, string, string, number, number, string, number]
  >;

  constructor(db: Database) {
    this.getRow = db.prepare('SELECT * FROM market_comps WHERE band = ?');
    this.putRow = db.prepare(`INSERT INTO market_comps
      (band, source, platform, make, model, year_from, year_to, fetched_at, lot_keys, requests, pages, error, error_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)
      ON CONFLICT(band) DO UPDATE SET fetched_at = excluded.fetched_at, lot_keys = excluded.lot_keys,
        requests = excluded.requests, pages = excluded.pages, error = NULL, error_at = NULL`);
    this.failRow = db.prepare(`INSERT INTO market_comps
      (band, source, platform, make, model, year_from, year_to, error, error_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(band) DO UPDATE SET error = excluded.error, error_at = excluded.error_at`);
  }

  /** The stored answer of `band`, or null when it was never asked. */
  get(band: MarketBand): MarketAnswer | null {
    const r = this.getRow.get(bandKey(band));
    return r ? answerOf(r) : null;
  }

  /** Stores the answer of `band` received at `at` (ms), replacing the previous one and clearing its error. */
  put(band: MarketBand, at: number, lotKeys: readonly string[], requests: number, pages: number): void {
    const b = bandColumns(band);
    this.putRow.run(
      b.band,
      b.source,
      b.platform,
      b.make,
      b.model,
      b.year_from,
      b.year_to,
      at,
      lotKeysText(lotKeys),
      requests,
      pages,
    );
  }

  /** Records a failed attempt (`error`, a sentence) at `at` (ms); the answer stored before stays as it was. */
  fail(band: MarketBand, at: number, error: string): void {
    const b = bandColumns(band);
    this.failRow.run(b.band, b.source, b.platform, b.make, b.model, b.year_from, b.year_to, error, at);
  }
}
