import type { LotKey } from '../../../shared/watch';
import type { CompLots, CompQuery, CompsRepo } from '../compsRepo';
import { COMP_COLUMN_NAMES, toCompLots } from '../repoLogic/comps';
import type { Async } from '../store';
import { byteOrder, equalsNoCase, type Engine } from './engineSql';
import type { KyselyExec } from './exec';

/**
 * CompsRepo (compsRepo.ts, which defines each method's meaning) over Kysely, on either engine: comparable sales read
 * offline from the stored lots. Rows are read as the SQLite repository reads them and turned into CompLots by the
 * same code (repoLogic/comps.ts); whether an auction is over is never decided in SQL. Every query goes through
 * `exec.db`, so a call made inside the store's transaction joins it. Read only; throws only the driver's errors.
 */
export class KyselyCompsRepo implements Async<CompsRepo> {
  constructor(
    private readonly exec: KyselyExec,
    private readonly engine: Engine,
  ) {}

  /**
   * The lots whose auction is over, of `make` and `model` (case-insensitive, as given: trim them first; see
   * equalsNoCase for non-ASCII letters) with a year in [year_from, year_to], except `except_key`. A lot without a
   * year is never a candidate. In no particular order: the caller ranks them.
   */
  async candidates(q: CompQuery): Promise<CompLots> {
    const rows = await this.exec.db
      .selectFrom('lots')
      .select(COMP_COLUMN_NAMES)
      .where(equalsNoCase(this.engine, 'make', q.make))
      .where(equalsNoCase(this.engine, 'model', q.model))
      .where('year', '>=', q.year_from)
      .where('year', '<=', q.year_to)
      .where('lot_key', '<>', q.except_key)
      .execute();
    return toCompLots(rows);
  }

  /** The other lots of `vin` whose auction is over, newest auction first (then by lot key): a relist's earlier sales. */
  async otherSalesOfVin(vin: string, exceptKey: LotKey): Promise<CompLots> {
    const rows = await this.exec.db
      .selectFrom('lots')
      .select(COMP_COLUMN_NAMES)
      .where('vin', '=', vin)
      .where('lot_key', '<>', exceptKey)
      // NULLS LAST on both engines: SQLite's default for DESC, PostgreSQL's is NULLS FIRST.
      .orderBy('auction_at', (o) => o.desc().nullsLast())
      .orderBy(byteOrder(this.engine, 'lot_key'))
      .execute();
    return toCompLots(rows);
  }
}
