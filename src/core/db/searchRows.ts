import type { SearchParamValues } from '../../shared/vehicleParams';
import { LocalRefinementsSchema, isUnrefined, type LocalRefinements } from '../../shared/localRefinements';
import type { AlertRules } from '../../shared/watch';
import { actingUserId } from './members';
import { bool, parseStoredParams, parseStoredRules } from './rows';

/*
 * The saved searches' rows as both engines' repositories read and write them (SearchesRepo on the desktop's SQLite
 * file, KyselySearchesRepo on either engine): what a stored row means and how a search becomes column values is said
 * once here, so the two can never disagree about it. No SQL here.
 */

/** A saved search row with its JSON columns parsed. */
export interface SavedSearchRow {
  id: number;
  name: string;
  /** GET /vehicles parameters as checked when the search was saved (StoredSearchParamsSchema), without cursor. */
  params: SearchParamValues;
  /** What Lotwatch filters itself among the lots the search returns (src/shared/localRefinements); `{}`: nothing. */
  refine: LocalRefinements;
  /** Cron expression (node-cron syntax). */
  schedule: string;
  rules: AlertRules;
  max_pages: number;
  paused: boolean;
  is_example: boolean;
  /** A complete reading of the whole result list has happened: every lot not a member is a new match. */
  baseline_done: boolean;
  /**
   * Before the baseline is done: lots whose auction time (ms) is before this were all read by complete page
   * sequences, so those not members are new matches; null: nothing covered yet.
   */
  covered_until: number | null;
  /** Auction time (ms) where the next run continues reading a list too long for one run; null: at the list's head. */
  sweep_from: number | null;
  /**
   * The service's cursor (`meta.next_cursor`) of the page after the last one the run that set `sweep_from` read, for
   * the next run to go on from (watch/sweepCursors.ts); null: none, read the window. Written with the coverage only,
   * so a cursor always belongs to the `sweep_from` beside it.
   */
  sweep_cursor: string | null;
  created_at: number;
  updated_at: number;
  last_run_at: number | null;
  last_ok_at: number | null;
  last_result_count: number | null;
  last_complete: boolean | null;
  consecutive_failures: number;
  last_error_code: string | null;
  last_error: string | null;
  /** The member who made it (`users` id); null: the local owner, or made before the team. */
  created_by: number | null;
  /** The member who last changed it (name, rules, schedule, pause); null: the local owner, or never by a member. */
  updated_by: number | null;
}

/** How one poll run ended, for its `poll_runs` row. */
export interface RunResult {
  status: 'ok' | 'error' | 'partial';
  requests: number;
  records: number;
  changes: number;
  complete: boolean | null;
  error_code?: string | null;
  error_message?: string | null;
}

/** A `saved_searches` row as the database returns it (booleans 0/1, JSON as text). */
export type SearchDbRow = Omit<
  SavedSearchRow,
  'params' | 'refine' | 'rules' | 'paused' | 'is_example' | 'baseline_done' | 'last_complete'
> & {
  params: string;
  rules: string;
  paused: number;
  is_example: number;
  baseline_done: number;
  last_complete: number | null;
};

/** Where a search's reading stands (see SavedSearchRow): set after each run that fetched something. */
export type SearchCoverage = Pick<SavedSearchRow, 'baseline_done' | 'covered_until' | 'sweep_from'>;

/** What a search's insert or update writes: its columns' values, and the time (ms) of the write. */
export type SearchWrite = {
  name: string;
  params: string;
  schedule: string;
  rules: string;
  max_pages: number;
  paused: number;
  now: number;
  /** Who writes it (actingUserId): `created_by` on insert, `updated_by` on insert and update. */
  by: number | null;
};

/** What a search's insert or update is given (input validated by the caller); `refine` left out: none. */
export type SearchInput = Pick<
  SavedSearchRow,
  'name' | 'params' | 'schedule' | 'rules' | 'max_pages' | 'paused'
> & {
  refine?: LocalRefinements;
};

/** The columns a finished poll run writes on its `poll_runs` row (booleans 0/1). */
export type RunColumns = {
  status: RunResult['status'];
  requests: number;
  records: number;
  changes: number;
  complete: number | null;
  error_code: string | null;
  error_message: string | null;
};

/** A search's coverage as column values (booleans 0/1). */
export type CoverageColumns = {
  baseline_done: number;
  covered_until: number | null;
  sweep_from: number | null;
  sweep_cursor: string | null;
};

/**
 * The key of the `params` column's JSON under which a search's local refinements are kept. They live in the same
 * column as the parameters so that changing either restarts the search's baseline and coverage (updateSearch
 * compares the column), and no migration is needed; the key is no GET /vehicles parameter, so it is taken out on
 * reading and never reaches the client.
 */
const REFINE_KEY = 'lotwatch_refine';

/** The `params` column's text of a search: its parameters, and its refinements under REFINE_KEY when it has any. */
function paramsText(s: Pick<SavedSearchRow, 'params'> & { refine?: LocalRefinements }): string {
  return JSON.stringify(isUnrefined(s.refine) ? s.params : { ...s.params, [REFINE_KEY]: s.refine });
}

/**
 * The parameters and refinements of a `params` column's text (see paramsText). Refinements a later version could not
 * read (damaged) read as none, like damaged parameters do. Throws only for text that is not JSON at all.
 */
function readParams(text: string): Pick<SavedSearchRow, 'params' | 'refine'> {
  const all = parseStoredParams(text) as Record<string, unknown>;
  const { [REFINE_KEY]: raw, ...params } = all;
  const refine = raw === undefined ? null : LocalRefinementsSchema.safeParse(raw);
  return { params: params as SearchParamValues, refine: refine?.success ? refine.data : {} };
}

/**
 * A stored row as a SavedSearchRow: JSON columns parsed (damaged rules or parameters read as none, see
 * parseStoredRules), 0/1 as booleans. Throws only for a column that is not JSON at all.
 */
export function toSearch(r: SearchDbRow): SavedSearchRow {
  return {
    id: r.id,
    name: r.name,
    ...readParams(r.params),
    schedule: r.schedule,
    rules: parseStoredRules(r.rules),
    max_pages: r.max_pages,
    paused: bool(r.paused),
    is_example: bool(r.is_example),
    baseline_done: bool(r.baseline_done),
    covered_until: r.covered_until ?? null,
    sweep_from: r.sweep_from ?? null,
    sweep_cursor: r.sweep_cursor ?? null,
    created_at: r.created_at,
    updated_at: r.updated_at,
    last_run_at: r.last_run_at ?? null,
    last_ok_at: r.last_ok_at ?? null,
    last_result_count: r.last_result_count ?? null,
    last_complete: r.last_complete === null || r.last_complete === undefined ? null : bool(r.last_complete),
    consecutive_failures: r.consecutive_failures,
    last_error_code: r.last_error_code ?? null,
    last_error: r.last_error ?? null,
    created_by: r.created_by ?? null,
    updated_by: r.updated_by ?? null,
  };
}

/**
 * The column values a search's insert or update writes at `now` (ms): JSON as text, refinements inside params, and
 * the member the call acts for as its writer.
 */
export function searchWrite(s: SearchInput, now: number): SearchWrite {
  return {
    name: s.name,
    params: paramsText(s),
    schedule: s.schedule,
    rules: JSON.stringify(s.rules),
    max_pages: s.max_pages,
    paused: s.paused ? 1 : 0,
    now,
    by: actingUserId(),
  };
}

/** A coverage and the sweep's cursor (null: none) as the column values setCoverage writes. */
export function coverageColumns(c: SearchCoverage, cursor: string | null = null): CoverageColumns {
  return {
    baseline_done: c.baseline_done ? 1 : 0,
    covered_until: c.covered_until,
    sweep_from: c.sweep_from,
    sweep_cursor: c.sweep_from === null ? null : cursor,
  };
}

/** A run's result as the column values finishRun writes (a missing error code or message: null). */
export function runColumns(r: RunResult): RunColumns {
  return {
    status: r.status,
    requests: r.requests,
    records: r.records,
    changes: r.changes,
    complete: r.complete === null ? null : r.complete ? 1 : 0,
    error_code: r.error_code ?? null,
    error_message: r.error_message ?? null,
  };
}
