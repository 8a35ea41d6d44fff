import type { Database, Statement } from 'better-sqlite3';
import { sqliteCodeOf } from '../errors';
import { ftsExcludeOnly, ftsQuery, plainFtsQuery } from './ftsQuery';
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
  private readonly exceptLots: Statement<[string, number, number], LotRow>;
  private readonly exceptCount: Statement<[string], CountRow>;

  constructor(db: Database) {
    this.recentLots = db.prepare(RECENT_LOTS_SQL);
    this.lotCount = db.prepare('SELECT count(*) AS n FROM lots');
    this.matchLots =
      db.prepare(`SELECT lots.* FROM lots_fts JOIN lots ON lots.rowid = lots_fts.rowid WHERE lots_fts MATCH ?
      ORDER BY rank LIMIT ? OFFSET ?`);
    this.matchCount = db.prepare('SELECT count(*) AS n FROM lots_fts WHERE lots_fts MATCH ?');
    const except = 'FROM lots WHERE rowid NOT IN (SELECT rowid FROM lots_fts WHERE lots_fts MATCH ?)';
    this.exceptLots = db.prepare(`SELECT * ${except} ORDER BY last_observed_at DESC LIMIT ? OFFSET ?`);
    this.exceptCount = db.prepare(`SELECT count(*) AS n ${except}`);
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

  /**
   * The Library's search of the buyer's own text (`library.search`): words AND-ed as prefixes, `-word` left out,
   * `OR` for either, "quoted phrases" (see ftsQuery), best first; only left-out words list every other lot, most
   * recently seen first (ftsExcludeOnly). Should SQLite refuse the expression, the same text is searched as plain
   * words (plainFtsQuery), so a search never ends in an error on screen (docs/writing-guide.md rule 3).
   *
   * @param text the search box's text, any string.
   * @returns a page of lots and how many there are in all; null when the text has no word to look for (the caller
   *   lists the most recently seen lots instead). Throws SqliteError for a failing file, never for a refused query.
   */
  find(text: string, limit: number, offset: number): { rows: LotRow[]; total: number } | null {
    const match = ftsQuery(text);
    const exclude = match === null ? ftsExcludeOnly(text) : null;
    if (match === null && exclude === null) return null;
    try {
      return match !== null
        ? { rows: this.search(match, limit, offset), total: this.searchCount(match) }
        : { rows: this.exceptLots.all(exclude!, limit, offset), total: this.exceptCount.get(exclude!)!.n };
    } catch (e) {
      // A refused expression is SQLITE_ERROR; a full disk, a damaged file and the like go on up.
      if (sqliteCodeOf(e) !== 'SQLITE_ERROR') throw e;
    }
    const plain = plainFtsQuery(text);
    return plain === null
      ? null
      : { rows: this.search(plain, limit, offset), total: this.searchCount(plain) };
  }
}
