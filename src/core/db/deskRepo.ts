import type { Database, Statement } from 'better-sqlite3';
import type { ShippingPrice } from '../../shared/vehicle';
import type { LotKey } from '../../shared/watch';
import { shippingRows, tagsOf } from './repoLogic/desk';

/** A shipping price kept with a lot: the port, the price (USD unless `currency` says otherwise), when it was fetched (ms). */
export interface KeptShippingPrice {
  port: string;
  price_usd: number | null;
  currency: string | null;
  fetched_at: number;
}

/**
 * The buyer's own data on lots (docs/architecture.md "The buyer's desk"): notes and tags on `lots`, and the shipping
 * prices the service gave for a lot (`lot_shipping`), kept so the landed cost is worked out offline without a second
 * request. Statements are prepared once; writes never await.
 */
export class DeskRepo {
  private readonly setNotesStmt: Statement<[string, string, string]>;
  private readonly notesOf: Statement<[string], { notes: string; tags: string }>;
  private readonly putShip: Statement<[string, string, number | null, string | null, number]>;
  private readonly shipOf: Statement<[string], KeptShippingPrice>;
  private readonly allTags: Statement<[], { tags: string }>;

  constructor(db: Database) {
    this.setNotesStmt = db.prepare('UPDATE lots SET notes = ?, tags = ? WHERE lot_key = ?');
    this.notesOf = db.prepare('SELECT notes, tags FROM lots WHERE lot_key = ?');
    this.putShip =
      db.prepare(`INSERT INTO lot_shipping (lot_key, port, price_usd, currency, fetched_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (lot_key, port) DO UPDATE SET price_usd = excluded.price_usd, currency = excluded.currency,
      fetched_at = excluded.fetched_at`);
    this.shipOf = db.prepare(
      'SELECT port, price_usd, currency, fetched_at FROM lot_shipping WHERE lot_key = ? ORDER BY port',
    );
    this.allTags = db.prepare("SELECT DISTINCT tags FROM lots WHERE tags <> ''");
  }

  /**
   * Writes a stored lot's notes and tags (tags already normalised, comma-separated).
   * @returns false when Lotwatch has no such lot (nothing written). Throws database errors.
   */
  setNotes(key: LotKey, notes: string, tags: string): boolean {
    return this.setNotesStmt.run(notes, tags, key).changes > 0;
  }

  /** A stored lot's notes and tags, or null when the lot is not stored. */
  notes(key: LotKey): { notes: string; tags: string } | null {
    return this.notesOf.get(key) ?? null;
  }

  /** Every tag in use, each once, sorted: the suggestions beside a tag field. */
  tagsInUse(): string[] {
    return tagsOf(this.allTags.all());
  }

  /**
   * Keeps the shipping prices the service returned for a lot (one row per port, the newest wins). A price with no
   * port is not kept: it cannot be matched to the user's port. Throws database errors.
   */
  keepShipping(key: LotKey, prices: readonly ShippingPrice[], fetchedAt: number): void {
    for (const r of shippingRows(key, prices, fetchedAt))
      this.putShip.run(r.lot_key, r.port, r.price_usd, r.currency, r.fetched_at);
  }

  /** The shipping prices kept for a lot, by port name. */
  shipping(key: LotKey): KeptShippingPrice[] {
    return this.shipOf.all(key);
  }
}
