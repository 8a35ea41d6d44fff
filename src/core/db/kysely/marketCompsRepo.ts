import type { MarketAnswer, MarketBand, MarketCompsRepo } from '../marketCompsRepo';
import { answerOf, bandColumns, bandKey, lotKeysText } from '../repoLogic/market';
import type { Async } from '../store';
import { upsert, type Engine } from './engineSql';
import type { KyselyExec } from './exec';

/**
 * MarketCompsRepo (marketCompsRepo.ts, which defines each method's meaning) over Kysely, on either engine: the
 * market comparables' answers per band. Every query goes through `exec.db`, so a call made inside the store's
 * transaction joins it. Each method throws only the driver's errors.
 */
export class KyselyMarketCompsRepo implements Async<MarketCompsRepo> {
  constructor(
    private readonly exec: KyselyExec,
    private readonly engine: Engine,
  ) {}

  /** The stored answer of `band`, or null when it was never asked. */
  async get(band: MarketBand): Promise<MarketAnswer | null> {
    const r = await this.exec.db
      .selectFrom('market_comps')
      .selectAll()
      .where('band', '=', bandKey(band))
      .executeTakeFirst();
    return r ? answerOf(r) : null;
  }

  /** Stores the answer of `band` received at `at` (ms), replacing the previous one and clearing its error. */
  async put(
    band: MarketBand,
    at: number,
    lotKeys: readonly string[],
    requests: number,
    pages: number,
  ): Promise<void> {
    await upsert(
      this.engine,
      this.exec.db.insertInto('market_comps').values({
        ...bandColumns(band),
        fetched_at: at,
        lot_keys: lotKeysText(lotKeys),
        requests,
        pages,
        error: null,
        error_at: null,
      }),
      ['band'],
      ['fetched_at', 'lot_keys', 'requests', 'pages'],
      ['error', 'error_at'],
    ).execute();
  }

  /** Records a failed attempt (`error`, a sentence) at `at` (ms); the answer stored before stays as it was. */
  async fail(band: MarketBand, at: number, error: string): Promise<void> {
    await upsert(
      this.engine,
      this.exec.db.insertInto('market_comps').values({ ...bandColumns(band), error, error_at: at }),
      ['band'],
      ['error', 'error_at'],
    ).execute();
  }
}
