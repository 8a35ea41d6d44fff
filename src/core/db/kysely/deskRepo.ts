import type { ShippingPrice } from '../../../shared/vehicle';
import type { LotKey } from '../../../shared/watch';
import type { DeskRepo, KeptShippingPrice } from '../deskRepo';
import { shippingRows, tagsOf } from '../repoLogic/desk';
import type { Async } from '../store';
import { byteOrder, upsert, type Engine } from './engineSql';
import type { KyselyExec } from './exec';

/**
 * DeskRepo (deskRepo.ts, which defines each method's meaning) over Kysely, on either engine: the buyer's notes and
 * tags on lots, and the shipping prices kept per lot and port. Every query goes through `exec.db`, so a call made
 * inside the store's transaction joins it. Each method throws only the driver's errors.
 */
export class KyselyDeskRepo implements Async<DeskRepo> {
  constructor(
    private readonly exec: KyselyExec,
    private readonly engine: Engine,
  ) {}

  /**
   * Writes a stored lot's notes and tags (tags already normalised, comma-separated).
   * @returns false when Lotwatch has no such lot (nothing written).
   */
  async setNotes(key: LotKey, notes: string, tags: string): Promise<boolean> {
    const r = await this.exec.db
      .updateTable('lots')
      .set({ notes, tags })
      .where('lot_key', '=', key)
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  /** A stored lot's notes and tags, or null when the lot is not stored. */
  async notes(key: LotKey): Promise<{ notes: string; tags: string } | null> {
    const r = await this.exec.db
      .selectFrom('lots')
      .select(['notes', 'tags'])
      .where('lot_key', '=', key)
      .executeTakeFirst();
    return r ?? null;
  }

  /** Every tag in use, each once, sorted: the suggestions beside a tag field. */
  async tagsInUse(): Promise<string[]> {
    const rows = await this.exec.db
      .selectFrom('lots')
      .select('tags')
      .distinct()
      .where('tags', '<>', '')
      .execute();
    return tagsOf(rows);
  }

  /**
   * Keeps the shipping prices the service returned for a lot (one row per port, the newest wins), in one
   * transaction. A price with no port is not kept: it cannot be matched to the user's port.
   */
  async keepShipping(key: LotKey, prices: readonly ShippingPrice[], fetchedAt: number): Promise<void> {
    const rows = shippingRows(key, prices, fetchedAt);
    if (rows.length === 0) return;
    // One statement per row, as the SQLite repository writes them: a multi-row upsert naming one port twice is
    // refused by PostgreSQL ("cannot affect row a second time"), where the later price must win.
    await this.exec.transaction(async () => {
      for (const r of rows)
        await upsert(
          this.engine,
          this.exec.db.insertInto('lot_shipping').values(r),
          ['lot_key', 'port'],
          ['price_usd', 'currency', 'fetched_at'],
        ).execute();
    });
  }

  /** The shipping prices kept for a lot, by port name (byte order, as SQLite sorts text). */
  async shipping(key: LotKey): Promise<KeptShippingPrice[]> {
    return this.exec.db
      .selectFrom('lot_shipping')
      .select(['port', 'price_usd', 'currency', 'fetched_at'])
      .where('lot_key', '=', key)
      .orderBy(byteOrder(this.engine, 'port'))
      .execute();
  }
}
