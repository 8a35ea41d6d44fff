import type { Database, Statement } from 'better-sqlite3';
import { insertedId, type CountRow } from './rows';
import { alertInsert, type AlertInsert, type AlertRow, type NewAlert } from './alertRows';

export type { AlertRow, NewAlert } from './alertRows';

/**
 * The alerts table as inbox (list, read state, unread count) and outbox (due rows, claim, delivered). An alert is
 * stored once per dedup key; the outbox claims a row before it is shown, so a crash never shows it twice.
 */
export class AlertsRepo {
  private readonly insertOne: Statement<[AlertInsert]>;
  private readonly forLotSince: Statement<[string, number], CountRow>;
  private readonly due: Statement<[number], AlertRow>;
  private readonly digestAt: Statement<[], { at: number | null }>;
  private readonly claim: Statement<[number]>;
  private readonly delivered: Statement<[number, number]>;
  private readonly claimedRows: Statement<[], AlertRow>;
  private readonly recovered: Statement<[number, number]>;
  private readonly page: Statement<[number, number, number], AlertRow>;
  private readonly unread: Statement<[], CountRow>;
  private readonly read: Statement<[number, number]>;
  private readonly unreadOne: Statement<[number]>;
  private readonly newMatches: Statement<[string, number], CountRow>;

  constructor(db: Database) {
    this.insertOne =
      db.prepare(`INSERT OR IGNORE INTO alerts (dedup_key, kind, lot_key, change_id, source, title, body, reason,
      created_at, delivery, status, deliver_after, url) VALUES (@dedup_key, @kind, @lot_key, @change_id, @source, @title,
      @body, @reason, @created_at, @delivery, @status, @deliver_after, @url)`);
    this.forLotSince = db.prepare(
      "SELECT count(*) AS n FROM alerts WHERE lot_key = ? AND created_at > ? AND status <> 'suppressed'",
    );
    this.due = db.prepare(`SELECT * FROM alerts WHERE status = 'pending'
      OR (status = 'digest' AND deliver_after <= ?) ORDER BY id`);
    this.digestAt = db.prepare("SELECT min(deliver_after) AS at FROM alerts WHERE status = 'digest'");
    this.claim = db.prepare(
      "UPDATE alerts SET status = 'claimed' WHERE id = ? AND status IN ('pending', 'digest')",
    );
    this.delivered = db.prepare("UPDATE alerts SET status = 'delivered', delivered_at = ? WHERE id = ?");
    this.claimedRows = db.prepare("SELECT * FROM alerts WHERE status = 'claimed' ORDER BY id");
    this.recovered = db.prepare(
      "UPDATE alerts SET status = 'recovered', delivered_at = ? WHERE id = ? AND status = 'claimed'",
    );
    this.page = db.prepare(`SELECT * FROM alerts WHERE (? = 0 OR read_at IS NULL) AND id < ?
      ORDER BY (read_at IS NULL) DESC, id DESC LIMIT ?`);
    this.unread = db.prepare('SELECT count(*) AS n FROM alerts WHERE read_at IS NULL');
    this.read = db.prepare('UPDATE alerts SET read_at = ? WHERE id = ?');
    this.unreadOne = db.prepare('UPDATE alerts SET read_at = NULL WHERE id = ?');
    this.newMatches = db.prepare(
      `SELECT count(*) AS n FROM alerts WHERE kind = 'new_match' AND source = ? AND created_at > ?`,
    );
  }

  /**
   * Stores an alert once: a second alert with the same dedup_key is ignored (returns null). Delivery `now` is queued
   * for notification, `digest` is held until deliver_after, `suppressed` only lands in the inbox.
   */
  insertAlert(a: NewAlert, now: number): number | null {
    const r = this.insertOne.run(alertInsert(a, now));
    return r.changes === 1 ? insertedId(r) : null;
  }

  /** Alerts raised for a lot after `since` that were not suppressed (for the per-lot hourly cap). */
  alertsForLotSince(lotKey: string, since: number): number {
    return this.forLotSince.get(lotKey, since)!.n;
  }

  /** The outbox: alerts to notify now, and digest alerts whose quiet hours have ended by `now`. */
  dueAlerts(now: number): AlertRow[] {
    return this.due.all(now);
  }

  /** When the earliest held (digest) alert may be delivered (ms; its quiet hours' end), or null when none is held. */
  nextDigestAt(): number | null {
    return this.digestAt.get()?.at ?? null;
  }

  /**
   * Claims an alert for notification before it is shown, so a crash after showing never shows it twice (at most
   * once; the inbox keeps it either way). Returns false when another delivery claimed it already.
   */
  claimAlert(id: number): boolean {
    return this.claim.run(id).changes === 1;
  }

  /** Marks a claimed alert as shown. */
  markDelivered(id: number, now: number): void {
    this.delivered.run(now, id);
  }

  /** Alerts left claimed: shown or not, a run stopped before marking them (one Lotwatch per data folder). */
  claimedAlerts(): AlertRow[] {
    return this.claimedRows.all();
  }

  /** Marks a left-claimed alert as named in the recovery notice written at `now` (ms). */
  markRecovered(id: number, now: number): void {
    this.recovered.run(now, id);
  }

  /** A page of the inbox: unread first, then newest first, ids below `beforeId`; only unread ones if asked. */
  list(unreadOnly: boolean, beforeId: number, limit: number): AlertRow[] {
    return this.page.all(unreadOnly ? 1 : 0, beforeId, limit);
  }

  /** How many inbox alerts are unread. */
  unreadCount(): number {
    return this.unread.get()!.n;
  }

  /** Marks one alert read at `now` (ms), or unread. */
  setRead(id: number, read: boolean, now: number): void {
    if (read) this.read.run(now, id);
    else this.unreadOne.run(id);
  }

  /** New-match alerts raised for a source (a saved search's wire target, `search:<id>`) after `since` (ms). */
  newMatchesSince(source: string, since: number): number {
    return this.newMatches.get(source, since)!.n;
  }
}
