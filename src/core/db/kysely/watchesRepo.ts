import type { AlertRules } from '../../../shared/watch';
import { actingUserId } from '../members';
import type { Async, Store } from '../store';
import { nextSaleOf, toWatch, watchInsert, type WatchInput, type WatchRow } from '../watchRows';
import type { WatchesRepo } from '../watchesRepo';
import type { KyselyExec } from './exec';
import { memberNamesOf } from './members';

/**
 * The watchlist (`watches`) on either engine (docs/architecture.md "Two engines: one store"): the same methods and
 * meaning as WatchesRepo (the desktop's SQLite class, which defines them), through Kysely. Every query goes through
 * `exec.db`, so a call made inside Store.transaction joins it. Rows are read and written by the functions of
 * watchRows.ts that WatchesRepo uses too. No statement differs between the engines.
 */
export class KyselyWatchesRepo implements Async<WatchesRepo> {
  constructor(
    private readonly exec: KyselyExec,
    /** Which engine runs the queries (kept for the repositories' common shape; this one's SQL is the same on both). */
    readonly engine: Store['engine'],
  ) {}

  /**
   * The watched lot whose sale comes next after `now` (ms), from the stored lots (no request): the tray's tooltip.
   * Returns null when no watched lot has a sale time ahead. Two lots selling at the same time: the lower lot key.
   */
  async nextSale(now: number): Promise<{ lot_key: string; title: string; auction_at: number } | null> {
    const r = await this.exec.db
      .selectFrom('watches as w')
      .innerJoin('lots as l', 'l.lot_key', 'w.lot_key')
      .select(['l.lot_key', 'l.title', 'l.auction_at'])
      .where('l.auction_at', '>', now)
      .orderBy('l.auction_at')
      .orderBy('l.lot_key')
      .limit(1)
      .executeTakeFirst();
    return r && r.auction_at !== null ? nextSaleOf({ ...r, auction_at: r.auction_at }) : null;
  }

  /** Every watch, oldest first. */
  async listWatches(): Promise<WatchRow[]> {
    const rows = await this.exec.db.selectFrom('watches').selectAll().orderBy('id').execute();
    return rows.map(toWatch);
  }

  /** One watch, or null when there is none with this id. */
  async getWatch(id: number): Promise<WatchRow | null> {
    const r = await this.exec.db.selectFrom('watches').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? toWatch(r) : null;
  }

  /**
   * Adds a watch as the member the call acts for (`created_by`); input must be validated. Returns its id.
   * @throws the driver's unique-constraint error for a VIN or lot watched already (SqliteError
   *   SQLITE_CONSTRAINT_UNIQUE on SQLite, a pg DatabaseError with code 23505 on PostgreSQL); nothing is written.
   */
  async insertWatch(w: WatchInput, now: number): Promise<number> {
    const { now: at, by, ...cols } = watchInsert(w, now);
    const r = await this.exec.db
      .insertInto('watches')
      .values({ ...cols, created_at: at, updated_at: at, created_by: by, updated_by: by })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /**
   * Replaces a watch's rules and label as the member the call acts for (`updated_by`). With `expectedUpdatedAt` (ms)
   * only while its stored `updated_at` is that, in the same statement. Returns whether it was written (false: no
   * watch with this id, or it changed since).
   */
  async updateWatchRules(
    id: number,
    rules: AlertRules,
    label: string,
    now: number,
    expectedUpdatedAt?: number,
  ): Promise<boolean> {
    let q = this.exec.db
      .updateTable('watches')
      .set({ rules: JSON.stringify(rules), label, updated_at: now, updated_by: actingUserId() })
      .where('id', '=', id);
    if (expectedUpdatedAt !== undefined) q = q.where('updated_at', '=', expectedUpdatedAt);
    const r = await q.executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  /** Pauses (`paused` true) or resumes a watch as the member the call acts for; returns whether it exists. */
  async setPaused(id: number, paused: boolean, now: number): Promise<boolean> {
    const r = await this.exec.db
      .updateTable('watches')
      .set({ paused: paused ? 1 : 0, updated_at: now, updated_by: actingUserId() })
      .where('id', '=', id)
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  /** Removes a watch. */
  async deleteWatch(id: number): Promise<void> {
    await this.exec.db.deleteFrom('watches').where('id', '=', id).execute();
  }

  /** Records a successful check; a VIN watch learns its current lot, a lot watch its VIN. */
  async watchChecked(id: number, now: number, lotKey: string | null, vin: string | null): Promise<void> {
    await this.exec.db
      .updateTable('watches')
      .set((eb) => ({
        last_checked_at: now,
        consecutive_failures: 0,
        last_error: null,
        lot_key: eb.fn.coalesce(eb.val(lotKey), eb.ref('lot_key')),
        vin: eb.fn.coalesce(eb.ref('vin'), eb.val(vin)),
      }))
      .where('id', '=', id)
      .execute();
  }

  /** Records a failed check: one more failure in a row, with the error's message. */
  async watchFailed(id: number, now: number, message: string): Promise<void> {
    await this.exec.db
      .updateTable('watches')
      .set((eb) => ({
        last_checked_at: now,
        consecutive_failures: eb('consecutive_failures', '+', 1),
        last_error: message,
      }))
      .where('id', '=', id)
      .execute();
  }

  /**
   * Forgets each watch's stored error that begins with one of `prefixes` (the "could not reach the service" kind),
   * once the service answers again: a warning that no longer holds is not left on a row. Returns how many (a row
   * matched by two prefixes counts once, as on SQLite: the first clears it). One transaction.
   */
  async clearErrorsStartingWith(prefixes: readonly string[]): Promise<number> {
    if (prefixes.length === 0) return 0;
    return this.exec.transaction(async () => {
      let n = 0;
      for (const p of prefixes) {
        const r = await this.exec.db
          .updateTable('watches')
          .set({ last_error: null })
          .where((eb) => eb(eb.fn('substr', [eb.ref('last_error'), eb.lit(1), eb.val(p.length)]), '=', p))
          .executeTakeFirst();
        n += Number(r.numUpdatedRows);
      }
      return n;
    });
  }

  /** How many example watches there are. */
  async exampleCount(): Promise<number> {
    const r = await this.exec.db
      .selectFrom('watches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('is_example', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Deletes every example watch. */
  async deleteExampleWatches(): Promise<void> {
    await this.exec.db.deleteFrom('watches').where('is_example', '=', 1).execute();
  }

  /** The names of the members `ids` by id, for the views (WatchesRepo.memberNames); no query for none. */
  memberNames(ids: readonly number[]): Promise<Map<number, string>> {
    return memberNamesOf(this.exec, ids);
  }
}
