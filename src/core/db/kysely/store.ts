import type { Kysely } from 'kysely';
import { KyselyAlertsRepo } from './alertsRepo';
import { KyselyCacheRepo } from './cacheRepo';
import { KyselyCallWatchesRepo } from './callWatchesRepo';
import { KyselyChannelsRepo } from './channelsRepo';
import { KyselyCompsRepo } from './compsRepo';
import { KyselyDeskRepo } from './deskRepo';
import { KyselyExec } from './exec';
import { KyselyLibraryRepo } from './libraryRepo';
import { KyselyLotsRepo } from './lotsRepo';
import { KyselyMarketCompsRepo } from './marketCompsRepo';
import { KyselyPersonalRepo } from './personalRepo';
import { KyselyRequestsRepo } from './requestsRepo';
import { KyselySearchesRepo } from './searchesRepo';
import { KyselyWatchesRepo } from './watchesRepo';
import type { DB } from '../schema';
import type { Store, Transact } from '../store';
import type { Engine } from './engineSql';

/**
 * The store over the Kysely repositories (docs/architecture.md "Two engines: one store"): a team's, on a PostgreSQL
 * pool (openPostgres), where every call takes a pooled connection, or the open transaction's when made from inside
 * `transaction` (KyselyExec), so a poll's writes are one transaction as on the desktop; or over a SQLite file
 * (sqliteKysely), where Kysely holds the one connection for a transaction and calls from inside it join it (the
 * store benchmark compares it with the desktop's own SqliteStore).
 */
export class KyselyStore implements Store {
  readonly lots: KyselyLotsRepo;
  readonly library: KyselyLibraryRepo;
  readonly searches: KyselySearchesRepo;
  readonly watches: KyselyWatchesRepo;
  readonly alerts: KyselyAlertsRepo;
  readonly requests: KyselyRequestsRepo;
  readonly cache: KyselyCacheRepo;
  readonly desk: KyselyDeskRepo;
  readonly comps: KyselyCompsRepo;
  readonly market: KyselyMarketCompsRepo;
  readonly channels: KyselyChannelsRepo;
  readonly calls: KyselyCallWatchesRepo;
  readonly personal: KyselyPersonalRepo;
  private readonly exec: KyselyExec;

  /** The store over `db` (Kysely on `engine`, at the current schema). */
  constructor(
    db: Kysely<DB>,
    readonly engine: Engine = 'postgres',
  ) {
    const x = (this.exec = new KyselyExec(db));
    const e = engine;
    this.lots = new KyselyLotsRepo(x, e);
    this.library = new KyselyLibraryRepo(x, e);
    this.searches = new KyselySearchesRepo(x, e);
    this.watches = new KyselyWatchesRepo(x, e);
    this.alerts = new KyselyAlertsRepo(x, e);
    this.requests = new KyselyRequestsRepo(x, e);
    this.cache = new KyselyCacheRepo(x, e);
    this.desk = new KyselyDeskRepo(x, e);
    this.comps = new KyselyCompsRepo(x, e);
    this.market = new KyselyMarketCompsRepo(x, e);
    this.channels = new KyselyChannelsRepo(x, e);
    this.calls = new KyselyCallWatchesRepo(x, e);
    this.personal = new KyselyPersonalRepo(x, e);
  }

  transaction: Transact = (fn) => this.exec.transaction(fn);

  /** Nothing to mark: a server keeps its own state of health (a SQLite file's is the desktop store's to mark). */
  suspect(): void {}
}
