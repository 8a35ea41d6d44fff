import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database } from 'better-sqlite3';
import { AlertsRepo } from './alertsRepo';
import { CacheRepo } from './cacheRepo';
import { CallWatchesRepo } from './callWatchesRepo';
import { ChannelsRepo } from './channelsRepo';
import { CompsRepo } from './compsRepo';
import { markSuspect } from './connection';
import { DeskRepo } from './deskRepo';
import { LibraryRepo } from './libraryRepo';
import { LotsRepo } from './lotsRepo';
import { MarketCompsRepo } from './marketCompsRepo';
import { PersonalRepo } from './personalRepo';
import { RequestsRepo } from './requestsRepo';
import { SearchesRepo } from './searchesRepo';
import { WatchesRepo } from './watchesRepo';
import type { Async, Transact } from './async';

export type { Async, Transact } from './async';

export type { AlertRow, NewAlert } from './alertsRepo';
export type { LotRow, ChangeRow, LotRecord, ObservedLot } from './lotsRepo';
export type { SavedSearchRow, RunResult } from './searchesRepo';
export type { WatchRow } from './watchesRepo';
export type { CallWatchRow } from './callWatchesRepo';

/*
 * The store's interface (docs/architecture.md "Two engines: one store"): every repository method returns a promise,
 * so the same core runs over the desktop's better-sqlite3 file and a team's PostgreSQL database. The SQLite
 * repositories (one class per table group, statements prepared once) define each method's shape and meaning; a
 * PostgreSQL repository implements the same `Async<…>` form.
 */

/** Each table group's SQLite repository, synchronous: the classes that define every method's shape and meaning. */
export interface SyncRepos {
  lots: LotsRepo;
  library: LibraryRepo;
  searches: SearchesRepo;
  watches: WatchesRepo;
  alerts: AlertsRepo;
  requests: RequestsRepo;
  cache: CacheRepo;
  desk: DeskRepo;
  comps: CompsRepo;
  market: MarketCompsRepo;
  channels: ChannelsRepo;
  calls: CallWatchesRepo;
  personal: PersonalRepo;
}

/** Each table group's repository, as core calls it: its SQLite class's methods, answering with promises. */
export type Repos = { readonly [K in keyof SyncRepos]: Async<SyncRepos[K]> };

/**
 * The watch store, on either engine: the repositories and `transaction`.
 */
export interface Store extends Repos {
  /** Which engine holds the data: the desktop's file or a team's server. */
  readonly engine: 'sqlite' | 'postgres';
  /**
   * Runs `fn` in one transaction and resolves to what it resolves to; a throw (or rejection) rolls every write of it
   * back and is passed on. Every store call made while `fn` runs, from `fn` and whatever it awaits, belongs to the
   * transaction, through any repository object of this store; calls from elsewhere wait until it ends. A nested
   * call joins the outer transaction. `fn` awaits only store calls (never the network or a timer), so a
   * transaction is short and a crash keeps all of a poll's writes or none.
   */
  transaction: Transact;
  /**
   * Says that a database error was met during this session, so the next start checks the file (SQLite: the clean
   * close is not recorded); nothing on PostgreSQL, whose server keeps its own.
   */
  suspect(): void;
}

/** Own method names of a repository class (its prototype's functions but the constructor). */
function methodsOf(repo: object): string[] {
  const names = new Set<string>();
  for (
    let p = Object.getPrototypeOf(repo) as object | null;
    p && p !== Object.prototype;
    p = Object.getPrototypeOf(p)
  ) {
    for (const n of Object.getOwnPropertyNames(p)) {
      const d = Object.getOwnPropertyDescriptor(p, n);
      if (n !== 'constructor' && typeof d?.value === 'function') names.add(n);
    }
  }
  return [...names];
}

/**
 * One SQLite connection shared by async callers: a call runs at once (better-sqlite3 is synchronous) unless a
 * transaction of another caller is open, then after it. A transaction holds the connection from BEGIN to COMMIT;
 * AsyncLocalStorage says whether a call comes from inside it (its own calls run at once, nested transactions join).
 */
class SqliteGate {
  private held: Promise<void> | null = null;
  private readonly inside = new AsyncLocalStorage<SqliteGate>();

  constructor(private readonly db: Database) {}

  /** Runs `f` now, or after the open transaction when the caller is not part of it. */
  call<T>(f: () => T): Promise<T> {
    if (this.held !== null && this.inside.getStore() !== this) return this.held.then(() => this.call(f));
    try {
      return Promise.resolve(f());
    } catch (e) {
      return Promise.reject(e as Error);
    }
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inside.getStore() === this) return fn();
    while (this.held !== null) await this.held;
    let release!: () => void;
    this.held = new Promise<void>((r) => (release = r));
    try {
      this.db.exec('BEGIN');
      try {
        const out = await this.inside.run(this, fn);
        this.db.exec('COMMIT');
        return out;
      } catch (e) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw e;
      }
    } finally {
      this.held = null;
      release();
    }
  }
}

/** `repo`'s methods behind the gate, each returning a promise. */
function gated<T extends object>(repo: T, gate: SqliteGate): Async<T> {
  const out: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of methodsOf(repo)) {
    const m = (repo as Record<string, (...args: unknown[]) => unknown>)[name]!;
    out[name] = (...args) => gate.call(() => m.apply(repo, args));
  }
  return out as Async<T>;
}

/**
 * The desktop's store: the SQLite repositories over one better-sqlite3 connection, behind a gate that gives async
 * callers one transaction at a time (see Store.transaction). The synchronous repositories stay reachable as `sync`
 * for the file's own maintenance (backup, retention, migrations' tests).
 */
export class SqliteStore implements Store {
  readonly engine = 'sqlite' as const;
  readonly lots: Async<LotsRepo>;
  readonly library: Async<LibraryRepo>;
  readonly searches: Async<SearchesRepo>;
  readonly watches: Async<WatchesRepo>;
  readonly alerts: Async<AlertsRepo>;
  readonly requests: Async<RequestsRepo>;
  readonly cache: Async<CacheRepo>;
  readonly desk: Async<DeskRepo>;
  readonly comps: Async<CompsRepo>;
  readonly market: Async<MarketCompsRepo>;
  readonly channels: Async<ChannelsRepo>;
  readonly calls: Async<CallWatchesRepo>;
  readonly personal: Async<PersonalRepo>;
  /** The same repositories, synchronous, for code that owns the file (never inside another caller's transaction). */
  readonly sync: SyncRepos;
  private readonly gate: SqliteGate;

  constructor(readonly db: Database) {
    this.gate = new SqliteGate(db);
    const s = (this.sync = {
      lots: new LotsRepo(db),
      library: new LibraryRepo(db),
      searches: new SearchesRepo(db),
      watches: new WatchesRepo(db),
      alerts: new AlertsRepo(db),
      requests: new RequestsRepo(db),
      cache: new CacheRepo(db),
      desk: new DeskRepo(db),
      comps: new CompsRepo(db),
      market: new MarketCompsRepo(db),
      channels: new ChannelsRepo(db),
      calls: new CallWatchesRepo(db),
      personal: new PersonalRepo(db),
    });
    this.lots = gated(s.lots, this.gate);
    this.library = gated(s.library, this.gate);
    this.searches = gated(s.searches, this.gate);
    this.watches = gated(s.watches, this.gate);
    this.alerts = gated(s.alerts, this.gate);
    this.requests = gated(s.requests, this.gate);
    this.cache = gated(s.cache, this.gate);
    this.desk = gated(s.desk, this.gate);
    this.comps = gated(s.comps, this.gate);
    this.market = gated(s.market, this.gate);
    this.channels = gated(s.channels, this.gate);
    this.calls = gated(s.calls, this.gate);
    this.personal = gated(s.personal, this.gate);
  }

  transaction: Transact = (fn) => this.gate.transaction(fn);

  suspect(): void {
    markSuspect(this.db);
  }
}
