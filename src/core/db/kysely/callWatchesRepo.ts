import type { CallPauseReason } from '../../../shared/callWatch';
import {
  answerOf,
  lastWasBad,
  rowOf,
  runEndColumns,
  writeParams,
  type CallAnswerRow,
  type CallRunEnd,
  type CallWatchRow,
  type CallWatchWrite,
} from '../callWatchRows';
import type { CallWatchesRepo } from '../callWatchesRepo';
import { actingUserId } from '../members';
import type { Async, Store } from '../store';
import type { KyselyExec } from './exec';
import { memberNamesOf } from './members';

/**
 * The call watches and their answers on either engine (docs/architecture.md "Two engines: one store"; "Call
 * watches"): the same methods and meaning as CallWatchesRepo (the desktop's SQLite class, which defines them),
 * through Kysely. Every query goes through `exec.db`, so a run's writes made inside Store.transaction join it;
 * addAnswer's two statements run in one transaction of their own (or the open one). Rows are read and written by the
 * functions of callWatchRows.ts that CallWatchesRepo uses too. No statement differs between the engines.
 */
export class KyselyCallWatchesRepo implements Async<CallWatchesRepo> {
  constructor(
    private readonly exec: KyselyExec,
    /** Which engine runs the queries (kept for the repositories' common shape; this one's SQL is the same on both). */
    readonly engine: Store['engine'],
  ) {}

  /** Every call watch, oldest first. */
  async list(): Promise<CallWatchRow[]> {
    const rows = await this.exec.db.selectFrom('call_watches').selectAll().orderBy('id').execute();
    return rows.map(rowOf);
  }

  /** One call watch, or null when there is none with this id. */
  async get(id: number): Promise<CallWatchRow | null> {
    const r = await this.exec.db
      .selectFrom('call_watches')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return r ? rowOf(r) : null;
  }

  /**
   * Saves a new call watch (validated by the caller) as the member the call acts for (`created_by`); returns its
   * id. `example`: Demo mode's example.
   */
  async create(w: CallWatchWrite, now: number, example = false): Promise<number> {
    const { now: at, ...cols } = writeParams(w, now);
    const created_by = actingUserId();
    const r = await this.exec.db
      .insertInto('call_watches')
      .values({ ...cols, is_example: example ? 1 : 0, created_at: at, updated_at: at, created_by })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /** Rewrites a call watch's call, config, schedule, rules and pause (validated by the caller). */
  async update(id: number, w: CallWatchWrite, now: number): Promise<void> {
    const { now: at, ...cols } = writeParams(w, now);
    await this.exec.db
      .updateTable('call_watches')
      .set({ ...cols, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  /** Deletes a call watch and its answers (ON DELETE CASCADE). */
  async remove(id: number): Promise<void> {
    await this.exec.db.deleteFrom('call_watches').where('id', '=', id).execute();
  }

  /** Pauses (by `reason`) or resumes; resuming a watch that paused itself clears its failure count. */
  async setPaused(id: number, paused: boolean, reason: CallPauseReason, now: number): Promise<void> {
    await this.exec.db
      .updateTable('call_watches')
      .set((eb) => ({
        paused: paused ? 1 : 0,
        paused_reason: paused ? reason : null,
        // The row's reason before this write: a watch that paused itself starts counting its failures again.
        consecutive_failures: eb
          .case()
          .when('paused_reason', '=', 'failing')
          .then(eb.lit(0))
          .else(eb.ref('consecutive_failures'))
          .end(),
        updated_at: now,
      }))
      .where('id', '=', id)
      .execute();
  }

  /** Stores the end of a run on the watch row; `paused_reason` set: the watch pauses itself. */
  async runEnded(id: number, e: CallRunEnd): Promise<void> {
    const c = runEndColumns(e);
    await this.exec.db
      .updateTable('call_watches')
      .set({
        last_run_at: c.at,
        ...(c.ok === 1 ? { last_ok_at: c.at } : {}),
        last_status: c.status,
        consecutive_failures: c.consecutive_failures,
        last_error: c.last_error,
        refused_params: c.refused_params,
        ...(c.paused_reason === null ? {} : { paused: 1, paused_reason: c.paused_reason }),
      })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Stores one answer: its status, the body as received (JSON text, or null when there is none to keep), the extract
   * the diff reads, and whether it was good. Then keeps `body` on the last `kept` answers with a body only. One
   * transaction.
   */
  async addAnswer(
    watchId: number,
    a: { at: number; status: number; body: string | null; extract: string; good: boolean },
    kept: number,
  ): Promise<void> {
    await this.exec.transaction(async () => {
      const db = this.exec.db;
      await db
        .insertInto('call_answers')
        .values({
          watch_id: watchId,
          at: a.at,
          status: a.status,
          body: a.body,
          extract: a.extract,
          good: a.good ? 1 : 0,
        })
        .execute();
      await db
        .updateTable('call_answers')
        .set({ body: null })
        .where('watch_id', '=', watchId)
        .where('body', 'is not', null)
        .where((eb) =>
          eb(
            'id',
            '<',
            eb.fn.coalesce(
              eb
                .selectFrom('call_answers as k')
                .select('k.id')
                .where('k.watch_id', '=', watchId)
                .where('k.body', 'is not', null)
                .orderBy('k.id', 'desc')
                .limit(1)
                .offset(Math.max(0, kept - 1)),
              eb.lit(0),
            ),
          ),
        )
        .execute();
    });
  }

  /** The last good answer of a watch (the diff's `prev`), or null before the first. */
  async lastGoodAnswer(watchId: number): Promise<CallAnswerRow | null> {
    const r = await this.exec.db
      .selectFrom('call_answers')
      .selectAll()
      .where('watch_id', '=', watchId)
      .where('good', '=', 1)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return r ? answerOf(r) : null;
  }

  /** Whether the last stored answer of a watch was a bad one (a run of bad answers alerts once). */
  async lastAnswerBad(watchId: number): Promise<boolean> {
    const r = await this.exec.db
      .selectFrom('call_answers')
      .select('good')
      .where('watch_id', '=', watchId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return lastWasBad(r);
  }

  /** Alerts a poll target (`call:<id>`) raised after `since` (ms) that were not suppressed. */
  async alertsOf(source: string, since: number): Promise<number> {
    const r = await this.exec.db
      .selectFrom('alerts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('source', '=', source)
      .where('created_at', '>', since)
      .where('status', '<>', 'suppressed')
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Demo mode's example call watches: how many there are. */
  async exampleCount(): Promise<number> {
    const r = await this.exec.db
      .selectFrom('call_watches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('is_example', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** The names of the members `ids` by id, for the views (CallWatchesRepo.memberNames); no query for none. */
  memberNames(ids: readonly number[]): Promise<Map<number, string>> {
    return memberNamesOf(this.exec, ids);
  }

  /** Removes Demo mode's example call watches (with their answers). */
  async removeExamples(): Promise<void> {
    await this.exec.db.deleteFrom('call_watches').where('is_example', '=', 1).execute();
  }
}
