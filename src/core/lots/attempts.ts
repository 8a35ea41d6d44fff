import type { MethodInput, MethodOutput } from '../../shared/ipc/contract';
import { outcomeOfStatusText, vehicleOutcome } from '../../shared/saleOutcome';
import { VIN_PATTERN, type Vehicle } from '../../shared/vehicle';
import { lotKeyOf, parseLotKey } from '../../shared/watch';
import type { ClientAccess } from '../api/clientOrThrow';
import { ApiError, NotFoundError } from '../api/errors';
import type { Clock } from '../clock';
import type { LotsRepo } from '../db/lotsRepo';
import type { Async } from '../db/async';
import { storeSightings } from '../db/vinAttempts';
import { dayOf, mergeAttempts, type AttemptSighting } from '../diff/attempts';
import { sellerSignals } from '../diff/signals';
import type { WatchEngine } from '../watch/engine';

/** What a VIN's attempts need: the stored lots, the client, the engine (to store an Ended search's lots), the clock. */
export interface AttemptsDeps extends ClientAccess {
  lots: Pick<Async<LotsRepo>, 'rowsOfVin' | 'timeline' | 'bids' | 'getRow' | 'latestKeyOfNumber'>;
  engine: Pick<WatchEngine, 'ingest'>;
  clock: Clock;
}

const positive = (n: number | null): number | null => (n !== null && Number.isFinite(n) && n > 0 ? n : null);

/** A record of an Ended search as a sighting (source `ended_search`). */
function recordSighting(v: Vehicle): AttemptSighting {
  const result = vehicleOutcome(v);
  return {
    source: 'ended_search',
    platform: v.platform,
    lot_number: v.lot_number,
    day: (result !== 'open' ? dayOf(v.auction.last_sold_day) : null) ?? dayOf(v.auction.auction_at),
    auction_at: v.auction.auction_at === null ? null : Date.parse(v.auction.auction_at) || null,
    bid_usd: positive(v.pricing.current_bid_usd),
    price_usd: result === 'sold' || result === 'sold_on_approval' ? positive(v.pricing.sale_price_usd) : null,
    result,
    first_seen_at: null,
    last_seen_at: null,
  };
}

/**
 * A VIN's every auction attempt (docs/architecture.md "A VIN's attempts") for the id a buyer has (a lot key, a VIN or
 * a lot number). Offline from the store; with `ask`, first GET /vehicles/{vin}/history (1 request) and, when it has
 * no row, an Ended search by VIN (`s=<vin>&lot_sub_status=Ended`, 1 more request, its lots stored like any
 * search's), the public consumers' fallback (docs/service-contract.md "History"). A failing service is said in
 * `notice` and the stored attempts are still shown.
 *
 * @throws LotwatchError unauthorized when `ask` and there is no client; database errors.
 */
export async function vinAttempts(
  d: AttemptsDeps,
  i: MethodInput<'vehicles.attempts'>,
): Promise<MethodOutput<'vehicles.attempts'>> {
  const id = i.id.trim();
  const isVin = VIN_PATTERN.test(id.toUpperCase());
  const key = parseLotKey(id) ? id : isVin ? null : await d.lots.latestKeyOfNumber(id);
  const row = key === null ? null : await d.lots.getRow(key);
  const vin = isVin ? id.toUpperCase() : (row?.vin ?? null);
  const asked = { history: false, ended_search: false };
  const none = { asked, requests: 0 };
  if (vin === null) {
    const empty = sellerSignals([], d.clock.now());
    const { bids_usd: _b, ...signals } = empty;
    return {
      vin: null,
      attempts: [],
      signals,
      ...none,
      notice: row
        ? 'This lot has no VIN, so its other attempts cannot be found.'
        : 'Lotwatch has not stored this lot yet; open it once to see its attempts.',
    };
  }
  const extra: AttemptSighting[] = [];
  let requests = 0;
  let notice: string | null = null;
  if (i.ask) {
    const client = d.clientOrThrow();
    try {
      asked.history = true;
      requests++;
      // A VIN the history endpoint does not know has no sale there: the Ended search may still find its lots.
      const h = await client.getHistory(vin).catch((e: unknown) => {
        if (e instanceof NotFoundError) return { sales: [] };
        throw e;
      });
      for (const s of h.sales) {
        const result = outcomeOfStatusText(s.status);
        extra.push({
          source: 'history',
          platform: s.platform,
          lot_number: s.lot_number,
          day: dayOf(s.date),
          auction_at: null,
          bid_usd: null,
          price_usd: result === 'ended_unsold' ? null : positive(s.price),
          result,
          first_seen_at: null,
          last_seen_at: null,
        });
      }
      if (h.sales.length === 0) {
        asked.ended_search = true;
        requests++;
        const page = await client.searchVehicles({ s: vin, lot_sub_status: 'Ended' });
        const own = page.data.filter((v) => (v.vin ?? '').toUpperCase() === vin);
        await d.engine.ingest(own, 'explore');
        extra.push(...own.map(recordSighting));
      }
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      notice = `The service did not answer (${e.message}); the attempts below are what Lotwatch stored.`;
    }
  }
  const rows = await d.lots.rowsOfVin(vin);
  const stored = new Set(rows.map((r) => r.lot_key));
  const now = d.clock.now();
  const attempts = mergeAttempts([...(await storeSightings(d.lots, vin)), ...extra], now);
  const { bids_usd: _bids, ...signals } = sellerSignals(attempts, now);
  return {
    vin,
    attempts: attempts.map((a) => {
      const k = a.platform && a.lot_number ? lotKeyOf(a.platform, a.lot_number) : null;
      return {
        number: a.number,
        platform: a.platform,
        lot_number: a.lot_number,
        lot_key: k !== null && stored.has(k) ? k : null,
        day: a.day,
        auction_at: a.auction_at,
        bid_usd: a.bid_usd,
        price_usd: a.price_usd,
        outcome: a.outcome,
        basis: a.basis,
        sources: a.sources,
      };
    }),
    signals,
    asked,
    requests,
    notice,
  };
}
