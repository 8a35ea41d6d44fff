import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { LotKey, LotState } from '../../../shared/watch';
import { rowToLotState, STATE_COLUMN_NAMES } from '../lotStateRow';
import {
  bidChangesByLot,
  saleEstimatesByLot,
  sqliteEstimateEnd,
  type BidChangeRow,
  type SaleEstimate,
} from '../lotsRepo';
import type { DB } from '../schema';

/*
 * The batch reads of KyselyLotsRepo (LotsRepo defines their shape and meaning): the scheduler's view reads a whole
 * watchlist at each tick, and on PostgreSQL each statement is a round trip, so the lots' states, estimates and bid
 * changes are read a thousand keys to a statement instead of one lot at a time.
 */

/** Which SQL a Kysely repository speaks: the desktop's SQLite file or a team's PostgreSQL server. */
export type KyselyEngine = 'sqlite' | 'postgres';

/**
 * Keys per statement of a batch read: well under the bound parameters either engine takes (SQLite 32,766,
 * PostgreSQL 65,535), so a watchlist of any size reads in a few statements.
 */
const BATCH = 1000;

/**
 * The rows `read` answers for `keys` without duplicates, read in runs of at most BATCH keys, one after another; no
 * read for no key (an empty IN list is not valid SQL). Throws what `read` throws.
 */
async function inBatches<R>(keys: readonly LotKey[], read: (part: LotKey[]) => Promise<R[]>): Promise<R[]> {
  const unique = [...new Set(keys)];
  const out: R[] = [];
  for (let i = 0; i < unique.length; i += BATCH) out.push(...(await read(unique.slice(i, i + BATCH))));
  return out;
}

/**
 * One end of the stored normalised record's `pricing` estimate band (`field`) as SQL reads it: a number, NULL when
 * absent; on PostgreSQL as text (saleEstimateOf reads it back), so a JSON value that is not a number is no estimate
 * instead of a failed cast.
 */
export function estimateEnd(
  engine: KyselyEngine,
  field: 'estimated_cost_from_usd' | 'estimated_cost_to_usd',
): RawBuilder<unknown> {
  switch (engine) {
    case 'sqlite':
      return sql.raw(sqliteEstimateEnd(field));
    case 'postgres':
      return sql`(CASE WHEN jsonb_typeof((normalized::jsonb) -> 'pricing' -> ${field}) = 'number'
        THEN (normalized::jsonb) -> 'pricing' ->> ${field} END)`;
  }
}

/** The stored states of `keys` (LotsRepo.lotStates): a key not stored is absent. Throws the driver's errors. */
export async function lotStatesOf(db: Kysely<DB>, keys: readonly LotKey[]): Promise<Map<LotKey, LotState>> {
  const rows = await inBatches(keys, (part) =>
    db
      .selectFrom('lots')
      .select(['lot_key', ...STATE_COLUMN_NAMES])
      .where('lot_key', 'in', part)
      .execute(),
  );
  return new Map(rows.map((r) => [r.lot_key, rowToLotState(r)]));
}

/**
 * The service's estimates of the sale prices of `keys` (LotsRepo.saleEstimates): a key not stored, or whose record
 * lacks either end of the band, is absent. Throws the driver's errors.
 */
export async function saleEstimatesOf(
  db: Kysely<DB>,
  engine: KyselyEngine,
  keys: readonly LotKey[],
): Promise<Map<LotKey, SaleEstimate>> {
  const rows = await inBatches(keys, (part) =>
    db
      .selectFrom('lots')
      .select([
        'lot_key',
        estimateEnd(engine, 'estimated_cost_from_usd').as('est_from'),
        estimateEnd(engine, 'estimated_cost_to_usd').as('est_to'),
      ])
      .where('lot_key', 'in', part)
      .execute(),
  );
  return saleEstimatesByLot(rows);
}

/**
 * The bid changes at or after `from` (ms) of each of `keys` (LotsRepo.bidChangesSinceOf), each lot's oldest first;
 * a lot without one is absent. Throws the driver's errors.
 */
export async function bidChangesOf(
  db: Kysely<DB>,
  keys: readonly LotKey[],
  from: number,
): Promise<Map<LotKey, BidChangeRow[]>> {
  // Each run's rows come ordered by lot and runs hold different lots, so the runs joined group as one read would.
  const rows = await inBatches(keys, (part) =>
    db
      .selectFrom('changes')
      .select(['lot_key', 'observed_at', 'before', 'after'])
      .where('lot_key', 'in', part)
      .where('kind', '=', 'bid_changed')
      .where('observed_at', '>=', from)
      .orderBy('lot_key')
      .orderBy('observed_at')
      .orderBy('id')
      .execute(),
  );
  return bidChangesByLot(rows);
}
