import type { Database, Statement } from 'better-sqlite3';
import { outcomeOfStatusText, vehicleOutcome } from '../../shared/saleOutcome';
import { stringify } from 'csv-stringify/sync';
import type { ApiClient } from '../api';
import { ApiError } from '../api/errors';
import { VIDEO_ENDPOINTS, type VideoEndpoint } from '../api/video';
import type { Clock } from '../clock';
import type { WatchStore } from '../db/watchStore';
import { LotwatchError } from '../errors';
import type { MethodInput, MethodOutput, VehicleRow } from '../../shared/ipc/contract';
import type { Vehicle } from '../../shared/vehicle';
import { SEARCH_PARAM_NAMES, SEARCH_PARAMS } from '../../shared/vehicleParams';
import { lotKeyOf } from '../../shared/watch';
import type { WatchEngine } from './engine';
import type { WatchService } from './service';

type Row = Record<string, unknown>;

const DAY = 86_400_000;
/**
 * How long a fetched copy of /vehicles/filters is used without asking again (ms). The real body is about 2 MB and
 * its choices (makes, models, damage kinds) change slowly (REAL-SERVICE.md "Other endpoints"), while every fetch
 * costs a request of a quota as small as 100 a month.
 */
export const FILTERS_MAX_AGE_MS = DAY;

/**
 * The vehicle-auction endpoints the API console offers (spec "Endpoints: Summary"); GET /vehicles lists every
 * parameter of SEARCH_PARAMS, the list the validator accepts.
 */
const VA_ENDPOINTS: MethodOutput<'console.endpoints'> = [
  { name: 'GET /vehicles', group: 'vehicle-auction', path_params: [], query_params: [...SEARCH_PARAM_NAMES], description: 'Search auction vehicles with filters and cursor pagination.' },
  { name: 'GET /vehicles/{slugVin}', group: 'vehicle-auction', path_params: ['slugVin'], query_params: [], description: 'One vehicle by VIN or lot number.' },
  { name: 'GET /vehicles/{slugVin}/history', group: 'vehicle-auction', path_params: ['slugVin'], query_params: ['per_page', 'cursor'], description: 'Auction (sale) history of a vehicle.' },
  { name: 'GET /vehicles/{slugVin}/related', group: 'vehicle-auction', path_params: ['slugVin'], query_params: [], description: 'Future lots of the same platform, make and model.' },
  { name: 'GET /vehicles/filters', group: 'vehicle-auction', path_params: [], query_params: [], description: 'Filter metadata for a search interface.' },
  { name: 'GET /vehicles/{slugVin}/shipping', group: 'vehicle-auction', path_params: ['slugVin'], query_params: ['ports'], description: 'Shipping prices to destination ports.' },
  { name: 'GET /locations', group: 'vehicle-auction', path_params: [], query_params: ['platform', 'state', 'facility_id', 'q', 'zip', 'radius', 'units', 'per_page'], description: 'Auction facilities and locations.' },
  { name: 'GET /shipping/auction-to-port', group: 'vehicle-auction', path_params: [], query_params: ['vin', 'lot_number', 'ports'], description: 'Auction-to-port shipping prices.' },
  { name: 'GET /vehicles/urltodetails', group: 'vehicle-auction', path_params: [], query_params: ['url'], description: 'Vehicle details from a lot page URL.' },
  { name: 'GET /usage', group: 'vehicle-auction', path_params: [], query_params: [], description: 'Usage and plan limits of the key.' },
  { name: 'GET /image-proxy', group: 'vehicle-auction', path_params: [], query_params: ['url'], description: 'Proxy of an auction vehicle image.' },
];

const MULTI = new Set<string>(SEARCH_PARAMS.filter((p) => p.multi).map((p) => p.name));
const NUMERIC = /^(price_|year_|odometer_|engine_|radius$|per_page$|auction_type$|cylinders$)/;

/** Turns console form strings into typed query values: numbers where the spec says number, booleans, lists. */
function coerce(query: Record<string, string | string[]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, raw] of Object.entries(query)) {
    const list = (Array.isArray(raw) ? raw : [raw]).map((v) => v.trim()).filter((v) => v !== '');
    if (list.length === 0) continue;
    const conv = (v: string) => (NUMERIC.test(k) && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v === 'true' ? true : v === 'false' ? false : v);
    out[k] = MULTI.has(k) ? list.map(conv) : conv(list[0]!);
  }
  return out;
}

/**
 * The UI's live calls to the service (issue 6): search, lot detail, history, related lots, shipping, locations,
 * usage and the API console; plus the offline fallbacks and CSV export. Every record fetched is stored through
 * the engine (observation, timeline, alerts), so the library holds everything ever fetched.
 */
export class ExploreService {
  private readonly q: Record<string, Statement>;

  constructor(
    private readonly db: Database,
    private readonly store: WatchStore,
    private readonly engine: WatchEngine,
    private readonly watch: WatchService,
    private readonly clock: Clock,
    private readonly client: () => ApiClient | null,
    /** Where the client's answers come from ("demo", or the service URL): a cached answer belongs to one source. */
    private readonly source: () => string = () => '',
  ) {
    const p = (sql: string) => db.prepare(sql);
    this.q = {
      cacheDel: p('DELETE FROM cache WHERE key = ?'),
      exampleSearches: p('SELECT id FROM saved_searches WHERE is_example = 1 AND paused = 0'),
      pauseSearch: p('UPDATE saved_searches SET paused = 1, updated_at = ? WHERE id = ? AND is_example = 1'),
      resumeSearch: p('UPDATE saved_searches SET paused = 0, updated_at = ? WHERE id = ? AND is_example = 1'),
      cacheGet: p('SELECT value, updated_at FROM cache WHERE key = ?'),
      cachePut: p(`INSERT INTO cache (key, value, updated_at) VALUES (?, ?, ?)
        ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`),
      byVin: p('SELECT lot_key FROM lots WHERE vin = ? ORDER BY auction_at DESC LIMIT 1'),
      byNumber: p('SELECT lot_key FROM lots WHERE lot_number = ? ORDER BY last_observed_at DESC LIMIT 1'),
      requests: p('SELECT at, endpoint, status, duration_ms, bytes, attempt, error_code FROM request_log ORDER BY id DESC LIMIT ?'),
      requestCount: p('SELECT count(*) AS n FROM request_log'),
      lotsByKey: p('SELECT * FROM lots WHERE lot_key = ?'),
      allLots: p('SELECT * FROM lots ORDER BY last_observed_at DESC'),
      examples: p('SELECT (SELECT count(*) FROM saved_searches WHERE is_example = 1) AS s, (SELECT count(*) FROM watches WHERE is_example = 1) AS w'),
      delExampleSearches: p('DELETE FROM saved_searches WHERE is_example = 1'),
      delExampleWatches: p('DELETE FROM watches WHERE is_example = 1'),
    };
  }

  private requireClient(): ApiClient {
    const c = this.client();
    if (!c) {
      throw new LotwatchError('unauthorized', 'No API key is set. Add your key in Settings, or turn on Demo mode to use the simulated market.');
    }
    return c;
  }

  private row(v: Vehicle): VehicleRow {
    const key = v.platform && v.lot_number ? lotKeyOf(v.platform, v.lot_number) : `unknown:${v.vin ?? ''}`;
    const stored = v.platform && v.lot_number ? this.store.getLotRecord(key) : null;
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
    return { lots: r.data.map((v) => this.row(v)), meta: r.meta, warnings: r.warnings };
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
    const cached = this.q['cacheGet']!.get('filters') as { value: string; updated_at: number } | undefined;
    const from = (this.q['cacheGet']!.get('filters:source') as { value: string } | undefined)?.value ?? null;
    const copy = () =>
      cached ? { data: JSON.parse(cached.value) as Record<string, unknown>, fetched_at: cached.updated_at, cached: true } : null;
    const age = cached ? now - cached.updated_at : Infinity;
    const fresh = cached !== undefined && from === this.source() && age >= 0 && age < FILTERS_MAX_AGE_MS;
    if (fresh || (cached && !c)) return copy()!;
    if (c) {
      try {
        const r = await c.getFilters();
        const at = this.clock.now();
        this.store.transaction(() => {
          this.q['cachePut']!.run('filters', JSON.stringify(r.data), at);
          this.q['cachePut']!.run('filters:source', this.source(), at);
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
    if (id.includes(':')) return (this.q['lotsByKey']!.get(id) as Row | undefined) ? id : null;
    const r = (/^[A-HJ-NPR-Z0-9]{17}$/i.test(id) ? this.q['byVin']!.get(id.toUpperCase()) : this.q['byNumber']!.get(id)) as
      | { lot_key: string }
      | undefined;
    return r?.lot_key ?? null;
  }

  /**
   * A lot fetched live (stored, diffed) when the service can be reached, else what Lotwatch stored, marked offline.
   * @throws the service error when nothing is stored for it.
   */
  async get(i: MethodInput<'vehicles.get'>): Promise<MethodOutput<'vehicles.get'>> {
    const id = i.id.trim();
    const slug = id.includes(':') ? (id.split(':')[1] ?? id) : id;
    const c = this.client();
    if (c && i.refresh !== false) {
      try {
        const r = await c.getVehicle(slug);
        this.engine.ingest([r.data], 'explore');
        const key = r.data.platform && r.data.lot_number ? lotKeyOf(r.data.platform, r.data.lot_number) : null;
        if (key) return { ...this.watch.lotDetail(key), offline: false };
      } catch (e) {
        const stored = this.storedKey(id);
        const offlineOk = e instanceof ApiError && ['network', 'timeout', 'server', 'rate_limited'].includes(e.code);
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

  async history(i: MethodInput<'vehicles.history'>): Promise<MethodOutput<'vehicles.history'>> {
    const r = await this.requireClient().getHistory(i.id.includes(':') ? (i.id.split(':')[1] ?? i.id) : i.id, i.cursor ? { cursor: i.cursor } : {});
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

  async related(i: MethodInput<'vehicles.related'>): Promise<MethodOutput<'vehicles.related'>> {
    const r = await this.requireClient().getRelated(i.id.includes(':') ? (i.id.split(':')[1] ?? i.id) : i.id);
    this.engine.ingest(r.data, 'explore');
    return { lots: r.data.map((v) => this.row(v)) };
  }

  async shipping(i: MethodInput<'shipping.get'>): Promise<MethodOutput<'shipping.get'>> {
    const c = this.requireClient();
    const ports = i.ports && i.ports.length ? i.ports : undefined;
    const r =
      i.endpoint === 'vehicle'
        ? await c.getVehicleShipping(i.id?.includes(':') ? (i.id.split(':')[1] ?? '') : (i.id ?? ''), ports ? { ports } : {})
        : await c.getAuctionToPortShipping({
            ...(i.vin ? { vin: i.vin } : {}),
            ...(i.lot_number ? { lot_number: i.lot_number } : {}),
            ...(ports ? { ports } : {}),
          });
    return { prices: r.data.map((p) => ({ port: p.port, price: p.price, currency: p.currency })) };
  }

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

  async usage(): Promise<MethodOutput<'usage.fetch'>> {
    return { usage: (await this.requireClient().getUsage()).data };
  }

  requests(limit: number): MethodOutput<'requests.list'> {
    return {
      rows: this.q['requests']!.all(limit) as MethodOutput<'requests.list'>['rows'],
      last24h: this.store.requestsSince(this.clock.now() - 86_400_000),
    };
  }

  endpoints(): MethodOutput<'console.endpoints'> {
    const vp = (Object.keys(VIDEO_ENDPOINTS) as VideoEndpoint[]).map((k) => ({
      name: `GET /api/v1/vp/${k}`,
      group: 'video-platform' as const,
      path_params: [],
      query_params: [],
      description: 'Video-platform data (parameters not listed in the specification).',
    }));
    return [...VA_ENDPOINTS, ...vp];
  }

  /**
   * Calls one endpoint of either specification with the console's form values and returns the JSON as received,
   * the time it took, and the requests it spent. @throws ApiInputError for bad input (no request), ApiError.
   */
  async console(i: MethodInput<'console.call'>): Promise<MethodOutput<'console.call'>> {
    const c = this.requireClient();
    const before = (this.q['requestCount']!.get() as { n: number }).n;
    const t0 = performance.now();
    const q = coerce(i.query ?? {});
    const path = i.path ?? {};
    const slug = path['slugVin'] ?? '';
    let json: unknown;
    let status = 200;
    switch (i.name) {
      case 'GET /vehicles':
        json = (await c.searchVehicles(q as never)).raw;
        break;
      case 'GET /vehicles/{slugVin}':
        json = (await c.getVehicle(slug)).raw;
        break;
      case 'GET /vehicles/{slugVin}/history':
        json = (await c.getHistory(slug, q as never)).raw;
        break;
      case 'GET /vehicles/{slugVin}/related':
        json = (await c.getRelated(slug)).raw;
        break;
      case 'GET /vehicles/filters':
        json = (await c.getFilters()).raw;
        break;
      case 'GET /vehicles/{slugVin}/shipping':
        json = (await c.getVehicleShipping(slug, typeof q['ports'] === 'string' ? { ports: String(q['ports']).split(',') } : {})).raw;
        break;
      case 'GET /locations':
        json = (await c.listLocations(q as never)).raw;
        break;
      case 'GET /shipping/auction-to-port':
        json = (
          await c.getAuctionToPortShipping({
            ...(q['vin'] ? { vin: String(q['vin']) } : {}),
            ...(q['lot_number'] !== undefined ? { lot_number: String(q['lot_number']) } : {}),
            ...(typeof q['ports'] === 'string' ? { ports: String(q['ports']).split(',') } : {}),
          })
        ).raw;
        break;
      case 'GET /vehicles/urltodetails':
        json = (await c.resolveUrl(String(q['url'] ?? ''))).raw;
        break;
      case 'GET /usage':
        json = (await c.getUsage()).raw;
        break;
      case 'GET /image-proxy': {
        const img = await c.fetchImage(String(q['url'] ?? ''));
        json = { content_type: img.contentType, bytes: img.bytes.length };
        break;
      }
      default: {
        const m = /^GET \/api\/v1\/vp\/(.+)$/.exec(i.name);
        const ep = m?.[1] as VideoEndpoint | undefined;
        if (!ep || !Object.hasOwn(VIDEO_ENDPOINTS, ep)) {
          throw new LotwatchError('bad_input', `There is no endpoint "${i.name}".`, { fields: { name: ['Choose an endpoint from the list.'] } });
        }
        const r = await c.callVideo(ep, q as never);
        json = r.data;
        status = r.status;
      }
    }
    const after = (this.q['requestCount']!.get() as { n: number }).n;
    return {
      status,
      json,
      duration_ms: Math.round(performance.now() - t0),
      requests: after - before,
      remaining: c.quota()?.remaining ?? null,
    };
  }

  /** CSV of the chosen lots (or of a library query, or of everything), one row per lot, with a header. */
  exportCsv(i: MethodInput<'library.export'>): MethodOutput<'library.export'> {
    let rows: Row[];
    if (i.lot_keys) rows = i.lot_keys.map((k) => this.q['lotsByKey']!.get(k) as Row | undefined).filter((r): r is Row => !!r);
    else if (i.q) {
      const keys = this.watch.searchLibrary({ q: i.q, limit: 500, offset: 0 }).lots.map((l) => l.lot_key);
      rows = keys.map((k) => this.q['lotsByKey']!.get(k) as Row);
    } else rows = this.q['allLots']!.all() as Row[];
    const cols = ['lot_key', 'platform', 'lot_number', 'vin', 'title', 'year', 'make', 'model', 'location', 'current_bid_usd', 'buy_now_usd', 'sale_price_usd', 'state', 'lot_status', 'lot_sub_status', 'auction_at', 'first_seen_at', 'last_observed_at', 'notes'];
    const iso = (t: unknown) => (typeof t === 'number' ? new Date(t).toISOString() : '');
    const csv = stringify(
      rows.map((r) => cols.map((c) => (c.endsWith('_at') ? iso(r[c]) : (r[c] ?? '')))),
      { header: true, columns: cols },
    );
    return { csv, rows: rows.length };
  }

  /**
   * Removes every Demo-mode example (saved searches and watches marked `is_example`) and returns how many of each
   * went. Throws nothing but database errors.
   */
  removeExamples(): MethodOutput<'examples.remove'> {
    const n = this.q['examples']!.get() as { s: number; w: number };
    this.store.transaction(() => {
      this.q['delExampleSearches']!.run();
      this.q['delExampleWatches']!.run();
      this.q['cacheDel']!.run('examples:paused');
    });
    this.engine.refresh();
    return { searches: n.s, watches: n.w };
  }

  /**
   * Demo mode was turned off: the example saved searches are paused (their ids remembered, so turning Demo mode on
   * again resumes exactly these), because they would otherwise run against the user's real key and quota. Example
   * watches need no flag: the engine polls them only in Demo mode. Returns how many examples there are.
   */
  pauseExamples(): MethodOutput<'examples.remove'> {
    const n = this.q['examples']!.get() as { s: number; w: number };
    const now = this.clock.now();
    this.store.transaction(() => {
      const ids = (this.q['exampleSearches']!.all() as { id: number }[]).map((r) => r.id);
      const before = this.pausedExampleIds();
      for (const id of ids) this.q['pauseSearch']!.run(now, id);
      if (ids.length || before.length) this.q['cachePut']!.run('examples:paused', JSON.stringify([...new Set([...before, ...ids])]), now);
    });
    this.engine.refresh();
    return { searches: n.s, watches: n.w };
  }

  /** Demo mode is on again: resumes the example searches that pauseExamples paused (not ones the user paused). */
  resumeExamples(): void {
    const now = this.clock.now();
    this.store.transaction(() => {
      for (const id of this.pausedExampleIds()) this.q['resumeSearch']!.run(now, id);
      this.q['cacheDel']!.run('examples:paused');
    });
    this.engine.refresh();
  }

  private pausedExampleIds(): number[] {
    const r = this.q['cacheGet']!.get('examples:paused') as { value: string } | undefined;
    try {
      const ids = r ? (JSON.parse(r.value) as unknown) : [];
      return Array.isArray(ids) ? ids.filter((x): x is number => Number.isInteger(x)) : [];
    } catch {
      return [];
    }
  }

  /** Whether a one-time flag is set (e.g. Demo examples created), and sets it. */
  once(flag: string): boolean {
    const had = this.q['cacheGet']!.get(`flag:${flag}`) !== undefined;
    if (!had) this.q['cachePut']!.run(`flag:${flag}`, '1', this.clock.now());
    return !had;
  }
}
