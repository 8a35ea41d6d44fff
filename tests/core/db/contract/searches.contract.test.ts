import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAs } from '../../../../src/core/actor';
import { KyselySearchesRepo } from '../../../../src/core/db/kysely/searchesRepo';
import { sqliteKysely } from '../../../../src/core/db/kyselySqlite';
import type { DB } from '../../../../src/core/db/schema';
import type { SavedSearchRow, SearchesRepo } from '../../../../src/core/db/searchesRepo';
import type { Async, Transact } from '../../../../src/core/db/store';
import { AlertRulesSchema } from '../../../../src/shared/watch';
import { addMember, engines, type EngineDb } from '../../../helpers/engines';

// SearchesRepo's contract (docs/architecture.md "Two engines: one store"): the SQLite class, and the Kysely class on
// a SQLite file and on PostgreSQL, give the same results for the same calls. Each case runs on every engine.

const rules = AlertRulesSchema.parse({});
const base = {
  name: 'Accords',
  params: { make: 'HONDA' },
  schedule: '*/30 * * * *',
  rules,
  max_pages: 3,
  paused: false,
};

/** The row a search inserted with `base` at `now` reads back as, before any run. */
const fresh = (id: number, now: number): SavedSearchRow => ({
  id,
  ...base,
  refine: {},
  is_example: false,
  baseline_done: false,
  covered_until: null,
  sweep_from: null,
  sweep_cursor: null,
  created_at: now,
  updated_at: now,
  last_run_at: null,
  last_ok_at: null,
  last_result_count: null,
  last_complete: null,
  consecutive_failures: 0,
  last_error_code: null,
  last_error: null,
  created_by: null,
  updated_by: null,
});

for (const engine of engines()) {
  describe.skipIf(engine.skip)(`SearchesRepo on ${engine.name}`, () => {
    let db: EngineDb;
    let searches: Async<SearchesRepo>;
    let transaction: Transact;
    /** Kysely over the same database, for setting up and reading rows the repository does not expose. */
    let raw: Kysely<DB>;

    beforeEach(async () => {
      db = await engine.open();
      if (db.name === 'sqlite') {
        searches = db.sqlite!.searches;
        transaction = db.sqlite!.transaction;
        raw = sqliteKysely(db.sqlite!.db);
      } else {
        searches = new KyselySearchesRepo(db.exec!, db.name === 'postgres' ? 'postgres' : 'sqlite');
        transaction = (fn) => db.exec!.transaction(fn);
        raw = db.kysely!;
      }
    });
    afterEach(async () => {
      if (db.name === 'sqlite') await raw.destroy();
      await db.close();
    });

    const members = (searchId: number) =>
      raw
        .selectFrom('search_members')
        .select(['lot_key', 'first_seen_at', 'last_seen_at'])
        .where('search_id', '=', searchId)
        .orderBy('lot_key')
        .execute();

    it('writes the acting member as maker and last writer, and an edit only on the copy it was made on', async () => {
      const ben = await addMember(raw, 3, 'Ben');
      const id = await runAs(ben, () => searches.insertSearch({ ...base, is_example: false }, 5));
      expect(await searches.getSearch(id)).toEqual({ ...fresh(id, 5), created_by: 3, updated_by: 3 });
      // Stale: not written. Current: written, by the local owner.
      expect(await searches.updateSearch(id, { ...base, name: 'Stale' }, 9, 4)).toBe(false);
      expect((await searches.getSearch(id))!.name).toBe(base.name);
      expect(await searches.updateSearch(id, { ...base, name: 'Mine' }, 9, 5)).toBe(true);
      expect(await searches.getSearch(id)).toMatchObject({
        name: 'Mine',
        updated_at: 9,
        created_by: 3,
        updated_by: null,
      });
      expect(await searches.updateSearch(id + 1, base, 10)).toBe(false);
      expect(await runAs(ben, () => searches.updateSearch(id, base, 11))).toBe(true);
      expect((await searches.getSearch(id))!.updated_by).toBe(3);
      expect([...(await searches.memberNames([3, 4, 3]))]).toEqual([[3, 'Ben']]);
      expect([...(await searches.memberNames([]))]).toEqual([]);
    });

    it('inserts, reads back and lists searches, with their refinements apart from the parameters', async () => {
      const a = await searches.insertSearch({ ...base, is_example: false }, 5);
      const b = await searches.insertSearch(
        {
          ...base,
          name: 'Kias',
          params: { make: 'KIA' },
          refine: { damage: ['Front end'] },
          is_example: true,
        },
        6,
      );
      expect(b).toBeGreaterThan(a);
      expect(await searches.getSearch(a)).toEqual(fresh(a, 5));
      expect(await searches.getSearch(b)).toEqual({
        ...fresh(b, 6),
        name: 'Kias',
        params: { make: 'KIA' },
        refine: { damage: ['Front end'] },
        is_example: true,
      });
      expect(await searches.getSearch(b + 100)).toBeNull();
      expect((await searches.listSearches()).map((s) => s.id)).toEqual([a, b]);
      expect(await searches.listSearches()).toEqual([
        await searches.getSearch(a),
        await searches.getSearch(b),
      ]);
    });

    it('reads a damaged rule set or refinement as none, and the search still lists', async () => {
      const id = await searches.insertSearch({ ...base, is_example: false }, 1);
      await raw
        .updateTable('saved_searches')
        .set({
          rules: '{"quiet_hours": 12}',
          params: JSON.stringify({ make: 'KIA', lotwatch_refine: { damage: 'Front end' } }),
        })
        .where('id', '=', id)
        .execute();
      expect(await searches.getSearch(id)).toMatchObject({ params: { make: 'KIA' }, refine: {}, rules });
      expect(await searches.listSearches()).toHaveLength(1);
    });

    it('keeps the coverage when an update keeps the parameters and restarts it when they or the refinements change', async () => {
      const id = await searches.insertSearch(
        { ...base, refine: { damage: ['Front end'] }, is_example: false },
        1,
      );
      await searches.setCoverage(id, { baseline_done: true, covered_until: 500, sweep_from: 1_000 });
      await searches.updateSearch(
        id,
        {
          ...base,
          name: 'Hondas',
          schedule: '0 * * * *',
          max_pages: 7,
          paused: true,
          refine: { damage: ['Front end'] },
        },
        2,
      );
      expect(await searches.getSearch(id)).toEqual({
        ...fresh(id, 1),
        name: 'Hondas',
        schedule: '0 * * * *',
        max_pages: 7,
        paused: true,
        refine: { damage: ['Front end'] },
        updated_at: 2,
        baseline_done: true,
        covered_until: 500,
        sweep_from: 1_000,
      });
      // A changed refinement restarts it.
      await searches.updateSearch(id, { ...base, refine: { damage: ['Rear end'] } }, 3);
      expect(await searches.getSearch(id)).toMatchObject({
        refine: { damage: ['Rear end'] },
        baseline_done: false,
        covered_until: null,
        sweep_from: null,
        updated_at: 3,
        created_at: 1,
      });
      // So do changed parameters; `refine` left out keeps none.
      await searches.setCoverage(id, { baseline_done: true, covered_until: null, sweep_from: 9 });
      await searches.updateSearch(id, { ...base, params: { make: 'HONDA', model: 'ACCORD' } }, 4);
      expect(await searches.getSearch(id)).toMatchObject({
        params: { make: 'HONDA', model: 'ACCORD' },
        refine: {},
        baseline_done: false,
        sweep_from: null,
      });
    });

    it("keeps the sweep's cursor with the coverage it belongs to, and drops it with that coverage", async () => {
      const id = await searches.insertSearch({ ...base, is_example: false }, 1);
      await searches.setCoverage(id, { baseline_done: true, covered_until: null, sweep_from: 1_000 }, 'c1');
      expect(await searches.getSearch(id)).toMatchObject({ sweep_from: 1_000, sweep_cursor: 'c1' });
      // An update that keeps the parameters keeps it; a coverage written without it (a run that read the window,
      // reached the end or failed) clears it, and so does a coverage with no sweep under way.
      await searches.updateSearch(id, { ...base, name: 'Hondas' }, 2);
      expect(await searches.getSearch(id)).toMatchObject({ sweep_cursor: 'c1' });
      await searches.setCoverage(id, { baseline_done: true, covered_until: null, sweep_from: 2_000 });
      expect(await searches.getSearch(id)).toMatchObject({ sweep_from: 2_000, sweep_cursor: null });
      await searches.setCoverage(id, { baseline_done: true, covered_until: null, sweep_from: null }, 'c2');
      expect(await searches.getSearch(id)).toMatchObject({ sweep_from: null, sweep_cursor: null });
      // Changed parameters restart the coverage, the cursor with it.
      await searches.setCoverage(id, { baseline_done: true, covered_until: null, sweep_from: 3_000 }, 'c3');
      await searches.updateSearch(id, { ...base, params: { make: 'KIA' } }, 3);
      expect(await searches.getSearch(id)).toMatchObject({ sweep_from: null, sweep_cursor: null });
    });

    it('records runs that fetched something and runs that failed on the search row', async () => {
      const id = await searches.insertSearch({ ...base, is_example: false }, 1);
      await searches.searchRunFailed(id, 10, 'rate_limited', 'Too many requests');
      await searches.searchRunFailed(id, 11, 'network', 'No answer');
      expect(await searches.getSearch(id)).toMatchObject({
        last_run_at: 11,
        last_ok_at: null,
        consecutive_failures: 2,
        last_error_code: 'network',
        last_error: 'No answer',
      });
      await searches.searchRunOk(id, 12, 40, false);
      expect(await searches.getSearch(id)).toMatchObject({
        last_run_at: 12,
        last_ok_at: 12,
        last_result_count: 40,
        last_complete: false,
        consecutive_failures: 0,
        last_error_code: null,
        last_error: null,
        baseline_done: false,
      });
      await searches.searchRunOk(id, 13, 41, true);
      expect(await searches.getSearch(id)).toMatchObject({ last_complete: true, last_result_count: 41 });
    });

    it('upserts members keeping their first sighting, forgets dropped ones, and deletes them with the search', async () => {
      const id = await searches.insertSearch({ ...base, is_example: false }, 1);
      const other = await searches.insertSearch({ ...base, is_example: false }, 1);
      expect(await searches.memberKeys(id)).toEqual(new Set());
      await searches.updateMembers(id, ['copart:1', 'copart:2', 'copart:2'], [], 6);
      await searches.updateMembers(other, ['copart:1'], [], 6);
      await searches.updateMembers(id, new Set(['copart:3', 'copart:2']), ['copart:1', 'copart:9'], 7);
      expect([...(await searches.memberKeys(id))].sort()).toEqual(['copart:2', 'copart:3']);
      expect(await members(id)).toEqual([
        { lot_key: 'copart:2', first_seen_at: 6, last_seen_at: 7 },
        { lot_key: 'copart:3', first_seen_at: 7, last_seen_at: 7 },
      ]);
      // A key both seen and dropped in one call is forgotten; the other search's members are its own.
      await searches.updateMembers(id, ['copart:4'], ['copart:4', 'copart:2'], 8);
      expect([...(await searches.memberKeys(id))]).toEqual(['copart:3']);
      expect([...(await searches.memberKeys(other))]).toEqual(['copart:1']);
      await searches.updateMembers(id, [], [], 9);
      expect(await members(id)).toEqual([{ lot_key: 'copart:3', first_seen_at: 7, last_seen_at: 7 }]);
      await searches.deleteSearch(id);
      expect(await searches.getSearch(id)).toBeNull();
      expect(await members(id)).toEqual([]);
      expect([...(await searches.memberKeys(other))]).toEqual(['copart:1']);
    });

    it('takes a whole result list of members in one call', async () => {
      const id = await searches.insertSearch({ ...base, is_example: false }, 1);
      const keys = Array.from({ length: 2_500 }, (_, i) => `iaai:${String(i).padStart(5, '0')}`);
      await searches.updateMembers(id, keys, [], 2);
      await searches.updateMembers(id, keys.slice(0, 1_000), keys.slice(2_000), 3);
      const rows = await members(id);
      expect(rows).toHaveLength(2_000);
      expect(rows[0]).toEqual({ lot_key: 'iaai:00000', first_seen_at: 2, last_seen_at: 3 });
      expect(rows[1_999]).toEqual({ lot_key: 'iaai:01999', first_seen_at: 2, last_seen_at: 2 });
      expect((await searches.memberKeys(id)).size).toBe(2_000);
    });

    it('refuses members of a search that does not exist', async () => {
      await expect(searches.updateMembers(404, ['copart:1'], [], 1)).rejects.toThrow();
      expect(await members(404)).toEqual([]);
    });

    it('opens, closes and interrupts poll runs, and gives the last complete result counts oldest first', async () => {
      const id = await searches.insertSearch({ ...base, is_example: false }, 1);
      const target = { kind: 'search' as const, id };
      const ok = (records: number, complete: boolean | null) => ({
        status: 'ok' as const,
        requests: 2,
        records,
        changes: 1,
        complete,
      });
      const r1 = await searches.startRun(target, 10);
      await searches.finishRun(r1, 11, ok(5, true));
      const r2 = await searches.startRun(target, 20);
      await searches.finishRun(r2, 21, ok(6, false));
      const r3 = await searches.startRun(target, 30);
      await searches.finishRun(r3, 31, {
        status: 'error',
        requests: 1,
        records: 0,
        changes: 0,
        complete: null,
        error_code: 'network',
        error_message: 'No answer',
      });
      const r4 = await searches.startRun(target, 40);
      await searches.finishRun(r4, 41, ok(8, true));
      const r5 = await searches.startRun(target, 40);
      await searches.finishRun(r5, 42, ok(9, true));
      const watchRun = await searches.startRun({ kind: 'watch', id }, 50);
      await searches.finishRun(watchRun, 51, ok(100, true));
      expect(new Set([r1, r2, r3, r4, r5, watchRun]).size).toBe(6);
      expect(await searches.recentResultCounts(id, 10)).toEqual([5, 8, 9]);
      expect(await searches.recentResultCounts(id, 2)).toEqual([8, 9]);
      expect(await searches.recentResultCounts(id + 1, 10)).toEqual([]);
      const row = await raw
        .selectFrom('poll_runs')
        .selectAll()
        .where('id', '=', r3)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({
        id: r3,
        target: `search:${id}`,
        started_at: 30,
        finished_at: 31,
        status: 'error',
        requests: 1,
        records: 0,
        changes: 0,
        complete: null,
        error_code: 'network',
        error_message: 'No answer',
      });
      // Runs left running by a crash.
      const open1 = await searches.startRun(target, 60);
      await searches.startRun({ kind: 'watch', id: 3 }, 61);
      expect(await searches.interruptRuns(70)).toBe(2);
      expect(await searches.interruptRuns(71)).toBe(0);
      expect(
        await raw
          .selectFrom('poll_runs')
          .select(['status', 'finished_at', 'target'])
          .where('id', '=', open1)
          .executeTakeFirst(),
      ).toEqual({ status: 'interrupted', finished_at: 70, target: `search:${id}` });
    });

    it("pauses, counts and deletes Demo mode's example searches only", async () => {
      const mine = await searches.insertSearch({ ...base, is_example: false }, 1);
      const ex1 = await searches.insertSearch({ ...base, is_example: true }, 1);
      const ex2 = await searches.insertSearch({ ...base, is_example: true }, 1);
      expect(await searches.exampleCount()).toBe(2);
      expect(await searches.activeExampleIds()).toEqual([ex1, ex2]);
      await searches.setExamplePaused(ex1, true, 5);
      await searches.setExamplePaused(mine, true, 5);
      expect(await searches.activeExampleIds()).toEqual([ex2]);
      expect(await searches.getSearch(ex1)).toMatchObject({ paused: true, updated_at: 5 });
      expect(await searches.getSearch(mine)).toMatchObject({ paused: false, updated_at: 1 });
      await searches.setExamplePaused(ex1, false, 6);
      expect(await searches.activeExampleIds()).toEqual([ex1, ex2]);
      await searches.deleteExampleSearches();
      expect(await searches.exampleCount()).toBe(0);
      expect((await searches.listSearches()).map((s) => s.id)).toEqual([mine]);
    });

    it("joins the store's transaction: a throw rolls back every write, members included", async () => {
      const kept = await searches.insertSearch({ ...base, is_example: false }, 1);
      await searches.updateMembers(kept, ['copart:1'], [], 1);
      await expect(
        transaction(async () => {
          const id = await searches.insertSearch({ ...base, name: 'Gone', is_example: false }, 2);
          await searches.updateMembers(kept, ['copart:2'], ['copart:1'], 2);
          await searches.setCoverage(kept, { baseline_done: true, covered_until: null, sweep_from: null });
          // Reads inside the transaction see its own writes.
          expect(await searches.getSearch(id)).toMatchObject({ name: 'Gone' });
          expect([...(await searches.memberKeys(kept))]).toEqual(['copart:2']);
          throw new Error('stop');
        }),
      ).rejects.toThrow('stop');
      expect((await searches.listSearches()).map((s) => s.id)).toEqual([kept]);
      expect(await searches.getSearch(kept)).toMatchObject({ baseline_done: false });
      expect(await members(kept)).toEqual([{ lot_key: 'copart:1', first_seen_at: 1, last_seen_at: 1 }]);
    });
  });
}
