import type { QuotaSnapshot } from '../../../shared/vehicle';
import { quotaOf, quotaText } from '../repoLogic/requests';
import { actingUserId } from '../members';
import type { RequestLogEntry, RequestLogRow, RequestsRepo, SpentByUser } from '../requestsRepo';
import type { Async } from '../store';
import { blobOf, upsert, type Engine } from './engineSql';
import type { KyselyExec } from './exec';

/**
 * RequestsRepo (requestsRepo.ts, which defines each method's meaning) over Kysely, on either engine: the request
 * log, the quota snapshot and the encrypted secrets. Every query goes through `exec.db`, so a call made inside the
 * store's transaction joins it. Each method throws only the driver's errors.
 */
export class KyselyRequestsRepo implements Async<RequestsRepo> {
  constructor(
    private readonly exec: KyselyExec,
    private readonly engine: Engine,
  ) {}

  /** Logs one request sent (or tried) to the service, and who spent it (RequestLogEntry.userId). */
  async logRequest(r: RequestLogEntry): Promise<void> {
    const userId = r.userId === undefined ? actingUserId() : r.userId;
    await this.exec.db
      .insertInto('request_log')
      .values({
        at: r.at,
        endpoint: r.endpoint,
        status: r.status,
        duration_ms: r.durationMs,
        bytes: r.bytes,
        attempt: r.attempt,
        error_code: r.errorCode,
        quota_id: r.quotaId ?? null,
        user_id: userId,
      })
      .execute();
  }

  /** Requests logged at or after `since` (ms). */
  async requestsSince(since: number): Promise<number> {
    const r = await this.exec.db
      .selectFrom('request_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('at', '>=', since)
      .executeTakeFirstOrThrow();
    return r.n;
  }

  /** Requests logged at or after `since` (ms) that spent the quota `quotaId`; 0 for a null quotaId. */
  async requestsSinceFor(quotaId: string | null, since: number): Promise<number> {
    if (quotaId === null) return 0;
    const r = await this.exec.db
      .selectFrom('request_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('quota_id', '=', quotaId)
      .where('at', '>=', since)
      .executeTakeFirstOrThrow();
    return r.n;
  }

  /** When each request logged at or after `since` (ms) was sent, oldest first (ms). */
  async sentSince(since: number): Promise<number[]> {
    const rows = await this.exec.db
      .selectFrom('request_log')
      .select('at')
      .where('at', '>=', since)
      .orderBy('at')
      .execute();
    return rows.map((r) => r.at);
  }

  /** When each request logged at or after `since` (ms) on the quota `quotaId` was sent, oldest first; [] for null. */
  async sentSinceFor(quotaId: string | null, since: number): Promise<number[]> {
    if (quotaId === null) return [];
    const rows = await this.exec.db
      .selectFrom('request_log')
      .select('at')
      .where('quota_id', '=', quotaId)
      .where('at', '>=', since)
      .orderBy('at')
      .execute();
    return rows.map((r) => r.at);
  }

  /** Every request logged at or after `since` (ms), oldest first, with whose quota it spent (RequestsRepo). */
  async sentWithQuotaSince(since: number): Promise<{ at: number; quotaId: string | null }[]> {
    return this.exec.db
      .selectFrom('request_log')
      .select(['at', 'quota_id as quotaId'])
      .where('at', '>=', since)
      .orderBy('at')
      .orderBy('id')
      .execute();
  }

  /** The last `limit` requests, newest first, each with the name of the member who spent it (Usage's list). */
  async recent(limit: number): Promise<RequestLogRow[]> {
    return this.exec.db
      .selectFrom('request_log as r')
      .leftJoin('users as u', 'u.id', 'r.user_id')
      .select([
        'r.at',
        'r.endpoint',
        'r.status',
        'r.duration_ms',
        'r.bytes',
        'r.attempt',
        'r.error_code',
        'u.name as user_name',
      ])
      .orderBy('r.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Requests logged in [`since`, `until`) (ms) by who spent them, in no set order (RequestsRepo.spentByUser). */
  async spentByUser(since: number, until: number): Promise<SpentByUser[]> {
    const rows = await this.exec.db
      .selectFrom('request_log as r')
      .leftJoin('users as u', 'u.id', 'r.user_id')
      .select((eb) => ['r.user_id', 'u.name', eb.fn.countAll<number>().as('requests')])
      .where('r.at', '>=', since)
      .where('r.at', '<', until)
      .groupBy(['r.user_id', 'u.name'])
      .execute();
    return rows.map((r) => ({ user_id: r.user_id, name: r.name, requests: Number(r.requests) }));
  }

  /** How many requests were ever logged (the console counts what one call spent by the difference). */
  async count(): Promise<number> {
    const r = await this.exec.db
      .selectFrom('request_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return r.n;
  }

  /** Stores the quota snapshot of the last answer (one row). */
  async saveQuota(q: QuotaSnapshot, now: number): Promise<void> {
    await upsert(
      this.engine,
      this.exec.db.insertInto('quota').values({ id: 1, snapshot: quotaText(q), updated_at: now }),
      ['id'],
      ['snapshot', 'updated_at'],
    ).execute();
  }

  /** Forgets the quota snapshot (another key, service or mode reports its own). */
  async deleteQuota(): Promise<void> {
    await this.exec.db.deleteFrom('quota').where('id', '=', 1).execute();
  }

  /** The stored quota snapshot, or null before the first answer. */
  async loadQuota(): Promise<QuotaSnapshot | null> {
    const r = await this.exec.db
      .selectFrom('quota')
      .select('snapshot')
      .where('id', '=', 1)
      .executeTakeFirst();
    return r ? quotaOf(r.snapshot) : null;
  }

  /** The ciphertext of a secret, or null. */
  async getSecret(name: string): Promise<Buffer | null> {
    const r = await this.exec.db
      .selectFrom('secrets')
      .select('ciphertext')
      .where('name', '=', name)
      .executeTakeFirst();
    return r ? blobOf(this.engine, r.ciphertext) : null;
  }

  /** Stores (or replaces) the ciphertext of a secret. */
  async setSecret(name: string, ciphertext: Buffer, now: number): Promise<void> {
    await upsert(
      this.engine,
      this.exec.db.insertInto('secrets').values({ name, ciphertext, updated_at: now }),
      ['name'],
      ['ciphertext', 'updated_at'],
    ).execute();
  }

  /** Forgets a secret. */
  async deleteSecret(name: string): Promise<void> {
    await this.exec.db.deleteFrom('secrets').where('name', '=', name).execute();
  }
}
