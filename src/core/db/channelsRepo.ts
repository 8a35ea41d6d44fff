import type { Database, Statement } from 'better-sqlite3';
import type { DeliveryStatus } from '../../shared/alertChannels';
import type { AlertRow } from './alertsRepo';
import { streakOf } from './repoLogic/channels';
import { insertedId, type CountRow } from './rows';

/** A stored alert channel; `settings` is ChannelSettingsSchema's JSON (never a secret). Times in ms. */
export interface ChannelRow {
  id: number;
  type: string;
  settings: string;
  /** The last alert id routed to this channel. */
  cursor: number;
  /** Failed attempts in a row; 0 after a success. */
  failures: number;
  failing_since: number | null;
  last_error: string | null;
  last_sent_at: number | null;
  created_at: number;
  updated_at: number;
  /** The team member the channel belongs to (their alerts, quiet hours, mutes); null: the local owner's. */
  owner_id: number | null;
}

/** One alert's delivery to one channel, with the alert's texts (the message is built from them). */
export interface DeliveryRow {
  id: number;
  alert_id: number;
  channel_id: number;
  status: DeliveryStatus;
  not_before: number;
  attempts: number;
  message_key: string | null;
  detail: string | null;
  created_at: number;
  attempted_at: number | null;
  sent_at: number | null;
  kind: string;
  title: string;
  body: string;
  /** The alert's own link (a call watch's item), or null. */
  url: string | null;
  lot_key: string | null;
  alert_created_at: number;
}

/** A delivery as the log shows it: the row, the alert's title and the channel's name. */
export interface DeliveryLogRow extends DeliveryRow {
  channel_name: string;
}

/** A delivery's columns as DeliveryRow has them (not `claimed_by`: which team server claims it is the claims' own). */
const DELIVERY = `d.id, d.alert_id, d.channel_id, d.status, d.not_before, d.attempts, d.message_key, d.detail,
  d.created_at, d.attempted_at, d.sent_at`;
const WITH_ALERT = `SELECT ${DELIVERY}, a.kind, a.title, a.body, a.lot_key, a.url, a.created_at AS alert_created_at
  FROM deliveries d JOIN alerts a ON a.id = d.alert_id`;
const WITH_CHANNEL = `SELECT ${DELIVERY}, a.kind, a.title, a.body, a.lot_key, a.url, a.created_at AS alert_created_at,
  coalesce(json_extract(c.settings, '$.name'), '') AS channel_name
  FROM deliveries d JOIN alerts a ON a.id = d.alert_id JOIN channels c ON c.id = d.channel_id`;

/**
 * The alert channels and their per-channel outbox (docs/architecture.md "Delivery"). A delivery row is written once
 * per alert and channel (UNIQUE), claimed (`sending`, attempts + 1, its message key) in a committed write before
 * the message leaves, and marked `sent` after the receiver accepted it: so a stop in between is found at the next
 * start, and nothing is routed twice.
 */
export class ChannelsRepo {
  private readonly all: Statement<[], ChannelRow>;
  private readonly one: Statement<[number], ChannelRow>;
  private readonly insertOne: Statement<[string, string, number, number, number, number | null]>;
  private readonly updateOne: Statement<[string, number, number]>;
  private readonly cursorOne: Statement<[number, number]>;
  private readonly deleteOne: Statement<[number]>;
  private readonly ok: Statement<[number, number]>;
  private readonly fail: Statement<[number, string, number]>;
  private readonly resetHealth: Statement<[number]>;
  private readonly maxAlert: Statement<[], { id: number | null }>;
  private readonly after: Statement<[number, number], AlertRow>;
  private readonly insertDelivery: Statement<[number, number, DeliveryStatus, number, string | null, number]>;
  private readonly due: Statement<[number, number], DeliveryRow>;
  private readonly claimOne: Statement<[number, string, number]>;
  private readonly sentOne: Statement<[number, string, number]>;
  private readonly retryOne: Statement<[DeliveryStatus, number, string, number]>;
  private readonly sendingRows: Statement<[], DeliveryRow>;
  private readonly nextDueAt: Statement<[number], { at: number | null }>;
  private readonly waiting: Statement<[number], CountRow>;
  private readonly recent: Statement<[number | null, number], DeliveryLogRow>;
  private readonly ofAlert: Statement<[number, number | null], DeliveryLogRow>;
  private readonly now: Statement<[number, number]>;

  constructor(db: Database) {
    this.all = db.prepare('SELECT * FROM channels ORDER BY id');
    this.one = db.prepare('SELECT * FROM channels WHERE id = ?');
    this.insertOne = db.prepare(
      'INSERT INTO channels (type, settings, cursor, created_at, updated_at, owner_id) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.updateOne = db.prepare('UPDATE channels SET settings = ?, updated_at = ? WHERE id = ?');
    this.cursorOne = db.prepare('UPDATE channels SET cursor = ? WHERE id = ?');
    this.deleteOne = db.prepare('DELETE FROM channels WHERE id = ?');
    this.ok =
      db.prepare(`UPDATE channels SET failures = 0, failing_since = NULL, last_error = NULL, last_sent_at = ?
      WHERE id = ?`);
    this.fail =
      db.prepare(`UPDATE channels SET failures = failures + 1, failing_since = coalesce(failing_since, ?),
      last_error = ? WHERE id = ?`);
    this.resetHealth = db.prepare(
      'UPDATE channels SET failures = 0, failing_since = NULL, last_error = NULL WHERE id = ?',
    );
    this.maxAlert = db.prepare('SELECT max(id) AS id FROM alerts');
    this.after = db.prepare('SELECT * FROM alerts WHERE id > ? ORDER BY id LIMIT ?');
    this.insertDelivery =
      db.prepare(`INSERT OR IGNORE INTO deliveries (alert_id, channel_id, status, not_before,
      detail, created_at) VALUES (?, ?, ?, ?, ?, ?)`);
    this.due = db.prepare(`${WITH_ALERT} WHERE d.channel_id = ? AND d.status IN ('held', 'pending')
      AND d.not_before <= ? ORDER BY d.id`);
    this.claimOne =
      db.prepare(`UPDATE deliveries SET status = 'sending', attempts = attempts + 1, attempted_at = ?,
      message_key = ? WHERE id = ? AND status IN ('held', 'pending')`);
    this.sentOne = db.prepare(`UPDATE deliveries SET status = 'sent', sent_at = ?, detail = ? WHERE id = ?
      AND status = 'sending'`);
    this.retryOne = db.prepare('UPDATE deliveries SET status = ?, not_before = ?, detail = ? WHERE id = ?');
    this.sendingRows = db.prepare(`${WITH_ALERT} WHERE d.status = 'sending' ORDER BY d.id`);
    this.nextDueAt = db.prepare(`SELECT min(not_before) AS at FROM deliveries WHERE channel_id = ?
      AND status IN ('held', 'pending')`);
    this.waiting = db.prepare(
      "SELECT count(*) AS n FROM deliveries WHERE channel_id = ? AND status IN ('held', 'pending', 'sending')",
    );
    this.recent = db.prepare(`${WITH_CHANNEL} WHERE c.owner_id IS ? ORDER BY d.id DESC LIMIT ?`);
    this.ofAlert = db.prepare(`${WITH_CHANNEL} WHERE d.alert_id = ? AND c.owner_id IS ? ORDER BY d.id`);
    this.now = db.prepare(`UPDATE deliveries SET not_before = ? WHERE channel_id = ? AND status = 'pending'`);
  }

  /** Every channel, oldest first. */
  list(): ChannelRow[] {
    return this.all.all();
  }

  /** One channel, or undefined. */
  get(id: number): ChannelRow | undefined {
    return this.one.get(id);
  }

  /**
   * Stores a new channel that routes alerts after `cursor` (the newest alert id now: it starts from now), owned by
   * team member `ownerId` (null: the local owner's).
   */
  insert(type: string, settings: string, cursor: number, now: number, ownerId: number | null = null): number {
    return insertedId(this.insertOne.run(type, settings, cursor, now, now, ownerId));
  }

  /** Replaces a channel's settings JSON. */
  update(id: number, settings: string, now: number): void {
    this.updateOne.run(settings, now, id);
  }

  /** Moves a channel's cursor (the last alert id routed to it). */
  setCursor(id: number, cursor: number): void {
    this.cursorOne.run(cursor, id);
  }

  /** Deletes a channel and (cascade) its deliveries. */
  remove(id: number): boolean {
    return this.deleteOne.run(id).changes === 1;
  }

  /** A message got through at `now` (ms): the failure streak ends. */
  recordSuccess(id: number, now: number): void {
    this.ok.run(now, id);
  }

  /** An attempt failed at `now` (ms) with `error` (the buyer's words); returns the streak, this one counted. */
  recordFailure(id: number, error: string, now: number): { failures: number; since: number } {
    this.fail.run(now, error, id);
    return streakOf(this.one.get(id)!, now);
  }

  /** The buyer changed the channel: its streak starts over (a fixed password must not inherit the old failures). */
  clearHealth(id: number): void {
    this.resetHealth.run(id);
  }

  /** The newest alert id, 0 with none: where a new or re-enabled channel starts. */
  newestAlertId(): number {
    return this.maxAlert.get()?.id ?? 0;
  }

  /** Alerts after id `cursor`, oldest first, at most `limit`. */
  alertsAfter(cursor: number, limit: number): AlertRow[] {
    return this.after.all(cursor, limit);
  }

  /** Routes one alert to one channel (once: a second call for the pair does nothing). */
  addDelivery(
    alertId: number,
    channelId: number,
    status: DeliveryStatus,
    notBefore: number,
    detail: string | null,
    now: number,
  ): void {
    this.insertDelivery.run(alertId, channelId, status, notBefore, detail, now);
  }

  /** A channel's deliveries that may go at `now` (held ones whose quiet hours ended, pending ones due), oldest first. */
  dueFor(channelId: number, now: number): DeliveryRow[] {
    return this.due.all(channelId, now);
  }

  /**
   * Claims deliveries for one message before it leaves: `sending`, attempts + 1, the message key. Returns false
   * (and claims nothing: the caller runs it in a transaction and rolls back) unless every row was still due.
   */
  claim(ids: readonly number[], key: string, now: number): boolean {
    for (const id of ids) if (this.claimOne.run(now, key, id).changes !== 1) return false;
    return true;
  }

  /** The receiver accepted the message carrying `ids` at `now`; `detail` is the sender's line for the log. */
  markSent(ids: readonly number[], now: number, detail: string): void {
    for (const id of ids) this.sentOne.run(now, detail, id);
  }

  /** Puts a delivery back (`held`/`pending` with when it may go again) or gives it up (`failed`), with why. */
  setStatus(id: number, status: DeliveryStatus, notBefore: number, detail: string): void {
    this.retryOne.run(status, notBefore, detail, id);
  }

  /** Deliveries a stopped run left `sending`: the receiver may or may not have the message. */
  leftSending(): DeliveryRow[] {
    return this.sendingRows.all();
  }

  /** When a channel's earliest held or pending delivery may go (ms), or null with none waiting. */
  nextDueFor(channelId: number): number | null {
    return this.nextDueAt.get(channelId)?.at ?? null;
  }

  /** How many of a channel's messages wait (held, pending or sending). */
  waitingFor(channelId: number): number {
    return this.waiting.get(channelId)!.n;
  }

  /** The newest `limit` deliveries of the channels of `ownerId` (null: the local owner's), newest first. */
  log(limit: number, ownerId: number | null = null): DeliveryLogRow[] {
    return this.recent.all(ownerId, limit);
  }

  /** One alert's deliveries to the channels of `ownerId` (null: the local owner's), in routing order. */
  forAlert(alertId: number, ownerId: number | null = null): DeliveryLogRow[] {
    return this.ofAlert.all(alertId, ownerId);
  }

  /** Makes a channel's waiting retries due at `now` (ms): after the buyer fixed it, no need to wait out the backoff. */
  retryNow(channelId: number, now: number): void {
    this.now.run(now, channelId);
  }
}
