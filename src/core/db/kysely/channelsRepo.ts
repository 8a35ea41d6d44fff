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

/**
 * ChannelsRepo (channelsRepo.ts, which defines each method's meaning) over Kysely, on either engine: the alert
 * channels and their per-channel outbox. Every query goes through `exec.db`, so a call made inside the store's
 * transaction joins it; the methods that write several rows (claim, markSent) run in one transaction of their own
 * (or the caller's). Each method throws only the driver's errors.
 */
export class KyselyChannelsRepo implements Async<ChannelsRepo> {
  constructor(
    private readonly exec: KyselyExec,
    private readonly engine: Engine,
  ) {}

  /** Deliveries with their alert's texts (DeliveryRow), to be narrowed and ordered by the caller. */
  private withAlert() {
    return this.exec.db
      .selectFrom('deliveries as d')
      .innerJoin('alerts as a', 'a.id', 'd.alert_id')
      .selectAll('d')
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

  /** Stores a new channel that routes alerts after `cursor` (the newest alert id now); returns its id. */
  async insert(type: string, settings: string, cursor: number, now: number): Promise<number> {
    const r = await this.exec.db
      .insertInto('channels')
      .values({ type, settings, cursor, created_at: now, updated_at: now })
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
   * Claims deliveries for one message before it leaves: `sending`, attempts + 1, the message key. Returns false
   * (and claims no further row: the caller runs it in a transaction and rolls back) unless every row was still due.
   * Runs in one transaction (the caller's, when called inside one).
   */
  async claim(ids: readonly number[], key: string, now: number): Promise<boolean> {
    return this.exec.transaction(async () => {
      for (const id of ids) {
        const r = await this.exec.db
          .updateTable('deliveries')
          .set((eb) => ({
            status: 'sending',
            attempts: eb('attempts', '+', 1),
            attempted_at: now,
            message_key: key,
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

  /** Deliveries a stopped run left `sending`: the receiver may or may not have the message. */
  async leftSending(): Promise<DeliveryRow[]> {
    const rows = await this.withAlert().where('d.status', '=', 'sending').orderBy('d.id').execute();
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

  /** The newest `limit` deliveries of every channel, newest first. */
  async log(limit: number): Promise<DeliveryLogRow[]> {
    const rows = await this.withChannel().orderBy('d.id', 'desc').limit(limit).execute();
    return rows as DeliveryLogRow[];
  }

  /** One alert's deliveries, in routing order. */
  async forAlert(alertId: number): Promise<DeliveryLogRow[]> {
    const rows = await this.withChannel().where('d.alert_id', '=', alertId).orderBy('d.id').execute();
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
