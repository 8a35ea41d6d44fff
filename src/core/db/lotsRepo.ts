import type { Database, Statement } from 'better-sqlite3';
import type { Vehicle } from '../../shared/vehicle';
import type { Change, LotKey, LotState } from '../../shared/watch';
import { rowToLotState, STATE_COLUMNS, type StateParams, type StateRow } from './lotStateRow';
import {
  bidHistory,
  changeParams,
  keyObservation,
  lotRecordOf,
  planObservation,
  unpackRecord,
  type BidObservation,
  type ChangeParams,
  type LotParams,
} from './lotWrite';
import { insertedId, type CountRow } from './rows';

export { capStoredPhotos, MAX_STORED_PHOTOS, packRecord, unpackRecord } from './lotWrite';

/** A row of `lots`: the current state of one lot (amounts in USD, times in ms), its records as JSON text. */
export interface LotRow {
  lot_key: string;
  platform: string;
  lot_number: string;
  vin: string | null;
  title: string | null;
  year: number | null;
  make: string | null;
  model: string | null;
  location: string | null;
  current_bid_usd: number | null;
  buy_now_usd: number | null;
  sale_price_usd: number | null;
  state: string | null;
  lot_status: string | null;
  lot_sub_status: string | null;
  last_sold_status: string | null;
  auction_at: number | null;
  /** The normalised record (Vehicle without `raw`) as JSON. */
  normalized: string;
  /**
   * The service's record as received (photo lists capped), as JSON. getRow and getLotRecord read it from `raw_z`
   * where it is stored deflated; a row read by its own query has '' here then.
   */
  raw: string;
  /** The raw record as deflated JSON (schema 90 on), or null for a row stored before. */
  raw_z: Buffer | null;
  raw_hash: string;
  /** sha256 of `normalized`: what decides whether a poll saw anything new (NULL: stored before schema 90). */
  content_hash: string | null;
  /** When the retention pass slimmed this lot to its sale result (ms), or null while it is whole. */
  pruned_at: number | null;
  notes: string;
  /** The user's tags, comma-separated (src/shared/desk.ts parseTags). */
  tags: string;
  first_seen_at: number;
  last_observed_at: number;
}

/** A row of `changes`: one entry of a lot's timeline; `before`/`after` are JSON text. */
export interface ChangeRow {
  id: number;
  lot_key: string;
  kind: string;
  field: string | null;
  before: string | null;
  after: string | null;
  related_lot_key: string | null;
  vin: string | null;
  observed_at: number;
  search_id: number | null;
  outcome: string | null;
}

/** The service's estimate band of a lot's sale price, USD (LotsRepo.saleEstimate). */
export interface SaleEstimate {
  from: number;
  to: number;
}

/** The two ends of a stored record's estimate band as SQL reads them (JSON numbers; anything else is no estimate). */
export interface EstimateRow {
  est_from: unknown;
  est_to: unknown;
}

/**
 * SQLite's read of one end of the stored normalised record's `pricing` estimate band: the JSON number, NULL when
 * absent or not a number (the same on both stores: kysely/lotsRepo.ts estimateEnd).
 */
export function sqliteEstimateEnd(field: 'estimated_cost_from_usd' | 'estimated_cost_to_usd'): string {
  const path = `'$.pricing.${field}'`;
  return `(CASE WHEN json_type(normalized, ${path}) IN ('integer', 'real') THEN json_extract(normalized, ${path}) END)`;
}

/** A SaleEstimate from its row, or null when there is no row or either end is not a finite number. Throws nothing. */
export function saleEstimateOf(r: EstimateRow | undefined): SaleEstimate | null {
  if (!r) return null;
  const from = typeof r.est_from === 'string' ? Number(r.est_from) : r.est_from;
  const to = typeof r.est_to === 'string' ? Number(r.est_to) : r.est_to;
  if (typeof from !== 'number' || typeof to !== 'number' || !Number.isFinite(from) || !Number.isFinite(to))
    return null;
  return { from, to };
}

/** A bid change of a lot's timeline, as the bid plan reads it (LotsRepo.bidChangesSince). */
export type BidChangeRow = Pick<ChangeRow, 'observed_at' | 'before' | 'after'>;

/**
 * Several lots' estimate rows as each lot's SaleEstimate (saleEstimateOf), the batch reads' answer on both stores
 * (LotsRepo.saleEstimates): a lot whose band is not two finite numbers is absent. Throws nothing.
 */
export function saleEstimatesByLot(
  rows: Iterable<EstimateRow & { lot_key: string }>,
): Map<LotKey, SaleEstimate> {
  const out = new Map<LotKey, SaleEstimate>();
  for (const r of rows) {
    const e = saleEstimateOf(r);
    if (e) out.set(r.lot_key, e);
  }
  return out;
}

/**
 * Several lots' bid change rows, each lot's in the order observed, grouped by lot: the batch reads' answer on both
 * stores (LotsRepo.bidChangesSinceOf). Throws nothing.
 */
export function bidChangesByLot(
  rows: Iterable<BidChangeRow & { lot_key: string }>,
): Map<LotKey, BidChangeRow[]> {
  const out = new Map<LotKey, BidChangeRow[]>();
  for (const { lot_key, ...c } of rows) {
    const list = out.get(lot_key);
    if (list) list.push(c);
    else out.set(lot_key, [c]);
  }
  return out;
}

/** The result of storing one observation of a lot. */
export interface ObservedLot {
  prev: LotState | null;
  next: LotState;
}

/** A stored lot's normalised record with its raw record, key, first and last sight (ms) and the user's notes and tags. */
export type LotRecord = Vehicle & {
  lot_key: string;
  first_seen_at: number;
  last_observed_at: number;
  notes: string;
  tags: string;
};

/**
 * Lots, their observations and their timeline (`lots`, `observations`, `changes`). Every
 * record Lotwatch fetched is stored here, so the library and a lot's history work offline. Writes never await;
 * callers group a poll's writes in one transaction (see Store.transaction).
 */
export class LotsRepo {
  private readonly getLot: Statement<[string], LotRow>;
  private readonly getState: Statement<[string], StateRow>;
  private readonly lotsOfVin: Statement<[string, string], StateRow>;
  private readonly insertLot: Statement<[LotParams]>;
  private readonly updateLot: Statement<[LotParams]>;
  private readonly touchLot: Statement<[number, string]>;
  private readonly restateLot: Statement<[StateParams & { lot_key: string; observed_at: number }]>;
  private readonly insertObservation: Statement<[string, number, string, string, string | null]>;
  private readonly seenAgain: Statement<[{ at: number; key: string }]>;
  private readonly archiveCurrent: Statement<[{ key: string }]>;
  private readonly insertChangeRow: Statement<[ChangeParams]>;
  private readonly keyOfVin: Statement<[string], { lot_key: string }>;
  private readonly keyOfNumber: Statement<[string], { lot_key: string }>;
  private readonly allLots: Statement<[], LotRow>;
  private readonly rowsOfVinStmt: Statement<[string], LotRow>;
  private readonly mediaOf: Statement<[string], { normalized: string }>;
  private readonly timelineOf: Statement<[string], ChangeRow>;
  private readonly bidsOf: Statement<[string], BidObservation>;
  private readonly bidChangesFrom: Statement<[string, number], BidChangeRow>;
  private readonly observationsOf: Statement<[string], CountRow>;
  private readonly lastChangeOf: Statement<[string], { at: number | null }>;
  private readonly titleDocOf: Statement<[string], { doc: string | null }>;
  private readonly estimateOf: Statement<[string], EstimateRow>;
  private readonly statesOf: Statement<[string], StateRow & { lot_key: string }>;
  private readonly estimatesOf: Statement<[string], EstimateRow & { lot_key: string }>;
  private readonly bidChangesOfMany: Statement<[string, number], BidChangeRow & { lot_key: string }>;

  constructor(db: Database) {
    this.getLot = db.prepare('SELECT * FROM lots WHERE lot_key = ?');
    this.getState = db.prepare(`SELECT ${STATE_COLUMNS} FROM lots WHERE lot_key = ?`);
    this.lotsOfVin = db.prepare(
      `SELECT ${STATE_COLUMNS} FROM lots WHERE vin = ? AND lot_key <> ? ORDER BY auction_at DESC`,
    );
    this.insertLot =
      db.prepare(`INSERT INTO lots (lot_key, platform, lot_number, vin, title, year, make, model, location,
      current_bid_usd, buy_now_usd, sale_price_usd, state, lot_status, lot_sub_status, last_sold_status, auction_at,
      normalized, raw, raw_z, raw_hash, content_hash, first_seen_at, last_observed_at)
      VALUES (@lot_key, @platform, @lot_number, @vin, @title, @year, @make, @model, @location, @current_bid_usd,
      @buy_now_usd, @sale_price_usd, @state, @lot_status, @lot_sub_status, @last_sold_status, @auction_at, @normalized,
      @raw, @raw_z, @raw_hash, @content_hash, @observed_at, @observed_at)`);
    this.updateLot =
      db.prepare(`UPDATE lots SET vin = @vin, title = @title, year = @year, make = @make, model = @model,
      location = @location, current_bid_usd = @current_bid_usd, buy_now_usd = @buy_now_usd,
      sale_price_usd = @sale_price_usd, state = @state, lot_status = @lot_status, lot_sub_status = @lot_sub_status,
      last_sold_status = @last_sold_status, auction_at = @auction_at, normalized = @normalized, raw = @raw, raw_z = @raw_z, raw_hash = @raw_hash,
      content_hash = @content_hash, pruned_at = NULL, last_observed_at = @observed_at WHERE lot_key = @lot_key`);
    this.touchLot = db.prepare('UPDATE lots SET last_observed_at = ? WHERE lot_key = ?');
    this.restateLot = db.prepare(`UPDATE lots SET vin = @vin, current_bid_usd = @current_bid_usd,
      buy_now_usd = @buy_now_usd, sale_price_usd = @sale_price_usd, state = @state, lot_status = @lot_status,
      lot_sub_status = @lot_sub_status, last_sold_status = @last_sold_status, auction_at = @auction_at,
      last_observed_at = @observed_at WHERE lot_key = @lot_key`);
    this.insertObservation = db.prepare(
      'INSERT INTO observations (lot_key, observed_at, source, raw_hash, raw) VALUES (?, ?, ?, ?, ?)',
    );
    // Before a lot's record is replaced: its newest observation, which held no copy (the lot row had it), takes it.
    this.archiveCurrent = db.prepare(`UPDATE observations
      SET raw = (SELECT CASE WHEN raw_z IS NULL THEN raw END FROM lots WHERE lot_key = @key),
          raw_z = (SELECT raw_z FROM lots WHERE lot_key = @key)
      WHERE id = (SELECT id FROM observations WHERE lot_key = @key ORDER BY observed_at DESC, id DESC LIMIT 1)
        AND raw IS NULL AND raw_z IS NULL AND raw_hash = (SELECT raw_hash FROM lots WHERE lot_key = @key)`);
    // The lot's last observation, found through observations_lot (lot_key, observed_at).
    this.seenAgain = db.prepare(`UPDATE observations SET last_seen_at = @at, seen = seen + 1 WHERE id = (
      SELECT id FROM observations WHERE lot_key = @key ORDER BY observed_at DESC, id DESC LIMIT 1)`);
    this.insertChangeRow =
      db.prepare(`INSERT INTO changes (lot_key, kind, field, before, after, related_lot_key, vin,
      observed_at, search_id, outcome) VALUES (@lot_key, @kind, @field, @before, @after, @related_lot_key, @vin,
      @observed_at, @search_id, @outcome)`);
    this.keyOfVin = db.prepare('SELECT lot_key FROM lots WHERE vin = ? ORDER BY auction_at DESC LIMIT 1');
    this.keyOfNumber = db.prepare(
      'SELECT lot_key FROM lots WHERE lot_number = ? ORDER BY last_observed_at DESC LIMIT 1',
    );
    this.allLots = db.prepare('SELECT * FROM lots ORDER BY last_observed_at DESC');
    this.rowsOfVinStmt = db.prepare('SELECT * FROM lots WHERE vin = ? ORDER BY auction_at, lot_key');
    this.mediaOf = db.prepare('SELECT normalized FROM lots WHERE lot_key = ?');
    this.timelineOf = db.prepare('SELECT * FROM changes WHERE lot_key = ? ORDER BY observed_at, id');
    this.bidsOf = db.prepare(`SELECT o.observed_at, o.raw, o.raw_z, o.raw_hash,
      o.id = (SELECT max(id) FROM observations WHERE lot_key = o.lot_key) AS latest
      FROM observations o WHERE o.lot_key = ? ORDER BY o.observed_at, o.id`);
    this.bidChangesFrom = db.prepare(`SELECT observed_at, before, after FROM changes
      WHERE lot_key = ? AND kind = 'bid_changed' AND observed_at >= ? ORDER BY observed_at, id`);
    this.observationsOf = db.prepare(
      'SELECT coalesce(sum(seen), 0) AS n FROM observations WHERE lot_key = ?',
    );
    this.lastChangeOf = db.prepare('SELECT max(observed_at) AS at FROM changes WHERE lot_key = ?');
    this.titleDocOf = db.prepare(
      "SELECT json_extract(normalized, '$.title_document') AS doc FROM lots WHERE lot_key = ?",
    );
    this.estimateOf = db.prepare(
      `SELECT ${sqliteEstimateEnd('estimated_cost_from_usd')} AS est_from,
      ${sqliteEstimateEnd('estimated_cost_to_usd')} AS est_to FROM lots WHERE lot_key = ?`,
    );
    // The batch reads take their keys as one JSON array (json_each), so each is one prepared statement however many
    // keys it is given.
    const inKeys = 'lot_key IN (SELECT value FROM json_each(?))';
    this.statesOf = db.prepare(`SELECT lot_key, ${STATE_COLUMNS} FROM lots WHERE ${inKeys}`);
    this.estimatesOf = db.prepare(
      `SELECT lot_key, ${sqliteEstimateEnd('estimated_cost_from_usd')} AS est_from,
      ${sqliteEstimateEnd('estimated_cost_to_usd')} AS est_to FROM lots WHERE ${inKeys}`,
    );
    this.bidChangesOfMany = db.prepare(`SELECT lot_key, observed_at, before, after FROM changes
      WHERE ${inKeys} AND kind = 'bid_changed' AND observed_at >= ? ORDER BY lot_key, observed_at, id`);
  }

  /** The stored row of a lot, or null when Lotwatch never fetched it. */
  getRow(key: LotKey): LotRow | null {
    const r = this.getLot.get(key);
    return r ? { ...r, raw: unpackRecord(r) ?? 'null' } : null;
  }

  /** The stored state of a lot, or null. */
  getLotState(key: LotKey): LotState | null {
    const r = this.getState.get(key);
    return r ? rowToLotState(r) : null;
  }

  /** The stored normalised record of a lot, or null. */
  getLotRecord(key: LotKey): LotRecord | null {
    const r = this.getLot.get(key);
    return r ? lotRecordOf(key, r) : null;
  }

  /**
   * A stored lot's normalised title document (name, group, export flag, brand; fields absent on records stored
   * before them), read without inflating the raw record; null when the lot or its document is not stored.
   */
  titleDocument(key: LotKey): Partial<Vehicle['title_document']> | null {
    const doc = this.titleDocOf.get(key)?.doc;
    return doc ? (JSON.parse(doc) as Partial<Vehicle['title_document']>) : null;
  }

  /**
   * The service's estimate of a stored lot's sale price (real `pricing.estimated_cost`, src/shared/vehicle.ts), read
   * without inflating the raw record: the band's ends in USD. Null when the lot is not stored or its record lacks
   * either end.
   */
  saleEstimate(key: LotKey): SaleEstimate | null {
    return saleEstimateOf(this.estimateOf.get(key));
  }

  /**
   * The stored states of `keys` in one read (the scheduler's view reads a whole watchlist at each tick: one statement,
   * not one per lot, which on PostgreSQL is a round trip each). A key not stored is absent; duplicates read once.
   */
  lotStates(keys: readonly LotKey[]): Map<LotKey, LotState> {
    const out = new Map<LotKey, LotState>();
    for (const r of this.statesOf.all(JSON.stringify(keys))) out.set(r.lot_key, rowToLotState(r));
    return out;
  }

  /**
   * The service's estimates of the sale prices of `keys` (saleEstimate) in one read. A key not stored, or whose
   * record lacks either end of the band, is absent.
   */
  saleEstimates(keys: readonly LotKey[]): Map<LotKey, SaleEstimate> {
    return saleEstimatesByLot(this.estimatesOf.all(JSON.stringify(keys)));
  }

  /**
   * The bid changes at or after `from` (ms) of each of `keys` (bidChangesSince) in one read, each lot's oldest
   * first. A lot without such a change is absent.
   */
  bidChangesSinceOf(keys: readonly LotKey[], from: number): Map<LotKey, BidChangeRow[]> {
    return bidChangesByLot(this.bidChangesOfMany.all(JSON.stringify(keys), from));
  }

  /** When the lot's last change was observed (ms), or null when its timeline is empty. */
  lastChangeAt(key: LotKey): number | null {
    return this.lastChangeOf.get(key)?.at ?? null;
  }

  /** Other stored lots of the same VIN, newest auction first (for relist detection). */
  otherLotsOfVin(vin: string, exceptKey: LotKey): LotState[] {
    return this.lotsOfVin.all(vin, exceptKey).map(rowToLotState);
  }

  /** Every stored lot of a VIN as stored (`raw` not unpacked), oldest auction first: its auction attempts. */
  rowsOfVin(vin: string): LotRow[] {
    return this.rowsOfVinStmt.all(vin);
  }

  /** The key of the stored lot of a VIN with the latest auction, or null. */
  latestKeyOfVin(vin: string): LotKey | null {
    return this.keyOfVin.get(vin)?.lot_key ?? null;
  }

  /** The key of the most recently seen stored lot with this lot number, or null. */
  latestKeyOfNumber(lotNumber: string): LotKey | null {
    return this.keyOfNumber.get(lotNumber)?.lot_key ?? null;
  }

  /** Every stored lot, most recently seen first (the CSV export of everything). */
  all(): LotRow[] {
    return this.allLots.all();
  }

  /** A lot's timeline, oldest first. */
  timeline(key: LotKey): ChangeRow[] {
    return this.timelineOf.all(key);
  }

  /** A lot's bid changes at or after `from` (ms), oldest first: the bid plan's read, these rows only (changes_lot). */
  bidChangesSince(key: LotKey, from: number): BidChangeRow[] {
    return this.bidChangesFrom.all(key, from);
  }

  /**
   * A lot's current bid history: [time (ms), bid (USD, or null)], oldest first. From each stored observation's
   * record, preceded by the timeline's bid changes from before the first of them (a lot whose observations the
   * retention pass collapsed keeps its history through its timeline).
   */
  bids(key: LotKey): [number, number | null][] {
    return bidHistory(this.bidsOf.all(key), this.getLot.get(key) ?? null, this.bidChangesFrom.all(key, 0));
  }

  /** How many times a lot was observed (polls that saw it unchanged count too). */
  observationCount(key: LotKey): number {
    return this.observationsOf.get(key)!.n;
  }

  /**
   * Stores one observation of a lot and returns its state before and after; call inside a transaction with the
   * poll's other writes. The record is stored with its photo lists capped (capStoredPhotos). Whether anything
   * changed is decided on the normalised record, not the raw bytes (the real service's records carry a countdown
   * that differs on every answer): a record whose content equals the stored one adds no row and no copy, only
   * `last_observed_at` on the lot and `last_seen_at`/`seen` on its last observation; a changed one is stored on the
   * lot (raw record deflated) with a new observation, and the record it replaces moves into the observation before,
   * so each record received is stored once. The state (its columns and `next`) is the diff's projection, toLotState
   * in src/core/diff: blank strings and non-finite amounts are null, and an auction time without an offset is null
   * rather than read in the machine's zone. Returns null for a record without platform or lot number
   * (it cannot be keyed; the caller counts a warning). Throws only database errors.
   */
  observe(vehicle: Vehicle, observedAt: number, source: string): ObservedLot | null {
    // The state stored is the diff's projection, so the state the diff compares next time is the one it defines.
    const k = keyObservation(vehicle, observedAt);
    if (k === null) return null;
    const { key } = k;
    const w = planObservation(
      vehicle,
      k,
      this.getState.get(key) ?? null,
      () => this.mediaOf.get(key)?.normalized ?? null,
      observedAt,
    );
    if (w.kind === 'seen') {
      if (w.restate === null) this.touchLot.run(observedAt, key);
      else this.restateLot.run(w.restate);
      if (this.seenAgain.run({ at: observedAt, key }).changes === 0) {
        // No observation left to mark (the retention pass collapsed them): this sight starts a new one.
        this.insertObservation.run(key, observedAt, source, w.rawHash, null);
      }
      return { prev: w.prev, next: w.next };
    }
    if (w.kind === 'update') this.archiveCurrent.run({ key });
    this.insertObservation.run(key, observedAt, source, w.lot.raw_hash, null);
    (w.kind === 'update' ? this.updateLot : this.insertLot).run(w.lot);
    return { prev: w.prev, next: w.next };
  }

  /** Appends a change to the timeline; returns its id. */
  insertChange(c: Change, searchId: number | null): number {
    return insertedId(this.insertChangeRow.run(changeParams(c, searchId)));
  }
}
