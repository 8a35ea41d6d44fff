import type { Database, Statement } from 'better-sqlite3';
import type { AlertRow } from './alertRows';
import type { CountRow } from './rows';

/*
 * What each member of a team keeps for themselves (docs/architecture.md "Two engines"; migration 170): their read
 * state of the team's alerts, their own settings, and their mute, snooze and max bid of a lot. The desktop's one user
 * (user id null) never reaches these tables: the inbox, the settings and the watch rules keep their own columns.
 */

/** A member's own mute, snooze and max bid of one lot, as stored. Times in ms, the max bid in USD. */
export interface LotPrefsRow {
  user_id: number;
  lot_key: string;
  /** 1: the member hears nothing of this lot (their inbox hides its alerts; their channels get none). */
  muted: number;
  /** The member's alerts of this lot are held until this time, or null. */
  snooze_until: number | null;
  /** …or until an alert of this change kind is raised for the lot (null: none). */
  snooze_until_event: string | null;
  /** When the snooze was set: alerts raised before it are not held. Null without a snooze. */
  snoozed_at: number | null;
  max_bid_usd: number | null;
  updated_at: number;
}

/** What setLotPrefs writes: the whole of a member's row for one lot. */
export type LotPrefsWrite = Omit<LotPrefsRow, 'user_id' | 'lot_key' | 'updated_at'>;

/**
 * Whether the member sees an alert in their inbox: not when its lot is one they muted, nor when it is about an alert
 * channel of someone else (`channel_failing`, source `channel:<id>`: a channel they do not own).
 */
const VISIBLE = `NOT EXISTS (SELECT 1 FROM lot_user_prefs p WHERE p.user_id = @user AND p.lot_key = a.lot_key
    AND p.muted = 1)
  AND NOT (a.kind = 'channel_failing' AND NOT EXISTS (SELECT 1 FROM channels c WHERE c.owner_id = @user
    AND 'channel:' || c.id = a.source))`;
const ALERT_COLUMNS = `a.id, a.dedup_key, a.kind, a.lot_key, a.change_id, a.source, a.title, a.body, a.reason,
  a.created_at, a.delivery, a.status, a.deliver_after, a.delivered_at, a.url`;

/** A member's inbox query's parameters. */
interface InboxParams {
  user: number;
  unread: number;
  before: number;
  limit: number;
}

/**
 * The personal tables of a team's members: read state, personal settings, lot mutes and snoozes. The desktop's
 * SQLite file has them empty; the Kysely form (kysely/personalRepo.ts) runs a team's.
 */
export class PersonalRepo {
  private readonly page: Statement<[InboxParams], AlertRow>;
  private readonly unread: Statement<[{ user: number }], CountRow>;
  private readonly read: Statement<[number, number, number]>;
  private readonly unreadOne: Statement<[number, number]>;
  private readonly lots: Statement<[number], LotPrefsRow>;
  private readonly upsertLot: Statement<[LotPrefsRow]>;
  private readonly firstOfKind: Statement<[string, string, number], { id: number | null }>;
  private readonly prefRows: Statement<[number], { key: string; value: string }>;
  private readonly upsertPref: Statement<[number, string, string, number]>;

  constructor(db: Database) {
    this.page = db.prepare(`SELECT ${ALERT_COLUMNS}, r.read_at AS read_at FROM alerts a
      LEFT JOIN alert_reads r ON r.alert_id = a.id AND r.user_id = @user
      WHERE a.id < @before AND (@unread = 0 OR r.read_at IS NULL) AND ${VISIBLE}
      ORDER BY (r.read_at IS NULL) DESC, a.id DESC LIMIT @limit`);
    this.unread = db.prepare(`SELECT count(*) AS n FROM alerts a WHERE NOT EXISTS (SELECT 1 FROM alert_reads r
      WHERE r.alert_id = a.id AND r.user_id = @user) AND ${VISIBLE}`);
    this.read = db.prepare(`INSERT INTO alert_reads (user_id, alert_id, read_at) VALUES (?, ?, ?)
      ON CONFLICT (user_id, alert_id) DO NOTHING`);
    this.unreadOne = db.prepare('DELETE FROM alert_reads WHERE user_id = ? AND alert_id = ?');
    this.lots = db.prepare('SELECT * FROM lot_user_prefs WHERE user_id = ? ORDER BY lot_key');
    this.upsertLot =
      db.prepare(`INSERT INTO lot_user_prefs (user_id, lot_key, muted, snooze_until, snooze_until_event,
      snoozed_at, max_bid_usd, updated_at) VALUES (@user_id, @lot_key, @muted, @snooze_until, @snooze_until_event,
      @snoozed_at, @max_bid_usd, @updated_at) ON CONFLICT (user_id, lot_key) DO UPDATE SET muted = excluded.muted,
      snooze_until = excluded.snooze_until, snooze_until_event = excluded.snooze_until_event,
      snoozed_at = excluded.snoozed_at, max_bid_usd = excluded.max_bid_usd, updated_at = excluded.updated_at`);
    this.firstOfKind = db.prepare(
      'SELECT min(id) AS id FROM alerts WHERE lot_key = ? AND kind = ? AND created_at >= ?',
    );
    this.prefRows = db.prepare('SELECT key, value FROM user_prefs WHERE user_id = ? ORDER BY key');
    this.upsertPref = db.prepare(`INSERT INTO user_prefs (user_id, key, value, updated_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);
  }

  /**
   * A page of member `userId`'s inbox: the team's alerts with the member's own read state (`read_at`), unread first,
   * then newest first, ids below `beforeId`, at most `limit`; only unread ones if asked. Alerts of lots the member
   * muted and failing-channel alerts of channels that are not theirs are left out.
   */
  listAlerts(userId: number, unreadOnly: boolean, beforeId: number, limit: number): AlertRow[] {
    return this.page.all({ user: userId, unread: unreadOnly ? 1 : 0, before: beforeId, limit });
  }

  /** How many alerts of member `userId`'s inbox (as listAlerts shows it) they have not read. */
  unreadCount(userId: number): number {
    return this.unread.get({ user: userId })!.n;
  }

  /** Marks one alert read by member `userId` at `now` (ms; a second mark keeps the first time), or unread. */
  setRead(userId: number, alertId: number, read: boolean, now: number): void {
    if (read) this.read.run(userId, alertId, now);
    else this.unreadOne.run(userId, alertId);
  }

  /** Member `userId`'s own mute, snooze and max bid of every lot they set one for, by lot key. */
  lotPrefs(userId: number): LotPrefsRow[] {
    return this.lots.all(userId);
  }

  /** Writes member `userId`'s whole row for `lotKey` at `now` (ms). */
  setLotPrefs(userId: number, lotKey: string, p: LotPrefsWrite, now: number): void {
    this.upsertLot.run({ ...p, user_id: userId, lot_key: lotKey, updated_at: now });
  }

  /**
   * The id of the first alert of `kind` raised for `lotKey` at or after `since` (ms), or null: the event a member's
   * snooze waited for (it ends the snooze from that alert on).
   */
  firstAlertOfKind(lotKey: string, kind: string, since: number): number | null {
    return this.firstOfKind.get(lotKey, kind, since)?.id ?? null;
  }

  /** Member `userId`'s personal settings as stored: key and JSON value of each. */
  settings(userId: number): { key: string; value: string }[] {
    return this.prefRows.all(userId);
  }

  /** Writes member `userId`'s personal settings (key and JSON value of each) at `now` (ms); the caller's transaction. */
  setSettings(userId: number, rows: readonly (readonly [string, string])[], now: number): void {
    for (const [k, v] of rows) this.upsertPref.run(userId, k, v, now);
  }
}
