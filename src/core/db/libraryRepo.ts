import type { Database, Statement } from 'better-sqlite3';
import {
  hasFacetPick,
  LIBRARY_FACETS,
  type FacetCounts,
  type FacetSelection,
} from '../../shared/libraryFacets';
import { sqliteCodeOf } from '../errors';
import { ftsExcludeOnly, ftsQuery, plainFtsQuery } from './ftsQuery';
import { facetCountsSql, facetFilterSql } from './libraryFacets';
import type { LotRow } from './lotsRepo';
import type { CountRow } from './rows';

/** The Library's default list: a page of lots, most recently seen first (read off `lots_last_observed`). */
export const RECENT_LOTS_SQL = 'SELECT * FROM lots ORDER BY last_observed_at DESC LIMIT ? OFFSET ?';

/**
 * The Library's filters on a lot's own figures, read from its normalised record (`lots.normalized`,
 * src/shared/vehicle.ts `pricing`): `repairToValueMax`, the most repair to value let through as a ratio (0.4 = repair cost at most 40 % of
 * the ACV; a lot whose ratio is unknown is left out), and `hasAcv`, only lots whose record carries an ACV (records
 * stored before these fields were read got them in migration 110); `facets`, the values picked per facet
 * (src/shared/libraryFacets.ts: damage, title document, run condition, keys, seller type, export, sale result, sale
 * date), none when missing.
 */
export interface LibraryFilters {
  repairToValueMax: number | null;
  hasAcv: boolean;
  facets?: FacetSelection;
}

/** Prepared statements kept per shape of query; past this many shapes the cache starts afresh. */
const MAX_SHAPES = 64;

/**
 * The SQL condition on `lots` (AND-ed, '' for none) and its parameters for `f`. The condition is made of fixed text
 * only (every value is a bound parameter), so it can key the prepared statements.
 */
function filterSql(f: LibraryFilters): { where: string; params: (number | string)[] } {
  const conds: string[] = [];
  const params: (number | string)[] = [];
  if (f.hasAcv) conds.push("json_extract(lots.normalized, '$.pricing.acv_usd') IS NOT NULL");
  if (f.repairToValueMax !== null) {
    // A NULL ratio (unknown) compares as NULL, so it never passes.
    conds.push("json_extract(lots.normalized, '$.pricing.repair_to_value') <= ?");
    params.push(f.repairToValueMax);
  }
  const facets = facetFilterSql(f.facets);
  if (facets.where !== '') {
    conds.push(facets.where);
    params.push(...facets.params);
  }
  return { where: conds.join(' AND '), params };
}

/** One row of the facet counts: the facet's index in LIBRARY_FACETS, a value, how many lots carry it. */
interface FacetRow {
  k: number;
  value: string | number;
  n: number;
}

/** The statements of one filter's shape: the default list, the full-text match and the "only left-out words" list. */
interface FilteredStatements {
  recent: Statement<unknown[], LotRow>;
  count: Statement<unknown[], CountRow>;
  match: Statement<unknown[], LotRow>;
  matchCount: Statement<unknown[], CountRow>;
  except: Statement<unknown[], LotRow>;
  exceptCount: Statement<unknown[], CountRow>;
}

/**
 * The offline library's queries over every stored lot: the most recently seen first (the default list, served by
 * the `lots_last_observed` index), full-text search through `lots_fts` (title, VIN, lot number, make, model,
 * location, notes, tags, damage, title document, run condition, seller, sale result) in rank order, and the counts
 * of the facets over the current query.
 */
export class LibraryRepo {
  private readonly recentLots: Statement<[number, number], LotRow>;
  private readonly lotCount: Statement<[], CountRow>;
  private readonly matchLots: Statement<[string, number, number], LotRow>;
  private readonly matchCount: Statement<[string], CountRow>;
  private readonly exceptLots: Statement<[string, number, number], LotRow>;
  private readonly exceptCount: Statement<[string], CountRow>;

  constructor(private readonly db: Database) {
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

  private readonly filteredCache = new Map<string, FilteredStatements>();

  /** The statements for a filter's condition (prepared once per shape of condition). */
  private statementsFor(where: string): FilteredStatements {
    const hit = this.filteredCache.get(where);
    if (hit) return hit;
    if (this.filteredCache.size >= MAX_SHAPES) this.filteredCache.clear();
    const db = this.db;
    const fts = `FROM lots_fts JOIN lots ON lots.rowid = lots_fts.rowid WHERE lots_fts MATCH ? AND ${where}`;
    const except = `FROM lots WHERE rowid NOT IN (SELECT rowid FROM lots_fts WHERE lots_fts MATCH ?) AND ${where}`;
    const made: FilteredStatements = {
      recent: db.prepare(`SELECT * FROM lots WHERE ${where} ORDER BY last_observed_at DESC LIMIT ? OFFSET ?`),
      count: db.prepare(`SELECT count(*) AS n FROM lots WHERE ${where}`),
      match: db.prepare(`SELECT lots.* ${fts} ORDER BY rank LIMIT ? OFFSET ?`),
      matchCount: db.prepare(`SELECT count(*) AS n ${fts}`),
      except: db.prepare(`SELECT * ${except} ORDER BY last_observed_at DESC LIMIT ? OFFSET ?`),
      exceptCount: db.prepare(`SELECT count(*) AS n ${except}`),
    };
    this.filteredCache.set(where, made);
    return made;
  }

  /** Whether `f` filters anything (else `find` and `recent` serve the list). */
  static filtersAny(f: LibraryFilters): boolean {
    return f.repairToValueMax !== null || f.hasAcv || hasFacetPick(f.facets);
  }

  /**
   * A page of the lots passing `f` and how many there are, most recently seen first (no words) or in the order of
   * `find` (words): the Library's list with its filters on. Throws SqliteError for a failing file; a refused
   * expression is searched as plain words as in `find`.
   */
  filtered(
    text: string,
    f: LibraryFilters,
    limit: number,
    offset: number,
  ): { rows: LotRow[]; total: number } {
    const { where, params } = filterSql(f);
    if (where === '') {
      return this.find(text, limit, offset) ?? { rows: this.recent(limit, offset), total: this.count() };
    }
    const st = this.statementsFor(where);
    const match = ftsQuery(text);
    const exclude = match === null ? ftsExcludeOnly(text) : null;
    const run = (
      expr: string,
      page: Statement<unknown[], LotRow>,
      count: Statement<unknown[], CountRow>,
    ) => ({
      rows: page.all(expr, ...params, limit, offset),
      total: count.get(expr, ...params)!.n,
    });
    if (match === null && exclude === null) {
      return { rows: st.recent.all(...params, limit, offset), total: st.count.get(...params)!.n };
    }
    try {
      return match !== null ? run(match, st.match, st.matchCount) : run(exclude!, st.except, st.exceptCount);
    } catch (e) {
      if (sqliteCodeOf(e) !== 'SQLITE_ERROR') throw e;
    }
    const plain = plainFtsQuery(text);
    return plain === null
      ? { rows: st.recent.all(...params, limit, offset), total: st.count.get(...params)!.n }
      : run(plain, st.match, st.matchCount);
  }

  private readonly facetCache = new Map<string, Statement<unknown[], FacetRow>>();

  /**
   * How many lots carry each value of each facet among the lots of the Library's current query: the text as `find`
   * reads it (a refused expression as plain words) and the filters `f`; a facet's own picks are not applied to its
   * own counts (FacetCountsSchema). One pass over the matching records, in SQL. Every facet is listed, an empty one
   * with no values. Throws SqliteError for a failing file.
   */
  facets(text: string, f: LibraryFilters): FacetCounts {
    const { facets: sel, ...figures } = f;
    const store = filterSql(figures);
    const run = (textCond: string, expr: string | null): FacetCounts => {
      const scope = [textCond, store.where].filter((c) => c !== '').join(' AND ');
      const { sql, params } = facetCountsSql(scope, sel);
      let st = this.facetCache.get(sql);
      if (!st) {
        if (this.facetCache.size >= MAX_SHAPES) this.facetCache.clear();
        st = this.db.prepare<unknown[], FacetRow>(sql);
        this.facetCache.set(sql, st);
      }
      const rows = st.all(...(expr === null ? [] : [expr]), ...store.params, ...params);
      return LIBRARY_FACETS.map((facet, k) => ({
        facet,
        values: rows.filter((r) => r.k === k).map((r) => ({ value: String(r.value), count: r.n })),
      }));
    };
    const inFts = 'lots.rowid IN (SELECT rowid FROM lots_fts WHERE lots_fts MATCH ?)';
    const match = ftsQuery(text);
    const exclude = match === null ? ftsExcludeOnly(text) : null;
    if (match === null && exclude === null) return run('', null);
    try {
      return match !== null ? run(inFts, match) : run(`NOT ${inFts}`, exclude);
    } catch (e) {
      if (sqliteCodeOf(e) !== 'SQLITE_ERROR') throw e;
    }
    const plain = plainFtsQuery(text);
    return plain === null ? run('', null) : run(inFts, plain);
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
