import type { Kysely } from 'kysely';
import { KyselyAlertsRepo } from '../kysely/alertsRepo';
import { KyselyCacheRepo } from '../kysely/cacheRepo';
import { KyselyCallWatchesRepo } from '../kysely/callWatchesRepo';
import { KyselyChannelsRepo } from '../kysely/channelsRepo';
import { KyselyCompsRepo } from '../kysely/compsRepo';
import { KyselyDeskRepo } from '../kysely/deskRepo';
import { KyselyExec } from '../kysely/exec';
import { KyselyLibraryRepo } from '../kysely/libraryRepo';
import { KyselyLotsRepo } from '../kysely/lotsRepo';
import { KyselyMarketCompsRepo } from '../kysely/marketCompsRepo';
import { KyselyRequestsRepo } from '../kysely/requestsRepo';
import { KyselySearchesRepo } from '../kysely/searchesRepo';
import { KyselyWatchesRepo } from '../kysely/watchesRepo';
import type { DB } from '../schema';
import type { Store, Transact } from '../store';

/**
 * A team's store (docs/architecture.md "Two engines: one store"): the Kysely repositories over a PostgreSQL pool
 * (openPostgres). Every call takes a pooled connection, or the open transaction's when made from inside
 * `transaction` (KyselyExec), so a poll's writes are one transaction here as on the desktop.
 */
export class PgStore implements Store {
  readonly engine = 'postgres' as const;
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
  private readonly exec: KyselyExec;

  /** The store over `db`, Kysely on a PostgreSQL pool at the current schema (migratePg). */
  constructor(db: Kysely<DB>) {
    const x = (this.exec = new KyselyExec(db));
    const e = 'postgres' as const;
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
  }

  transaction: Transact = (fn) => this.exec.transaction(fn);

  /** Nothing to mark: the server keeps its own state of health. */
  suspect(): void {}
}
