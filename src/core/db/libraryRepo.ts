import type { Database, Statement } from 'better-sqlite3';
import type { LotRow } from './lotsRepo';
import type { CountRow } from './rows';

/** The Library's default list: a page of lots, most recently seen first (read off `lots_last_observed`). */
export const RECENT_LOTS_SQL = 'SELECT * FROM lots ORDER BY last_observed_at DESC LIMIT ? OFFSET ?';

/**
 * The offline library's queries over every stored lot: the most recently seen first (the default list, served by
 * the `lots_last_observed` index), and full-text search through `lots_fts` (title, VIN, lot number, make, model,
 * location, notes) in rank order.
 */
export class LibraryRepo {
  private readonly recentLots: Statement<[number, number], LotRow>;
  private readonly lotCount: Statement<[], CountRow>;
  private readonly matchLots: Statement<[string, number, number], LotRow>;
  private readonly matchCount: Statement<[string], CountRow>;

  constructor(db: Database) {
    this.recentLots = db.prepare(RECENT_LOTS_SQL);
    this.lotCount = db.prepare('SELECT count(*) AS n FROM lots');
    this.matchLots = db.prepare(`SELECT lots.* FROM lots_fts JOIN lots ON lots.rowid = lots_fts.rowid WHERE lots_fts MATCH ?
      ORDER BY rank LIMIT ? OFFSET ?`);
    this.matchCount = db.prepare('SELECT count(*) AS n FROM lots_fts WHERE lots_fts MATCH ?');
  }

  /** A page of lots, most recently seen first. */
  recent(limit: number, offset: number): LotRow[] {
    return this.recentLots.all(limit, offset);
  }

  /** How many lots are stored. */
  count(): number {
    return this.lotCount.get()!.n;
  }

  /**
   * A page of lots matching an FTS5 `MATCH` expression, best first. `match` must be built from the user's words
   * (quoted, prefix-starred); a malformed expression throws SqliteError.
   */
  search(match: string, limit: number, offset: number): LotRow[] {
    return this.matchLots.all(match, limit, offset);
  }

  /** How many lots match an FTS5 `MATCH` expression. */
  searchCount(match: string): number {
    return this.matchCount.get(match)!.n;
  }
}
