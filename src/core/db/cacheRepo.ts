import type { Database, Statement } from 'better-sqlite3';

/** One cached value (text) and when it was stored (ms). */
export interface CacheEntry {
  value: string;
  updated_at: number;
}

/**
 * The key/value `cache` table: service answers kept for offline use (the filters metadata and where it came
 * from), one-time flags (`flag:<name>`), the ids of the example searches paused with Demo mode, photo failures.
 */
export class CacheRepo {
  private readonly getOne: Statement<[string], CacheEntry>;
  private readonly putOne: Statement<[string, string, number]>;
  private readonly deleteOne: Statement<[string]>;

  constructor(db: Database) {
    this.getOne = db.prepare('SELECT value, updated_at FROM cache WHERE key = ?');
    this.putOne = db.prepare(`INSERT INTO cache (key, value, updated_at) VALUES (?, ?, ?)
      ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);
    this.deleteOne = db.prepare('DELETE FROM cache WHERE key = ?');
  }

  /** The entry under `key`, or null. */
  get(key: string): CacheEntry | null {
    return this.getOne.get(key) ?? null;
  }

  /** Stores (or replaces) the value under `key` at `now` (ms). */
  put(key: string, value: string, now: number): void {
    this.putOne.run(key, value, now);
  }

  /** Forgets `key`. */
  delete(key: string): void {
    this.deleteOne.run(key);
  }
}
