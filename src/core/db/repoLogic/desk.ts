import type { ShippingPrice } from '../../../shared/vehicle';
import type { LotKey } from '../../../shared/watch';

/*
 * The buyer's desk's logic that is not SQL, shared by the SQLite repository (deskRepo.ts) and the Kysely one
 * (kysely/deskRepo.ts).
 */

/**
 * Every tag of the stored `tags` texts (comma-separated, already normalised), each once (trimmed, blanks dropped),
 * sorted by localeCompare. Pure.
 */
export function tagsOf(rows: readonly { tags: string }[]): string[] {
  const set = new Set<string>();
  for (const r of rows) for (const t of r.tags.split(',')) if (t.trim()) set.add(t.trim());
  return [...set].sort((a, b) => a.localeCompare(b));
}

/** One `lot_shipping` row to write: a lot's price (USD unless `currency` says otherwise) at a port, fetched at ms. */
export interface ShippingRow {
  lot_key: LotKey;
  port: string;
  price_usd: number | null;
  currency: string | null;
  fetched_at: number;
}

/**
 * The rows DeskRepo.keepShipping writes for the service's `prices` of `key`, in the given order (a later row of the
 * same port replaces an earlier one). A price without a port is left out: it cannot be matched to the user's port.
 * Pure.
 */
export function shippingRows(
  key: LotKey,
  prices: readonly ShippingPrice[],
  fetchedAt: number,
): ShippingRow[] {
  const rows: ShippingRow[] = [];
  for (const p of prices)
    if (p.port)
      rows.push({
        lot_key: key,
        port: p.port,
        price_usd: p.price ?? null,
        currency: p.currency ?? null,
        fetched_at: fetchedAt,
      });
  return rows;
}
