import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAs } from '../../../../src/core/actor';
import type { AlertsRepo } from '../../../../src/core/db/alertsRepo';
import type { CallWatchesRepo, CallWatchRow, CallWatchWrite } from '../../../../src/core/db/callWatchesRepo';
import { KyselyAlertsRepo } from '../../../../src/core/db/kysely/alertsRepo';
import { KyselyCallWatchesRepo } from '../../../../src/core/db/kysely/callWatchesRepo';
import { sqliteKysely } from '../../../../src/core/db/kyselySqlite';
import type { DB } from '../../../../src/core/db/schema';
import type { Async, Transact } from '../../../../src/core/db/store';
import { CALL_ANSWERS_KEPT } from '../../../../src/shared/callWatch';
import { AlertRulesSchema } from '../../../../src/shared/watch';
import { addMember, engines, type EngineDb } from '../../../helpers/engines';

// CallWatchesRepo's contract (docs/architecture.md "Two engines: one store"): the SQLite class, and the Kysely class
// on a SQLite file and on PostgreSQL, give the same results for the same calls. Each case runs on every engine.

const rules = AlertRulesSchema.parse({});
const garage: CallWatchWrite = {
  name: 'Auction Garage',
  target: {
    endpoint: 'GET /api/v1/vp/channel/videos',
    path: {},
    query: { channel: 'garage', tag: ['a', 'b'] },
  },
  config: { list_path: null, item_key: 'id', alert_new: true, alert_removed: true, fields: [] },
  schedule: '*/30 * * * *',
  rules,
  paused: false,
  paused_reason: null,
};

/** The row a call watch created from `garage` at `now` reads back as, before any run. */
const fresh = (id: number, now: number): CallWatchRow => ({
  id,
  name: garage.name,
  target: garage.target,
  config: garage.config,
  schedule: garage.schedule,
  rules,
  paused: false,
  paused_reason: null,
  is_example: false,
  created_at: now,
  updated_at: now,
  last_run_at: null,
  last_ok_at: null,
  last_status: null,
  consecutive_failures: 0,
  last_error: null,
  refused_params: [],
  created_by: null,
});

const answer = (i: number, good = true) => ({
  at: 1_000 + i,
  status: good ? 200 : 500,
  body: good ? `{"n":${i}}` : null,
  extract: `{"n":${i}}`,
  good,
});

for (const engine of engines()) {
  describe.skipIf(engine.skip)(`CallWatchesRepo on ${engine.name}`, () => {
    let db: EngineDb;
    let calls: Async<CallWatchesRepo>;
    let alerts: Async<AlertsRepo>;
    let transaction: Transact;
    /** Kysely over the same database, for the answers' rows the repository does not expose. */
    let raw: Kysely<DB>;

    beforeEach(async () => {
      db = await engine.open();
      if (db.name === 'sqlite') {
        calls = db.sqlite!.calls;
        alerts = db.sqlite!.alerts;
        transaction = db.sqlite!.transaction;
        raw = sqliteKysely(db.sqlite!.db);
      } else {
        const e = db.name === 'postgres' ? 'postgres' : 'sqlite';
        calls = new KyselyCallWatchesRepo(db.exec!, e);
        alerts = new KyselyAlertsRepo(db.exec!, e);
        transaction = (fn) => db.exec!.transaction(fn);
        raw = db.kysely!;
      }
    });
    afterEach(async () => {
      if (db.name === 'sqlite') await raw.destroy();
      await db.close();
    });

    const bodies = (watchId: number) =>
      raw
        .selectFrom('call_answers')
        .select(['at', 'body'])
        .where('watch_id', '=', watchId)
        .orderBy('id')
        .execute();

    it('writes the acting member as the maker, and keeps it through a rewrite', async () => {
      const ben = await addMember(raw, 3, 'Ben');
      const a = await runAs(ben, () => calls.create(garage, 5));
      expect(await calls.get(a)).toEqual({ ...fresh(a, 5), created_by: 3 });
      await calls.update(a, { ...garage, name: 'Renamed' }, 9);
      expect((await calls.get(a))!.created_by).toBe(3);
      expect([...(await calls.memberNames([3]))]).toEqual([[3, 'Ben']]);
    });

    it('creates, reads back, lists and rewrites call watches', async () => {
      const a = await calls.create(garage, 5);
      const b = await calls.create(
        { ...garage, name: 'Example', paused: true, paused_reason: null },
        6,
        true,
      );
      expect(b).toBeGreaterThan(a);
      expect(await calls.get(a)).toEqual(fresh(a, 5));
      // Paused without a reason: paused by the buyer.
      expect(await calls.get(b)).toEqual({
        ...fresh(b, 6),
        name: 'Example',
        paused: true,
        paused_reason: 'buyer',
        is_example: true,
      });
      expect(await calls.get(b + 100)).toBeNull();
      expect(await calls.list()).toEqual([await calls.get(a), await calls.get(b)]);
      const target = { endpoint: 'GET /api/v1/vp/videos/{id}', path: { id: 'v1' }, query: {} };
      const config = { ...garage.config, list_path: null, item_key: null, alert_removed: false };
      await calls.update(
        a,
        {
          ...garage,
          name: 'One video',
          target,
          config,
          schedule: '0 * * * *',
          paused: true,
          paused_reason: 'failing',
        },
        7,
      );
      expect(await calls.get(a)).toEqual({
        ...fresh(a, 5),
        name: 'One video',
        target,
        config,
        schedule: '0 * * * *',
        paused: true,
        paused_reason: 'failing',
        updated_at: 7,
      });
      // Not paused: no reason kept, whatever was given.
      await calls.update(a, { ...garage, paused: false, paused_reason: 'failing' }, 8);
      expect(await calls.get(a)).toMatchObject({ paused: false, paused_reason: null });
    });

    it('reads damaged JSON columns as their defaults', async () => {
      const id = await calls.create(garage, 1);
      await raw
        .updateTable('call_watches')
        .set({
          path: 'nope',
          query: '[1]',
          config: '{"alert_new": 3}',
          rules: 'not json',
          refused_params: '{"a":1}',
        })
        .where('id', '=', id)
        .execute();
      expect(await calls.get(id)).toMatchObject({
        target: { endpoint: garage.target.endpoint, path: {}, query: {} },
        config: { list_path: null, item_key: null, alert_new: true, alert_removed: false, fields: [] },
        rules,
        refused_params: [],
      });
    });

    it('pauses by a reason and resumes; resuming a watch that paused itself clears its failure count', async () => {
      const id = await calls.create(garage, 1);
      await calls.runEnded(id, {
        at: 2,
        status: 404,
        ok: false,
        consecutive_failures: 3,
        last_error: 'Not found',
        refused_params: [],
        paused_reason: null,
      });
      await calls.setPaused(id, true, 'buyer', 3);
      expect(await calls.get(id)).toMatchObject({
        paused: true,
        paused_reason: 'buyer',
        consecutive_failures: 3,
      });
      await calls.setPaused(id, false, 'buyer', 4);
      expect(await calls.get(id)).toMatchObject({
        paused: false,
        paused_reason: null,
        consecutive_failures: 3,
        updated_at: 4,
      });
      await calls.setPaused(id, true, 'failing', 5);
      await calls.setPaused(id, false, 'buyer', 6);
      expect(await calls.get(id)).toMatchObject({
        paused: false,
        paused_reason: null,
        consecutive_failures: 0,
      });
    });

    it("stores a run's end on the row; a run that pauses the watch says why", async () => {
      const id = await calls.create(garage, 1);
      await calls.runEnded(id, {
        at: 10,
        status: 200,
        ok: true,
        consecutive_failures: 0,
        last_error: null,
        refused_params: ['tag'],
        paused_reason: null,
      });
      expect(await calls.get(id)).toMatchObject({
        last_run_at: 10,
        last_ok_at: 10,
        last_status: 200,
        refused_params: ['tag'],
        paused: false,
      });
      await calls.runEnded(id, {
        at: 20,
        status: null,
        ok: false,
        consecutive_failures: 1,
        last_error: 'No answer',
        refused_params: [],
        paused_reason: null,
      });
      expect(await calls.get(id)).toMatchObject({
        last_run_at: 20,
        last_ok_at: 10,
        last_status: null,
        consecutive_failures: 1,
        last_error: 'No answer',
        refused_params: [],
        paused: false,
        paused_reason: null,
      });
      await calls.runEnded(id, {
        at: 30,
        status: 403,
        ok: false,
        consecutive_failures: 4,
        last_error: 'Forbidden',
        refused_params: [],
        paused_reason: 'failing',
      });
      expect(await calls.get(id)).toMatchObject({
        last_run_at: 30,
        last_ok_at: 10,
        paused: true,
        paused_reason: 'failing',
        updated_at: 1,
      });
      // A later run without a reason leaves the pause as it is.
      await calls.runEnded(id, {
        at: 40,
        status: 200,
        ok: true,
        consecutive_failures: 0,
        last_error: null,
        refused_params: [],
        paused_reason: null,
      });
      expect(await calls.get(id)).toMatchObject({ last_ok_at: 40, paused: true, paused_reason: 'failing' });
    });

    it('keeps the body on the last answers only, and finds the last good and whether the last was bad', async () => {
      const id = await calls.create(garage, 1);
      const other = await calls.create(garage, 1);
      expect(await calls.lastGoodAnswer(id)).toBeNull();
      expect(await calls.lastAnswerBad(id)).toBe(false);
      for (let i = 0; i < CALL_ANSWERS_KEPT + 3; i++) await calls.addAnswer(id, answer(i), CALL_ANSWERS_KEPT);
      await calls.addAnswer(other, answer(99), CALL_ANSWERS_KEPT);
      const rows = await bodies(id);
      expect(rows).toHaveLength(CALL_ANSWERS_KEPT + 3);
      expect(rows.filter((r) => r.body !== null).map((r) => r.body)).toEqual(
        Array.from({ length: CALL_ANSWERS_KEPT }, (_, i) => `{"n":${i + 3}}`),
      );
      const last = CALL_ANSWERS_KEPT + 2;
      expect(await calls.lastGoodAnswer(id)).toEqual({
        id: expect.any(Number) as number,
        watch_id: id,
        at: 1_000 + last,
        status: 200,
        body: `{"n":${last}}`,
        extract: `{"n":${last}}`,
        good: true,
      });
      expect(await calls.lastAnswerBad(id)).toBe(false);
      // A bad answer (no body) neither counts among the bodies kept nor replaces the last good one.
      await calls.addAnswer(id, answer(50, false), CALL_ANSWERS_KEPT);
      expect(await calls.lastAnswerBad(id)).toBe(true);
      expect((await calls.lastGoodAnswer(id))?.at).toBe(1_000 + last);
      expect((await bodies(id)).filter((r) => r.body !== null)).toHaveLength(CALL_ANSWERS_KEPT);
      // Keeping one body keeps the newest; the other watch's answers are its own.
      await calls.addAnswer(id, answer(60), 1);
      expect((await bodies(id)).filter((r) => r.body !== null).map((r) => r.body)).toEqual(['{"n":60}']);
      expect(await bodies(other)).toEqual([{ at: 1_099, body: '{"n":99}' }]);
      // Removing a watch removes its answers.
      await calls.remove(id);
      expect(await calls.get(id)).toBeNull();
      expect(await bodies(id)).toEqual([]);
      expect(await calls.lastGoodAnswer(id)).toBeNull();
    });

    it('counts the alerts a call watch raised after a time, suppressed ones left out', async () => {
      const base = {
        kind: 'call_new_item' as const,
        lot_key: null,
        change_id: null,
        title: 'New video',
        body: 'b',
        reason: null,
        deliver_after: null,
      };
      await alerts.insertAlert({ ...base, dedup_key: 'c1', source: 'call:1', delivery: 'now' }, 10);
      await alerts.insertAlert(
        { ...base, dedup_key: 'c2', source: 'call:1', delivery: 'digest', deliver_after: 99 },
        20,
      );
      await alerts.insertAlert({ ...base, dedup_key: 'c3', source: 'call:1', delivery: 'suppressed' }, 30);
      await alerts.insertAlert({ ...base, dedup_key: 'c4', source: 'call:2', delivery: 'now' }, 30);
      expect(await calls.alertsOf('call:1', 0)).toBe(2);
      expect(await calls.alertsOf('call:1', 10)).toBe(1);
      expect(await calls.alertsOf('call:1', 20)).toBe(0);
      expect(await calls.alertsOf('call:3', 0)).toBe(0);
    });

    it("counts and removes Demo mode's example call watches, with their answers", async () => {
      const mine = await calls.create(garage, 1);
      const ex = await calls.create(garage, 1, true);
      await calls.create(garage, 1, true);
      await calls.addAnswer(ex, answer(1), CALL_ANSWERS_KEPT);
      expect(await calls.exampleCount()).toBe(2);
      await calls.removeExamples();
      expect(await calls.exampleCount()).toBe(0);
      expect((await calls.list()).map((c) => c.id)).toEqual([mine]);
      expect(await bodies(ex)).toEqual([]);
    });

    it("joins the store's transaction: a throw rolls back a run's writes", async () => {
      const id = await calls.create(garage, 1);
      await calls.addAnswer(id, answer(1), CALL_ANSWERS_KEPT);
      await expect(
        transaction(async () => {
          await calls.addAnswer(id, answer(2, false), 1);
          await calls.runEnded(id, {
            at: 5,
            status: 500,
            ok: false,
            consecutive_failures: 1,
            last_error: 'Server error',
            refused_params: [],
            paused_reason: null,
          });
          expect(await calls.lastAnswerBad(id)).toBe(true);
          throw new Error('stop');
        }),
      ).rejects.toThrow('stop');
      expect(await calls.get(id)).toEqual(fresh(id, 1));
      expect(await bodies(id)).toEqual([{ at: 1_001, body: '{"n":1}' }]);
      expect(await calls.lastAnswerBad(id)).toBe(false);
    });
  });
}
