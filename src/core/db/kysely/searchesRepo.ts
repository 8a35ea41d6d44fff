import { sql } from 'kysely';
import { pollTargetKey, type LotKey, type PollTarget } from '../../../shared/watch';
import {
  coverageColumns,
  runColumns,
  searchWrite,
  toSearch,
  type RunResult,
  type SavedSearchRow,
  type SearchCoverage,
  type SearchInput,
} from '../searchRows';
import { actingUserId } from '../members';
import type { SearchesRepo } from '../searchesRepo';
import type { Async, Store } from '../store';
import type { KyselyExec } from './exec';
import { memberNamesOf } from './members';

/** The engine under a Kysely repository: the few statements whose SQL differs are chosen by it. */
type Engine = Store['engine'];

/**
 * Saved searches, the lots each has matched (`search_members`) and the log of poll runs (`poll_runs`), on either
 * engine (docs/architecture.md "Two engines: one store"): the same methods and meaning as SearchesRepo (the desktop's
 * SQLite class, which defines them), through Kysely. Every query goes through `exec.db`, so a call made inside
 * Store.transaction joins it; a method of several statements runs them in one transaction of its own (or the open
 * one). Rows are read and written by the functions of searchRows.ts that SearchesRepo uses too.
 */
export class KyselySearchesRepo implements Async<SearchesRepo> {
  constructor(
    private readonly exec: KyselyExec,
    private readonly engine: Engine,
  ) {}

  /** Every saved search, oldest first. */
  async listSearches(): Promise<SavedSearchRow[]> {
    const rows = await this.exec.db.selectFrom('saved_searches').selectAll().orderBy('id').execute();
    return rows.map(toSearch);
  }

  /** One saved search, or null when there is none with this id. */
  async getSearch(id: number): Promise<SavedSearchRow | null> {
    const r = await this.exec.db
      .selectFrom('saved_searches')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return r ? toSearch(r) : null;
  }

  /** Creates a saved search as the member the call acts for (`created_by`); input must be validated. Returns its id. */
  async insertSearch(s: SearchInput & Pick<SavedSearchRow, 'is_example'>, now: number): Promise<number> {
    const { now: at, by, ...w } = searchWrite(s, now);
    const r = await this.exec.db
      .insertInto('saved_searches')
      .values({
        ...w,
        is_example: s.is_example ? 1 : 0,
        created_at: at,
        updated_at: at,
        created_by: by,
        updated_by: by,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /**
   * Updates a saved search as the member the call acts for (`updated_by`); new params or refinements restart its
   * baseline and coverage (the next run notifies no new matches). `refine` left out keeps none. The comparison is the
   * database's, with the row's stored text, in the same statement, so no other write can come between reading and
   * writing it. With `expectedUpdatedAt` (ms) the search is written only while its stored `updated_at` is that, in
   * the same statement (on PostgreSQL a concurrent writer's commit is waited for and the condition read again).
   * Returns whether it was written (false: no search with this id, or it changed since).
   */
  async updateSearch(id: number, s: SearchInput, now: number, expectedUpdatedAt?: number): Promise<boolean> {
    const w = searchWrite(s, now);
    let q = this.exec.db
      .updateTable('saved_searches')
      .set((eb) => {
        const same = eb('params', '=', w.params);
        return {
          name: w.name,
          params: w.params,
          schedule: w.schedule,
          rules: w.rules,
          max_pages: w.max_pages,
          paused: w.paused,
          updated_at: w.now,
          updated_by: w.by,
          baseline_done: eb.case().when(same).then(eb.ref('baseline_done')).else(eb.lit(0)).end(),
          covered_until: eb.case().when(same).then(eb.ref('covered_until')).else(eb.lit(null)).end(),
          sweep_from: eb.case().when(same).then(eb.ref('sweep_from')).else(eb.lit(null)).end(),
          sweep_cursor: eb.case().when(same).then(eb.ref('sweep_cursor')).else(eb.lit(null)).end(),
        };
      })
      .where('id', '=', id);
    if (expectedUpdatedAt !== undefined) q = q.where('updated_at', '=', expectedUpdatedAt);
    const r = await q.executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  /** Deletes a saved search (its members go with it: ON DELETE CASCADE; its runs stay, keyed by its wire string). */
  async deleteSearch(id: number): Promise<void> {
    await this.exec.db.deleteFrom('saved_searches').where('id', '=', id).execute();
  }

  /**
   * Records a run that fetched something: its time, result count, completeness; failures reset. The baseline is
   * the caller's (setCoverage): only a complete reading makes one.
   */
  async searchRunOk(id: number, now: number, count: number, complete: boolean): Promise<void> {
    await this.exec.db
      .updateTable('saved_searches')
      .set({
        last_run_at: now,
        last_ok_at: now,
        last_result_count: count,
        last_complete: complete ? 1 : 0,
        consecutive_failures: 0,
        last_error_code: null,
        last_error: null,
      })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Stores where a search's reading stands after a run (docs/architecture.md "Saved searches and new matches") and
   * the service's cursor its sweep goes on from (null, or a coverage with no `sweep_from`: none).
   */
  async setCoverage(id: number, c: SearchCoverage, cursor: string | null = null): Promise<void> {
    await this.exec.db
      .updateTable('saved_searches')
      .set(coverageColumns(c, cursor))
      .where('id', '=', id)
      .execute();
  }

  /** Records a run that fetched nothing: one more failure in a row, with the error's code and message. */
  async searchRunFailed(id: number, now: number, code: string, message: string): Promise<void> {
    await this.exec.db
      .updateTable('saved_searches')
      .set((eb) => ({
        last_run_at: now,
        consecutive_failures: eb('consecutive_failures', '+', 1),
        last_error_code: code,
        last_error: message,
      }))
      .where('id', '=', id)
      .execute();
  }

  /** The lot keys a saved search has matched so far (in key order, as SQLite's primary key gives them). */
  async memberKeys(searchId: number): Promise<Set<LotKey>> {
    const rows = await this.exec.db
      .selectFrom('search_members')
      .select('lot_key')
      .where('search_id', '=', searchId)
      .orderBy('lot_key')
      .execute();
    return new Set(rows.map((r) => r.lot_key));
  }

  /**
   * Records that `keys` matched the search at `now` (a new member is first seen then; a known one keeps its first
   * sighting), and forgets `dropped` (after the keys: a key in both is forgotten). One transaction.
   * @throws the driver's error when no search has this id (the members' foreign key).
   */
  async updateMembers(
    searchId: number,
    keys: Iterable<LotKey>,
    dropped: Iterable<LotKey>,
    now: number,
  ): Promise<void> {
    const seen = [...new Set(keys)];
    const gone = [...new Set(dropped)];
    if (seen.length === 0 && gone.length === 0) return;
    await this.exec.transaction(async () => {
      await this.upsertMembers(searchId, seen, now);
      await this.deleteMembers(searchId, gone);
    });
  }

  /** Opens a poll run for a target (stored as its wire string, `search:<id>` or `watch:<id>`); returns its id. */
  async startRun(target: PollTarget, now: number): Promise<number> {
    const r = await this.exec.db
      .insertInto('poll_runs')
      .values({ target: pollTargetKey(target), started_at: now, status: 'running' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /** Closes a poll run with its result. */
  async finishRun(id: number, now: number, r: RunResult): Promise<void> {
    await this.exec.db
      .updateTable('poll_runs')
      .set({ finished_at: now, ...runColumns(r) })
      .where('id', '=', id)
      .execute();
  }

  /** Result counts of a saved search's last `n` complete runs, oldest first. */
  async recentResultCounts(searchId: number, n: number): Promise<number[]> {
    const rows = await this.exec.db
      .selectFrom('poll_runs')
      .select('records')
      .where('target', '=', pollTargetKey({ kind: 'search', id: searchId }))
      .where('status', '=', 'ok')
      .where('complete', '=', 1)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(n)
      .execute();
    return rows.map((r) => r.records).reverse();
  }

  /** Marks runs left 'running' by a crash as interrupted; returns how many. */
  async interruptRuns(now: number): Promise<number> {
    const r = await this.exec.db
      .updateTable('poll_runs')
      .set({ status: 'interrupted', finished_at: now })
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** Ids of Demo mode's example searches that are not paused, ascending (the order SQLite's rowid scan gives). */
  async activeExampleIds(): Promise<number[]> {
    const rows = await this.exec.db
      .selectFrom('saved_searches')
      .select('id')
      .where('is_example', '=', 1)
      .where('paused', '=', 0)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Pauses (`paused` true) or resumes an example search; a search that is not an example is left alone. */
  async setExamplePaused(id: number, paused: boolean, now: number): Promise<void> {
    await this.exec.db
      .updateTable('saved_searches')
      .set({ paused: paused ? 1 : 0, updated_at: now, updated_by: actingUserId() })
      .where('id', '=', id)
      .where('is_example', '=', 1)
      .execute();
  }

  /** How many example searches there are. */
  async exampleCount(): Promise<number> {
    const r = await this.exec.db
      .selectFrom('saved_searches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('is_example', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Deletes every example search. */
  async deleteExampleSearches(): Promise<void> {
    await this.exec.db.deleteFrom('saved_searches').where('is_example', '=', 1).execute();
  }

  /** The names of the members `ids` by id, for the views (SearchesRepo.memberNames); no query for none. */
  memberNames(ids: readonly number[]): Promise<Map<number, string>> {
    return memberNamesOf(this.exec, ids);
  }

  /**
   * Upserts the members `keys` (distinct) of a search seen at `now`: first_seen_at on a new row, last_seen_at always.
   * SQLite: one prepared statement run per key (no round trip, the statement kept by the dialect's cache); PostgreSQL:
   * one statement over the keys as an array, whatever their number (one round trip, one SQL text).
   */
  private async upsertMembers(searchId: number, keys: readonly string[], now: number): Promise<void> {
    if (keys.length === 0) return;
    const db = this.exec.db;
    if (this.engine === 'postgres') {
      await db
        .insertInto('search_members')
        .columns(['search_id', 'lot_key', 'first_seen_at', 'last_seen_at'])
        .expression(
          sql`SELECT ${searchId}::bigint, k, ${now}::bigint, ${now}::bigint FROM unnest(${keys}::text[]) AS k`,
        )
        .onConflict((oc) =>
          oc
            .columns(['search_id', 'lot_key'])
            .doUpdateSet((eb) => ({ last_seen_at: eb.ref('excluded.last_seen_at') })),
        )
        .execute();
      return;
    }
    for (const k of keys)
      await db
        .insertInto('search_members')
        .values({ search_id: searchId, lot_key: k, first_seen_at: now, last_seen_at: now })
        .onConflict((oc) =>
          oc
            .columns(['search_id', 'lot_key'])
            .doUpdateSet((eb) => ({ last_seen_at: eb.ref('excluded.last_seen_at') })),
        )
        .execute();
  }

  /** Deletes the members `keys` of a search: per key on SQLite, one statement over an array on PostgreSQL. */
  private async deleteMembers(searchId: number, keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const db = this.exec.db;
    if (this.engine === 'postgres') {
      await db
        .deleteFrom('search_members')
        .where('search_id', '=', searchId)
        .where(sql<boolean>`lot_key = ANY(${keys}::text[])`)
        .execute();
      return;
    }
    for (const k of keys)
      await db
        .deleteFrom('search_members')
        .where('search_id', '=', searchId)
        .where('lot_key', '=', k)
        .execute();
  }
}
