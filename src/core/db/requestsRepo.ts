import type { Database, Statement } from 'better-sqlite3';
import type { QuotaSnapshot } from '../../shared/vehicle';
import { actingUserId } from './members';
import { quotaOf, quotaText } from './repoLogic/requests';
import type { CountRow } from './rows';

/** One request sent to the service, as logged: when (ms), what, the HTTP status (null: no answer), its cost. */
export interface RequestLogEntry {
  at: number;
  endpoint: string;
  status: number | null;
  durationMs: number;
  bytes: number;
  attempt: number;
  errorCode: string | null;
  /**
   * Whose quota the request spent: `demo`, or `key:<fingerprint>` for a live key (ServiceClient quotaIdOf; never
   * the key itself); absent or null when unknown.
   */
  quotaId?: string | null;
  /**
   * Who spent it: the member whose call sent it (`users` id), null for the local owner or the watcher's own
   * scheduled work; absent: the member the logging call acts for (currentActor).
   */
  userId?: number | null;
}

/** A request log row as the Usage page lists it. */
export interface RequestLogRow {
  at: number;
  endpoint: string;
  status: number | null;
  duration_ms: number;
  bytes: number;
  attempt: number;
  error_code: string | null;
  /** The member who spent it, from `users`; null: the local owner or the watcher, or a member no longer known. */
  user_name: string | null;
}

/** Requests logged in a time range by who spent them: a member's `users` id and name, or null for the local owner. */
export interface SpentByUser {
  user_id: number | null;
  /** The member's name in `users`; null for the local owner, or for an id `users` does not have. */
  name: string | null;
  requests: number;
}

/**
 * What the service charges for: the request log (every request sent, retries too; the budget counts it), the
 * last quota snapshot from the service's headers, and the encrypted secrets (the API key).
 */
export class RequestsRepo {
  private readonly log: Statement<
    [number, string, number | null, number, number, number, string | null, string | null, number | null]
  >;
  private readonly since: Statement<[number], CountRow>;
  private readonly sinceFor: Statement<[string, number], CountRow>;
  private readonly timesSince: Statement<[number], { at: number }>;
  private readonly timesSinceFor: Statement<[string, number], { at: number }>;
  private readonly quotaTimesSince: Statement<[number], { at: number; quotaId: string | null }>;
  private readonly recentRows: Statement<[number], RequestLogRow>;
  private readonly byUser: Statement<[number, number], SpentByUser>;
  private readonly countAll: Statement<[], CountRow>;
  private readonly saveSnapshot: Statement<[string, number]>;
  private readonly loadSnapshot: Statement<[], { snapshot: string }>;
  private readonly deleteSnapshot: Statement<[]>;
  private readonly getSecretRow: Statement<[string], { ciphertext: Buffer }>;
  private readonly setSecretRow: Statement<[string, Buffer, number]>;
  private readonly deleteSecretRow: Statement<[string]>;

  constructor(db: Database) {
    this.log =
      db.prepare(`INSERT INTO request_log (at, endpoint, status, duration_ms, bytes, attempt, error_code, quota_id,
      user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.since = db.prepare('SELECT count(*) AS n FROM request_log WHERE at >= ?');
    this.sinceFor = db.prepare('SELECT count(*) AS n FROM request_log WHERE quota_id = ? AND at >= ?');
    this.timesSince = db.prepare('SELECT at FROM request_log WHERE at >= ? ORDER BY at');
    this.timesSinceFor = db.prepare('SELECT at FROM request_log WHERE quota_id = ? AND at >= ? ORDER BY at');
    this.quotaTimesSince = db.prepare(
      'SELECT at, quota_id AS quotaId FROM request_log WHERE at >= ? ORDER BY at, id',
    );
    this.recentRows =
      db.prepare(`SELECT r.at, r.endpoint, r.status, r.duration_ms, r.bytes, r.attempt, r.error_code,
      u.name AS user_name FROM request_log r LEFT JOIN users u ON u.id = r.user_id ORDER BY r.id DESC LIMIT ?`);
    this.byUser = db.prepare(`SELECT r.user_id, u.name, count(*) AS requests FROM request_log r
      LEFT JOIN users u ON u.id = r.user_id WHERE r.at >= ? AND r.at < ? GROUP BY r.user_id, u.name`);
    this.countAll = db.prepare('SELECT count(*) AS n FROM request_log');
    this.saveSnapshot = db.prepare(`INSERT INTO quota (id, snapshot, updated_at) VALUES (1, ?, ?)
      ON CONFLICT(id) DO UPDATE SET snapshot = excluded.snapshot, updated_at = excluded.updated_at`);
    this.loadSnapshot = db.prepare('SELECT snapshot FROM quota WHERE id = 1');
    this.deleteSnapshot = db.prepare('DELETE FROM quota WHERE id = 1');
    this.getSecretRow = db.prepare('SELECT ciphertext FROM secrets WHERE name = ?');
    this.setSecretRow = db.prepare(`INSERT INTO secrets (name, ciphertext, updated_at) VALUES (?, ?, ?)
      ON CONFLICT(name) DO UPDATE SET ciphertext = excluded.ciphertext, updated_at = excluded.updated_at`);
    this.deleteSecretRow = db.prepare('DELETE FROM secrets WHERE name = ?');
  }

  /** Logs one request sent (or tried) to the service, and who spent it (RequestLogEntry.userId). */
  logRequest(r: RequestLogEntry): void {
    this.log.run(
      r.at,
      r.endpoint,
      r.status,
      r.durationMs,
      r.bytes,
      r.attempt,
      r.errorCode,
      r.quotaId ?? null,
      r.userId === undefined ? actingUserId() : r.userId,
    );
  }

  /** Requests logged at or after `since` (ms). */
  requestsSince(since: number): number {
    return this.since.get(since)!.n;
  }

  /**
   * Requests logged at or after `since` (ms) that spent the quota `quotaId` (`demo` or `key:<fingerprint>`); 0 for
   * a null quotaId (no key: nothing was spent on one).
   */
  requestsSinceFor(quotaId: string | null, since: number): number {
    return quotaId === null ? 0 : this.sinceFor.get(quotaId, since)!.n;
  }

  /** When each request logged at or after `since` (ms) was sent, oldest first (ms). */
  sentSince(since: number): number[] {
    return this.timesSince.all(since).map((r) => r.at);
  }

  /** When each request logged at or after `since` (ms) on the quota `quotaId` was sent, oldest first; [] for null. */
  sentSinceFor(quotaId: string | null, since: number): number[] {
    return quotaId === null ? [] : this.timesSinceFor.all(quotaId, since).map((r) => r.at);
  }

  /**
   * Every request logged at or after `since` (ms), oldest first: when it was sent and whose quota it spent (null:
   * unknown). The request ledger (src/core/requestLedger.ts) keeps them in memory for the budget.
   */
  sentWithQuotaSince(since: number): { at: number; quotaId: string | null }[] {
    return this.quotaTimesSince.all(since);
  }

  /** The last `limit` requests, newest first, each with the name of the member who spent it (Usage's list). */
  recent(limit: number): RequestLogRow[] {
    return this.recentRows.all(limit);
  }

  /**
   * Requests logged at or after `since` and before `until` (ms), counted by who spent them (a member, or null: the
   * local owner or the watcher), in no set order; whoever spent none is not listed. Usage's spend per member.
   */
  spentByUser(since: number, until: number): SpentByUser[] {
    return this.byUser.all(since, until);
  }

  /** How many requests were ever logged (the console counts what one call spent by the difference). */
  count(): number {
    return this.countAll.get()!.n;
  }

  /** Stores the quota snapshot of the last answer (one row). */
  saveQuota(q: QuotaSnapshot, now: number): void {
    this.saveSnapshot.run(quotaText(q), now);
  }

  /** Forgets the quota snapshot (another key, service or mode reports its own). */
  deleteQuota(): void {
    this.deleteSnapshot.run();
  }

  /** The stored quota snapshot, or null before the first answer. */
  loadQuota(): QuotaSnapshot | null {
    const r = this.loadSnapshot.get();
    return r ? quotaOf(r.snapshot) : null;
  }

  /** The ciphertext of a secret, or null. */
  getSecret(name: string): Buffer | null {
    return this.getSecretRow.get(name)?.ciphertext ?? null;
  }

  /** Stores (or replaces) the ciphertext of a secret. */
  setSecret(name: string, ciphertext: Buffer, now: number): void {
    this.setSecretRow.run(name, ciphertext, now);
  }

  /** Forgets a secret. */
  deleteSecret(name: string): void {
    this.deleteSecretRow.run(name);
  }
}
