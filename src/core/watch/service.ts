import { parseTags } from '../../shared/desk';
import { saleOutcomeOf } from '../../shared/saleOutcome';
import type { ApiClient } from '../api';
import { checkLotPageUrl, checkSearchParams, checkVin } from '../api/validate';
import { BadInputError, LotwatchError } from '../errors';
import type { LotRow, SavedSearchRow, Store, WatchRow } from '../db/store';
import type {
  AlertView,
  LotDetail,
  LotDesk,
  LotSummary,
  MethodInput,
  MethodOutput,
  SavedSearchView,
  WatchView,
} from '../../shared/ipc/contract';
import { AlertRulesSchema, lotKeyOf, parseLotKey, pollTargetKey, type AlertRules } from '../../shared/watch';
import type { Clock } from '../clock';
import { issuesToFields } from '../rpc';
import { checkCron } from './cron';
import type { WatchEngine } from './engine';
import { nextCheckAt } from './planner';

/** Saved searches notify new matches by default; a watch notifies every change that matters. */
export const DEFAULT_SEARCH_RULES: AlertRules = AlertRulesSchema.parse({ kinds: ['new_match'] });
/** A watch's rules until the user edits them: every change that matters. */
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

/**
 * The contract methods of the watch engine: saved searches, the watchlist, the alerts inbox, the offline library,
 * lot detail with its timeline. Reads go straight to SQLite; runs go through the engine.
 */
export class WatchService {
  constructor(
    private readonly store: Store,
    private readonly engine: WatchEngine,
    private readonly clock: Clock,
    private readonly client: () => ApiClient | null,
    /** Whether Demo mode's example watches are checked (Demo mode only); default always. */
    private readonly examplesActive: () => boolean = () => true,
    /** The buyer's figures for a watched lot (src/core/desk/service.ts DeskService.figures); default none. */
    private readonly figures: (row: LotRow, rules: WatchRow['rules']) => LotDesk | null = () => null,
  ) {}

  // ---- views ---------------------------------------------------------------------------------------------------

  private lotSummary(r: LotRow): LotSummary {
    let photo: string | null = null;
    try {
      const n = JSON.parse(r.normalized) as { media?: { photos?: string[] } };
      photo = n.media?.photos?.[0] ?? null;
    } catch {
      photo = null;
    }
    return {
      lot_key: r.lot_key,
      platform: r.platform,
      lot_number: r.lot_number,
      vin: r.vin ?? null,
      title: r.title ?? null,
      year: r.year ?? null,
      make: r.make ?? null,
      model: r.model ?? null,
      location: r.location ?? null,
      current_bid_usd: r.current_bid_usd ?? null,
      buy_now_usd: r.buy_now_usd ?? null,
      sale_price_usd: r.sale_price_usd ?? null,
      state: r.state ?? null,
      lot_status: r.lot_status ?? null,
      lot_sub_status: r.lot_sub_status ?? null,
      last_sold_status: r.last_sold_status ?? null,
      outcome: saleOutcomeOf({
        state: r.state ?? null,
        lot_sub_status: r.lot_sub_status ?? null,
        last_sold_status: r.last_sold_status ?? null,
        sale_price_usd: r.sale_price_usd ?? null,
      }),
      auction_at: r.auction_at ?? null,
      first_seen_at: r.first_seen_at,
      last_observed_at: r.last_observed_at,
      photo,
      notes: r.notes,
      tags: parseTags(r.tags),
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
      new_matches_24h: this.store.alerts.newMatchesSince(pollTargetKey({ kind: 'search', id: s.id }), now - 86_400_000),
    };
  }

  private watchView(w: WatchRow): WatchView {
    const row = w.lot_key ? this.store.lots.getRow(w.lot_key) : null;
    const lot = w.lot_key ? this.store.lots.getLotState(w.lot_key) : null;
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
      desk: row ? this.figures(row, w.rules) : null,
    };
  }

  private requireSearch(id: number): SavedSearchRow {
    const s = this.store.searches.getSearch(id);
    if (!s) throw new LotwatchError('not_found', `There is no saved search ${id}; it may have been deleted.`);
    return s;
  }

  private requireWatch(id: number): WatchRow {
    const w = this.store.watches.getWatch(id);
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
    return this.store.searches.listSearches().map((s) => this.searchView(s));
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

  /** Creates a saved search (an `isExample` one for Demo mode) and schedules it. @throws BadInputError naming each bad field. */
  createSearch(i: MethodInput<'searches.create'>, isExample = false): SavedSearchView {
    const { params, schedule, rules } = this.checkSearch(i, DEFAULT_SEARCH_RULES);
    const id = this.store.searches.insertSearch(
      { name: i.name!, params, schedule, rules, max_pages: i.max_pages ?? 5, paused: i.paused ?? false, is_example: isExample },
      this.clock.now(),
    );
    this.engine.refresh();
    return this.searchView(this.requireSearch(id));
  }

  /** Edits a saved search; new params restart its baseline. @throws BadInputError, not_found. */
  updateSearch(i: MethodInput<'searches.update'>): SavedSearchView {
    const old = this.requireSearch(i.id);
    const { params, schedule, rules } = this.checkSearch(i, old.rules);
    this.store.searches.updateSearch(
      i.id,
      { name: i.name!, params, schedule, rules, max_pages: i.max_pages ?? old.max_pages, paused: i.paused ?? old.paused },
      this.clock.now(),
    );
    this.engine.refresh();
    return this.searchView(this.requireSearch(i.id));
  }

  /** Deletes a saved search and unschedules it. @throws not_found. */
  removeSearch(id: number): { ok: true } {
    this.requireSearch(id);
    this.store.searches.deleteSearch(id);
    this.engine.refresh();
    return { ok: true };
  }

  /** Pauses or resumes a saved search's schedule (it can still be run by hand). @throws not_found. */
  setSearchPaused(id: number, paused: boolean): SavedSearchView {
    const s = this.requireSearch(id);
    this.store.searches.updateSearch(id, { ...s, paused }, this.clock.now());
    this.engine.refresh();
    return this.searchView(this.requireSearch(id));
  }

  /** Runs a saved search now, queued behind the engine's job in flight. @throws not_found, unauthorized without a client. */
  async runSearchNow(id: number): Promise<MethodOutput<'searches.runNow'>> {
    this.requireSearch(id);
    this.requireClient();
    return this.engine.runSearchNow(id);
  }

  // ---- watchlist -----------------------------------------------------------------------------------------------

  listWatches(): WatchView[] {
    return this.store.watches.listWatches().map((w) => this.watchView(w));
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
    const existing = this.store.watches
      .listWatches()
      .find((w) => (vin && w.vin === vin) || (isLot && w.lot_key !== null && parseLotKey(w.lot_key)?.lot_number === target));
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
    const dup = lotKey && this.store.watches.listWatches().find((w) => w.lot_key === lotKey);
    if (dup) throw new BadInputError('That lot is already on your watchlist.', { target: ['Already on your watchlist.'] });
    const id = this.store.transaction(() => {
      const wid = this.store.watches.insertWatch(
        { kind: vin ? 'vin' : 'lot', vin: vin ?? vehicle?.vin ?? null, lot_key: lotKey, label: i.label ?? '', rules, is_example: isExample },
        now,
      );
      if (vehicle) this.store.watches.watchChecked(wid, now, lotKey, vehicle.vin);
      return wid;
    });
    if (vehicle) this.engine.ingest([vehicle], pollTargetKey({ kind: 'watch', id }));
    this.engine.refresh();
    return this.watchView(this.requireWatch(id));
  }

  /** Removes a watch. @throws not_found. */
  removeWatch(id: number): { ok: true } {
    this.requireWatch(id);
    this.store.watches.deleteWatch(id);
    this.engine.refresh();
    return { ok: true };
  }

  /** Replaces a watch's rules (merged over its current ones) and label. @throws BadInputError, not_found. */
  setWatchRules(id: number, rulesInput: unknown, label?: string): WatchView {
    const w = this.requireWatch(id);
    const rules = parseRules(rulesInput, w.rules);
    this.store.watches.updateWatchRules(id, rules, label ?? w.label, this.clock.now());
    this.engine.refresh();
    return this.watchView(this.requireWatch(id));
  }

  /** Checks one watch now (one request), queued behind the job in flight. @throws not_found, unauthorized. */
  async checkWatchNow(id: number): Promise<MethodOutput<'watchlist.checkNow'>> {
    this.requireWatch(id);
    this.requireClient();
    return this.engine.checkWatchNow(id);
  }

  private watchOfLot(lotKey: string): WatchRow {
    const rec = this.store.lots.getLotState(lotKey);
    const w = this.store.watches.listWatches().find((x) => x.lot_key === lotKey || (rec?.vin && x.vin === rec.vin));
    if (!w) throw new LotwatchError('not_found', 'Only lots on your watchlist can be snoozed or muted. Watch it first.');
    return w;
  }

  /** Snoozes a watched lot's alerts until a time (ms) or an event. @throws not_found when the lot is not watched. */
  snooze(i: MethodInput<'alerts.snooze'>): WatchView {
    const w = this.watchOfLot(i.lot_key);
    return this.setWatchRules(w.id, { snooze_until: i.until ?? null, snooze_until_event: i.until_event ?? null });
  }

  /** Mutes or unmutes a watched lot's alerts. @throws not_found when the lot is not watched. */
  mute(lotKey: string, muted: boolean): WatchView {
    const w = this.watchOfLot(lotKey);
    return this.setWatchRules(w.id, { muted });
  }

  // ---- alerts --------------------------------------------------------------------------------------------------

  listAlerts(i: MethodInput<'alerts.list'>): MethodOutput<'alerts.list'> {
    const rows = this.store.alerts.list(i?.unread_only ?? false, i?.before_id ?? Number.MAX_SAFE_INTEGER, i?.limit ?? 100);
    const noteOf = (k: string | null) => (k ? this.store.desk.notes(k) : null);
    const alerts: AlertView[] = rows.map((r) => ({
      lot_notes: noteOf(r.lot_key)?.notes ?? '',
      lot_tags: parseTags(noteOf(r.lot_key)?.tags ?? ''),
      deliveries: [], // The inbox handler adds the channel deliveries (ChannelService.deliveriesOf).
      id: r.id,
      kind: r.kind,
      lot_key: r.lot_key ?? null,
      title: r.title,
      body: r.body,
      source: r.source,
      reason: r.reason ?? null,
      created_at: r.created_at,
      delivery: r.delivery,
      status: r.status,
      read: r.read_at !== null,
    }));
    return { alerts, unread: this.store.alerts.unreadCount() };
  }

  /** How many inbox alerts are unread. Throws only database errors. */
  unreadCount(): number {
    return this.store.alerts.unreadCount();
  }

  /** Marks alerts read (or unread again) in one transaction; returns the new unread count. */
  markRead(ids: number[], read: boolean): { unread: number } {
    const now = this.clock.now();
    this.store.transaction(() => {
      for (const id of ids) this.store.alerts.setRead(id, read, now);
    });
    return { unread: this.store.alerts.unreadCount() };
  }

  // ---- library and lot detail ---------------------------------------------------------------------------------

  /**
   * Offline full-text search over every stored lot (title, VIN, lot number, make, model, location, notes, tags):
   * words as prefixes, `-word` left out, `OR` for either, "quoted phrases" (LibraryRepo.find); an empty query lists
   * the most recently seen lots.
   */
  searchLibrary(i: MethodInput<'library.search'>): MethodOutput<'library.search'> {
    const limit = i.limit ?? 100;
    const offset = i.offset ?? 0;
    const found = this.store.library.find(i.q ?? '', limit, offset);
    if (!found) {
      const rows = this.store.library.recent(limit, offset);
      return { lots: rows.map((r) => this.lotSummary(r)), total: this.store.library.count() };
    }
    return { lots: found.rows.map((r) => this.lotSummary(r)), total: found.total };
  }

  /** One stored lot with its timeline and bid history; works offline. @throws not_found when never fetched. */
  lotDetail(lotKey: string): LotDetail {
    const r = this.store.lots.getRow(lotKey);
    if (!r) throw new LotwatchError('not_found', `Lotwatch has no record of lot ${lotKey} yet.`);
    const json = (v: string | null) => (v === null ? null : (JSON.parse(v) as string | number | boolean | null));
    const timeline = this.store.lots.timeline(lotKey).map((c) => ({
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
    const bids = this.store.lots.bids(lotKey);
    const watch = this.store.watches.listWatches().find((w) => w.lot_key === lotKey || (r.vin !== null && w.vin === r.vin));
    return {
      summary: this.lotSummary(r),
      record: JSON.parse(r.normalized) as Record<string, unknown>,
      raw: JSON.parse(r.raw) as unknown,
      timeline,
      bids,
      observations: this.store.lots.observationCount(lotKey),
      watch_id: watch?.id ?? null,
      notes: r.notes,
    };
  }
}
