import { LIBRARY_FACETS, type FacetSelection, type LibraryFacet } from '../../shared/libraryFacets';

/**
 * The Library's facets in SQL, over the `lot_facets` table (migration 120): one `f_*` column per facet, read from
 * the normalised record when it is written. Every statement built here is fixed text keyed by the shape of the selection (which facets
 * have how many picks); every value is a bound parameter.
 */

/** The view's column of each facet. */
export const FACET_COLUMN: Readonly<Record<LibraryFacet, string>> = {
  damage: 'f_damage',
  secondary_damage: 'f_secondary_damage',
  title_document: 'f_title_document',
  run_condition: 'f_run_condition',
  keys: 'f_keys',
  seller_type: 'f_seller_type',
  export: 'f_export',
  sale_result: 'f_sale_result',
  sale_month: 'f_sale_month',
};

/** The facets with picks, in LIBRARY_FACETS order, each with its distinct picked values. */
function picks(sel: FacetSelection | undefined): [LibraryFacet, string[]][] {
  const out: [LibraryFacet, string[]][] = [];
  for (const f of LIBRARY_FACETS) {
    const v = sel?.[f];
    if (v && v.length > 0) out.push([f, [...new Set(v)]]);
  }
  return out;
}

/** `col IN (?, ?)` for a facet's picks. */
const inList = (f: LibraryFacet, n: number) => `${FACET_COLUMN[f]} IN (${Array(n).fill('?').join(', ')})`;

/**
 * The condition on `lots` for the picked facet values ('' for none) and its parameters: a lot passes when, for
 * every facet with picks, its value is one of them (a lot whose record does not say never passes that facet).
 */
export function facetFilterSql(sel: FacetSelection | undefined): { where: string; params: string[] } {
  const ps = picks(sel);
  if (ps.length === 0) return { where: '', params: [] };
  const conds = ps.map(([f, v]) => inList(f, v.length));
  return {
    where: `lots.rowid IN (SELECT lot_rowid FROM lot_facets WHERE ${conds.join(' AND ')})`,
    params: ps.flatMap(([, v]) => v),
  };
}

/**
 * The statement counting every facet's values over the lots in `scope` (a condition on `lots`, '' for every lot,
 * whose parameters come first), and the parameters that follow them. Each facet's counts apply every other facet's
 * picks but not its own (FacetCountsSchema); rows are (facet, value, n), most first within a facet, then by value in
 * byte order (on PostgreSQL too, whatever the database's collation: `engine`, default SQLite). The records are read
 * once (a materialised CTE), so the cost is one pass over the lots in scope. The statement is the same on both
 * engines but for that collation; parameters are `?`.
 */
export function facetCountsSql(
  scope: string,
  sel: FacetSelection | undefined,
  engine: 'sqlite' | 'postgres' = 'sqlite',
): { sql: string; params: string[] } {
  const ps = picks(sel);
  const cols = LIBRARY_FACETS.map((f) => FACET_COLUMN[f]).join(', ');
  const within = scope === '' ? '' : ` WHERE lot_rowid IN (SELECT rowid FROM lots WHERE ${scope})`;
  const params: string[] = [];
  const parts = LIBRARY_FACETS.map((f, i) => {
    const col = FACET_COLUMN[f];
    const others = ps.filter(([g]) => g !== f);
    for (const [, v] of others) params.push(...v);
    const conds = [`${col} IS NOT NULL`, `${col} <> ''`, ...others.map(([g, v]) => inList(g, v.length))];
    return `SELECT ${i} AS k, ${col} AS value, count(*) AS n FROM m WHERE ${conds.join(' AND ')} GROUP BY ${col}`;
  });
  const sql = `WITH m AS MATERIALIZED (SELECT ${cols} FROM lot_facets${within})
    SELECT k, value, n FROM (${parts.join(' UNION ALL ')}) AS counts
    ORDER BY k, n DESC, value${engine === 'postgres' ? ' COLLATE "C"' : ''}`;
  return { sql, params };
}
