import type { Database, Statement } from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import type { DB } from './schema';

/*
 * Kysely over the desktop's own better-sqlite3 connection (docs/architecture.md "Two engines: connecting"). Kysely's
 * stock SqliteDriver prepares every statement again on every execution; the store prepares its statements once,
 * and preparing is most of the cost of a small query on SQLite. This driver keeps the prepared statements, keyed by
 * their SQL text, so a query Kysely builds again and again is prepared once.
 */

/** Prepared statements kept at most (least recently used dropped first): the store has about two hundred. */
export const DEFAULT_STATEMENT_CACHE = 500;

export interface CachedSqliteOptions {
  /** Prepared statements kept at most (default DEFAULT_STATEMENT_CACHE). */
  statementCache?: number;
}

/**
 * The Kysely dialect of Lotwatch's SQLite file: SQLite's SQL, adapter and introspector, and a driver over the
 * connection `openDatabase` returned that keeps its prepared statements (see the file's head). The connection stays
 * its opener's: destroying the Kysely instance drops the cached statements and closes nothing.
 * One connection: Kysely runs one query or transaction at a time on it. A transaction holds the connection across
 * awaits, so while one is open, the store's synchronous repositories must not write through the same connection
 * (their writes would join it); beginning one inside the store's own transaction fails with SQLite's error.
 */
export class CachedSqliteDialect implements Dialect {
  constructor(
    private readonly database: Database,
    private readonly opts: CachedSqliteOptions = {},
  ) {}

  /** The driver with the statement cache. */
  createDriver(): Driver {
    return new CachedSqliteDriver(this.database, this.opts.statementCache ?? DEFAULT_STATEMENT_CACHE);
  }

  /** SQLite's query compiler (Kysely's own). */
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  /** SQLite's adapter (Kysely's own). */
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  /** SQLite's introspector (Kysely's own). */
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/**
 * Kysely over the store's SQLite connection `database` (opened by `openDatabase`, closed by `closeDatabase`), typed
 * by the store's tables (schema.ts). Values come back as better-sqlite3 reads them: numbers, strings, Buffers, null.
 */
export function sqliteKysely(database: Database, opts: CachedSqliteOptions = {}): Kysely<DB> {
  return new Kysely<DB>({ dialect: new CachedSqliteDialect(database, opts) });
}

/** Quotes a savepoint name as an SQL identifier. */
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

class CachedSqliteDriver implements Driver {
  readonly #mutex = new ConnectionMutex();
  readonly #connection: CachedSqliteConnection;

  constructor(database: Database, cacheSize: number) {
    this.#connection = new CachedSqliteConnection(database, cacheSize);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    // SQLite has this one connection: a second caller waits until the first releases it.
    const wait = this.#mutex.lock();
    if (wait) await wait;
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoted(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoted(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoted(name)}`));
  }

  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }

  async destroy(): Promise<void> {
    this.#connection.clear();
  }
}

class CachedSqliteConnection implements DatabaseConnection {
  /** SQL text to its prepared statement; a Map iterates in insertion order, so the first key is the least recent. */
  readonly #statements = new Map<string, Statement>();

  constructor(
    private readonly database: Database,
    private readonly cacheSize: number,
  ) {}

  /** The prepared statement for `sql`, prepared on first use and kept (moved to most recent on each use). */
  #statement(sql: string): Statement {
    const cached = this.#statements.get(sql);
    if (cached) {
      this.#statements.delete(sql);
      this.#statements.set(sql, cached);
      return cached;
    }
    const stmt = this.database.prepare(sql);
    this.#statements.set(sql, stmt);
    if (this.#statements.size > this.cacheSize) {
      this.#statements.delete(this.#statements.keys().next().value!);
    }
    return stmt;
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const stmt = this.#statement(compiled.sql);
    const params = compiled.parameters as unknown[];
    if (stmt.reader) return Promise.resolve({ rows: stmt.all(params) as R[] });
    const { changes, lastInsertRowid } = stmt.run(params);
    return Promise.resolve({
      numAffectedRows: BigInt(changes),
      insertId: BigInt(lastInsertRowid),
      rows: [],
    });
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiled.query)) throw new Error('SQLite streams only select queries.');
    // A statement of its own: a cached one would be busy while the stream is read.
    const stmt = this.database.prepare(compiled.sql);
    for (const row of stmt.iterate(compiled.parameters as unknown[])) yield { rows: [row as R] };
  }

  /** Drops every kept statement (better-sqlite3 finalizes them when they are collected). */
  clear(): void {
    this.#statements.clear();
  }
}

/** One holder at a time, the waiters served in order; taking a free lock costs no promise. */
class ConnectionMutex {
  #held = false;
  readonly #waiters: (() => void)[] = [];

  /** Takes the lock: undefined when it was free (taken at once), else a promise that settles once it is handed over. */
  lock(): Promise<void> | undefined {
    if (!this.#held) {
      this.#held = true;
      return undefined;
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Hands the lock to the next waiter, or frees it. */
  unlock(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#held = false;
  }
}
