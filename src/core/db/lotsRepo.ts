import type { Database, Statement } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type { Vehicle } from '../../shared/vehicle';
import { lotKeyOf, type Change, type LotKey, type LotState } from '../../shared/watch';
import { insertedId, type CountRow } from './rows';

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
  /** The service's record as received, as JSON. */
  raw: string;
  raw_hash: string;
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

/** The result of storing one observation of a lot. */
export interface ObservedLot {
  prev: LotState | null;
  next: LotState;
}

/** A stored lot's normalised record with its raw record, key, first and last sight (ms) and the user's notes and tags. */
export type LotRecord = Vehicle & { lot_key: string; first_seen_at: number; last_observed_at: number; notes: string; tags: string };

type LotParams = Omit<LotRow, 'notes' | 'tags' | 'first_seen_at' | 'last_observed_at'> & { observed_at: number };

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

function parseAuctionAt(iso: string | null): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}

/** The columns of a LotState (and the raw record's hash): reading a lot's state need not copy its JSON records. */
type StateRow = Pick<
  LotRow,
  | 'platform'
  | 'lot_number'
  | 'vin'
  | 'current_bid_usd'
  | 'buy_now_usd'
  | 'sale_price_usd'
  | 'state'
  | 'lot_status'
  | 'lot_sub_status'
  | 'last_sold_status'
  | 'auction_at'
  | 'raw_hash'
  | 'last_observed_at'
>;
const STATE_COLUMNS = `platform, lot_number, vin, current_bid_usd, buy_now_usd, sale_price_usd, state, lot_status, lot_sub_status,
  last_sold_status, auction_at, raw_hash, last_observed_at`;

function rowToLotState(r: StateRow): LotState {
  return {
    platform: r.platform,
    lot_number: r.lot_number,
    vin: r.vin ?? null,
    current_bid_usd: r.current_bid_usd ?? null,
    buy_now_usd: r.buy_now_usd ?? null,
    sale_price_usd: r.sale_price_usd ?? null,
    state: r.state ?? null,
    lot_status: r.lot_status ?? null,
    lot_sub_status: r.lot_sub_status ?? null,
    last_sold_status: r.last_sold_status ?? null,
    auction_at: r.auction_at ?? null,
    observed_at: r.last_observed_at,
  };
}

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
  private readonly insertObservation: Statement<[string, number, string, string, string | null]>;
  private readonly insertChangeRow: Statement<
    [string, string, string | null, string, string, string | null, string | null, number, number | null, string | null]
  >;
  private readonly keyOfVin: Statement<[string], { lot_key: string }>;
  private readonly keyOfNumber: Statement<[string], { lot_key: string }>;
  private readonly allLots: Statement<[], LotRow>;
  private readonly timelineOf: Statement<[string], ChangeRow>;
  private readonly bidsOf: Statement<[string], { observed_at: number; bid: unknown }>;
  private readonly observationsOf: Statement<[string], CountRow>;
  private readonly lastChangeOf: Statement<[string], { at: number | null }>;

  constructor(db: Database) {
    this.getLot = db.prepare('SELECT * FROM lots WHERE lot_key = ?');
    this.getState = db.prepare(`SELECT ${STATE_COLUMNS} FROM lots WHERE lot_key = ?`);
    this.lotsOfVin = db.prepare(`SELECT ${STATE_COLUMNS} FROM lots WHERE vin = ? AND lot_key <> ? ORDER BY auction_at DESC`);
    this.insertLot = db.prepare(`INSERT INTO lots (lot_key, platform, lot_number, vin, title, year, make, model, location,
      current_bid_usd, buy_now_usd, sale_price_usd, state, lot_status, lot_sub_status, last_sold_status, auction_at,
      normalized, raw, raw_hash, first_seen_at, last_observed_at)
      VALUES (@lot_key, @platform, @lot_number, @vin, @title, @year, @make, @model, @location, @current_bid_usd,
      @buy_now_usd, @sale_price_usd, @state, @lot_status, @lot_sub_status, @last_sold_status, @auction_at, @normalized,
      @raw, @raw_hash, @observed_at, @observed_at)`);
    this.updateLot = db.prepare(`UPDATE lots SET vin = @vin, title = @title, year = @year, make = @make, model = @model,
      location = @location, current_bid_usd = @current_bid_usd, buy_now_usd = @buy_now_usd,
      sale_price_usd = @sale_price_usd, state = @state, lot_status = @lot_status, lot_sub_status = @lot_sub_status,
      last_sold_status = @last_sold_status, auction_at = @auction_at, normalized = @normalized, raw = @raw, raw_hash = @raw_hash,
      last_observed_at = @observed_at WHERE lot_key = @lot_key`);
    this.touchLot = db.prepare('UPDATE lots SET last_observed_at = ? WHERE lot_key = ?');
    this.insertObservation = db.prepare(
      'INSERT INTO observations (lot_key, observed_at, source, raw_hash, raw) VALUES (?, ?, ?, ?, ?)',
    );
    this.insertChangeRow = db.prepare(`INSERT INTO changes (lot_key, kind, field, before, after, related_lot_key, vin,
      observed_at, search_id, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.keyOfVin = db.prepare('SELECT lot_key FROM lots WHERE vin = ? ORDER BY auction_at DESC LIMIT 1');
    this.keyOfNumber = db.prepare('SELECT lot_key FROM lots WHERE lot_number = ? ORDER BY last_observed_at DESC LIMIT 1');
    this.allLots = db.prepare('SELECT * FROM lots ORDER BY last_observed_at DESC');
    this.timelineOf = db.prepare('SELECT * FROM changes WHERE lot_key = ? ORDER BY observed_at, id');
    this.bidsOf = db.prepare(`SELECT observed_at, json_extract(raw, '$.pricing.current_bid_usd') AS bid FROM observations
      WHERE lot_key = ? AND raw IS NOT NULL ORDER BY observed_at`);
    this.observationsOf = db.prepare('SELECT count(*) AS n FROM observations WHERE lot_key = ?');
    this.lastChangeOf = db.prepare('SELECT max(observed_at) AS at FROM changes WHERE lot_key = ?');
  }

  /** The stored row of a lot, or null when Lotwatch never fetched it. */
  getRow(key: LotKey): LotRow | null {
    return this.getLot.get(key) ?? null;
  }

  /** The stored state of a lot, or null. */
  getLotState(key: LotKey): LotState | null {
    const r = this.getState.get(key);
    return r ? rowToLotState(r) : null;
  }

  /** The stored normalised record of a lot, or null. */
  getLotRecord(key: LotKey): LotRecord | null {
    const r = this.getLot.get(key);
    if (!r) return null;
    return {
      ...(JSON.parse(r.normalized) as Vehicle),
      raw: JSON.parse(r.raw) as unknown,
      lot_key: key,
      first_seen_at: r.first_seen_at,
      last_observed_at: r.last_observed_at,
      notes: r.notes,
      tags: r.tags,
    };
  }

  /** When the lot's last change was observed (ms), or null when its timeline is empty. */
  lastChangeAt(key: LotKey): number | null {
    return this.lastChangeOf.get(key)?.at ?? null;
  }

  /** Other stored lots of the same VIN, newest auction first (for relist detection). */
  otherLotsOfVin(vin: string, exceptKey: LotKey): LotState[] {
    return this.lotsOfVin.all(vin, exceptKey).map(rowToLotState);
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

  /** A lot's current bid (USD, or null) at each observation whose record was stored, oldest first. */
  bids(key: LotKey): [number, number | null][] {
    return this.bidsOf.all(key).map((b) => [b.observed_at, typeof b.bid === 'number' ? b.bid : null]);
  }

  /** How many times a lot was observed. */
  observationCount(key: LotKey): number {
    return this.observationsOf.get(key)!.n;
  }

  /**
   * Stores one observation of a lot: the observation row (raw JSON kept unless identical to the last one) and the
   * lot's current state. Returns the state before and after. Call inside a transaction with the poll's other writes.
   * Returns null for a record without platform or lot number (it cannot be keyed; the caller counts a warning).
   */
  observe(v: Vehicle, observedAt: number, source: string): ObservedLot | null {
    if (!v.platform || !v.lot_number) return null;
    const key = lotKeyOf(v.platform, v.lot_number);
    const prevRow = this.getState.get(key);
    const rawJson = JSON.stringify(v.raw ?? null);
    const rawHash = sha256(rawJson);
    const { raw: _raw, ...normalized } = v;
    const next: LotState = {
      platform: v.platform,
      lot_number: v.lot_number,
      vin: v.vin,
      current_bid_usd: v.pricing.current_bid_usd,
      buy_now_usd: v.pricing.buy_now_usd,
      sale_price_usd: v.pricing.sale_price_usd,
      state: v.auction.state,
      lot_status: v.auction.lot_status,
      lot_sub_status: v.auction.lot_sub_status,
      last_sold_status: v.auction.last_sold_status,
      auction_at: parseAuctionAt(v.auction.auction_at),
      observed_at: observedAt,
    };
    const same = prevRow?.raw_hash === rawHash;
    this.insertObservation.run(key, observedAt, source, rawHash, same ? null : rawJson);
    if (same) {
      this.touchLot.run(observedAt, key);
    } else {
      const params: LotParams = {
        lot_key: key,
        platform: v.platform,
        lot_number: v.lot_number,
        vin: v.vin,
        title: v.title,
        year: v.year,
        make: v.make,
        model: v.model,
        location: v.location.display,
        current_bid_usd: next.current_bid_usd,
        buy_now_usd: next.buy_now_usd,
        sale_price_usd: next.sale_price_usd,
        state: next.state,
        lot_status: next.lot_status,
        lot_sub_status: next.lot_sub_status,
        last_sold_status: next.last_sold_status,
        auction_at: next.auction_at,
        normalized: JSON.stringify(normalized),
        raw: rawJson,
        raw_hash: rawHash,
        observed_at: observedAt,
      };
      (prevRow ? this.updateLot : this.insertLot).run(params);
    }
    return { prev: prevRow ? rowToLotState(prevRow) : null, next };
  }

  /** Appends a change to the timeline; returns its id. */
  insertChange(c: Change, searchId: number | null): number {
    const r = this.insertChangeRow.run(
      c.lot_key,
      c.kind,
      c.field,
      JSON.stringify(c.before),
      JSON.stringify(c.after),
      c.related_lot_key,
      c.vin,
      c.observed_at,
      searchId,
      c.outcome,
    );
    return insertedId(r);
  }
}
