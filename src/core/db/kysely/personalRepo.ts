import { sql, type Expression, type SqlBool } from 'kysely';
import type { AlertRow } from '../alertRows';
import type { LotPrefsRow, LotPrefsWrite, PersonalRepo } from '../personalRepo';
import type { Async } from '../store';
import { upsert, type Engine } from './engineSql';
import type { KyselyExec } from './exec';

/** The alert's columns a member's inbox reads (its read state comes from `alert_reads`). */
const ALERT_COLUMNS = [
  'a.id',
  'a.dedup_key',
  'a.kind',
  'a.lot_key',
  'a.change_id',
  'a.source',
  'a.title',
  'a.body',
  'a.reason',
  'a.created_at',
  'a.delivery',
  'a.status',
  'a.deliver_after',
  'a.delivered_at',
  'a.url',
] as const;

/**
 * Whether member `userId` sees alert `a` in their inbox (personalRepo.ts says the same in SQLite's words): not when
 * its lot is one they muted, nor when it is a failing-channel alert of a channel that is not theirs.
 */
function visible(userId: number): Expression<SqlBool> {
  return sql<SqlBool>`NOT EXISTS (SELECT 1 FROM lot_user_prefs p WHERE p.user_id = ${userId}
    AND p.lot_key = a.lot_key AND p.muted = 1)
    AND NOT (a.kind = 'channel_failing' AND NOT EXISTS (SELECT 1 FROM channels c WHERE c.owner_id = ${userId}
    AND 'channel:' || c.id = a.source))`;
}

/**
 * PersonalRepo (personalRepo.ts, which defines each method's meaning) over Kysely, on either engine: each team
 * member's read state, personal settings and lot mutes and snoozes. Every query goes through `exec.db`, so a call
 * made inside the store's transaction joins it. Each method throws only the driver's errors.
 */
export class KyselyPersonalRepo implements Async<PersonalRepo> {
  constructor(
    private readonly exec: KyselyExec,
    private readonly engine: Engine,
  ) {}

  /** A page of member `userId`'s inbox with their own read state; see PersonalRepo.listAlerts. */
  async listAlerts(
    userId: number,
    unreadOnly: boolean,
    beforeId: number,
    limit: number,
  ): Promise<AlertRow[]> {
    let q = this.exec.db
      .selectFrom('alerts as a')
      .leftJoin('alert_reads as r', (j) => j.onRef('r.alert_id', '=', 'a.id').on('r.user_id', '=', userId))
      .select([...ALERT_COLUMNS, 'r.read_at'])
      .where('a.id', '<', beforeId)
      .where(visible(userId));
    if (unreadOnly) q = q.where('r.read_at', 'is', null);
    const rows = await q
      .orderBy((eb) => eb('r.read_at', 'is', null), 'desc')
      .orderBy('a.id', 'desc')
      .limit(limit)
      .execute();
    // The table's CHECK and the repositories' writes keep kind, delivery and status to their sets.
    return rows.map((r) => ({ ...r, read_at: r.read_at ?? null }) as AlertRow);
  }

  /** How many alerts of member `userId`'s inbox they have not read. */
  async unreadCount(userId: number): Promise<number> {
    const r = await this.exec.db
      .selectFrom('alerts as a')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('alert_reads as r')
              .select('r.alert_id')
              .whereRef('r.alert_id', '=', 'a.id')
              .where('r.user_id', '=', userId),
          ),
        ),
      )
      .where(visible(userId))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Marks one alert read by member `userId` at `now` (ms; a second mark keeps the first time), or unread. */
  async setRead(userId: number, alertId: number, read: boolean, now: number): Promise<void> {
    if (!read) {
      await this.exec.db
        .deleteFrom('alert_reads')
        .where('user_id', '=', userId)
        .where('alert_id', '=', alertId)
        .execute();
      return;
    }
    await this.exec.db
      .insertInto('alert_reads')
      .values({ user_id: userId, alert_id: alertId, read_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'alert_id']).doNothing())
      .execute();
  }

  /** Member `userId`'s own mute, snooze and max bid of every lot they set one for, by lot key. */
  async lotPrefs(userId: number): Promise<LotPrefsRow[]> {
    return this.exec.db
      .selectFrom('lot_user_prefs')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('lot_key')
      .execute();
  }

  /** Writes member `userId`'s whole row for `lotKey` at `now` (ms). */
  async setLotPrefs(userId: number, lotKey: string, p: LotPrefsWrite, now: number): Promise<void> {
    await upsert(
      this.engine,
      this.exec.db
        .insertInto('lot_user_prefs')
        .values({ ...p, user_id: userId, lot_key: lotKey, updated_at: now }),
      ['user_id', 'lot_key'],
      ['muted', 'snooze_until', 'snooze_until_event', 'snoozed_at', 'max_bid_usd', 'updated_at'],
    ).execute();
  }

  /** The id of the first alert of `kind` raised for `lotKey` at or after `since` (ms), or null. */
  async firstAlertOfKind(lotKey: string, kind: string, since: number): Promise<number | null> {
    const r = await this.exec.db
      .selectFrom('alerts')
      .select((eb) => eb.fn.min('id').as('id'))
      .where('lot_key', '=', lotKey)
      .where('kind', '=', kind)
      .where('created_at', '>=', since)
      .executeTakeFirst();
    return r?.id ?? null;
  }

  /** Member `userId`'s personal settings as stored: key and JSON value of each. */
  async settings(userId: number): Promise<{ key: string; value: string }[]> {
    return this.exec.db
      .selectFrom('user_prefs')
      .select(['key', 'value'])
      .where('user_id', '=', userId)
      .orderBy('key')
      .execute();
  }

  /** Writes member `userId`'s personal settings (key and JSON value of each) at `now` (ms), in one transaction. */
  async setSettings(
    userId: number,
    rows: readonly (readonly [string, string])[],
    now: number,
  ): Promise<void> {
    await this.exec.transaction(async () => {
      for (const [key, value] of rows) {
        await upsert(
          this.engine,
          this.exec.db.insertInto('user_prefs').values({ user_id: userId, key, value, updated_at: now }),
          ['user_id', 'key'],
          ['value', 'updated_at'],
        ).execute();
      }
    });
  }
}
