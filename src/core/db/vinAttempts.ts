import { saleOutcomeOf, type EndedOutcome } from '../../shared/saleOutcome';
import { dayOf, type AttemptSighting } from '../diff/attempts';
import type { ChangeRow, LotRow, LotsRepo } from './lotsRepo';
import type { Async } from './store';

/**
 * What Lotwatch's store knows of a VIN's auction attempts (docs/architecture.md "A VIN's attempts"), as sightings
 * for mergeAttempts (src/core/diff/attempts.ts): every stored lot of the VIN, and under one lot every earlier
 * attempt its timeline shows (a lot whose date moved later after it ended unsold or on approval: a `relisted`
 * change on its own key). Read only; offline.
 */

type Reads = Pick<Async<LotsRepo>, 'rowsOfVin' | 'timeline' | 'bids'>;

const positive = (n: number | null | undefined): number | null =>
  typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : null;

/** `auction.last_sold_day` of a stored normalised record, or null. */
function soldDay(normalized: string): string | null {
  try {
    const v = JSON.parse(normalized) as { auction?: { last_sold_day?: unknown } } | null;
    return dayOf(typeof v?.auction?.last_sold_day === 'string' ? v.auction.last_sold_day : null);
  } catch {
    return null;
  }
}

/** A bid as stored on the timeline (JSON text of a number), or null. */
function bidOf(json: string | null): number | null {
  if (json === null) return null;
  const n = Number(JSON.parse(json) as unknown);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/**
 * The bids known of one lot as [time (ms), USD]: its stored observations' bids, and both sides of each bid change on
 * its timeline (the bid before a change was standing just before it, so a relist's first change gives the earlier
 * attempt its last bid).
 */
function knownBids(stored: [number, number | null][], changes: ChangeRow[]): [number, number][] {
  const out: [number, number][] = [];
  for (const [t, b] of stored) if (b !== null && Number.isFinite(b) && b > 0) out.push([t, b]);
  for (const c of changes) {
    if (c.kind !== 'bid_changed') continue;
    const before = bidOf(c.before);
    const after = bidOf(c.after);
    if (before !== null) out.push([c.observed_at - 1, before]);
    if (after !== null) out.push([c.observed_at, after]);
  }
  return out;
}

/** The highest bid in [from, to), USD, or null. */
const highest = (bids: [number, number][], from: number, to: number): number | null => {
  const k = bids.filter(([t]) => t >= from && t < to).map(([, b]) => b);
  return k.length ? Math.max(...k) : null;
};

/** The sightings of one stored lot: its earlier attempts under the same key, then its current one. */
function sightingsOfLot(
  r: LotRow,
  changes: ChangeRow[],
  storedBids: [number, number | null][],
): AttemptSighting[] {
  const out: AttemptSighting[] = [];
  const bids = knownBids(storedBids, changes);
  const base = { source: 'store' as const, platform: r.platform, lot_number: r.lot_number };
  let from = r.first_seen_at;
  let result: EndedOutcome | null = null;
  let price: number | null = null;
  for (const c of changes) {
    if (c.kind === 'sale_result' && c.outcome !== null && c.outcome !== 'open') {
      result = c.outcome as EndedOutcome;
      price = positive(c.after === null ? null : Number(c.after));
    }
    if (c.kind === 'relisted' && c.related_lot_key === r.lot_key) {
      const was = c.before === null ? null : Number(c.before);
      const at = was !== null && Number.isFinite(was) ? was : null;
      out.push({
        ...base,
        day: dayOf(at),
        auction_at: at,
        bid_usd: highest(bids, from, c.observed_at),
        price_usd: result === 'sold' || result === 'sold_on_approval' ? price : null,
        // An ending the timeline recorded is the service's result; without one the attempt is inferred.
        result,
        first_seen_at: from,
        last_seen_at: c.observed_at,
      });
      from = c.observed_at;
      result = null;
      price = null;
    }
  }
  const outcome = saleOutcomeOf({
    state: r.state,
    lot_sub_status: r.lot_sub_status,
    last_sold_status: r.last_sold_status,
    sale_price_usd: r.sale_price_usd,
  });
  const bid = highest(bids, from, Number.POSITIVE_INFINITY);
  const current = positive(r.current_bid_usd);
  out.push({
    ...base,
    day: (outcome !== 'open' ? soldDay(r.normalized) : null) ?? dayOf(r.auction_at),
    auction_at: r.auction_at,
    bid_usd: bid === null ? current : current === null ? bid : Math.max(bid, current),
    price_usd: outcome === 'sold' || outcome === 'sold_on_approval' ? positive(r.sale_price_usd) : null,
    result: outcome,
    first_seen_at: from,
    last_seen_at: r.last_observed_at,
  });
  return out;
}

/**
 * Every attempt of `vin` the store shows, as sightings (source `store`): one per stored lot, and one per earlier
 * attempt under the same lot (its `relisted` changes), each with its highest stored bid (USD), its result when the
 * service reported one (a stored finished record, or a `sale_result` on the timeline), the sale day (the record's
 * `auction.last_sold_day`, else the auction time's UTC day) and when Lotwatch saw it listed (ms).
 *
 * @returns the sightings, possibly empty. Rejects only with the store's errors.
 */
export async function storeSightings(repo: Reads, vin: string): Promise<AttemptSighting[]> {
  const out: AttemptSighting[] = [];
  for (const r of await repo.rowsOfVin(vin)) {
    out.push(...sightingsOfLot(r, await repo.timeline(r.lot_key), await repo.bids(r.lot_key)));
  }
  return out;
}
