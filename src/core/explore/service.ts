import { passesRefinements } from '../../shared/localRefinements';
import type { MethodInput, MethodOutput, VehicleRow } from '../../shared/ipc/contract';
import type { Vehicle } from '../../shared/vehicle';
import { currentActor } from '../actor';
import type { ClientAccess } from '../api/clientOrThrow';
import type { Clock } from '../clock';
import type { CacheRepo } from '../db/cacheRepo';
import type { RequestsRepo } from '../db/requestsRepo';
import type { Async, Transact } from '../db/async';
import { LotwatchError } from '../errors';
import type { WatchEngine } from '../watch/engine';

const DAY = 86_400_000;
/**
 * How long a fetched copy of /vehicles/filters is used without asking again (ms): a week. The real body is about
 * 2 MB and its choices (makes, models, damage kinds) change slowly (docs/service-contract.md "Filters"), while every
 * fetch costs a request of a quota as small as 100 a month: kept a day, a buyer who opens Search daily spent 30 of
 * them a month on it, kept a week at most 5. A make or model new to the market shows in the lists within the week.
 */
export const FILTERS_MAX_AGE_MS = 7 * DAY;

/** What live search needs: the cache and request log, the engine's store path, the lots module's rows, the client. */
export interface ExploreDeps extends ClientAccess {
  cache: Async<CacheRepo>;
  requests: Pick<Async<RequestsRepo>, 'recent' | 'requestsSinceFor' | 'spentByUser'>;
  /** Whose quota the current client spends (ServiceClient.quotaId): Usage counts only its requests. */
  quotaId: () => string | null;
  /** Every fetched record is stored like a poll's (observation, timeline, alerts). */
  engine: Pick<WatchEngine, 'ingest'>;
  /** A fetched record as a results row (LotsService.row; reads the stored copy). */
  row: (v: Vehicle) => Promise<VehicleRow>;
  /** Runs `fn` in one transaction (Store.transaction). */
  transaction: Transact;
  clock: Clock;
  /** Where the client's answers come from ("demo", or the service URL): a cached answer belongs to one source. */
  source: () => string;
}

/**
 * Explore: live search, the filters (cached a day), locations, usage and the request log. Every record fetched is
 * stored through the engine (observation, timeline, alerts), so the library holds everything ever fetched.
 */
export class ExploreService {
  constructor(private readonly d: ExploreDeps) {}

  /**
   * GET /vehicles with the user's filters; every record is stored for the library, and the page's lots that pass the
   * local refinements (src/shared/localRefinements, never sent) are answered, with how many were left out.
   * @throws ApiInputError, ApiError.
   */
  async search(i: MethodInput<'vehicles.search'>): Promise<MethodOutput<'vehicles.search'>> {
    const c = this.d.clientOrThrow();
    const r = await c.searchVehicles({ ...i.params, ...(i.cursor ? { cursor: i.cursor } : {}) });
    await this.d.engine.ingest(r.data, 'explore');
    const kept = r.data.filter((v) => passesRefinements(v, i.refine));
    const out = r.data.length - kept.length;
    return {
      lots: await Promise.all(kept.map((v) => this.d.row(v))),
      meta: r.meta,
      warnings: r.warnings,
      skipped: r.skipped,
      ...(out > 0 ? { refined_out: out } : {}),
    };
  }

  private filtersInFlight: Promise<MethodOutput<'vehicles.filters'>> | null = null;

  /**
   * GET /vehicles/filters at most once a week per source (FILTERS_MAX_AGE_MS), kept on disk in the `cache` table: a
   * copy younger than that is served without a request (`cached: true`); an older one, or one from another source
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
    const c = this.d.client();
    const now = this.d.clock.now();
    const cached = await this.d.cache.get('filters');
    const from = (await this.d.cache.get('filters:source'))?.value ?? null;
    const copy = () =>
      cached
        ? {
            data: JSON.parse(cached.value) as Record<string, unknown>,
            fetched_at: cached.updated_at,
            cached: true,
          }
        : null;
    const age = cached ? now - cached.updated_at : Infinity;
    const fresh = cached !== null && from === this.d.source() && age >= 0 && age < FILTERS_MAX_AGE_MS;
    if (fresh || (cached && !c)) return copy()!;
    if (c) {
      try {
        const r = await c.getFilters();
        const at = this.d.clock.now();
        const source = this.d.source();
        await this.d.transaction(async () => {
          await this.d.cache.put('filters', JSON.stringify(r.data), at);
          await this.d.cache.put('filters:source', source, at);
        });
        return { data: r.data, fetched_at: at, cached: false };
      } catch (e) {
        const stale = copy();
        if (!stale) throw e;
        return stale;
      }
    }
    this.d.clientOrThrow();
    throw new LotwatchError('network', 'The filters could not be loaded.');
  }

  /** GET /locations: auction facilities with their coordinates. @throws ApiError. */
  async locations(i: MethodInput<'locations.list'>): Promise<MethodOutput<'locations.list'>> {
    const r = await this.d.clientOrThrow().listLocations(i.params);
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
    return { usage: (await this.d.clientOrThrow().getUsage()).data };
  }

  /**
   * Requests logged this calendar month (UTC) by who spent them, most first (then by name): each member by name,
   * and the requests of no member, always listed, as "You" to the local owner (the desktop's one user: the only
   * row there) or "The watcher" to a team member (the scheduler's own polls). A member id `users` no longer has
   * reads as "A removed member". Reads the request log only. Rejects with the store's error.
   */
  async usageByUser(): Promise<MethodOutput<'usage.byUser'>> {
    const now = new Date(this.d.clock.now());
    const since = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const until = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    const own = currentActor().userId === null ? 'You' : 'The watcher';
    const rows = (await this.d.requests.spentByUser(since, until)).map((r) => ({
      user_id: r.user_id,
      name: r.user_id === null ? own : (r.name ?? 'A removed member'),
      requests: r.requests,
    }));
    if (!rows.some((r) => r.user_id === null)) rows.push({ user_id: null, name: own, requests: 0 });
    rows.sort((a, b) => b.requests - a.requests || a.name.localeCompare(b.name));
    return { since, until, rows };
  }

  /**
   * The last `limit` requests sent, newest first, and how many went out in the last 24 hours on the current quota
   * (the current key's, or Demo mode's): requests made in Demo mode or with another key are not counted for it.
   * Rejects with the store's error.
   */
  async requests(limit: number): Promise<MethodOutput<'requests.list'>> {
    return {
      rows: await this.d.requests.recent(limit),
      last24h: await this.d.requests.requestsSinceFor(this.d.quotaId(), this.d.clock.now() - 86_400_000),
    };
  }
}
