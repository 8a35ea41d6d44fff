import type { Database } from 'better-sqlite3';
import { AlertsRepo } from './alertsRepo';
import { CacheRepo } from './cacheRepo';
import { CallWatchesRepo } from './callWatchesRepo';
import { ChannelsRepo } from './channelsRepo';
import { CompsRepo } from './compsRepo';
import { DeskRepo } from './deskRepo';
import { LibraryRepo } from './libraryRepo';
import { LotsRepo } from './lotsRepo';
import { MarketCompsRepo } from './marketCompsRepo';
import { RequestsRepo } from './requestsRepo';
import { SearchesRepo } from './searchesRepo';
import { WatchesRepo } from './watchesRepo';

export type { AlertRow, NewAlert } from './alertsRepo';
export type { LotRow, ChangeRow, LotRecord, ObservedLot } from './lotsRepo';
export type { SavedSearchRow, RunResult } from './searchesRepo';
export type { WatchRow } from './watchesRepo';
export type { CallWatchRow } from './callWatchesRepo';

/**
 * The watch store: one repository per table group over one better-sqlite3
 * connection. Statements are prepared once; every multi-statement write runs in `transaction` and never awaits,
 * so callers group a whole poll's writes in it and a crash keeps all of a poll or none of it.
 */
export class Store {
  readonly lots: LotsRepo;
  readonly library: LibraryRepo;
  readonly searches: SearchesRepo;
  readonly watches: WatchesRepo;
  readonly alerts: AlertsRepo;
  readonly requests: RequestsRepo;
  readonly cache: CacheRepo;
  readonly desk: DeskRepo;
  readonly comps: CompsRepo;
  readonly market: MarketCompsRepo;
  readonly channels: ChannelsRepo;
  readonly calls: CallWatchesRepo;

  constructor(readonly db: Database) {
    this.lots = new LotsRepo(db);
    this.library = new LibraryRepo(db);
    this.searches = new SearchesRepo(db);
    this.watches = new WatchesRepo(db);
    this.alerts = new AlertsRepo(db);
    this.requests = new RequestsRepo(db);
    this.cache = new CacheRepo(db);
    this.desk = new DeskRepo(db);
    this.comps = new CompsRepo(db);
    this.market = new MarketCompsRepo(db);
    this.channels = new ChannelsRepo(db);
    this.calls = new CallWatchesRepo(db);
  }

  /** Runs `fn` in one transaction (no awaits inside); nested calls join the outer one. Rethrows what `fn` throws. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }
}
