import { sql, type RawBuilder } from 'kysely';
import type { Vehicle } from '../../../shared/vehicle';
import type { Change, LotKey, LotState } from '../../../shared/watch';
import { rowToLotState, STATE_COLUMN_NAMES } from '../lotStateRow';
import {
  saleEstimateOf,
  type BidChangeRow,
  type ChangeRow,
  type LotRecord,
  type LotRow,
  type LotsRepo,
  type ObservedLot,
  type SaleEstimate,
} from '../lotsRepo';
import {
  bidHistory,
  changeParams,
  keyObservation,
  lotRecordOf,
  needsStoredMedia,
  planObservation,
  unpackRecord,
} from '../lotWrite';
import { TABLES } from '../schema';
import type { Async } from '../store';
import type { KyselyExec } from './exec';
import { bidChangesOf, estimateEnd, lotStatesOf, saleEstimatesOf, type KyselyEngine } from './lotBatchReads';

/** Which SQL a Kysely repository speaks (lotBatchReads.ts), for the repositories that import it from here. */
export type { KyselyEngine };

/** Every column of a `lots` row as LotRow has it (PostgreSQL's `rowid` and `fts` columns left out). */
export const LOT_COLUMNS = Object.keys(TABLES.lots) as (keyof typeof TABLES.lots)[];

/**
 * `column` ordered by its bytes, as SQLite orders text: PostgreSQL would follow the database's collation, which may
 * ignore punctuation and case, so ties between lots broken by key would come in another order.
 */
export function byteOrder(engine: KyselyEngine, column: string): RawBuilder<unknown> {
  switch (engine) {
    case 'sqlite':
      return sql.ref(column);
    case 'postgres':
      return sql`${sql.ref(column)} COLLATE "C"`;
  }
}

/**
 * The stored normalised record's `title_document` as JSON text (NULL when the lot's record has none), read in SQL
 * so the raw record is neither read nor inflated.
 */
function titleDocumentJson(engine: KyselyEngine): RawBuilder<string | null> {
  switch (engine) {
    case 'sqlite':
      return sql<string | null>`json_extract(normalized, '$.title_document')`;
    case 'postgres':
      // `->` keeps a JSON null as 'null' (parsed to null below, as SQLite's NULL reads).
      return sql<string | null>`((normalized::jsonb) -> 'title_document')::text`;
  }
}

/**
 * The first key of a lot's two-key advisory lock on PostgreSQL ('LWLO'; the second is the hash of its lot key). An
 * observation reads the lot's stored state and then writes what it plans from it. Two transactions observing one lot
 * at once on PostgreSQL (the watcher's poll beside a lot opened or checked by hand, a manual search beside a
 * scheduled one, two of a team's servers) would both read the state before either wrote: both insert a new lot (the
 * second fails on the lot key, and the user's action with it) or both diff against the same old state (its changes
 * recorded twice). With it the second waits for the first to end and reads what it wrote. SQLite writes one
 * transaction at a time already.
 */
const LOT_LOCK_SPACE = 0x4c574c4f;

/**
 * LotsRepo (src/core/db/lotsRepo.ts, which defines every method's shape and meaning) over Kysely, on SQLite or
 * PostgreSQL: lots, their observations and their timeline. Every query goes through `exec.db`, so a call made
 * inside the store's transaction joins it; `observe`, several statements, runs in one transaction of its own (or the
 * caller's). Throws the driver's errors.
 */
export class KyselyLotsRepo implements Async<LotsRepo> {
  constructor(
    private readonly exec: KyselyExec,
    private readonly engine: KyselyEngine,
  ) {}

  /** The stored row of a lot (its raw record inflated into `raw`), or null when Lotwatch never fetched it. */
  async getRow(key: LotKey): Promise<LotRow | null> {
    const r = await this.row(key);
    return r ? { ...r, raw: unpackRecord(r) ?? 'null' } : null;
  }

  /** The row as stored (`raw` not unpacked), or undefined. */
  private row(key: LotKey): Promise<LotRow | undefined> {
    return this.exec.db.selectFrom('lots').select(LOT_COLUMNS).where('lot_key', '=', key).executeTakeFirst();
  }

  /** The stored state of a lot (observed_at: when it was last seen, ms), or null. */
  async getLotState(key: LotKey): Promise<LotState | null> {
    const r = await this.exec.db
      .selectFrom('lots')
      .select(STATE_COLUMN_NAMES)
      .where('lot_key', '=', key)
      .executeTakeFirst();
    return r ? rowToLotState(r) : null;
  }

  /** The stored normalised record of a lot with its raw record, sights (ms), notes and tags, or null. */
  async getLotRecord(key: LotKey): Promise<LotRecord | null> {
    const r = await this.row(key);
    return r ? lotRecordOf(key, r) : null;
  }

  /**
   * A stored lot's normalised title document (fields absent on records stored before them), read without the raw
   * record; null when the lot or its document is not stored.
   */
  async titleDocument(key: LotKey): Promise<Partial<Vehicle['title_document']> | null> {
    const r = await this.exec.db
      .selectFrom('lots')
      .select(titleDocumentJson(this.engine).as('doc'))
      .where('lot_key', '=', key)
      .executeTakeFirst();
    const doc = r?.doc;
    return doc ? (JSON.parse(doc) as Partial<Vehicle['title_document']> | null) : null;
  }

  /** The service's estimate of a stored lot's sale price, or null (LotsRepo.saleEstimate). */
  async saleEstimate(key: LotKey): Promise<SaleEstimate | null> {
    const r = await this.exec.db
      .selectFrom('lots')
      .select([
        estimateEnd(this.engine, 'estimated_cost_from_usd').as('est_from'),
        estimateEnd(this.engine, 'estimated_cost_to_usd').as('est_to'),
      ])
      .where('lot_key', '=', key)
      .executeTakeFirst();
    return saleEstimateOf(r);
  }

  /** The stored states of `keys`, one read per BATCH keys (LotsRepo.lotStates; lotBatchReads.ts). */
  lotStates(keys: readonly LotKey[]): Promise<Map<LotKey, LotState>> {
    return lotStatesOf(this.exec.db, keys);
  }

  /** The service's estimates of the sale prices of `keys` (LotsRepo.saleEstimates; lotBatchReads.ts). */
  saleEstimates(keys: readonly LotKey[]): Promise<Map<LotKey, SaleEstimate>> {
    return saleEstimatesOf(this.exec.db, this.engine, keys);
  }

  /** The bid changes at or after `from` (ms) of each of `keys` (LotsRepo.bidChangesSinceOf; lotBatchReads.ts). */
  bidChangesSinceOf(keys: readonly LotKey[], from: number): Promise<Map<LotKey, BidChangeRow[]>> {
    return bidChangesOf(this.exec.db, keys, from);
  }

  /** When the lot's last change was observed (ms), or null when its timeline is empty. */
  async lastChangeAt(key: LotKey): Promise<number | null> {
    const r = await this.exec.db
      .selectFrom('changes')
      .select((eb) => eb.fn.max('observed_at').as('at'))
      .where('lot_key', '=', key)
      .executeTakeFirst();
    return r?.at ?? null;
  }

  /** Other stored lots of the same VIN, newest auction first, a lot without an auction time last (relists). */
  async otherLotsOfVin(vin: string, exceptKey: LotKey): Promise<LotState[]> {
    const rows = await this.exec.db
      .selectFrom('lots')
      .select(STATE_COLUMN_NAMES)
      .where('vin', '=', vin)
      .where('lot_key', '<>', exceptKey)
      .orderBy('auction_at', (o) => o.desc().nullsLast())
      .execute();
    return rows.map(rowToLotState);
  }

  /** Every stored lot of a VIN as stored (`raw` not unpacked), oldest auction first (no time first): its attempts. */
  async rowsOfVin(vin: string): Promise<LotRow[]> {
    return this.exec.db
      .selectFrom('lots')
      .select(LOT_COLUMNS)
      .where('vin', '=', vin)
      .orderBy('auction_at', (o) => o.asc().nullsFirst())
      .orderBy(byteOrder(this.engine, 'lot_key'))
      .execute();
  }

  /** The key of the stored lot of a VIN with the latest auction, or null. */
  async latestKeyOfVin(vin: string): Promise<LotKey | null> {
    const r = await this.exec.db
      .selectFrom('lots')
      .select('lot_key')
      .where('vin', '=', vin)
      .orderBy('auction_at', (o) => o.desc().nullsLast())
      .limit(1)
      .executeTakeFirst();
    return r?.lot_key ?? null;
  }

  /** The key of the most recently seen stored lot with this lot number, or null. */
  async latestKeyOfNumber(lotNumber: string): Promise<LotKey | null> {
    const r = await this.exec.db
      .selectFrom('lots')
      .select('lot_key')
      .where('lot_number', '=', lotNumber)
      .orderBy('last_observed_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return r?.lot_key ?? null;
  }

  /** Every stored lot as stored, most recently seen first (the CSV export of everything). */
  async all(): Promise<LotRow[]> {
    return this.exec.db.selectFrom('lots').select(LOT_COLUMNS).orderBy('last_observed_at', 'desc').execute();
  }

  /** A lot's timeline, oldest first. */
  async timeline(key: LotKey): Promise<ChangeRow[]> {
    return this.exec.db
      .selectFrom('changes')
      .selectAll()
      .where('lot_key', '=', key)
      .orderBy('observed_at')
      .orderBy('id')
      .execute();
  }

  /** A lot's bid changes at or after `from` (ms), oldest first: the bid plan's read. */
  async bidChangesSince(key: LotKey, from: number): Promise<BidChangeRow[]> {
    return this.exec.db
      .selectFrom('changes')
      .select(['observed_at', 'before', 'after'])
      .where('lot_key', '=', key)
      .where('kind', '=', 'bid_changed')
      .where('observed_at', '>=', from)
      .orderBy('observed_at')
      .orderBy('id')
      .execute();
  }

  /**
   * A lot's current bid history: [time (ms), bid (USD, or null)], oldest first, from its observations' records and,
   * before the first of them, its timeline's bid changes (see LotsRepo.bids).
   */
  async bids(key: LotKey): Promise<[number, number | null][]> {
    const db = this.exec.db;
    const observations = await db
      .selectFrom('observations as o')
      .select(['o.observed_at', 'o.raw', 'o.raw_z', 'o.raw_hash'])
      .select((eb) =>
        eb
          .case()
          .when(
            'o.id',
            '=',
            eb
              .selectFrom('observations')
              .select((e) => e.fn.max('id').as('m'))
              .whereRef('observations.lot_key', '=', 'o.lot_key'),
          )
          .then(1)
          .else(0)
          .end()
          .as('latest'),
      )
      .where('o.lot_key', '=', key)
      .orderBy('o.observed_at')
      .orderBy('o.id')
      .execute();
    const lot = await this.row(key);
    return bidHistory(observations, lot ?? null, await this.bidChangesSince(key, 0));
  }

  /** How many times a lot was observed (polls that saw it unchanged count too). */
  async observationCount(key: LotKey): Promise<number> {
    const r = await this.exec.db
      .selectFrom('observations')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('seen'), eb.val(0)).as('n'))
      .where('lot_key', '=', key)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * Stores one observation of a lot and returns its state before and after, in one transaction (the caller's when
   * one is open). Same meaning as LotsRepo.observe: the writes are planned by planObservation (src/core/db/lotWrite.ts)
   * and only run here. On PostgreSQL the transaction first takes the lot's lock (LOT_LOCK_SPACE), so an observation
   * of the same lot by another transaction waits for this one to end. Returns null for a record without platform or
   * lot number. Throws only database errors (a deadlock among transactions holding each other's lots included).
   */
  async observe(vehicle: Vehicle, observedAt: number, source: string): Promise<ObservedLot | null> {
    const k = keyObservation(vehicle, observedAt);
    if (k === null) return null;
    const { key } = k;
    return this.exec.transaction(async () => {
      const db = this.exec.db;
      // Held until the transaction ends (LOT_LOCK_SPACE): the state read next is the one this transaction replaces.
      if (this.engine === 'postgres')
        await sql`SELECT pg_advisory_xact_lock(${LOT_LOCK_SPACE}, hashtext(${key}))`.execute(db);
      const prevRow = await db
        .selectFrom('lots')
        .select(STATE_COLUMN_NAMES)
        .$if(needsStoredMedia(vehicle), (q) => q.select('normalized'))
        .where('lot_key', '=', key)
        .executeTakeFirst();
      const w = planObservation(vehicle, k, prevRow ?? null, () => prevRow?.normalized ?? null, observedAt);
      if (w.kind === 'seen') {
        if (w.restate === null) {
          await db
            .updateTable('lots')
            .set({ last_observed_at: observedAt })
            .where('lot_key', '=', key)
            .execute();
        } else {
          const { lot_key, observed_at, ...state } = w.restate;
          await db
            .updateTable('lots')
            .set({ ...state, last_observed_at: observed_at })
            .where('lot_key', '=', lot_key)
            .execute();
        }
        // The lot's last observation, found through observations_lot (lot_key, observed_at).
        const marked = await db
          .updateTable('observations')
          .set((eb) => ({ last_seen_at: observedAt, seen: eb('seen', '+', 1) }))
          .where('id', '=', (eb) =>
            eb
              .selectFrom('observations as l')
              .select('l.id')
              .where('l.lot_key', '=', key)
              .orderBy('l.observed_at', 'desc')
              .orderBy('l.id', 'desc')
              .limit(1),
          )
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) === 0) {
          // No observation left to mark (the retention pass collapsed them): this sight starts a new one.
          await this.insertObservation(key, observedAt, source, w.rawHash);
        }
        return { prev: w.prev, next: w.next };
      }
      if (w.kind === 'update') await this.archiveCurrent(key);
      await this.insertObservation(key, observedAt, source, w.lot.raw_hash);
      const { observed_at, ...lot } = w.lot;
      if (w.kind === 'update') {
        const { lot_key, platform: _p, lot_number: _n, ...changed } = lot;
        await db
          .updateTable('lots')
          .set({ ...changed, pruned_at: null, last_observed_at: observed_at })
          .where('lot_key', '=', lot_key)
          .execute();
      } else {
        await db
          .insertInto('lots')
          .values({ ...lot, first_seen_at: observed_at, last_observed_at: observed_at })
          .execute();
      }
      return { prev: w.prev, next: w.next };
    });
  }

  /** A new observation of a lot holding no copy (the lot row holds its record). */
  private async insertObservation(key: LotKey, at: number, source: string, rawHash: string): Promise<void> {
    await this.exec.db
      .insertInto('observations')
      .values({ lot_key: key, observed_at: at, source, raw_hash: rawHash, raw: null })
      .execute();
  }

  /**
   * Before a lot's record is replaced: its newest observation, which held no copy (the lot row had it), takes it.
   */
  private async archiveCurrent(key: LotKey): Promise<void> {
    await this.exec.db
      .updateTable('observations')
      .set((eb) => ({
        raw: eb
          .selectFrom('lots')
          .select((e) => e.case().when('lots.raw_z', 'is', null).then(e.ref('lots.raw')).end().as('r'))
          .where('lots.lot_key', '=', key),
        raw_z: eb.selectFrom('lots').select('lots.raw_z').where('lots.lot_key', '=', key),
      }))
      .where('id', '=', (eb) =>
        eb
          .selectFrom('observations as l')
          .select('l.id')
          .where('l.lot_key', '=', key)
          .orderBy('l.observed_at', 'desc')
          .orderBy('l.id', 'desc')
          .limit(1),
      )
      .where('raw', 'is', null)
      .where('raw_z', 'is', null)
      .where('raw_hash', '=', (eb) =>
        eb.selectFrom('lots').select('lots.raw_hash').where('lots.lot_key', '=', key),
      )
      .execute();
  }

  /** Appends a change to the timeline; returns its id. */
  async insertChange(c: Change, searchId: number | null): Promise<number> {
    const r = await this.exec.db
      .insertInto('changes')
      .values(changeParams(c, searchId))
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  }
}
