import type { Database, Statement } from 'better-sqlite3';
import { pollTargetKey, type LotKey, type PollTarget } from '../../shared/watch';
import { actingUserId, SqliteMemberNames } from './members';
import { insertedId } from './rows';
import {
  coverageColumns,
  runColumns,
  searchWrite,
  toSearch,
  type CoverageColumns,
  type RunColumns,
  type RunResult,
  type SavedSearchRow,
  type SearchCoverage,
  type SearchDbRow,
  type SearchInput,
  type SearchWrite,
} from './searchRows';

export type { RunResult, SavedSearchRow, SearchCoverage } from './searchRows';

/**
 * Saved searches, the lots each has matched (`search_members`) and the log of poll runs (`poll_runs`, for
 * searches and watches alike). Writes never await; a poll's writes go in one transaction with its other writes.
 */
export class SearchesRepo {
  private readonly getOne: Statement<[number], SearchDbRow>;
  private readonly listAll: Statement<[], SearchDbRow>;
  private readonly insertOne: Statement<[SearchWrite & { is_example: number }]>;
  private readonly updateOne: Statement<[SearchWrite & { id: number; expected: number | null }]>;
  private readonly deleteOne: Statement<[number]>;
  private readonly runOk: Statement<[{ id: number; now: number; count: number; complete: number }]>;
  private readonly coverage: Statement<[CoverageColumns & { id: number }]>;
  private readonly runFailed: Statement<[{ id: number; now: number; code: string; message: string }]>;
  private readonly members: Statement<[number], { lot_key: string }>;
  private readonly upsertMember: Statement<[number, string, number, number]>;
  private readonly deleteMember: Statement<[number, string]>;
  private readonly insertRun: Statement<[string, number]>;
  private readonly finishRunRow: Statement<[RunColumns & { id: number; now: number }]>;
  private readonly recentRuns: Statement<[string, number], { records: number }>;
  private readonly interruptRunning: Statement<[number]>;
  private readonly activeExamples: Statement<[], { id: number }>;
  private readonly pauseExample: Statement<[number, number | null, number]>;
  private readonly resumeExample: Statement<[number, number | null, number]>;
  private readonly countExamples: Statement<[], { n: number }>;
  private readonly deleteExamples: Statement<[]>;
  private readonly names: SqliteMemberNames;

  constructor(db: Database) {
    this.names = new SqliteMemberNames(db);
    this.getOne = db.prepare('SELECT * FROM saved_searches WHERE id = ?');
    this.listAll = db.prepare('SELECT * FROM saved_searches ORDER BY id');
    this.insertOne =
      db.prepare(`INSERT INTO saved_searches (name, params, schedule, rules, max_pages, paused, is_example,
      created_at, updated_at, created_by, updated_by)
      VALUES (@name, @params, @schedule, @rules, @max_pages, @paused, @is_example, @now, @now, @by, @by)`);
    this.updateOne =
      db.prepare(`UPDATE saved_searches SET name = @name, params = @params, schedule = @schedule, rules = @rules,
      max_pages = @max_pages, paused = @paused, updated_at = @now, updated_by = @by,
      baseline_done = CASE WHEN params = @params THEN baseline_done ELSE 0 END,
      covered_until = CASE WHEN params = @params THEN covered_until ELSE NULL END,
      sweep_from = CASE WHEN params = @params THEN sweep_from ELSE NULL END,
      sweep_cursor = CASE WHEN params = @params THEN sweep_cursor ELSE NULL END
      WHERE id = @id AND (@expected IS NULL OR updated_at = @expected)`);
    this.deleteOne = db.prepare('DELETE FROM saved_searches WHERE id = ?');
    this.runOk =
      db.prepare(`UPDATE saved_searches SET last_run_at = @now, last_ok_at = @now, last_result_count = @count,
      last_complete = @complete, consecutive_failures = 0, last_error_code = NULL, last_error = NULL WHERE id = @id`);
    this.coverage =
      db.prepare(`UPDATE saved_searches SET baseline_done = @baseline_done, covered_until = @covered_until,
      sweep_from = @sweep_from, sweep_cursor = @sweep_cursor WHERE id = @id`);
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
      'UPDATE saved_searches SET paused = 1, updated_at = ?, updated_by = ? WHERE id = ? AND is_example = 1',
    );
    this.resumeExample = db.prepare(
      'UPDATE saved_searches SET paused = 0, updated_at = ?, updated_by = ? WHERE id = ? AND is_example = 1',
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

  /** Creates a saved search as the member the call acts for (`created_by`); input must be validated. Returns its id. */
  insertSearch(s: SearchInput & Pick<SavedSearchRow, 'is_example'>, now: number): number {
    return insertedId(this.insertOne.run({ ...searchWrite(s, now), is_example: s.is_example ? 1 : 0 }));
  }

  /**
   * Updates a saved search as the member the call acts for (`updated_by`); new params or refinements restart its
   * baseline and coverage (the next run notifies no new matches). `refine` left out keeps none. With
   * `expectedUpdatedAt` (ms) the search is written only while its stored `updated_at` is that (optimistic
   * concurrency: the edit was made on what is stored). Returns whether it was written (false: no search with this id,
   * or it changed since).
   */
  updateSearch(id: number, s: SearchInput, now: number, expectedUpdatedAt?: number): boolean {
    return (
      this.updateOne.run({ ...searchWrite(s, now), id, expected: expectedUpdatedAt ?? null }).changes > 0
    );
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

  /**
   * Stores where a search's reading stands after a run (docs/architecture.md "Saved searches and new matches") and
   * the service's cursor its sweep goes on from (null, or a coverage with no `sweep_from`: none).
   */
  setCoverage(id: number, c: SearchCoverage, cursor: string | null = null): void {
    this.coverage.run({ id, ...coverageColumns(c, cursor) });
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
    this.finishRunRow.run({ id, now, ...runColumns(r) });
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
    (paused ? this.pauseExample : this.resumeExample).run(now, actingUserId(), id);
  }

  /** How many example searches there are. */
  exampleCount(): number {
    return this.countExamples.get()!.n;
  }

  /** Deletes every example search. */
  deleteExampleSearches(): void {
    this.deleteExamples.run();
  }

  /**
   * The names of the members `ids` (the searches' `created_by` and `updated_by`) by id, for the views; an id with no
   * `users` row is left out. No query for none (the desktop). Not for the watcher's plan, which needs no names.
   */
  memberNames(ids: readonly number[]): Map<number, string> {
    return this.names.of(ids);
  }
}
