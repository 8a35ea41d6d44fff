import type { Database, Statement } from 'better-sqlite3';
import { saleOutcomeOf } from '../../shared/saleOutcome';
import type { ApiClient } from '../api';
import { checkLotPageUrl, checkSearchParams, checkVin } from '../api/validate';
import { BadInputError, LotwatchError } from '../errors';
import type { WatchStore, SavedSearchRow, WatchRow } from '../db/watchStore';
import type {
  AlertView,
  LotDetail,
  LotSummary,
  MethodInput,
  MethodOutput,
  SavedSearchView,
  WatchView,
} from '../../shared/ipc/contract';
import { AlertRulesSchema, lotKeyOf, type AlertRules } from '../../shared/watch';
import type { Clock } from '../clock';
import { issuesToFields } from '../rpc';
import { checkCron } from './cron';
import type { WatchEngine } from './engine';
import { nextCheckAt } from './planner';

/** Saved searches notify new matches by default; a watch notifies every change that matters. */
export const DEFAULT_SEARCH_RULES: AlertRules = AlertRulesSchema.parse({ kinds: ['new_match'] });
export const DEFAULT_WATCH_RULES: AlertRules = AlertRulesSchema.parse({});

/**
 * Parses alert rules from the contract (unknown JSON), merged over `base`.
 * @throws BadInputError with `rules.<field>` messages; nothing is saved.
 */
export function parseRules(input: unknown, base: AlertRules): AlertRules {
  if (input === undefined) return base;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new BadInputError('The alert rules must be an object.', { rules: ['The alert rules must be an object.'] });
  }
  const r = AlertRulesSchema.safeParse({ ...base, ...(input as object) });
  if (r.success) return r.data;
  const fields = Object.fromEntries(Object.entries(issuesToFields(r.error.issues)).map(([k, v]) => [`rules.${k}`, v]));
  const first = Object.entries(fields)[0];
  throw new BadInputError(first ? `${first[0]}: ${first[1][0]}` : 'The alert rules are not valid.', fields);
}

type Row = Record<string, unknown>;

/**
 * The contract methods of the watch engine (issue 5 item 6): saved searches, the watchlist, the alerts inbox,
 * the offline library, lot detail with its timeline. Reads go straight to SQLite; runs go through the engine.
 */
export class WatchService {
  private readonly q: Record<string, Statement>;

  constructor(
    private readonly db: Database,
    private readonly store: WatchStore,
    private readonly engine: WatchEngine,
    private readonly clock: Clock,
    private readonly client: () => ApiClient | null,
    /** Whether Demo mode's example watches are checked (Demo mode only); default always. */
    private readonly examplesActive: () => boolean = () => true,
  ) {
    const p = (sql: string) => db.prepare(sql);
    this.q = {
      newMatches: p(`SELECT count(*) AS n FROM alerts WHERE kind = 'new_match' AND source = ? AND created_at > ?`),
      lot: p('SELECT * FROM lots WHERE lot_key = ?'),
      alerts: p(`SELECT * FROM alerts WHERE (? = 0 OR read_at IS NULL) AND id < ?
        ORDER BY (read_at IS NULL) DESC, id DESC LIMIT ?`),
      unread: p('SELECT count(*) AS n FROM alerts WHERE read_at IS NULL'),
      markRead: p('UPDATE alerts SET read_at = ? WHERE id = ?'),
      markUnread: p('UPDATE alerts SET read_at = NULL WHERE id = ?'),
      recent: p('SELECT * FROM lots ORDER BY last_observed_at DESC LIMIT ? OFFSET ?'),
      count: p('SELECT count(*) AS n FROM lots'),
      fts: p(`SELECT lots.* FROM lots_fts JOIN lots ON lots.rowid = lots_fts.rowid WHERE lots_fts MATCH ?
        ORDER BY rank LIMIT ? OFFSET ?`),
      ftsCount: p('SELECT count(*) AS n FROM lots_fts WHERE lots_fts MATCH ?'),
      timeline: p('SELECT * FROM changes WHERE lot_key = ? ORDER BY observed_at, id'),
      bids: p(`SELECT observed_at, json_extract(raw, '$.pricing.current_bid_usd') AS bid FROM observations
        WHERE lot_key = ? AND raw IS NOT NULL ORDER BY observed_at`),
      obsCount: p('SELECT count(*) AS n FROM observations WHERE lot_key = ?'),
    };
  }

  // ---- views ---------------------------------------------------------------------------------------------------

  private lotSummary(r: Row): LotSummary {
    let photo: string | null = null;
    try {
      const n = JSON.parse(r['normalized'] as string) as { media?: { photos?: string[] } };
      photo = n.media?.photos?.[0] ?? null;
    } catch {
      photo = null;
    }
    return {
      lot_key: r['lot_key'] as string,
      platform: r['platform'] as string,
      lot_number: r['lot_number'] as string,
      vin: (r['vin'] as string | null) ?? null,
      title: (r['title'] as string | null) ?? null,
      year: (r['year'] as number | null) ?? null,
      make: (r['make'] as string | null) ?? null,
      model: (r['model'] as string | null) ?? null,
      location: (r['location'] as string | null) ?? null,
      current_bid_usd: (r['current_bid_usd'] as number | null) ?? null,
      buy_now_usd: (r['buy_now_usd'] as number | null) ?? null,
      sale_price_usd: (r['sale_price_usd'] as number | null) ?? null,
      state: (r['state'] as string | null) ?? null,
      lot_status: (r['lot_status'] as string | null) ?? null,
      lot_sub_status: (r['lot_sub_status'] as string | null) ?? null,
      last_sold_status: (r['last_sold_status'] as string | null) ?? null,
      outcome: saleOutcomeOf({
        state: (r['state'] as string | null) ?? null,
        lot_sub_status: (r['lot_sub_status'] as string | null) ?? null,
        last_sold_status: (r['last_sold_status'] as string | null) ?? null,
        sale_price_usd: (r['sale_price_usd'] as number | null) ?? null,
      }),
      auction_at: (r['auction_at'] as number | null) ?? null,
      first_seen_at: r['first_seen_at'] as number,
      last_observed_at: r['last_observed_at'] as number,
      photo,
    };
  }

  private searchView(s: SavedSearchRow): SavedSearchView {
    const now = this.clock.now();
    const next = this.engine.plan().nextSearchRuns.find((x) => x.id === s.id)?.at ?? null;
    return {
      id: s.id,
      name: s.name,
      params: s.params,
      schedule: s.schedule,
      rules: s.rules,
      max_pages: s.max_pages,
      paused: s.paused,
      is_example: s.is_example,
      last_run_at: s.last_run_at,
      last_ok_at: s.last_ok_at,
      next_run_at: s.paused ? null : next,
      last_result_count: s.last_result_count,
      last_complete: s.last_complete,
      consecutive_failures: s.consecutive_failures,
      last_error: s.last_error,
      new_matches_24h: (this.q['newMatches']!.get(`search:${s.id}`, now - 86_400_000) as { n: number }).n,
    };
  }

  private watchView(w: WatchRow): WatchView {
    const row = w.lot_key ? (this.q['lot']!.get(w.lot_key) as Row | undefined) : undefined;
    const lot = w.lot_key ? this.store.getLotState(w.lot_key) : null;
    const last = lot && w.last_checked_at !== null ? Math.max(w.last_checked_at, lot.observed_at) : w.last_checked_at;
    return {
      id: w.id,
      kind: w.kind,
      vin: w.vin,
      lot_key: w.lot_key,
      label: w.label,
      rules: w.rules,
      is_example: w.is_example,
      last_checked_at: w.last_checked_at,
      // An example watch waits while Demo mode is off (the engine skips it): no next check to show.
      next_check_at: w.is_example && !this.examplesActive() ? null : nextCheckAt(lot, lot ? last : null, this.clock.now()),
      last_error: w.last_error,
      lot: row ? this.lotSummary(row) : null,
    };
  }

  private requireSearch(id: number): SavedSearchRow {
    const s = this.store.getSearch(id);
    if (!s) throw new LotwatchError('not_found', `There is no saved search ${id}; it may have been deleted.`);
    return s;
  }

  private requireWatch(id: number): WatchRow {
    const w = this.store.getWatch(id);
    if (!w) throw new LotwatchError('not_found', `There is no watch ${id}; it may have been removed.`);
    return w;
  }

  private requireClient(): ApiClient {
    const c = this.client();
    if (!c) {
      throw new LotwatchError(
        'unauthorized',
        'No API key is set. Add your key in Settings, or turn on Demo mode to use the simulated market.',
      );
    }
    return c;
  }

  // ---- saved searches ------------------------------------------------------------------------------------------

  listSearches(): SavedSearchView[] {
    return this.store.listSearches().map((s) => this.searchView(s));
  }

  private checkSearch(i: MethodInput<'searches.create'>, base: AlertRules) {
    const fields: Record<string, string[]> = {};
    let params: Record<string, unknown> = {};
    let schedule = '';
    let rules = base;
    try {
      const { cursor: _c, per_page: _p, ...rest } = i.params as Record<string, unknown>;
      params = Object.fromEntries(Object.entries(checkSearchParams(rest as never)).filter(([, v]) => v !== undefined));
    } catch (e) {
      for (const [k, v] of Object.entries((e as LotwatchError).fields ?? { params: [(e as Error).message] })) {
        fields[`params.${k}`] = v;
      }
    }
    try {
      schedule = checkCron(i.schedule ?? '*/30 * * * *');
    } catch (e) {
      Object.assign(fields, (e as LotwatchError).fields);
    }
    try {
      rules = parseRules(i.rules, base);
    } catch (e) {
      Object.assign(fields, (e as LotwatchError).fields);
    }
    const first = Object.entries(fields)[0];
    if (first) throw new BadInputError(`${first[0]}: ${first[1][0]}`, fields);
    return { params, schedule, rules };
  }

  createSearch(i: MethodInput<'searches.create'>, isExample = false): SavedSearchView {
    const { params, schedule, rules } = this.checkSearch(i, DEFAULT_SEARCH_RULES);
    const id = this.store.insertSearch(
      { name: i.name!, params, schedule, rules, max_pages: i.max_pages ?? 5, paused: i.paused ?? false, is_example: isExample },
      this.clock.now(),
    );
    this.engine.refresh();
    return this.searchView(this.requireSearch(id));
  }

  updateSearch(i: MethodInput<'searches.update'>): SavedSearchView {
    const old = this.requireSearch(i.id);
    const { params, schedule, rules } = this.checkSearch(i, old.rules);
    this.store.updateSearch(
      i.id,
      { name: i.name!, params, schedule, rules, max_pages: i.max_pages ?? old.max_pages, paused: i.paused ?? old.paused },
      this.clock.now(),
    );
    this.engine.refresh();
    return this.searchView(this.requireSearch(i.id));
  }

  removeSearch(id: number): { ok: true } {
    this.requireSearch(id);
    this.store.deleteSearch(id);
    this.engine.refresh();
    return { ok: true };
  }

  setSearchPaused(id: number, paused: boolean): SavedSearchView {
    const s = this.requireSearch(id);
    this.store.updateSearch(id, { ...s, paused }, this.clock.now());
    this.engine.refresh();
    return this.searchView(this.requireSearch(id));
  }

  async runSearchNow(id: number): Promise<MethodOutput<'searches.runNow'>> {
    this.requireSearch(id);
    this.requireClient();
    return this.engine.runSearchNow(id);
  }

  // ---- watchlist -----------------------------------------------------------------------------------------------

  listWatches(): WatchView[] {
    return this.store.listWatches().map((w) => this.watchView(w));
  }

  /**
   * Adds a watch from what the user typed or pasted: a lot-page URL (resolved through urltodetails), a 17-character
   * VIN (a VIN watch, which follows relists), or a lot number. Fetches the lot once so the list shows it at once.
   * @throws BadInputError (field `target`) for anything else; ApiError from the service.
   */
  async addWatch(i: MethodInput<'watchlist.add'>, isExample = false): Promise<WatchView> {
    const target = i.target.trim();
    const rules = parseRules(i.rules, DEFAULT_WATCH_RULES);
    const now = this.clock.now();
    const isUrl = /^https?:\/\//i.test(target);
    const isVin = /^[A-HJ-NPR-Z0-9]{17}$/i.test(target);
    const isLot = /^\d{1,12}$/.test(target);
    if (!isUrl && !isVin && !isLot) {
      throw new BadInputError('Enter a VIN (17 characters), a lot number, or a Copart or IAAI lot-page URL.', {
        target: ['Enter a VIN (17 characters), a lot number, or a Copart or IAAI lot-page URL.'],
      });
    }
    if (isUrl) {
      try {
        checkLotPageUrl(target);
      } catch (e) {
        throw new BadInputError((e as LotwatchError).fields?.['url']?.[0] ?? 'Not a lot page URL.', {
          target: (e as LotwatchError).fields?.['url'] ?? ['Not a lot page URL.'],
        });
      }
    }
    const vin = isVin ? checkVin(target).vin : null;
    const client = this.requireClient();
    const existing = this.store
      .listWatches()
      .find((w) => (vin && w.vin === vin) || (isLot && w.lot_key?.endsWith(`:${target}`)));
    if (existing) {
      throw new BadInputError('That vehicle is already on your watchlist.', { target: ['Already on your watchlist.'] });
    }
    let vehicle;
    try {
      vehicle = isUrl ? (await client.resolveUrl(target)).data : (await client.getVehicle(vin ?? target)).data;
    } catch (e) {
      if ((e as LotwatchError).code === 'not_found' && vin) vehicle = null;
      else throw e;
    }
    const lotKey = vehicle?.platform && vehicle.lot_number ? lotKeyOf(vehicle.platform, vehicle.lot_number) : null;
    if (!vin && !lotKey) {
      throw new LotwatchError('bad_response', 'The service answered without a platform and lot number for that lot.');
    }
    const dup = lotKey && this.store.listWatches().find((w) => w.lot_key === lotKey);
    if (dup) throw new BadInputError('That lot is already on your watchlist.', { target: ['Already on your watchlist.'] });
    const id = this.store.transaction(() => {
      const wid = this.store.insertWatch(
        { kind: vin ? 'vin' : 'lot', vin: vin ?? vehicle?.vin ?? null, lot_key: lotKey, label: i.label ?? '', rules, is_example: isExample },
        now,
      );
      if (vehicle) this.store.watchChecked(wid, now, lotKey, vehicle.vin);
      return wid;
    });
    if (vehicle) this.engine.ingest([vehicle], `watch:${id}`);
    this.engine.refresh();
    return this.watchView(this.requireWatch(id));
  }

  removeWatch(id: number): { ok: true } {
    this.requireWatch(id);
    this.store.deleteWatch(id);
    this.engine.refresh();
    return { ok: true };
  }

  setWatchRules(id: number, rulesInput: unknown, label?: string): WatchView {
    const w = this.requireWatch(id);
    const rules = parseRules(rulesInput, w.rules);
    this.store.updateWatchRules(id, rules, label ?? w.label, this.clock.now());
    this.engine.refresh();
    return this.watchView(this.requireWatch(id));
  }

  async checkWatchNow(id: number): Promise<MethodOutput<'watchlist.checkNow'>> {
    this.requireWatch(id);
    this.requireClient();
    return this.engine.checkWatchNow(id);
  }

  private watchOfLot(lotKey: string): WatchRow {
    const rec = this.store.getLotState(lotKey);
    const w = this.store.listWatches().find((x) => x.lot_key === lotKey || (rec?.vin && x.vin === rec.vin));
    if (!w) throw new LotwatchError('not_found', 'Only lots on your watchlist can be snoozed or muted. Watch it first.');
    return w;
  }

  snooze(i: MethodInput<'alerts.snooze'>): WatchView {
    const w = this.watchOfLot(i.lot_key);
    return this.setWatchRules(w.id, { snooze_until: i.until ?? null, snooze_until_event: i.until_event ?? null });
  }

  mute(lotKey: string, muted: boolean): WatchView {
    const w = this.watchOfLot(lotKey);
    return this.setWatchRules(w.id, { muted });
  }

  // ---- alerts --------------------------------------------------------------------------------------------------

  listAlerts(i: MethodInput<'alerts.list'>): MethodOutput<'alerts.list'> {
    const rows = this.q['alerts']!.all(i?.unread_only ? 1 : 0, i?.before_id ?? Number.MAX_SAFE_INTEGER, i?.limit ?? 100) as Row[];
    const alerts: AlertView[] = rows.map((r) => ({
      id: r['id'] as number,
      kind: r['kind'] as string,
      lot_key: (r['lot_key'] as string | null) ?? null,
      title: r['title'] as string,
      body: r['body'] as string,
      source: r['source'] as string,
      reason: (r['reason'] as string | null) ?? null,
      created_at: r['created_at'] as number,
      delivery: r['delivery'] as AlertView['delivery'],
      status: r['status'] as string,
      read: r['read_at'] !== null,
    }));
    return { alerts, unread: (this.q['unread']!.get() as { n: number }).n };
  }

  /** How many inbox alerts are unread. Throws only database errors. */
  unreadCount(): number {
    return (this.q['unread']!.get() as { n: number }).n;
  }

  markRead(ids: number[], read: boolean): { unread: number } {
    const now = this.clock.now();
    this.store.transaction(() => {
      for (const id of ids) {
        if (read) this.q['markRead']!.run(now, id);
        else this.q['markUnread']!.run(id);
      }
    });
    return { unread: (this.q['unread']!.get() as { n: number }).n };
  }

  // ---- library and lot detail ---------------------------------------------------------------------------------

  /**
   * Offline full-text search over every stored lot (title, VIN, lot number, make, model, location, notes). Each word
   * is matched as a prefix; an empty query lists the most recently seen lots.
   */
  searchLibrary(i: MethodInput<'library.search'>): MethodOutput<'library.search'> {
    const words = (i.q ?? '').match(/[\p{L}\p{N}]+/gu) ?? [];
    const limit = i.limit ?? 100;
    const offset = i.offset ?? 0;
    if (words.length === 0) {
      const rows = this.q['recent']!.all(limit, offset) as Row[];
      return { lots: rows.map((r) => this.lotSummary(r)), total: (this.q['count']!.get() as { n: number }).n };
    }
    const match = words.slice(0, 12).map((w) => `"${w}"*`).join(' ');
    const rows = this.q['fts']!.all(match, limit, offset) as Row[];
    return { lots: rows.map((r) => this.lotSummary(r)), total: (this.q['ftsCount']!.get(match) as { n: number }).n };
  }

  /** One stored lot with its timeline and bid history; works offline. @throws not_found when never fetched. */
  lotDetail(lotKey: string): LotDetail {
    const r = this.q['lot']!.get(lotKey) as Row | undefined;
    if (!r) throw new LotwatchError('not_found', `Lotwatch has no record of lot ${lotKey} yet.`);
    const timeline = (this.q['timeline']!.all(lotKey) as Row[]).map((c) => ({
      id: c['id'] as number,
      kind: c['kind'] as LotDetail['timeline'][number]['kind'],
      lot_key: c['lot_key'] as string,
      vin: (c['vin'] as string | null) ?? null,
      field: (c['field'] as string | null) ?? null,
      before: c['before'] === null ? null : (JSON.parse(c['before'] as string) as string | number | boolean | null),
      after: c['after'] === null ? null : (JSON.parse(c['after'] as string) as string | number | boolean | null),
      related_lot_key: (c['related_lot_key'] as string | null) ?? null,
      outcome: (c['outcome'] as LotDetail['timeline'][number]['outcome'] | null) ?? null,
      observed_at: c['observed_at'] as number,
      search_id: (c['search_id'] as number | null) ?? null,
    }));
    const bids = (this.q['bids']!.all(lotKey) as { observed_at: number; bid: number | null }[]).map(
      (b) => [b.observed_at, typeof b.bid === 'number' ? b.bid : null] as [number, number | null],
    );
    const watch = this.store.listWatches().find((w) => w.lot_key === lotKey || (r['vin'] !== null && w.vin === r['vin']));
    return {
      summary: this.lotSummary(r),
      record: JSON.parse(r['normalized'] as string) as Record<string, unknown>,
      raw: JSON.parse(r['raw'] as string) as unknown,
      timeline,
      bids,
      observations: (this.q['obsCount']!.get(lotKey) as { n: number }).n,
      watch_id: watch?.id ?? null,
      notes: r['notes'] as string,
    };
  }
}
