import type { Database, Statement } from 'better-sqlite3';
import type { EndedOutcome } from '../../shared/saleOutcome';
import type { TitleGroup } from '../../shared/titleGroup';
import type { LotKey } from '../../shared/watch';
import { COMP_COLUMN_NAMES, toCompLots, type CompRow } from './repoLogic/comps';

const COMP_COLUMNS = COMP_COLUMN_NAMES.join(', ');

/**
 * The stored lots of one make and model (case-insensitive) in a year range, except one lot. Written as
 * `make = ? COLLATE NOCASE AND model = ? COLLATE NOCASE AND year BETWEEN ? AND ?` so that an index on
 * `lots(make COLLATE NOCASE, model COLLATE NOCASE, year)` serves all three terms; without such an index it is a scan
 * of `lots`. Whether the auction is over is decided afterwards by saleOutcomeOf, never in SQL, so the
 * two dialects' words are read in one place (docs/service-contract.md "Sale results").
 */
export const COMP_CANDIDATES_SQL = `SELECT ${COMP_COLUMNS} FROM lots
  WHERE make = ? COLLATE NOCASE AND model = ? COLLATE NOCASE AND year BETWEEN ? AND ? AND lot_key <> ?`;

/** Every other stored lot of a VIN, newest auction first (served by the `lots_vin` index). */
export const COMP_LOTS_OF_VIN_SQL = `SELECT ${COMP_COLUMNS} FROM lots WHERE vin = ? AND lot_key <> ?
  ORDER BY auction_at DESC, lot_key`;

/**
 * One stored lot whose auction is over, as comparable sales read it. Amounts in USD, odometer in miles, times in ms
 * since the epoch.
 */
export interface CompLot {
  lot_key: LotKey;
  platform: string;
  lot_number: string;
  vin: string | null;
  title: string | null;
  year: number | null;
  make: string | null;
  model: string | null;
  /** The location's display text, e.g. "Dallas (TX)". */
  location: string | null;
  /** Miles; null when the record gives none (or a value that is not a finite number of 0 or more). */
  odometer: number | null;
  /** The primary damage as received ("Front End", "Front end", ...); null when none or blank. */
  damage: string | null;
  /** The title document's group (titleGroupOf in src/shared/titleGroup.ts); `unknown` without a document. */
  title_group: TitleGroup;
  /** The title document's name as received, e.g. "SALVAGE - REPAIRABLE-COLLISION"; null when none. */
  title_document: string | null;
  /** The run condition's wire value ("RUNS AND DRIVES", ...); null when none. */
  run_condition: string | null;
  /** The run condition as the service labels it ("Runs and drives"), else the wire value; null when none. */
  run_condition_label: string | null;
  /** The keys are with the vehicle; null when the record does not say. */
  has_key: boolean | null;
  /** sold, sold_on_approval or ended_unsold, decided by saleOutcomeOf from the stored state columns. */
  outcome: EndedOutcome;
  /** What was paid, USD (above 0); null when ended unsold or when the service published no price. */
  sale_price_usd: number | null;
  /** The last bid stored, USD. For an unsold lot it is the bid the seller refused, not a price paid. */
  last_bid_usd: number | null;
  /** When it sold: the auction time, else `auction.last_sold_day` at 00:00 UTC; null when neither is known. */
  sold_at: number | null;
}

/** The lots a query found, and how many of its rows were skipped because their `normalized` JSON is unreadable. */
export interface CompLots {
  lots: CompLot[];
  skipped: number;
}

/** What the candidate query asks for: make and model (compared case-insensitively) and an inclusive year range. */
export interface CompQuery {
  make: string;
  model: string;
  year_from: number;
  year_to: number;
  /** The subject's own key: never returned. */
  except_key: LotKey;
}

/**
 * Comparable sales read offline from the stored lots (no request to the service): the finished lots of one make,
 * model and year range, and the other lots of one VIN (the vehicle's own sale history). Read only; statements are
 * prepared once. Both methods throw only what better-sqlite3 throws (SqliteError on a closed or failing file).
 */
export class CompsRepo {
  private readonly candidatesOf: Statement<[string, string, number, number, string], CompRow>;
  private readonly lotsOfVin: Statement<[string, string], CompRow>;

  constructor(db: Database) {
    this.candidatesOf = db.prepare(COMP_CANDIDATES_SQL);
    this.lotsOfVin = db.prepare(COMP_LOTS_OF_VIN_SQL);
  }

  /**
   * The lots whose auction is over (sold, sold on approval or ended unsold: saleOutcomeOf), of `make` and `model`
   * (case-insensitive, as given: trim them first) with a year in [year_from, year_to], except `except_key`. A lot
   * without a year is never a candidate. In no particular order: the caller ranks them.
   */
  candidates(q: CompQuery): CompLots {
    return toCompLots(this.candidatesOf.all(q.make, q.model, q.year_from, q.year_to, q.except_key));
  }

  /** The other lots of `vin` whose auction is over, newest auction first: a relist's earlier sales. */
  otherSalesOfVin(vin: string, exceptKey: LotKey): CompLots {
    return toCompLots(this.lotsOfVin.all(vin, exceptKey));
  }
}
