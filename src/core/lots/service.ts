import type { LotDetail, MethodInput, MethodOutput } from '../../shared/ipc/contract';
import { outcomeOfStatusText } from '../../shared/saleOutcome';
import { unpricedPorts } from '../../shared/shipping';
import { VIN_PATTERN, type Vehicle } from '../../shared/vehicle';
import { lotKeyOf, parseLotKey } from '../../shared/watch';
import type { ClientAccess } from '../api/clientOrThrow';
import { ApiError, IncompleteResponseError } from '../api/errors';
import type { Clock } from '../clock';
import type { DeskRepo } from '../db/deskRepo';
import { LibraryRepo } from '../db/libraryRepo';
import type { LotsRepo } from '../db/lotsRepo';
import type { Async } from '../db/async';
import type { WatchesRepo } from '../db/watchesRepo';
import { LotwatchError } from '../errors';
import type { WatchEngine } from '../watch/engine';
import { vinAttempts } from './attempts';
import { lotSummary, vehicleRow } from './views';

/** What the lots module needs: its repositories, the engine's store path, the clock and the client. */
export interface LotsDeps extends ClientAccess {
  lots: Async<LotsRepo>;
  library: Async<LibraryRepo>;
  /** Read only: which watch follows a lot (the lot page's "Watching"). */
  watches: Pick<Async<WatchesRepo>, 'listWatches'>;
  /** Shipping prices kept with a stored lot (its landed cost offline). */
  desk: Pick<Async<DeskRepo>, 'keepShipping'>;
  /** Every fetched record is stored like a poll's (observation, timeline, alerts). */
  engine: Pick<WatchEngine, 'ingest'>;
  clock: Clock;
}

/**
 * The lot number to ask the service for when the user's id may be a lot key (`copart:123` -> `123`); any other
 * id (a VIN, a lot number) is used as it is.
 */
function lotNumberOf(id: string): string {
  return parseLotKey(id)?.lot_number ?? id;
}

/** The service's failures after which the lot page shows what was stored instead (marked offline). */
function offlineOk(e: unknown): boolean {
  return (
    e instanceof IncompleteResponseError ||
    (e instanceof ApiError && ['network', 'timeout', 'server', 'rate_limited'].includes(e.code))
  );
}

/**
 * Lots: the stored lot page (timeline, bids, the watch that follows it), the offline library, and the live calls of
 * the lot page (the lot, its sale history, related lots, shipping), each falling back to or keeping what is stored.
 */
export class LotsService {
  constructor(private readonly d: LotsDeps) {}

  /** A fetched record as a results row, with the stored copy's dates, notes and tags. Reads only. */
  async row(v: Vehicle): Promise<ReturnType<typeof vehicleRow>> {
    const stored =
      v.platform && v.lot_number ? await this.d.lots.getLotRecord(lotKeyOf(v.platform, v.lot_number)) : null;
    return vehicleRow(v, stored, this.d.clock.now());
  }

  /**
   * Offline full-text search over every stored lot (title, VIN, lot number, make, model, location, notes, tags,
   * damage, title document, run condition, seller, sale result): words as prefixes, `-word` left out, `OR` for
   * either, "quoted phrases" (LibraryRepo.find); an empty query lists the most recently seen lots. With
   * `repair_to_value_max_percent`, `has_acv` or facet picks, only the lots whose stored record passes them
   * (LibraryRepo.filtered; unknown figures never pass), counted in `total`. With `with_facets`, also every facet's
   * value counts over the same query (LibraryRepo.facets). Rejects with the store's error (SqliteError for a failing
   * file).
   */
  async searchLibrary(i: MethodInput<'library.search'>): Promise<MethodOutput<'library.search'>> {
    const limit = i.limit ?? 100;
    const offset = i.offset ?? 0;
    const pct = i.repair_to_value_max_percent ?? null;
    const f = {
      repairToValueMax: pct === null ? null : pct / 100,
      hasAcv: i.has_acv ?? false,
      facets: i.facets ?? {},
    };
    const q = i.q ?? '';
    const facets = i.with_facets ? { facets: await this.d.library.facets(q, f) } : {};
    if (LibraryRepo.filtersAny(f)) {
      const page = await this.d.library.filtered(q, f, limit, offset);
      return { lots: page.rows.map(lotSummary), total: page.total, ...facets };
    }
    const found = await this.d.library.find(q, limit, offset);
    if (!found) {
      const rows = await this.d.library.recent(limit, offset);
      return { lots: rows.map(lotSummary), total: await this.d.library.count(), ...facets };
    }
    return { lots: found.rows.map(lotSummary), total: found.total, ...facets };
  }

  /** One stored lot with its timeline and bid history; works offline. @throws not_found when never fetched. */
  async lotDetail(lotKey: string): Promise<LotDetail> {
    const r = await this.d.lots.getRow(lotKey);
    if (!r) throw new LotwatchError('not_found', `Lotwatch has no record of lot ${lotKey} yet.`);
    const json = (v: string | null) =>
      v === null ? null : (JSON.parse(v) as string | number | boolean | null);
    const timeline = (await this.d.lots.timeline(lotKey)).map((c) => ({
      id: c.id,
      kind: c.kind as LotDetail['timeline'][number]['kind'],
      lot_key: c.lot_key,
      vin: c.vin ?? null,
      field: c.field ?? null,
      before: json(c.before),
      after: json(c.after),
      related_lot_key: c.related_lot_key ?? null,
      outcome: (c.outcome as LotDetail['timeline'][number]['outcome'] | null) ?? null,
      observed_at: c.observed_at,
      search_id: c.search_id ?? null,
    }));
    const watch = (await this.d.watches.listWatches()).find(
      (w) => w.lot_key === lotKey || (r.vin !== null && w.vin === r.vin),
    );
    return {
      summary: lotSummary(r),
      record: JSON.parse(r.normalized) as Record<string, unknown>,
      raw: JSON.parse(r.raw) as unknown,
      timeline,
      bids: await this.d.lots.bids(lotKey),
      observations: await this.d.lots.observationCount(lotKey),
      watch_id: watch?.id ?? null,
      notes: r.notes,
    };
  }

  /** The stored lot key for an id the user has: a lot key, a VIN, or a lot number. */
  private async storedKey(id: string): Promise<string | null> {
    if (id.includes(':')) return (await this.d.lots.getRow(id)) ? id : null;
    const upper = id.toUpperCase();
    return VIN_PATTERN.test(upper) ? this.d.lots.latestKeyOfVin(upper) : this.d.lots.latestKeyOfNumber(id);
  }

  /**
   * A lot fetched live (stored, diffed) when the service can be reached, else what Lotwatch stored, marked offline.
   * @throws the service error when nothing is stored for it; unauthorized without a client and nothing stored.
   */
  async get(i: MethodInput<'vehicles.get'>): Promise<MethodOutput<'vehicles.get'>> {
    const id = i.id.trim();
    const c = this.d.client();
    if (c && i.refresh !== false) {
      try {
        const r = await c.getVehicle(lotNumberOf(id));
        await this.d.engine.ingest([r.data], 'explore');
        const key =
          r.data.platform && r.data.lot_number ? lotKeyOf(r.data.platform, r.data.lot_number) : null;
        if (key) return { ...(await this.lotDetail(key)), offline: false };
      } catch (e) {
        const stored = await this.storedKey(id);
        // The service unreachable, failing or cutting its answer off: the buyer still reads what was stored.
        if (!stored || !offlineOk(e)) throw e;
        return { ...(await this.lotDetail(stored)), offline: true };
      }
    }
    const stored = await this.storedKey(id);
    if (!stored) {
      if (!c) this.d.clientOrThrow();
      throw new LotwatchError('not_found', `Lotwatch has no record of ${id}.`);
    }
    return { ...(await this.lotDetail(stored)), offline: c === null || i.refresh === false };
  }

  /** GET /vehicles/{slugVin}/history (a lot key is asked by its lot number), each sale with its outcome. @throws ApiError. */
  async history(i: MethodInput<'vehicles.history'>): Promise<MethodOutput<'vehicles.history'>> {
    const r = await this.d
      .clientOrThrow()
      .getHistory(lotNumberOf(i.id), i.cursor ? { cursor: i.cursor } : {});
    return {
      sales: r.sales.map((s) => ({
        platform: s.platform,
        lot_number: s.lot_number,
        date: s.date,
        price: s.price,
        status: s.status,
        outcome: outcomeOfStatusText(s.status),
      })),
      meta: r.meta,
    };
  }

  /**
   * A VIN's every auction attempt with its seller signals (lots/attempts.ts vinAttempts): offline from the store,
   * and with `ask` from the service too (1 or 2 requests, said in `requests`). @throws unauthorized without a client
   * when asked.
   */
  attempts(i: MethodInput<'vehicles.attempts'>): Promise<MethodOutput<'vehicles.attempts'>> {
    return vinAttempts(this.d, i);
  }

  /** GET /vehicles/{slugVin}/related; the lots are stored for the library. @throws ApiError. */
  async related(i: MethodInput<'vehicles.related'>): Promise<MethodOutput<'vehicles.related'>> {
    const r = await this.d.clientOrThrow().getRelated(lotNumberOf(i.id));
    await this.d.engine.ingest(r.data, 'explore');
    return { lots: await Promise.all(r.data.map((v) => this.row(v))) };
  }

  /**
   * Shipping prices (USD unless `currency` says otherwise) of a vehicle, or auction-to-port by VIN or lot number: one
   * request whatever the number of ports (spec "GET /vehicles/{slugVin}/shipping and GET /shipping/auction-to-port":
   * `ports` is a comma-separated list). Every port asked for that comes back without a price is named in `unpriced`
   * and, for a stored lot, kept as asked-and-not-priced, so its landed cost says "no price for Savannah" offline
   * instead of "not fetched". @throws ApiError, ApiInputError (a port name the service cannot take).
   */
  async shipping(i: MethodInput<'shipping.get'>): Promise<MethodOutput<'shipping.get'>> {
    const c = this.d.clientOrThrow();
    const ports = i.ports && i.ports.length ? i.ports : undefined;
    const r =
      i.endpoint === 'vehicle'
        ? await c.getVehicleShipping(lotNumberOf(i.id ?? ''), ports ? { ports } : {})
        : await c.getAuctionToPortShipping({
            ...(i.vin ? { vin: i.vin } : {}),
            ...(i.lot_number ? { lot_number: i.lot_number } : {}),
            ...(ports ? { ports } : {}),
          });
    const unpriced = unpricedPorts(ports ?? [], r.data);
    // Kept with the stored lot, so its landed cost is worked out offline from now on.
    if (i.lot_key && (await this.d.lots.getRow(i.lot_key)))
      await this.d.desk.keepShipping(
        i.lot_key,
        [...r.data, ...unpriced.map((port) => ({ port, price: null, currency: null, raw: null }))],
        this.d.clock.now(),
      );
    return { prices: r.data.map((p) => ({ port: p.port, price: p.price, currency: p.currency })), unpriced };
  }
}
