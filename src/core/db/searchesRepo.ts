import type { Database, Statement } from 'better-sqlite3';
import { pollTargetKey, type AlertRules, type LotKey, type PollTarget } from '../../shared/watch';
import type { SearchParamValues } from '../../shared/vehicleParams';
import { LocalRefinementsSchema, isUnrefined, type LocalRefinements } from '../../shared/localRefinements';
import { bool, insertedId, parseStoredParams, parseStoredRules } from './rows';

/** A saved search row with its JSON columns parsed. */
export interface SavedSearchRow {
  id: number;
  name: string;
  /** /vehicles query parameters (spec names), without cursor. */
  /** GET /vehicles parameters as checked when the search was saved (StoredSearchParamsSchema). */
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
  created_at: number;
  updated_at: number;
  last_run_at: number | null;
  last_ok_at: number | null;
  last_result_count: number | null;
  last_complete: boolean | null;
  consecutive_failures: number;
  last_error_code: string | null;
  last_error: string | null;
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

type SearchDbRow = Omit<
  SavedSearchRow,
  'params' | 'rules' | 'paused' | 'is_example' | 'baseline_done' | 'last_complete'
> & {
  params: string;
  rules: string;
  paused: number;
  is_example: number;
  baseline_done: number;
  last_complete: number | null;
};

type FinishRunParams = {
  id: number;
  now: number;
  status: RunResult['status'];
  requests: number;
  records: number;
  changes: number;
  complete: number | null;
  error_code: string | null;
  error_message: string | null;
};

/** Where a search's reading stands (see SavedSearchRow): set after each run that fetched something. */
export type SearchCoverage = Pick<SavedSearchRow, 'baseline_done' | 'covered_until' | 'sweep_from'>;

type SearchWrite = {
  name: string;
  params: string;
  schedule: string;
  rules: string;
  max_pages: number;
  paused: number;
  now: number;
};

/**
 * The key of the `params` column's JSON under which a search's local refinements are kept. They live in the same
 * column as the parameters so that changing either restarts the search's baseline and coverage (updateOne compares
 * the column), and no migration is needed; the key is no GET /vehicles parameter, so it is taken out on reading and
 * never reaches the client.
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

function toSearch(r: SearchDbRow): SavedSearchRow {
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
    created_at: r.created_at,
    updated_at: r.updated_at,
    last_run_at: r.last_run_at ?? null,
    last_ok_at: r.last_ok_at ?? null,
    last_result_count: r.last_result_count ?? null,
    last_complete: r.last_complete === null || r.last_complete === undefined ? null : bool(r.last_complete),
    consecutive_failures: r.consecutive_failures,
    last_error_code: r.last_error_code ?? null,
    last_error: r.last_error ?? null,
  };
}

/**
 * Saved searches, the lots each has matched (`search_members`) and the log of poll runs (`poll_runs`, for
 * searches and watches alike). Writes never await; a poll's writes go in one transaction with its other writes.
 */
export class SearchesRepo {
  private readonly getOne: Statement<[number], SearchDbRow>;
  private readonly listAll: Statement<[], SearchDbRow>;
  private readonly insertOne: Statement<[SearchWrite & { is_example: number }]>;
  private readonly updateOne: Statement<[SearchWrite & { id: number }]>;
  private readonly deleteOne: Statement<[number]>;
  private readonly runOk: Statement<[{ id: number; now: number; count: number; complete: number }]>;
  private readonly coverage: Statement<
    [{ id: number; baseline_done: number; covered_until: number | null; sweep_from: number | null }]
  >;
  private readonly runFailed: Statement<[{ id: number; now: number; code: string; message: string }]>;
  private readonly members: Statement<[number], { lot_key: string }>;
  private readonly upsertMember: Statement<[number, string, number, number]>;
  private readonly deleteMember: Statement<[number, string]>;
  private readonly insertRun: Statement<[string, number]>;
  private readonly finishRunRow: Statement<[FinishRunParams]>;
  private readonly recentRuns: Statement<[string, number], { records: number }>;
  private readonly interruptRunning: Statement<[number]>;
  private readonly activeExamples: Statement<[], { id: number }>;
  private readonly pauseExample: Statement<[number, number]>;
  private readonly resumeExample: Statement<[number, number]>;
  private readonly countExamples: Statement<[], { n: number }>;
  private readonly deleteExamples: Statement<[]>;

  constructor(db: Database) {
    this.getOne = db.prepare('SELECT * FROM saved_searches WHERE id = ?');
    this.listAll = db.prepare('SELECT * FROM saved_searches ORDER BY id');
    this.insertOne =
      db.prepare(`INSERT INTO saved_searches (name, params, schedule, rules, max_pages, paused, is_example,
      created_at, updated_at) VALUES (@name, @params, @schedule, @rules, @max_pages, @paused, @is_example, @now, @now)`);
    this.updateOne =
      db.prepare(`UPDATE saved_searches SET name = @name, params = @params, schedule = @schedule, rules = @rules,
      max_pages = @max_pages, paused = @paused, updated_at = @now,
      baseline_done = CASE WHEN params = @params THEN baseline_done ELSE 0 END,
      covered_until = CASE WHEN params = @params THEN covered_until ELSE NULL END,
      sweep_from = CASE WHEN params = @params THEN sweep_from ELSE NULL END WHERE id = @id`);
    this.deleteOne = db.prepare('DELETE FROM saved_searches WHERE id = ?');
    this.runOk =
      db.prepare(`UPDATE saved_searches SET last_run_at = @now, last_ok_at = @now, last_result_count = @count,
      last_complete = @complete, consecutive_failures = 0, last_error_code = NULL, last_error = NULL WHERE id = @id`);
    this.coverage =
      db.prepare(`UPDATE saved_searches SET baseline_done = @baseline_done, covered_until = @covered_until,
      sweep_from = @sweep_from WHERE id = @id`);
    this.runFailed =
      db.prepare(`UPDATE saved_searches SET last_run_at = @now, consecutive_failures = consecutive_failures + 1,
      last_error_code = @code, last_error = @message WHERE id = @id`);
    this.members = db.prepare('SELECT lot_key FROM search_members WHERE search_id = ?');
    this.upsertMember =
      db.prepare(`INSERT INTO search_members (search_id, lot_key, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?)
      ON CONFLICT(search_id, lot_key) DO UPDATE SET last_seen_at = excluded.last_seen_at`);
    this.deleteMember = db.prepare('DELETE FROM search_members WHERE search_id = ? AND lot_key = ?');
    this.insertRun = db.prepare(
      "INSERT INTO poll_runs (target, started_at, status) VALUES (?, ?, 'running')",
    );
    this.finishRunRow =
      db.prepare(`UPDATE poll_runs SET finished_at = @now, status = @status, requests = @requests,
      records = @records, changes = @changes, complete = @complete, error_code = @error_code,
      error_message = @error_message WHERE id = @id`);
    this.recentRuns =
      db.prepare(`SELECT records FROM poll_runs WHERE target = ? AND status = 'ok' AND complete = 1
      ORDER BY started_at DESC, id DESC LIMIT ?`);
    this.interruptRunning = db.prepare(
      "UPDATE poll_runs SET status = 'interrupted', finished_at = ? WHERE status = 'running'",
    );
    this.activeExamples = db.prepare('SELECT id FROM saved_searches WHERE is_example = 1 AND paused = 0');
    this.pauseExample = db.prepare(
      'UPDATE saved_searches SET paused = 1, updated_at = ? WHERE id = ? AND is_example = 1',
    );
    this.resumeExample = db.prepare(
      'UPDATE saved_searches SET paused = 0, updated_at = ? WHERE id = ? AND is_example = 1',
    );
    this.countExamples = db.prepare('SELECT count(*) AS n FROM saved_searches WHERE is_example = 1');
    this.deleteExamples = db.prepare('DELETE FROM saved_searches WHERE is_example = 1');
  }

  /** Every saved search, oldest first. */
  listSearches(): SavedSearchRow[] {
    return this.listAll.all().map(toSearch);
  }

  /** One saved search, or null when there is none with this id. */
  getSearch(id: number): SavedSearchRow | null {
    const r = this.getOne.get(id);
    return r ? toSearch(r) : null;
  }

  /** Creates a saved search; input must be validated. Returns its id. */
  insertSearch(
    s: Pick<
      SavedSearchRow,
      'name' | 'params' | 'schedule' | 'rules' | 'max_pages' | 'paused' | 'is_example'
    > & {
      refine?: LocalRefinements;
    },
    now: number,
  ): number {
    const { refine: _r, ...row } = s;
    const r = this.insertOne.run({
      ...row,
      params: paramsText(s),
      rules: JSON.stringify(s.rules),
      paused: s.paused ? 1 : 0,
      is_example: s.is_example ? 1 : 0,
      now,
    });
    return insertedId(r);
  }

  /**
   * Updates a saved search; new params or refinements restart its baseline and coverage (the next run notifies no
   * new matches). `refine` left out keeps none.
   */
  updateSearch(
    id: number,
    s: Pick<SavedSearchRow, 'name' | 'params' | 'schedule' | 'rules' | 'max_pages' | 'paused'> & {
      refine?: LocalRefinements;
    },
    now: number,
  ): void {
    this.updateOne.run({
      name: s.name,
      schedule: s.schedule,
      max_pages: s.max_pages,
      id,
      params: paramsText(s),
      rules: JSON.stringify(s.rules),
      paused: s.paused ? 1 : 0,
      now,
    });
  }

  /** Deletes a saved search (its members and runs stay until overwritten; they are keyed by id). */
  deleteSearch(id: number): void {
    this.deleteOne.run(id);
  }

  /**
   * Records a run that fetched something: its time, result count, completeness; failures reset. The baseline is
   * the caller's (setCoverage): only a complete reading makes one.
   */
  searchRunOk(id: number, now: number, count: number, complete: boolean): void {
    this.runOk.run({ id, now, count, complete: complete ? 1 : 0 });
  }

  /** Stores where a search's reading stands after a run (docs/architecture.md "Saved searches and new matches"). */
  setCoverage(id: number, c: SearchCoverage): void {
    this.coverage.run({
      id,
      baseline_done: c.baseline_done ? 1 : 0,
      covered_until: c.covered_until,
      sweep_from: c.sweep_from,
    });
  }

  /** Records a run that fetched nothing: one more failure in a row, with the error's code and message. */
  searchRunFailed(id: number, now: number, code: string, message: string): void {
    this.runFailed.run({ id, now, code, message });
  }

  /** The lot keys a saved search has matched so far. */
  memberKeys(searchId: number): Set<LotKey> {
    return new Set(this.members.all(searchId).map((r) => r.lot_key));
  }

  /** Records that `keys` matched the search at `now`, and forgets `dropped`. */
  updateMembers(searchId: number, keys: Iterable<LotKey>, dropped: Iterable<LotKey>, now: number): void {
    for (const k of keys) this.upsertMember.run(searchId, k, now, now);
    for (const k of dropped) this.deleteMember.run(searchId, k);
  }

  /** Opens a poll run for a target (stored as its wire string, `search:<id>` or `watch:<id>`); returns its id. */
  startRun(target: PollTarget, now: number): number {
    return insertedId(this.insertRun.run(pollTargetKey(target), now));
  }

  /** Closes a poll run with its result. */
  finishRun(id: number, now: number, r: RunResult): void {
    this.finishRunRow.run({
      id,
      now,
      status: r.status,
      requests: r.requests,
      records: r.records,
      changes: r.changes,
      complete: r.complete === null ? null : r.complete ? 1 : 0,
      error_code: r.error_code ?? null,
      error_message: r.error_message ?? null,
    });
  }

  /** Result counts of a saved search's last `n` complete runs, oldest first. */
  recentResultCounts(searchId: number, n: number): number[] {
    return this.recentRuns
      .all(pollTargetKey({ kind: 'search', id: searchId }), n)
      .map((r) => r.records)
      .reverse();
  }

  /** Marks runs left 'running' by a crash as interrupted; returns how many. */
  interruptRuns(now: number): number {
    return this.interruptRunning.run(now).changes;
  }

  /** Ids of Demo mode's example searches that are not paused. */
  activeExampleIds(): number[] {
    return this.activeExamples.all().map((r) => r.id);
  }

  /** Pauses (`paused` true) or resumes an example search; a search that is not an example is left alone. */
  setExamplePaused(id: number, paused: boolean, now: number): void {
    (paused ? this.pauseExample : this.resumeExample).run(now, id);
  }

  /** How many example searches there are. */
  exampleCount(): number {
    return this.countExamples.get()!.n;
  }

  /** Deletes every example search. */
  deleteExampleSearches(): void {
    this.deleteExamples.run();
  }
}
