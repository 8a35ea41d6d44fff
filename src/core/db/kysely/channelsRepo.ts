import { sql } from 'kysely';
import type { DeliveryStatus } from '../../../shared/alertChannels';
import type { AlertRow } from '../alertsRepo';
import type { ChannelRow, ChannelsRepo, DeliveryLogRow, DeliveryRow } from '../channelsRepo';
import { streakOf } from '../repoLogic/channels';
import type { Async } from '../store';
import { jsonText, upsert, type Engine } from './engineSql';
import type { KyselyExec } from './exec';

/** The statuses of a delivery that may still go (routed, not yet claimed). */
const DUE_STATUSES: DeliveryStatus[] = ['held', 'pending'];
/** The statuses of a delivery whose message has not reached the receiver yet. */
const WAITING_STATUSES: DeliveryStatus[] = ['held', 'pending', 'sending'];

/** A delivery's columns as DeliveryRow has them (not `claimed_by`: which team server claims it is the claims' own). */
const DELIVERY_COLUMNS = [
  'd.id',
  'd.alert_id',
  'd.channel_id',
  'd.status',
  'd.not_before',
  'd.attempts',
  'd.message_key',
  'd.detail',
  'd.created_at',
  'd.attempted_at',
  'd.sent_at',
] as const;

/**
 * The advisory lock space of a team's servers (the first key of PostgreSQL's two-key advisory locks, "LWT" and 1):
 * a live server holds the session lock (SERVER_LOCK_SPACE, its number) on a connection of its own for as long as it
 * runs (core/team/leader.ts), and the server closes that session when the process dies, so a delivery's
 * `claimed_by` names a live server exactly while that lock is held. Two-key locks never meet the one-key locks of
 * the migrations and the alert order.
 */
export const SERVER_LOCK_SPACE = 0x4c575401;

/**
 * ChannelsRepo (channelsRepo.ts, which defines each method's meaning) over Kysely, on either engine: the alert
 * channels and their per-channel outbox. Every query goes through `exec.db`, so a call made inside the store's
 * transaction joins it; the methods that write several rows (claim, markSent) run in one transaction of their own
 * (or the caller's). Each method throws only the driver's errors.
 */
export class KyselyChannelsRepo implements Async<ChannelsRepo> {
  /** The team's server this repository claims deliveries for (claimAs), or null: one process sends. */
  private claimer: number | null = null;

  constructor(
    private readonly exec: KyselyExec,
    private readonly engine: Engine,
  ) {}

  /**
   * Names the team's server that claims deliveries through this repository from now on: its number, whose lock
   * (SERVER_LOCK_SPACE) its own connection holds (core/team/leader.ts). Claims then record it (`claimed_by`), and on
   * PostgreSQL `leftSending` takes over only the rows of servers that are gone, so it may be called while other
   * servers (and this one) send. Without it (null) `leftSending` gives every row left `sending`, for a start only.
   */
  claimAs(serverId: number | null): void {
    this.claimer = serverId;
  }

  /** Deliveries with their alert's texts (DeliveryRow), to be narrowed and ordered by the caller. */
  private withAlert() {
    return this.exec.db
      .selectFrom('deliveries as d')
      .innerJoin('alerts as a', 'a.id', 'd.alert_id')
      .select(DELIVERY_COLUMNS)
      .select(['a.kind', 'a.title', 'a.body', 'a.lot_key', 'a.url', 'a.created_at as alert_created_at']);
  }

  /** Deliveries with their alert's texts and their channel's name (DeliveryLogRow; '' for a channel without one). */
  private withChannel() {
    return this.withAlert()
      .innerJoin('channels as c', 'c.id', 'd.channel_id')
      .select((eb) =>
        eb.fn.coalesce(jsonText(this.engine, eb.ref('c.settings'), 'name'), sql.lit('')).as('channel_name'),
      );
  }

  /** Every channel, oldest first. */
  async list(): Promise<ChannelRow[]> {
    return this.exec.db.selectFrom('channels').selectAll().orderBy('id').execute();
  }

  /** One channel, or undefined. */
  async get(id: number): Promise<ChannelRow | undefined> {
    return this.exec.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Stores a new channel that routes alerts after `cursor` (the newest alert id now), owned by team member
   * `ownerId` (null: the local owner's); returns its id.
   */
  async insert(
    type: string,
    settings: string,
    cursor: number,
    now: number,
    ownerId: number | null = null,
  ): Promise<number> {
    const r = await this.exec.db
      .insertInto('channels')
      .values({ type, settings, cursor, created_at: now, updated_at: now, owner_id: ownerId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  /** Replaces a channel's settings JSON. */
  async update(id: number, settings: string, now: number): Promise<void> {
    await this.exec.db
      .updateTable('channels')
      .set({ settings, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Moves a channel's cursor (the last alert id routed to it). */
  async setCursor(id: number, cursor: number): Promise<void> {
    await this.exec.db.updateTable('channels').set({ cursor }).where('id', '=', id).execute();
  }

  /** Deletes a channel and (cascade) its deliveries; false when there was no such channel. */
  async remove(id: number): Promise<boolean> {
    const r = await this.exec.db.deleteFrom('channels').where('id', '=', id).executeTakeFirst();
    return r.numDeletedRows === 1n;
  }

  /** A message got through at `now` (ms): the failure streak ends. */
  async recordSuccess(id: number, now: number): Promise<void> {
    await this.exec.db
      .updateTable('channels')
      .set({ failures: 0, failing_since: null, last_error: null, last_sent_at: now })
      .where('id', '=', id)
      .execute();
  }

  /**
   * An attempt failed at `now` (ms) with `error` (the buyer's words); returns the streak, this one counted (one
   * statement: the update returns the row as it left it).
   * @throws NoResultError when there is no such channel (the SQLite repository throws a TypeError there).
   */
  async recordFailure(id: number, error: string, now: number): Promise<{ failures: number; since: number }> {
    const r = await this.exec.db
      .updateTable('channels')
      .set((eb) => ({
        failures: eb('failures', '+', 1),
        failing_since: eb.fn.coalesce('failing_since', eb.val(now)),
        last_error: error,
      }))
      .where('id', '=', id)
      .returning(['failures', 'failing_since'])
      .executeTakeFirstOrThrow();
    return streakOf(r, now);
  }

  /** The buyer changed the channel: its streak starts over (a fixed password must not inherit the old failures). */
  async clearHealth(id: number): Promise<void> {
    await this.exec.db
      .updateTable('channels')
      .set({ failures: 0, failing_since: null, last_error: null })
      .where('id', '=', id)
      .execute();
  }

  /** The newest alert id, 0 with none: where a new or re-enabled channel starts. */
  async newestAlertId(): Promise<number> {
    const r = await this.exec.db
      .selectFrom('alerts')
      .select((eb) => eb.fn.max<number | null>('id').as('id'))
      .executeTakeFirst();
    return r?.id ?? 0;
  }

  /** Alerts after id `cursor`, oldest first, at most `limit`. */
  async alertsAfter(cursor: number, limit: number): Promise<AlertRow[]> {
    const rows = await this.exec.db
      .selectFrom('alerts')
      .selectAll()
      .where('id', '>', cursor)
      .orderBy('id')
      .limit(limit)
      .execute();
    // kind, delivery and status hold only the words AlertsRepo writes.
    return rows as AlertRow[];
  }

  /** Routes one alert to one channel (once: a second call for the pair does nothing). */
  async addDelivery(
    alertId: number,
    channelId: number,
    status: DeliveryStatus,
    notBefore: number,
    detail: string | null,
    now: number,
  ): Promise<void> {
    await upsert(
      this.engine,
      this.exec.db.insertInto('deliveries').values({
        alert_id: alertId,
        channel_id: channelId,
        status,
        not_before: notBefore,
        detail,
        created_at: now,
      }),
      ['alert_id', 'channel_id'],
    ).execute();
  }

  /** A channel's deliveries that may go at `now` (held ones whose quiet hours ended, pending ones due), oldest first. */
  async dueFor(channelId: number, now: number): Promise<DeliveryRow[]> {
    const rows = await this.withAlert()
      .where('d.channel_id', '=', channelId)
      .where('d.status', 'in', DUE_STATUSES)
      .where('d.not_before', '<=', now)
      .orderBy('d.id')
      .execute();
    return rows as DeliveryRow[];
  }

  /**
   * Claims deliveries for one message before it leaves: `sending`, attempts + 1, the message key, the claiming
   * server (claimAs). Returns false (and claims no further row: the caller runs it in a transaction and rolls back)
   * unless every row was still due. On PostgreSQL the rows are first locked with FOR UPDATE SKIP LOCKED: when
   * another server of the team is claiming one of them at this moment, this claim gives up at once (false) instead
   * of waiting for it, so two servers never send one delivery at once. Runs in one transaction (the caller's, when
   * called inside one).
   */
  async claim(ids: readonly number[], key: string, now: number): Promise<boolean> {
    return this.exec.transaction(async () => {
      if (this.engine === 'postgres' && ids.length) {
        const free = await this.exec.db
          .selectFrom('deliveries')
          .select('id')
          .where('id', 'in', ids)
          .where('status', 'in', DUE_STATUSES)
          .forUpdate()
          .skipLocked()
          .execute();
        if (free.length !== new Set(ids).size) return false;
      }
      for (const id of ids) {
        const r = await this.exec.db
          .updateTable('deliveries')
          .set((eb) => ({
            status: 'sending',
            attempts: eb('attempts', '+', 1),
            attempted_at: now,
            message_key: key,
            claimed_by: this.claimer,
          }))
          .where('id', '=', id)
          .where('status', 'in', DUE_STATUSES)
          .executeTakeFirst();
        if (r.numUpdatedRows !== 1n) return false;
      }
      return true;
    });
  }

  /**
   * The receiver accepted the message carrying `ids` at `now`; `detail` is the sender's line for the log. Only rows
   * still `sending` change. Runs in one transaction (the caller's, when called inside one).
   */
  async markSent(ids: readonly number[], now: number, detail: string): Promise<void> {
    await this.exec.transaction(async () => {
      for (const id of ids)
        await this.exec.db
          .updateTable('deliveries')
          .set({ status: 'sent', sent_at: now, detail })
          .where('id', '=', id)
          .where('status', '=', 'sending')
          .execute();
    });
  }

  /** Puts a delivery back (`held`/`pending` with when it may go again) or gives it up (`failed`), with why. */
  async setStatus(id: number, status: DeliveryStatus, notBefore: number, detail: string): Promise<void> {
    await this.exec.db
      .updateTable('deliveries')
      .set({ status, not_before: notBefore, detail })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Deliveries a stopped run left `sending`: the receiver may or may not have the message. On a team's server
   * (claimAs, PostgreSQL) only those of servers that are gone (no session holds their SERVER_LOCK_SPACE lock, or
   * claimed before the team had numbers), never this server's own nor a live server's: they are taken over in the
   * same statement (`claimed_by` becomes this server; rows another server is taking this moment are skipped), so
   * when several servers look at once each row goes to one of them. Elsewhere every row left `sending`.
   */
  async leftSending(): Promise<DeliveryRow[]> {
    const me = this.claimer;
    if (this.engine !== 'postgres' || me === null) {
      const rows = await this.withAlert().where('d.status', '=', 'sending').orderBy('d.id').execute();
      return rows as DeliveryRow[];
    }
    const taken = await sql<{ id: number }>`UPDATE deliveries SET claimed_by = ${me} WHERE id IN (
        SELECT s.id FROM deliveries s WHERE s.status = 'sending' AND s.claimed_by IS DISTINCT FROM ${me}
          AND NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted
            AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND l.classid::bigint = ${SERVER_LOCK_SPACE} AND l.objid::bigint = s.claimed_by AND l.objsubid = 2)
        FOR UPDATE SKIP LOCKED)
      RETURNING id`.execute(this.exec.db);
    if (!taken.rows.length) return [];
    const rows = await this.withAlert()
      .where(
        'd.id',
        'in',
        taken.rows.map((r) => r.id),
      )
      .orderBy('d.id')
      .execute();
    return rows as DeliveryRow[];
  }

  /** When a channel's earliest held or pending delivery may go (ms), or null with none waiting. */
  async nextDueFor(channelId: number): Promise<number | null> {
    const r = await this.exec.db
      .selectFrom('deliveries')
      .select((eb) => eb.fn.min<number | null>('not_before').as('at'))
      .where('channel_id', '=', channelId)
      .where('status', 'in', DUE_STATUSES)
      .executeTakeFirst();
    return r?.at ?? null;
  }

  /** How many of a channel's messages wait (held, pending or sending). */
  async waitingFor(channelId: number): Promise<number> {
    const r = await this.exec.db
      .selectFrom('deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('channel_id', '=', channelId)
      .where('status', 'in', WAITING_STATUSES)
      .executeTakeFirstOrThrow();
    return r.n;
  }

  /** The newest `limit` deliveries of the channels of `ownerId` (null: the local owner's), newest first. */
  async log(limit: number, ownerId: number | null = null): Promise<DeliveryLogRow[]> {
    const rows = await this.withChannel()
      .where('c.owner_id', ownerId === null ? 'is' : '=', ownerId)
      .orderBy('d.id', 'desc')
      .limit(limit)
      .execute();
    return rows as DeliveryLogRow[];
  }

  /** One alert's deliveries to the channels of `ownerId` (null: the local owner's), in routing order. */
  async forAlert(alertId: number, ownerId: number | null = null): Promise<DeliveryLogRow[]> {
    const rows = await this.withChannel()
      .where('d.alert_id', '=', alertId)
      .where('c.owner_id', ownerId === null ? 'is' : '=', ownerId)
      .orderBy('d.id')
      .execute();
    return rows as DeliveryLogRow[];
  }

  /** Makes a channel's waiting retries due at `now` (ms): after the buyer fixed it, no need to wait out the backoff. */
  async retryNow(channelId: number, now: number): Promise<void> {
    await this.exec.db
      .updateTable('deliveries')
      .set({ not_before: now })
      .where('channel_id', '=', channelId)
      .where('status', '=', 'pending')
      .execute();
  }
}
