import type { CacheEntry, CacheRepo } from '../cacheRepo';
import type { Async } from '../store';
import { upsert, type Engine } from './engineSql';
import type { KyselyExec } from './exec';

/**
 * CacheRepo (cacheRepo.ts, which defines each method's meaning) over Kysely, on either engine: the key/value
 * `cache` table (service answers kept for offline use, one-time flags, photo failures). Every query goes through
 * `exec.db`, so a call made inside the store's transaction joins it. Each method throws only the driver's errors.
 */
export class KyselyCacheRepo implements Async<CacheRepo> {
  constructor(
    private readonly exec: KyselyExec,
    private readonly engine: Engine,
  ) {}

  /** The entry under `key`, or null. */
  async get(key: string): Promise<CacheEntry | null> {
    const r = await this.exec.db
      .selectFrom('cache')
      .select(['value', 'updated_at'])
      .where('key', '=', key)
      .executeTakeFirst();
    return r ?? null;
  }

  /** Stores (or replaces) the value under `key` at `now` (ms). */
  async put(key: string, value: string, now: number): Promise<void> {
    await upsert(
      this.engine,
      this.exec.db.insertInto('cache').values({ key, value, updated_at: now }),
      ['key'],
      ['value', 'updated_at'],
    ).execute();
  }

  /** Forgets `key`. */
  async delete(key: string): Promise<void> {
    await this.exec.db.deleteFrom('cache').where('key', '=', key).execute();
  }
}
