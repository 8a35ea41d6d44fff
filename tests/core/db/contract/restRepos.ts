import type { Insertable, Kysely } from 'kysely';
import { KyselyCacheRepo } from '../../../../src/core/db/kysely/cacheRepo';
import { KyselyChannelsRepo } from '../../../../src/core/db/kysely/channelsRepo';
import { KyselyCompsRepo } from '../../../../src/core/db/kysely/compsRepo';
import { KyselyDeskRepo } from '../../../../src/core/db/kysely/deskRepo';
import { KyselyMarketCompsRepo } from '../../../../src/core/db/kysely/marketCompsRepo';
import { KyselyRequestsRepo } from '../../../../src/core/db/kysely/requestsRepo';
import type { RequestsRepo } from '../../../../src/core/db/requestsRepo';
import { sqliteKysely } from '../../../../src/core/db/kyselySqlite';
import type { DB } from '../../../../src/core/db/schema';
import type { Async, Transact } from '../../../../src/core/db/store';
import type { CacheRepo } from '../../../../src/core/db/cacheRepo';
import type { ChannelsRepo } from '../../../../src/core/db/channelsRepo';
import type { CompsRepo } from '../../../../src/core/db/compsRepo';
import type { DeskRepo } from '../../../../src/core/db/deskRepo';
import type { MarketCompsRepo } from '../../../../src/core/db/marketCompsRepo';
import type { EngineDb } from '../../../helpers/engines';

/*
 * The repositories of the request log, cache, desk, comparables, market comparables and channels on one engine of
 * the contract tests (tests/helpers/engines.ts): the SQLite store's own for `sqlite`, the Kysely classes over the
 * engine's executor for the others. Also Kysely over the same database to seed rows other repositories own (lots,
 * alerts), so every engine starts a case from the same rows.
 */

/** One engine's repositories under test, its transaction, and Kysely for seeding. */
export interface RestRepos {
  requests: Async<RequestsRepo>;
  cache: Async<CacheRepo>;
  desk: Async<DeskRepo>;
  comps: Async<CompsRepo>;
  market: Async<MarketCompsRepo>;
  channels: Async<ChannelsRepo>;
  /** The store's transaction on this engine (SqliteStore's, or the executor's). */
  transaction: Transact;
  /** Kysely over the same database, for seeding rows (never the code under test). */
  seed: Kysely<DB>;
  /** Drops what this object opened (the seeding Kysely of the `sqlite` case); call before `d.close()`. */
  done(): Promise<void>;
}

/** The repositories of `d`'s engine (see the file's head). */
export function restRepos(d: EngineDb): RestRepos {
  if (d.name === 'sqlite') {
    const s = d.sqlite!;
    const seed = sqliteKysely(s.db);
    return {
      requests: s.requests,
      cache: s.cache,
      desk: s.desk,
      comps: s.comps,
      market: s.market,
      channels: s.channels,
      transaction: s.transaction,
      seed,
      done: () => seed.destroy(),
    };
  }
  const exec = d.exec!;
  const engine = d.name === 'postgres' ? 'postgres' : 'sqlite';
  return {
    requests: new KyselyRequestsRepo(exec, engine),
    cache: new KyselyCacheRepo(exec, engine),
    desk: new KyselyDeskRepo(exec, engine),
    comps: new KyselyCompsRepo(exec, engine),
    market: new KyselyMarketCompsRepo(exec, engine),
    channels: new KyselyChannelsRepo(exec, engine),
    transaction: (fn) => exec.transaction(fn),
    seed: d.kysely!,
    done: async () => {},
  };
}

/** A stored lot row with defaults for what a case does not care about (an open Copart lot, empty JSON). */
export function lotRow(over: Partial<Insertable<DB['lots']>> & { lot_key: string }): Insertable<DB['lots']> {
  return {
    platform: 'copart',
    lot_number: over.lot_key.split(':')[1] ?? over.lot_key,
    normalized: '{}',
    raw: '{}',
    raw_hash: 'h',
    first_seen_at: 1_000,
    last_observed_at: 1_000,
    ...over,
  };
}

/** An alert row (a new-lot alert delivered now) with defaults for what a case does not care about. */
export function alertRow(n: number, over: Partial<Insertable<DB['alerts']>> = {}): Insertable<DB['alerts']> {
  return {
    dedup_key: `change:${n}`,
    kind: 'new_lot',
    lot_key: `copart:${1000 + n}`,
    title: `Alert ${n}`,
    body: `Body ${n}`,
    created_at: 10_000 + n,
    delivery: 'now',
    status: 'pending',
    ...over,
  };
}
