import { sql, type RawBuilder } from 'kysely';
import { LIBRARY_FACETS, type FacetCounts } from '../../../shared/libraryFacets';
import { sqliteCodeOf } from '../../errors';
import { ftsExcludeOnly, ftsQuery, plainFtsQuery, plainTsQuery, tsExcludeOnly, tsQuery } from '../ftsQuery';
import { facetCountsSql, facetFilterSql } from '../libraryFacets';
import type { LibraryFilters, LibraryRepo } from '../libraryRepo';
import type { LotRow } from '../lotsRepo';
import type { Async } from '../store';
import type { KyselyExec } from './exec';
import { LOT_COLUMNS, type KyselyEngine } from './lotsRepo';

/**
 * A piece of SQL with `?` for its values, in order (the form libraryFacets.ts builds): conditions are put together
 * as text, so one shape of filter is one statement text, and become a Kysely query only at the end (`toSql`).
 */
interface Clause {
  text: string;
  params: unknown[];
}

/** The clauses AND-ed ('' and no parameters for none). */
function and(...cs: (Clause | null)[]): Clause {
  const kept = cs.filter((c): c is Clause => c !== null && c.text !== '');
  return { text: kept.map((c) => c.text).join(' AND '), params: kept.flatMap((c) => c.params) };
}

/**
 * The clause as a Kysely query: every `?` a bound value. The clauses built here and in libraryFacets.ts hold no `?`
 * but their placeholders (no string literal of theirs has one). @throws Error when the counts disagree (a bug).
 */
function toSql<R>(c: Clause): RawBuilder<R> {
  const parts = c.text.split('?');
  if (parts.length !== c.params.length + 1) {
    throw new Error(`A Library query has ${parts.length - 1} placeholders for ${c.params.length} values.`);
  }
  const pieces: RawBuilder<unknown>[] = [];
  parts.forEach((p, i) => {
    pieces.push(sql.raw(p));
    if (i < c.params.length) pieces.push(sql`${c.params[i]}`);
  });
  return sql<R>`${sql.join(pieces, sql.raw(''))}`;
}

/** The columns of a LotRow, read off `lots`. */
const LOT_SELECT = LOT_COLUMNS.map((c) => `lots.${c}`).join(', ');

/** How the Library's text is looked for: lots matching an expression, or every lot but those matching it. */
type TextSearch = { match: string } | { except: string };

/** The engine's reading of the buyer's text (ftsQuery.ts), the left-out-only form and the plain fallback. */
interface Reading {
  query: (text: string) => string | null;
  excludeOnly: (text: string) => string | null;
  plain: (text: string) => string | null;
}

/** How each engine reads the search box: FTS5 `MATCH` expressions, or `to_tsquery('english', …)` text. */
function readingOf(engine: KyselyEngine): Reading {
  switch (engine) {
    case 'sqlite':
      return { query: ftsQuery, excludeOnly: ftsExcludeOnly, plain: plainFtsQuery };
    case 'postgres':
      return { query: tsQuery, excludeOnly: tsExcludeOnly, plain: plainTsQuery };
  }
}

/** The condition on `lots` "matches the engine's full-text expression (one `?`)". */
function matchCondition(engine: KyselyEngine): string {
  switch (engine) {
    case 'sqlite':
      return 'lots.rowid IN (SELECT rowid FROM lots_fts WHERE lots_fts MATCH ?)';
    case 'postgres':
      return "lots.fts @@ to_tsquery('english', ?)";
  }
}

/**
 * A page of the lots matching `expr` and passing `where`, best first. SQLite: FTS5's bm25 `rank`. PostgreSQL:
 * ts_rank over `lots.fts` divided by the number of distinct words of the record (normalisation 8, which of
 * PostgreSQL's agreed with bm25 most often on the contract test's lots), ties in the order lots were first stored
 * (`rowid`). The two agree on a lot that matches more of the words or is mostly about them; they can order near ties
 * differently, since ts_rank does not weigh a rare word above a common one as bm25 does.
 */
function rankedPage(
  engine: KyselyEngine,
  expr: string,
  where: Clause,
  limit: number,
  offset: number,
): Clause {
  const filter = where.text === '' ? '' : ` AND ${where.text}`;
  switch (engine) {
    case 'sqlite':
      return {
        text: `SELECT ${LOT_SELECT} FROM lots_fts JOIN lots ON lots.rowid = lots_fts.rowid WHERE lots_fts MATCH ?${filter}
          ORDER BY rank LIMIT ? OFFSET ?`,
        params: [expr, ...where.params, limit, offset],
      };
    case 'postgres':
      return {
        text: `SELECT ${LOT_SELECT} FROM lots WHERE lots.fts @@ to_tsquery('english', ?)${filter}
          ORDER BY ts_rank(lots.fts, to_tsquery('english', ?), 8) DESC, lots.rowid LIMIT ? OFFSET ?`,
        params: [expr, ...where.params, expr, limit, offset],
      };
  }
}

/**
 * The Library's filters on a lot's own figures, read from its normalised record (LibraryFilters), as a condition on
 * `lots`. SQLite reads the JSON with json_extract; PostgreSQL with `lotwatch_json` (migration 120: a record that is
 * not JSON reads as no figures, where SQLite's json_extract would fail the query) and counts only a JSON number as a
 * ratio (SQLite would compare a JSON boolean as 0 or 1).
 */
function figuresCondition(engine: KyselyEngine, f: LibraryFilters): Clause {
  const conds: Clause[] = [];
  switch (engine) {
    case 'sqlite':
      if (f.hasAcv)
        conds.push({ text: "json_extract(lots.normalized, '$.pricing.acv_usd') IS NOT NULL", params: [] });
      if (f.repairToValueMax !== null) {
        // A NULL ratio (unknown) compares as NULL, so it never passes.
        conds.push({
          text: "json_extract(lots.normalized, '$.pricing.repair_to_value') <= ?",
          params: [f.repairToValueMax],
        });
      }
      break;
    case 'postgres':
      if (f.hasAcv) {
        conds.push({
          text: "(lotwatch_json(lots.normalized) #>> '{pricing,acv_usd}') IS NOT NULL",
          params: [],
        });
      }
      if (f.repairToValueMax !== null) {
        conds.push({
          text: `(CASE WHEN jsonb_typeof(lotwatch_json(lots.normalized) #> '{pricing,repair_to_value}') = 'number'
            THEN (lotwatch_json(lots.normalized) #>> '{pricing,repair_to_value}')::float8 END) <= ?`,
          params: [f.repairToValueMax],
        });
      }
      break;
  }
  return and(...conds);
}

/** Every filter of `f` (figures and facet picks) as one condition on `lots`. */
function filterCondition(engine: KyselyEngine, f: LibraryFilters): Clause {
  const facets = facetFilterSql(f.facets);
  return and(figuresCondition(engine, f), { text: facets.where, params: facets.params });
}

/** One row of the facet counts: the facet's index in LIBRARY_FACETS, a value, how many lots carry it. */
interface FacetRow {
  k: number;
  value: string | number;
  n: number | string;
}

/**
 * LibraryRepo (src/core/db/libraryRepo.ts, which defines every method's shape and meaning) over Kysely, on SQLite
 * (FTS5 through `lots_fts`) or PostgreSQL (`lots.fts`, a generated tsvector under the `english` configuration,
 * migrations 120 .pg). The buyer's text is read by the same grammar on both (ftsQuery.ts: words as prefixes, `-word`,
 * `OR`, "quoted phrases"). What differs, from the engines' own text processing: PostgreSQL leaves English stop words
 * out ("the", "and", a standalone "or" word), both from the index and from the query, so a query of stop words only
 * finds nothing there; its parser keeps some tokens FTS5 splits ("A4/S4" is one token, "F-150" is "f" and "-150");
 * it does not fold accents; best-first order is ts_rank rather than bm25 (see rankedPage). Throws the driver's
 * errors; a query SQLite refuses is searched as plain words, as LibraryRepo does (PostgreSQL is never handed one it
 * refuses, see ftsQuery.ts).
 */
export class KyselyLibraryRepo implements Async<LibraryRepo> {
  private readonly reading: Reading;

  constructor(
    private readonly exec: KyselyExec,
    private readonly engine: KyselyEngine,
  ) {
    this.reading = readingOf(engine);
  }

  /** The rows of a statement. */
  private async rows<R>(c: Clause): Promise<R[]> {
    return (await toSql<R>(c).execute(this.exec.db)).rows;
  }

  /** How many lots pass `where` ('' for all). */
  private async countWhere(where: Clause): Promise<number> {
    const [r] = await this.rows<{ n: number | string }>({
      text: `SELECT count(*) AS n FROM lots${where.text === '' ? '' : ` WHERE ${where.text}`}`,
      params: where.params,
    });
    return Number(r!.n);
  }

  /** A page of the lots passing `where`, most recently seen first, and how many there are. */
  private async recentWhere(
    where: Clause,
    limit: number,
    offset: number,
  ): Promise<{ rows: LotRow[]; total: number }> {
    const rows = await this.rows<LotRow>({
      text: `SELECT ${LOT_SELECT} FROM lots${where.text === '' ? '' : ` WHERE ${where.text}`}
        ORDER BY lots.last_observed_at DESC LIMIT ? OFFSET ?`,
      params: [...where.params, limit, offset],
    });
    return { rows, total: await this.countWhere(where) };
  }

  /** A page of the lots found by `s` among those passing `where`, and how many there are. */
  private async searchWhere(
    s: TextSearch,
    where: Clause,
    limit: number,
    offset: number,
  ): Promise<{ rows: LotRow[]; total: number }> {
    if ('match' in s) {
      const rows = await this.rows<LotRow>(rankedPage(this.engine, s.match, where, limit, offset));
      const total = await this.countWhere(
        and({ text: matchCondition(this.engine), params: [s.match] }, where),
      );
      return { rows, total };
    }
    return this.recentWhere(
      and({ text: `NOT ${matchCondition(this.engine)}`, params: [s.except] }, where),
      limit,
      offset,
    );
  }

  /**
   * Runs `run` with the engine's reading of `text`: null when there is no word to look for; on SQLite, an
   * expression FTS5 refuses (SQLITE_ERROR) is run again as plain words (null when none are left).
   */
  private async withText<T>(text: string, run: (s: TextSearch) => Promise<T>): Promise<T | null> {
    const match = this.reading.query(text);
    const exclude = match === null ? this.reading.excludeOnly(text) : null;
    if (match === null && exclude === null) return null;
    try {
      return await run(match !== null ? { match } : { except: exclude! });
    } catch (e) {
      // A refused expression is SQLITE_ERROR; a full disk, a damaged file and the like go on up.
      if (this.engine !== 'sqlite' || sqliteCodeOf(e) !== 'SQLITE_ERROR') throw e;
    }
    const plain = this.reading.plain(text);
    return plain === null ? null : run({ match: plain });
  }

  /**
   * A page of the lots passing `f` and how many there are, most recently seen first (no words) or best first
   * (words), as LibraryRepo.filtered.
   */
  async filtered(
    text: string,
    f: LibraryFilters,
    limit: number,
    offset: number,
  ): Promise<{ rows: LotRow[]; total: number }> {
    const where = filterCondition(this.engine, f);
    return (
      (await this.withText(text, (s) => this.searchWhere(s, where, limit, offset))) ??
      (await this.recentWhere(where, limit, offset))
    );
  }

  /**
   * How many lots carry each value of each facet among the lots of the Library's current query (text and filters),
   * a facet's own picks not applied to its own counts; every facet listed, as LibraryRepo.facets.
   */
  async facets(text: string, f: LibraryFilters): Promise<FacetCounts> {
    const { facets: sel, ...figures } = f;
    const store = figuresCondition(this.engine, figures);
    const run = async (textCond: Clause | null): Promise<FacetCounts> => {
      const scope = and(textCond, store);
      const counts = facetCountsSql(scope.text, sel, this.engine);
      const rows = await this.rows<FacetRow>({
        text: counts.sql,
        params: [...scope.params, ...counts.params],
      });
      return LIBRARY_FACETS.map((facet, k) => ({
        facet,
        values: rows
          .filter((r) => Number(r.k) === k)
          .map((r) => ({ value: String(r.value), count: Number(r.n) })),
      }));
    };
    const found = await this.withText(text, (s) =>
      'match' in s
        ? run({ text: matchCondition(this.engine), params: [s.match] })
        : run({ text: `NOT ${matchCondition(this.engine)}`, params: [s.except] }),
    );
    return found ?? run(null);
  }

  /** A page of lots, most recently seen first. */
  async recent(limit: number, offset: number): Promise<LotRow[]> {
    return (await this.recentWhere(and(), limit, offset)).rows;
  }

  /** How many lots are stored. */
  async count(): Promise<number> {
    return this.countWhere(and());
  }

  /**
   * A page of lots matching the engine's full-text expression, best first: an FTS5 `MATCH` expression on SQLite
   * (malformed: throws SqliteError), `to_tsquery('english', …)` text on PostgreSQL (ftsQuery.ts tsQuery).
   */
  async search(match: string, limit: number, offset: number): Promise<LotRow[]> {
    return this.rows<LotRow>(rankedPage(this.engine, match, and(), limit, offset));
  }

  /** How many lots match the engine's full-text expression (see search). */
  async searchCount(match: string): Promise<number> {
    return this.countWhere({ text: matchCondition(this.engine), params: [match] });
  }

  /**
   * The Library's search of the buyer's own text, as LibraryRepo.find: a page of lots and how many there are, or
   * null when the text has no word to look for.
   */
  async find(text: string, limit: number, offset: number): Promise<{ rows: LotRow[]; total: number } | null> {
    return this.withText(text, (s) => this.searchWhere(s, and(), limit, offset));
  }
}
