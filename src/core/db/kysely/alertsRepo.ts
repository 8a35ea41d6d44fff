import { sql, type Kysely } from 'kysely';
import { alertInsert, type AlertInsert, type AlertRow, type NewAlert } from '../alertRows';
import type { AlertsRepo } from '../alertsRepo';
import type { DB } from '../schema';
import type { Async, Store } from '../store';
import type { KyselyExec } from './exec';

/** What the alerts table's rows come back as from Kysely: AlertRow with its text columns as the table types them. */
type StoredAlert = Omit<AlertRow, 'kind' | 'delivery' | 'status'> & {
  kind: string;
  delivery: string;
  status: string;
};

/**
 * A stored alert row as AlertRow: the table's CHECK and the repositories' writes keep kind, delivery and status to
 * their sets, so the row is returned as read (the SQLite class returns the same row untouched).
 */
const asAlert = (r: StoredAlert): AlertRow => r as AlertRow;

/**
 * Inserts one alert unless one with its dedup_key is stored already, and returns the new row's id, or null when the
 * insert was ignored. SQLite: `INSERT OR IGNORE … RETURNING id` (the SQLite class's own statement, which also ignores
 * a row its constraints refuse); PostgreSQL: `ON CONFLICT (dedup_key) DO NOTHING RETURNING id` (a duplicate key only:
 * a row the table's CHECK refuses throws). A concurrent insert of the same key never fails either: on PostgreSQL the
 * second waits for the first's transaction to end, then is ignored if it committed.
 */
async function insertUnlessDuplicate(
  db: Kysely<DB>,
  engine: Store['engine'],
  row: AlertInsert,
): Promise<number | null> {
  const q = db.insertInto('alerts').values(row);
  const r = await (
    engine === 'sqlite' ? q.orIgnore() : q.onConflict((oc) => oc.column('dedup_key').doNothing())
  )
    .returning('id')
    .executeTakeFirst();
  return r?.id ?? null;
}

/**
 * The advisory lock every PostgreSQL transaction that inserts an alert holds until it ends ("LWAL"). Alert ids come
 * from a sequence when the row is inserted, and transactions commit in any order: without it, a poll's alert could
 * commit after a later id was routed, below every alert channel's cursor (channels/outbox.ts), and never be sent.
 * With it, ids are given in commit order. SQLite writes one transaction at a time already.
 */
const ALERT_ORDER_LOCK = 0x4c57414c;

/**
 * The alerts table as inbox (list, read state, unread count) and outbox (due rows, claim, delivered) on either
 * engine (docs/architecture.md "Two engines: one store"): the same methods and meaning as AlertsRepo (the desktop's
 * SQLite class, which defines them), through Kysely. Every query goes through `exec.db`, so a call made inside
 * Store.transaction joins it. An alert's columns are worked out by alertRows.ts, as for AlertsRepo.
 */
export class KyselyAlertsRepo implements Async<AlertsRepo> {
  constructor(
    private readonly exec: KyselyExec,
    private readonly engine: Store['engine'],
  ) {}

  /**
   * Stores an alert once: a second alert with the same dedup_key is ignored (returns null). Delivery `now` is queued
   * for notification, `digest` is held until deliver_after, `suppressed` only lands in the inbox. On PostgreSQL the
   * transaction holds ALERT_ORDER_LOCK until it ends, so alert ids follow commit order.
   */
  insertAlert(a: NewAlert, now: number): Promise<number | null> {
    const row = alertInsert(a, now);
    if (this.engine === 'sqlite') return insertUnlessDuplicate(this.exec.db, this.engine, row);
    // In a transaction of its own, or the caller's (joined): the lock lasts until that transaction ends.
    return this.exec.transaction(async () => {
      await sql`SELECT pg_advisory_xact_lock(${ALERT_ORDER_LOCK})`.execute(this.exec.db);
      return insertUnlessDuplicate(this.exec.db, this.engine, row);
    });
  }

  /** Alerts raised for a lot after `since` that were not suppressed (for the per-lot hourly cap). */
  async alertsForLotSince(lotKey: string, since: number): Promise<number> {
    const r = await this.exec.db
      .selectFrom('alerts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('lot_key', '=', lotKey)
      .where('created_at', '>', since)
      .where('status', '<>', 'suppressed')
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** The outbox: alerts to notify now, and digest alerts whose quiet hours have ended by `now`, oldest first. */
  async dueAlerts(now: number): Promise<AlertRow[]> {
    const rows = await this.exec.db
      .selectFrom('alerts')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('status', '=', 'pending'),
          eb.and([eb('status', '=', 'digest'), eb('deliver_after', '<=', now)]),
        ]),
      )
      .orderBy('id')
      .execute();
    return rows.map(asAlert);
  }

  /** When the earliest held (digest) alert may be delivered (ms; its quiet hours' end), or null when none is held. */
  async nextDigestAt(): Promise<number | null> {
    const r = await this.exec.db
      .selectFrom('alerts')
      .select((eb) => eb.fn.min('deliver_after').as('at'))
      .where('status', '=', 'digest')
      .executeTakeFirst();
    return r?.at ?? null;
  }

  /**
   * Claims an alert for notification before it is shown, so a crash after showing never shows it twice (at most
   * once; the inbox keeps it either way). Returns false when another delivery claimed it already: the claim is one
   * conditional UPDATE, so of two concurrent claims (two processes on one PostgreSQL database) exactly one wins.
   */
  async claimAlert(id: number): Promise<boolean> {
    const r = await this.exec.db
      .updateTable('alerts')
      .set({ status: 'claimed' })
      .where('id', '=', id)
      .where('status', 'in', ['pending', 'digest'])
      .executeTakeFirst();
    return r.numUpdatedRows === 1n;
  }

  /** Marks a claimed alert as shown. */
  async markDelivered(id: number, now: number): Promise<void> {
    await this.exec.db
      .updateTable('alerts')
      .set({ status: 'delivered', delivered_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Alerts left claimed: shown or not, a run stopped before marking them (one Lotwatch per data folder). */
  async claimedAlerts(): Promise<AlertRow[]> {
    const rows = await this.exec.db
      .selectFrom('alerts')
      .selectAll()
      .where('status', '=', 'claimed')
      .orderBy('id')
      .execute();
    return rows.map(asAlert);
  }

  /** Marks a left-claimed alert as named in the recovery notice written at `now` (ms). */
  async markRecovered(id: number, now: number): Promise<void> {
    await this.exec.db
      .updateTable('alerts')
      .set({ status: 'recovered', delivered_at: now })
      .where('id', '=', id)
      .where('status', '=', 'claimed')
      .execute();
  }

  /** A page of the inbox: unread first, then newest first, ids below `beforeId`; only unread ones if asked. */
  async list(unreadOnly: boolean, beforeId: number, limit: number): Promise<AlertRow[]> {
    let q = this.exec.db.selectFrom('alerts').selectAll().where('id', '<', beforeId);
    if (unreadOnly) q = q.where('read_at', 'is', null);
    const rows = await q
      .orderBy((eb) => eb('read_at', 'is', null), 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(asAlert);
  }

  /** How many inbox alerts are unread. */
  async unreadCount(): Promise<number> {
    const r = await this.exec.db
      .selectFrom('alerts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Marks one alert read at `now` (ms), or unread. */
  async setRead(id: number, read: boolean, now: number): Promise<void> {
    await this.exec.db
      .updateTable('alerts')
      .set({ read_at: read ? now : null })
      .where('id', '=', id)
      .execute();
  }

  /** New-match alerts raised for a source (a saved search's wire target, `search:<id>`) after `since` (ms). */
  async newMatchesSince(source: string, since: number): Promise<number> {
    const r = await this.exec.db
      .selectFrom('alerts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('kind', '=', 'new_match')
      .where('source', '=', source)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
