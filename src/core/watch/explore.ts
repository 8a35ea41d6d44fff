import { outcomeOfStatusText, vehicleOutcome } from '../../shared/saleOutcome';
import type { ApiClient } from '../api';
import { ApiError, IncompleteResponseError } from '../api/errors';
import type { Clock } from '../clock';
import type { Store } from '../db/store';
import { parseTags } from '../../shared/desk';
import { LotwatchError } from '../errors';
import type { MethodInput, MethodOutput, VehicleRow } from '../../shared/ipc/contract';
import type { Vehicle } from '../../shared/vehicle';
import { lotKeyOf, parseLotKey } from '../../shared/watch';
import type { WatchEngine } from './engine';
import type { WatchService } from './service';

const DAY = 86_400_000;
/**
 * How long a fetched copy of /vehicles/filters is used without asking again (ms). The real body is about 2 MB and
 * its choices (makes, models, damage kinds) change slowly (docs/service-contract.md "Filters"), while every fetch
 * costs a request of a quota as small as 100 a month.
 */
export const FILTERS_MAX_AGE_MS = DAY;

/**
 * The lot number to ask the service for when the user's id may be a lot key (`copart:123` -> `123`); any other
 * id (a VIN, a lot number) is used as it is.
 */
function lotNumberOf(id: string): string {
  return parseLotKey(id)?.lot_number ?? id;
}

/**
 * The UI's live calls to the service: search, lot detail, history, related lots, shipping, locations, usage and the
 * API console; plus the offline fallbacks and CSV export. Every record fetched is stored through the engine
 * (observation, timeline, alerts), so the library holds everything ever fetched.
 */
export class ExploreService {
  constructor(
    private readonly store: Store,
    private readonly engine: WatchEngine,
    private readonly watch: WatchService,
    private readonly clock: Clock,
    private readonly client: () => ApiClient | null,
    /** Where the client's answers come from ("demo", or the service URL): a cached answer belongs to one source. */
    private readonly source: () => string = () => '',
  ) {}

  private requireClient(): ApiClient {
    const c = this.client();
    if (!c) {
      throw new LotwatchError('unauthorized', 'No API key is set. Add your key in Settings, or turn on Demo mode to use the simulated market.');
    }
    return c;
  }

  private row(v: Vehicle): VehicleRow {
    const key = v.platform && v.lot_number ? lotKeyOf(v.platform, v.lot_number) : `unknown:${v.vin ?? ''}`;
    const stored = v.platform && v.lot_number ? this.store.lots.getLotRecord(key) : null;
    const at = v.auction.auction_at ? Date.parse(v.auction.auction_at) : NaN;
    const now = this.clock.now();
    return {
      lot_key: key,
      platform: v.platform ?? '',
      lot_number: v.lot_number ?? '',
      vin: v.vin,
      title: v.title,
      year: v.year,
      make: v.make,
      model: v.model,
      location: v.location.display,
      current_bid_usd: v.pricing.current_bid_usd,
      buy_now_usd: v.pricing.buy_now_usd,
      sale_price_usd: v.pricing.sale_price_usd,
      state: v.auction.state,
      lot_status: v.auction.lot_status,
      lot_sub_status: v.auction.lot_sub_status,
      last_sold_status: v.auction.last_sold_status,
      outcome: vehicleOutcome(v),
      auction_at: Number.isFinite(at) ? at : null,
      first_seen_at: stored?.first_seen_at ?? now,
      last_observed_at: stored?.last_observed_at ?? now,
      photo: v.media.photos[0] ?? null,
      notes: stored?.notes ?? '',
      tags: parseTags(stored?.tags ?? ''),
      odometer: v.odometer,
      damage: v.damage,
      color: v.color,
      fuel_type: v.fuel_type,
      transmission: v.transmission,
      drive_type: v.drive_type,
      type: v.type,
      photos: v.media.photos,
    };
  }

  /** GET /vehicles with the user's filters; every record is stored for the library. @throws ApiInputError, ApiError. */
  async search(i: MethodInput<'vehicles.search'>): Promise<MethodOutput<'vehicles.search'>> {
    const c = this.requireClient();
    const r = await c.searchVehicles({ ...(i.params as object), ...(i.cursor ? { cursor: i.cursor } : {}) });
    this.engine.ingest(r.data, 'explore');
    return { lots: r.data.map((v) => this.row(v)), meta: r.meta, warnings: r.warnings, skipped: r.skipped };
  }

  private filtersInFlight: Promise<MethodOutput<'vehicles.filters'>> | null = null;

  /**
   * GET /vehicles/filters at most once a day per source (FILTERS_MAX_AGE_MS), kept on disk in the `cache` table: a
   * copy younger than a day is served without a request (`cached: true`); an older one, or one from another source
   * (Demo mode's simulated market versus the real service), is refreshed once, and when that fails the stale copy
   * is served. Visits to Search at the same moment share one request.
   * @throws the service error when nothing is cached; unauthorized when there is no client and no copy.
   */
  filters(): Promise<MethodOutput<'vehicles.filters'>> {
    this.filtersInFlight ??= this.loadFilters().finally(() => {
      this.filtersInFlight = null;
    });
    return this.filtersInFlight;
  }

  private async loadFilters(): Promise<MethodOutput<'vehicles.filters'>> {
    const c = this.client();
    const now = this.clock.now();
    const cached = this.store.cache.get('filters');
    const from = this.store.cache.get('filters:source')?.value ?? null;
    const copy = () =>
      cached ? { data: JSON.parse(cached.value) as Record<string, unknown>, fetched_at: cached.updated_at, cached: true } : null;
    const age = cached ? now - cached.updated_at : Infinity;
    const fresh = cached !== null && from === this.source() && age >= 0 && age < FILTERS_MAX_AGE_MS;
    if (fresh || (cached && !c)) return copy()!;
    if (c) {
      try {
        const r = await c.getFilters();
        const at = this.clock.now();
        this.store.transaction(() => {
          this.store.cache.put('filters', JSON.stringify(r.data), at);
          this.store.cache.put('filters:source', this.source(), at);
        });
        return { data: r.data, fetched_at: at, cached: false };
      } catch (e) {
        const stale = copy();
        if (!stale) throw e;
        return stale;
      }
    }
    this.requireClient();
    throw new LotwatchError('network', 'The filters could not be loaded.');
  }

  /** The stored lot key for an id the user has: a lot key, a VIN, or a lot number. */
  private storedKey(id: string): string | null {
    if (id.includes(':')) return this.store.lots.getRow(id) ? id : null;
    return /^[A-HJ-NPR-Z0-9]{17}$/i.test(id) ? this.store.lots.latestKeyOfVin(id.toUpperCase()) : this.store.lots.latestKeyOfNumber(id);
  }

  /**
   * A lot fetched live (stored, diffed) when the service can be reached, else what Lotwatch stored, marked offline.
   * @throws the service error when nothing is stored for it.
   */
  async get(i: MethodInput<'vehicles.get'>): Promise<MethodOutput<'vehicles.get'>> {
    const id = i.id.trim();
    const slug = lotNumberOf(id);
    const c = this.client();
    if (c && i.refresh !== false) {
      try {
        const r = await c.getVehicle(slug);
        this.engine.ingest([r.data], 'explore');
        const key = r.data.platform && r.data.lot_number ? lotKeyOf(r.data.platform, r.data.lot_number) : null;
        if (key) return { ...this.watch.lotDetail(key), offline: false };
      } catch (e) {
        const stored = this.storedKey(id);
        // The service unreachable, failing or cutting its answer off: the buyer still reads what was stored.
        const offlineOk =
          e instanceof IncompleteResponseError ||
          (e instanceof ApiError && ['network', 'timeout', 'server', 'rate_limited'].includes(e.code));
        if (!stored || !offlineOk) throw e;
        return { ...this.watch.lotDetail(stored), offline: true };
      }
    }
    const stored = this.storedKey(id);
    if (!stored) {
      if (!c) this.requireClient();
      throw new LotwatchError('not_found', `Lotwatch has no record of ${id}.`);
    }
    return { ...this.watch.lotDetail(stored), offline: c === null || i.refresh === false };
  }

  /** GET /vehicles/{slugVin}/history (a lot key is asked by its lot number), each sale with its outcome. @throws ApiError. */
  async history(i: MethodInput<'vehicles.history'>): Promise<MethodOutput<'vehicles.history'>> {
    const r = await this.requireClient().getHistory(lotNumberOf(i.id), i.cursor ? { cursor: i.cursor } : {});
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

  /** GET /vehicles/{slugVin}/related; the lots are stored for the library. @throws ApiError. */
  async related(i: MethodInput<'vehicles.related'>): Promise<MethodOutput<'vehicles.related'>> {
    const r = await this.requireClient().getRelated(lotNumberOf(i.id));
    this.engine.ingest(r.data, 'explore');
    return { lots: r.data.map((v) => this.row(v)) };
  }

  /** Shipping prices (USD) of a vehicle, or auction-to-port by VIN or lot number. @throws ApiError. */
  async shipping(i: MethodInput<'shipping.get'>): Promise<MethodOutput<'shipping.get'>> {
    const c = this.requireClient();
    const ports = i.ports && i.ports.length ? i.ports : undefined;
    const r =
      i.endpoint === 'vehicle'
        ? await c.getVehicleShipping(lotNumberOf(i.id ?? ''), ports ? { ports } : {})
        : await c.getAuctionToPortShipping({
            ...(i.vin ? { vin: i.vin } : {}),
            ...(i.lot_number ? { lot_number: i.lot_number } : {}),
            ...(ports ? { ports } : {}),
          });
    // Kept with the stored lot, so its landed cost is worked out offline from now on.
    if (i.lot_key && this.store.lots.getRow(i.lot_key)) this.store.desk.keepShipping(i.lot_key, r.data, this.clock.now());
    return { prices: r.data.map((p) => ({ port: p.port, price: p.price, currency: p.currency })) };
  }

  /** GET /locations: auction facilities with their coordinates. @throws ApiError. */
  async locations(i: MethodInput<'locations.list'>): Promise<MethodOutput<'locations.list'>> {
    const r = await this.requireClient().listLocations(i.params as never);
    return {
      locations: r.data.map((l) => ({
        platform: l.platform,
        facility_id: l.facility_id,
        name: l.name,
        city: l.city,
        state: l.state,
        zip: l.zip,
        latitude: l.latitude,
        longitude: l.longitude,
      })),
      meta: r.meta,
    };
  }

  /** GET /usage: the key's plan and usage as the service reports it (one request). @throws ApiError. */
  async usage(): Promise<MethodOutput<'usage.fetch'>> {
    return { usage: (await this.requireClient().getUsage()).data };
  }

  /** The last `limit` requests sent, newest first, and how many went out in the last 24 hours. */
  requests(limit: number): MethodOutput<'requests.list'> {
    return {
      rows: this.store.requests.recent(limit),
      last24h: this.store.requests.requestsSince(this.clock.now() - 86_400_000),
    };
  }

  /**
   * Removes every Demo-mode example (saved searches and watches marked `is_example`) and returns how many of each
   * went. Throws nothing but database errors.
   */
  removeExamples(): MethodOutput<'examples.remove'> {
    const n = this.exampleCounts();
    this.store.transaction(() => {
      this.store.searches.deleteExampleSearches();
      this.store.watches.deleteExampleWatches();
      this.store.cache.delete('examples:paused');
    });
    this.engine.refresh();
    return n;
  }

  /**
   * Demo mode was turned off: the example saved searches are paused (their ids remembered, so turning Demo mode on
   * again resumes exactly these), because they would otherwise run against the user's real key and quota. Example
   * watches need no flag: the engine polls them only in Demo mode. Returns how many examples there are.
   */
  pauseExamples(): MethodOutput<'examples.remove'> {
    const n = this.exampleCounts();
    const now = this.clock.now();
    this.store.transaction(() => {
      const ids = this.store.searches.activeExampleIds();
      const before = this.pausedExampleIds();
      for (const id of ids) this.store.searches.setExamplePaused(id, true, now);
      if (ids.length || before.length) this.store.cache.put('examples:paused', JSON.stringify([...new Set([...before, ...ids])]), now);
    });
    this.engine.refresh();
    return n;
  }

  /** Demo mode is on again: resumes the example searches that pauseExamples paused (not ones the user paused). */
  resumeExamples(): void {
    const now = this.clock.now();
    this.store.transaction(() => {
      for (const id of this.pausedExampleIds()) this.store.searches.setExamplePaused(id, false, now);
      this.store.cache.delete('examples:paused');
    });
    this.engine.refresh();
  }

  /** How many example searches and watches there are (read in one transaction). */
  private exampleCounts(): MethodOutput<'examples.remove'> {
    return this.store.transaction(() => ({ searches: this.store.searches.exampleCount(), watches: this.store.watches.exampleCount() }));
  }

  private pausedExampleIds(): number[] {
    const r = this.store.cache.get('examples:paused');
    try {
      const ids = r ? (JSON.parse(r.value) as unknown) : [];
      return Array.isArray(ids) ? ids.filter((x): x is number => Number.isInteger(x)) : [];
    } catch {
      return [];
    }
  }

  /** Whether a one-time flag is set (e.g. Demo examples created), and sets it. */
  once(flag: string): boolean {
    const had = this.store.cache.get(`flag:${flag}`) !== null;
    if (!had) this.store.cache.put(`flag:${flag}`, '1', this.clock.now());
    return !had;
  }
}
