import type { Database, Statement } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type { QuotaSnapshot, Vehicle } from '../../shared/vehicle';
import {
  AlertRulesSchema,
  lotKeyOf,
  type AlertKind,
  type AlertRules,
  type Change,
  type Delivery,
  type LotKey,
  type LotState,
} from '../../shared/watch';

/** A saved search row with its JSON columns parsed. */
export interface SavedSearchRow {
  id: number;
  name: string;
  /** /vehicles query parameters (spec names), without cursor. */
  params: Record<string, unknown>;
  /** Cron expression (node-cron syntax). */
  schedule: string;
  rules: AlertRules;
  max_pages: number;
  paused: boolean;
  is_example: boolean;
  baseline_done: boolean;
  created_at: number;
  updated_at: number;
  last_run_at: number | null;
  last_ok_at: number | null;
  last_result_count: number | null;
  last_complete: boolean | null;
  consecutive_failures: number;
  last_error_code: string | null;
  last_error: string | null;
}

/** A watch row: a VIN or a lot the user follows. */
export interface WatchRow {
  id: number;
  kind: 'vin' | 'lot';
  vin: string | null;
  lot_key: LotKey | null;
  label: string;
  rules: AlertRules;
  is_example: boolean;
  created_at: number;
  updated_at: number;
  last_checked_at: number | null;
  consecutive_failures: number;
  last_error: string | null;
}

/** A stored alert (the inbox and the outbox in one table). */
export interface AlertRow {
  id: number;
  dedup_key: string;
  kind: AlertKind;
  lot_key: string | null;
  change_id: number | null;
  source: string;
  title: string;
  body: string;
  reason: string | null;
  created_at: number;
  delivery: Delivery;
  /** pending (to notify now), digest (held for the digest), claimed (being shown), delivered, suppressed. */
  status: 'pending' | 'digest' | 'claimed' | 'delivered' | 'suppressed';
  deliver_after: number | null;
  delivered_at: number | null;
  read_at: number | null;
}

/** What an alert decision needs to be stored. */
export interface NewAlert {
  dedup_key: string;
  kind: AlertKind;
  lot_key: string | null;
  change_id: number | null;
  source: string;
  title: string;
  body: string;
  reason: string | null;
  delivery: Delivery;
  deliver_after: number | null;
}

/** The result of storing one observation of a lot. */
export interface ObservedLot {
  prev: LotState | null;
  next: LotState;
}

type Row = Record<string, unknown>;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const bool = (v: unknown) => v === 1 || v === true;

function parseAuctionAt(iso: string | null): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}

function rowToLotState(r: Row): LotState {
  return {
    platform: r['platform'] as string,
    lot_number: r['lot_number'] as string,
    vin: (r['vin'] as string | null) ?? null,
    current_bid_usd: (r['current_bid_usd'] as number | null) ?? null,
    buy_now_usd: (r['buy_now_usd'] as number | null) ?? null,
    sale_price_usd: (r['sale_price_usd'] as number | null) ?? null,
    state: (r['state'] as string | null) ?? null,
    lot_status: (r['lot_status'] as string | null) ?? null,
    lot_sub_status: (r['lot_sub_status'] as string | null) ?? null,
    last_sold_status: (r['last_sold_status'] as string | null) ?? null,
    auction_at: (r['auction_at'] as number | null) ?? null,
    observed_at: r['last_observed_at'] as number,
  };
}

function parseRules(json: string): AlertRules {
  const r = AlertRulesSchema.safeParse(JSON.parse(json));
  return r.success ? r.data : AlertRulesSchema.parse({});
}

/**
 * The watch store over better-sqlite3 (issue 5 "Store"; DESIGN.md "SQLite"). Statements are prepared once;
 * every multi-statement write runs in `db.transaction` and never awaits. Callers group a whole poll's writes
 * in `transaction()` so a crash keeps all of a poll or none of it.
 */
export class WatchStore {
  private readonly s: Record<string, Statement>;

  constructor(readonly db: Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      getLot: p('SELECT * FROM lots WHERE lot_key = ?'),
      lotsOfVin: p('SELECT * FROM lots WHERE vin = ? AND lot_key <> ? ORDER BY auction_at DESC'),
      insertLot: p(`INSERT INTO lots (lot_key, platform, lot_number, vin, title, year, make, model, location,
        current_bid_usd, buy_now_usd, sale_price_usd, state, lot_status, lot_sub_status, last_sold_status, auction_at,
        normalized, raw, raw_hash, first_seen_at, last_observed_at)
        VALUES (@lot_key, @platform, @lot_number, @vin, @title, @year, @make, @model, @location, @current_bid_usd,
        @buy_now_usd, @sale_price_usd, @state, @lot_status, @lot_sub_status, @last_sold_status, @auction_at, @normalized,
        @raw, @raw_hash, @observed_at, @observed_at)`),
      updateLot: p(`UPDATE lots SET vin = @vin, title = @title, year = @year, make = @make, model = @model,
        location = @location, current_bid_usd = @current_bid_usd, buy_now_usd = @buy_now_usd,
        sale_price_usd = @sale_price_usd, state = @state, lot_status = @lot_status, lot_sub_status = @lot_sub_status,
        last_sold_status = @last_sold_status, auction_at = @auction_at, normalized = @normalized, raw = @raw, raw_hash = @raw_hash,
        last_observed_at = @observed_at WHERE lot_key = @lot_key`),
      touchLot: p('UPDATE lots SET last_observed_at = ? WHERE lot_key = ?'),
      insertObservation: p(
        'INSERT INTO observations (lot_key, observed_at, source, raw_hash, raw) VALUES (?, ?, ?, ?, ?)',
      ),
      insertChange: p(`INSERT INTO changes (lot_key, kind, field, before, after, related_lot_key, vin, observed_at,
        search_id, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      insertAlert: p(`INSERT OR IGNORE INTO alerts (dedup_key, kind, lot_key, change_id, source, title, body, reason,
        created_at, delivery, status, deliver_after) VALUES (@dedup_key, @kind, @lot_key, @change_id, @source, @title,
        @body, @reason, @created_at, @delivery, @status, @deliver_after)`),
      alertsForLotSince: p(
        "SELECT count(*) AS n FROM alerts WHERE lot_key = ? AND created_at > ? AND status <> 'suppressed'",
      ),
      dueAlerts: p(`SELECT * FROM alerts WHERE status = 'pending'
        OR (status = 'digest' AND deliver_after <= ?) ORDER BY id`),
      claimAlert: p("UPDATE alerts SET status = 'claimed' WHERE id = ? AND status IN ('pending', 'digest')"),
      deliveredAlert: p("UPDATE alerts SET status = 'delivered', delivered_at = ? WHERE id = ?"),
      memberKeys: p('SELECT lot_key FROM search_members WHERE search_id = ?'),
      upsertMember: p(`INSERT INTO search_members (search_id, lot_key, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?)
        ON CONFLICT(search_id, lot_key) DO UPDATE SET last_seen_at = excluded.last_seen_at`),
      deleteMember: p('DELETE FROM search_members WHERE search_id = ? AND lot_key = ?'),
      getSearch: p('SELECT * FROM saved_searches WHERE id = ?'),
      listSearches: p('SELECT * FROM saved_searches ORDER BY id'),
      insertSearch: p(`INSERT INTO saved_searches (name, params, schedule, rules, max_pages, paused, is_example,
        created_at, updated_at) VALUES (@name, @params, @schedule, @rules, @max_pages, @paused, @is_example, @now, @now)`),
      updateSearch: p(`UPDATE saved_searches SET name = @name, params = @params, schedule = @schedule, rules = @rules,
        max_pages = @max_pages, paused = @paused, updated_at = @now,
        baseline_done = CASE WHEN params = @params THEN baseline_done ELSE 0 END WHERE id = @id`),
      deleteSearch: p('DELETE FROM saved_searches WHERE id = ?'),
      searchRunOk: p(`UPDATE saved_searches SET last_run_at = @now, last_ok_at = @now, last_result_count = @count,
        last_complete = @complete, consecutive_failures = 0, last_error_code = NULL, last_error = NULL,
        baseline_done = 1 WHERE id = @id`),
      searchRunFailed: p(`UPDATE saved_searches SET last_run_at = @now, consecutive_failures = consecutive_failures + 1,
        last_error_code = @code, last_error = @message WHERE id = @id`),
      listWatches: p('SELECT * FROM watches ORDER BY id'),
      getWatch: p('SELECT * FROM watches WHERE id = ?'),
      insertWatch: p(`INSERT INTO watches (kind, vin, lot_key, label, rules, is_example, created_at, updated_at)
        VALUES (@kind, @vin, @lot_key, @label, @rules, @is_example, @now, @now)`),
      updateWatchRules: p('UPDATE watches SET rules = ?, label = ?, updated_at = ? WHERE id = ?'),
      deleteWatch: p('DELETE FROM watches WHERE id = ?'),
      watchChecked: p(`UPDATE watches SET last_checked_at = ?, consecutive_failures = 0, last_error = NULL,
        lot_key = COALESCE(?, lot_key), vin = COALESCE(vin, ?) WHERE id = ?`),
      watchFailed: p(`UPDATE watches SET last_checked_at = ?, consecutive_failures = consecutive_failures + 1,
        last_error = ? WHERE id = ?`),
      startRun: p("INSERT INTO poll_runs (target, started_at, status) VALUES (?, ?, 'running')"),
      finishRun: p(`UPDATE poll_runs SET finished_at = @now, status = @status, requests = @requests,
        records = @records, changes = @changes, complete = @complete, error_code = @error_code,
        error_message = @error_message WHERE id = @id`),
      recentRuns: p(`SELECT records FROM poll_runs WHERE target = ? AND status = 'ok' AND complete = 1
        ORDER BY started_at DESC, id DESC LIMIT ?`),
      interruptRuns: p("UPDATE poll_runs SET status = 'interrupted', finished_at = ? WHERE status = 'running'"),
      logRequest: p(`INSERT INTO request_log (at, endpoint, status, duration_ms, bytes, attempt, error_code)
        VALUES (?, ?, ?, ?, ?, ?, ?)`),
      requestsSince: p('SELECT count(*) AS n FROM request_log WHERE at >= ?'),
      saveQuota: p(`INSERT INTO quota (id, snapshot, updated_at) VALUES (1, ?, ?)
        ON CONFLICT(id) DO UPDATE SET snapshot = excluded.snapshot, updated_at = excluded.updated_at`),
      loadQuota: p('SELECT snapshot FROM quota WHERE id = 1'),
      deleteQuota: p('DELETE FROM quota WHERE id = 1'),
      getSecret: p('SELECT ciphertext FROM secrets WHERE name = ?'),
      setSecret: p(`INSERT INTO secrets (name, ciphertext, updated_at) VALUES (?, ?, ?)
        ON CONFLICT(name) DO UPDATE SET ciphertext = excluded.ciphertext, updated_at = excluded.updated_at`),
      deleteSecret: p('DELETE FROM secrets WHERE name = ?'),
    };
  }

  /** Runs `fn` in one transaction (no awaits inside). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** The stored state of a lot, or null. */
  getLotState(key: LotKey): LotState | null {
    const r = this.s['getLot']!.get(key) as Row | undefined;
    return r ? rowToLotState(r) : null;
  }

  /** The stored normalised record of a lot, or null. */
  getLotRecord(key: LotKey): (Vehicle & { lot_key: string; first_seen_at: number; last_observed_at: number; notes: string }) | null {
    const r = this.s['getLot']!.get(key) as Row | undefined;
    if (!r) return null;
    return {
      ...(JSON.parse(r['normalized'] as string) as Vehicle),
      raw: JSON.parse(r['raw'] as string) as unknown,
      lot_key: key,
      first_seen_at: r['first_seen_at'] as number,
      last_observed_at: r['last_observed_at'] as number,
      notes: r['notes'] as string,
    };
  }

  /** Other stored lots of the same VIN, newest auction first (for relist detection). */
  otherLotsOfVin(vin: string, exceptKey: LotKey): LotState[] {
    return (this.s['lotsOfVin']!.all(vin, exceptKey) as Row[]).map(rowToLotState);
  }

  /**
   * Stores one observation of a lot: the observation row (raw JSON kept unless identical to the last one) and the
   * lot's current state. Returns the state before and after. Call inside a transaction with the poll's other writes.
   * Returns null for a record without platform or lot number (it cannot be keyed; the caller counts a warning).
   */
  observe(v: Vehicle, observedAt: number, source: string): ObservedLot | null {
    if (!v.platform || !v.lot_number) return null;
    const key = lotKeyOf(v.platform, v.lot_number);
    const prevRow = this.s['getLot']!.get(key) as Row | undefined;
    const rawJson = JSON.stringify(v.raw ?? null);
    const rawHash = sha256(rawJson);
    const { raw: _raw, ...normalized } = v;
    const next: LotState = {
      platform: v.platform,
      lot_number: v.lot_number,
      vin: v.vin,
      current_bid_usd: v.pricing.current_bid_usd,
      buy_now_usd: v.pricing.buy_now_usd,
      sale_price_usd: v.pricing.sale_price_usd,
      state: v.auction.state,
      lot_status: v.auction.lot_status,
      lot_sub_status: v.auction.lot_sub_status,
      last_sold_status: v.auction.last_sold_status,
      auction_at: parseAuctionAt(v.auction.auction_at),
      observed_at: observedAt,
    };
    const same = prevRow?.['raw_hash'] === rawHash;
    this.s['insertObservation']!.run(key, observedAt, source, rawHash, same ? null : rawJson);
    if (same) {
      this.s['touchLot']!.run(observedAt, key);
    } else {
      const params = {
        lot_key: key,
        platform: v.platform,
        lot_number: v.lot_number,
        vin: v.vin,
        title: v.title,
        year: v.year,
        make: v.make,
        model: v.model,
        location: v.location.display,
        current_bid_usd: next.current_bid_usd,
        buy_now_usd: next.buy_now_usd,
        sale_price_usd: next.sale_price_usd,
        state: next.state,
        lot_status: next.lot_status,
        lot_sub_status: next.lot_sub_status,
        last_sold_status: next.last_sold_status,
        auction_at: next.auction_at,
        normalized: JSON.stringify(normalized),
        raw: rawJson,
        raw_hash: rawHash,
        observed_at: observedAt,
      };
      this.s[prevRow ? 'updateLot' : 'insertLot']!.run(params);
    }
    return { prev: prevRow ? rowToLotState(prevRow) : null, next };
  }

  /** Appends a change to the timeline; returns its id. */
  insertChange(c: Change, searchId: number | null): number {
    const r = this.s['insertChange']!.run(
      c.lot_key,
      c.kind,
      c.field,
      JSON.stringify(c.before),
      JSON.stringify(c.after),
      c.related_lot_key,
      c.vin,
      c.observed_at,
      searchId,
      c.outcome,
    );
    return Number(r.lastInsertRowid);
  }

  /**
   * Stores an alert once: a second alert with the same dedup_key is ignored (returns null). Delivery `now` is queued
   * for notification, `digest` is held until deliver_after, `suppressed` only lands in the inbox.
   */
  insertAlert(a: NewAlert, now: number): number | null {
    const status = a.delivery === 'now' ? 'pending' : a.delivery === 'digest' ? 'digest' : 'suppressed';
    const r = this.s['insertAlert']!.run({ ...a, created_at: now, status });
    return r.changes === 1 ? Number(r.lastInsertRowid) : null;
  }

  /** Alerts raised for a lot after `since` that were not suppressed (for the per-lot hourly cap). */
  alertsForLotSince(lotKey: string, since: number): number {
    return (this.s['alertsForLotSince']!.get(lotKey, since) as { n: number }).n;
  }

  /** The outbox: alerts to notify now, and digest alerts whose quiet hours have ended by `now`. */
  dueAlerts(now: number): AlertRow[] {
    return this.s['dueAlerts']!.all(now) as AlertRow[];
  }

  /**
   * Claims an alert for notification before it is shown, so a crash after showing never shows it twice (at most
   * once; the inbox keeps it either way). Returns false when another delivery claimed it already.
   */
  claimAlert(id: number): boolean {
    return this.s['claimAlert']!.run(id).changes === 1;
  }

  /** Marks a claimed alert as shown. */
  markDelivered(id: number, now: number): void {
    this.s['deliveredAlert']!.run(now, id);
  }

  /** The lot keys a saved search has matched so far. */
  memberKeys(searchId: number): Set<LotKey> {
    return new Set((this.s['memberKeys']!.all(searchId) as { lot_key: string }[]).map((r) => r.lot_key));
  }

  /** Records that `keys` matched the search at `now`, and forgets `dropped`. */
  updateMembers(searchId: number, keys: Iterable<LotKey>, dropped: Iterable<LotKey>, now: number): void {
    for (const k of keys) this.s['upsertMember']!.run(searchId, k, now, now);
    for (const k of dropped) this.s['deleteMember']!.run(searchId, k);
  }

  private toSearch(r: Row): SavedSearchRow {
    return {
      id: r['id'] as number,
      name: r['name'] as string,
      params: JSON.parse(r['params'] as string) as Record<string, unknown>,
      schedule: r['schedule'] as string,
      rules: parseRules(r['rules'] as string),
      max_pages: r['max_pages'] as number,
      paused: bool(r['paused']),
      is_example: bool(r['is_example']),
      baseline_done: bool(r['baseline_done']),
      created_at: r['created_at'] as number,
      updated_at: r['updated_at'] as number,
      last_run_at: (r['last_run_at'] as number | null) ?? null,
      last_ok_at: (r['last_ok_at'] as number | null) ?? null,
      last_result_count: (r['last_result_count'] as number | null) ?? null,
      last_complete: r['last_complete'] === null || r['last_complete'] === undefined ? null : bool(r['last_complete']),
      consecutive_failures: r['consecutive_failures'] as number,
      last_error_code: (r['last_error_code'] as string | null) ?? null,
      last_error: (r['last_error'] as string | null) ?? null,
    };
  }

  listSearches(): SavedSearchRow[] {
    return (this.s['listSearches']!.all() as Row[]).map((r) => this.toSearch(r));
  }

  getSearch(id: number): SavedSearchRow | null {
    const r = this.s['getSearch']!.get(id) as Row | undefined;
    return r ? this.toSearch(r) : null;
  }

  /** Creates a saved search; input must be validated. Returns its id. */
  insertSearch(
    s: Pick<SavedSearchRow, 'name' | 'params' | 'schedule' | 'rules' | 'max_pages' | 'paused' | 'is_example'>,
    now: number,
  ): number {
    const r = this.s['insertSearch']!.run({
      ...s,
      params: JSON.stringify(s.params),
      rules: JSON.stringify(s.rules),
      paused: s.paused ? 1 : 0,
      is_example: s.is_example ? 1 : 0,
      now,
    });
    return Number(r.lastInsertRowid);
  }

  /** Updates a saved search; new params restart its baseline (the next run notifies no new matches). */
  updateSearch(
    id: number,
    s: Pick<SavedSearchRow, 'name' | 'params' | 'schedule' | 'rules' | 'max_pages' | 'paused'>,
    now: number,
  ): void {
    this.s['updateSearch']!.run({
      ...s,
      id,
      params: JSON.stringify(s.params),
      rules: JSON.stringify(s.rules),
      paused: s.paused ? 1 : 0,
      now,
    });
  }

  deleteSearch(id: number): void {
    this.s['deleteSearch']!.run(id);
  }

  searchRunOk(id: number, now: number, count: number, complete: boolean): void {
    this.s['searchRunOk']!.run({ id, now, count, complete: complete ? 1 : 0 });
  }

  searchRunFailed(id: number, now: number, code: string, message: string): void {
    this.s['searchRunFailed']!.run({ id, now, code, message });
  }

  private toWatch(r: Row): WatchRow {
    return {
      id: r['id'] as number,
      kind: r['kind'] as 'vin' | 'lot',
      vin: (r['vin'] as string | null) ?? null,
      lot_key: (r['lot_key'] as string | null) ?? null,
      label: r['label'] as string,
      rules: parseRules(r['rules'] as string),
      is_example: bool(r['is_example']),
      created_at: r['created_at'] as number,
      updated_at: r['updated_at'] as number,
      last_checked_at: (r['last_checked_at'] as number | null) ?? null,
      consecutive_failures: r['consecutive_failures'] as number,
      last_error: (r['last_error'] as string | null) ?? null,
    };
  }

  listWatches(): WatchRow[] {
    return (this.s['listWatches']!.all() as Row[]).map((r) => this.toWatch(r));
  }

  getWatch(id: number): WatchRow | null {
    const r = this.s['getWatch']!.get(id) as Row | undefined;
    return r ? this.toWatch(r) : null;
  }

  insertWatch(
    w: Pick<WatchRow, 'kind' | 'vin' | 'lot_key' | 'label' | 'rules' | 'is_example'>,
    now: number,
  ): number {
    const r = this.s['insertWatch']!.run({
      ...w,
      rules: JSON.stringify(w.rules),
      is_example: w.is_example ? 1 : 0,
      now,
    });
    return Number(r.lastInsertRowid);
  }

  updateWatchRules(id: number, rules: AlertRules, label: string, now: number): void {
    this.s['updateWatchRules']!.run(JSON.stringify(rules), label, now, id);
  }

  deleteWatch(id: number): void {
    this.s['deleteWatch']!.run(id);
  }

  /** Records a successful check; a VIN watch learns its current lot, a lot watch its VIN. */
  watchChecked(id: number, now: number, lotKey: string | null, vin: string | null): void {
    this.s['watchChecked']!.run(now, lotKey, vin, id);
  }

  watchFailed(id: number, now: number, message: string): void {
    this.s['watchFailed']!.run(now, message, id);
  }

  /** Opens a poll run (`search:<id>` or `watch:<id>`); returns its id. */
  startRun(target: string, now: number): number {
    return Number(this.s['startRun']!.run(target, now).lastInsertRowid);
  }

  finishRun(
    id: number,
    now: number,
    r: {
      status: 'ok' | 'error' | 'partial';
      requests: number;
      records: number;
      changes: number;
      complete: boolean | null;
      error_code?: string | null;
      error_message?: string | null;
    },
  ): void {
    this.s['finishRun']!.run({
      id,
      now,
      status: r.status,
      requests: r.requests,
      records: r.records,
      changes: r.changes,
      complete: r.complete === null ? null : r.complete ? 1 : 0,
      error_code: r.error_code ?? null,
      error_message: r.error_message ?? null,
    });
  }

  /** Result counts of a saved search's last `n` complete runs, oldest first. */
  recentResultCounts(searchId: number, n: number): number[] {
    return (this.s['recentRuns']!.all(`search:${searchId}`, n) as { records: number }[]).map((r) => r.records).reverse();
  }

  /** Marks runs left 'running' by a crash as interrupted; returns how many. */
  interruptRuns(now: number): number {
    return this.s['interruptRuns']!.run(now).changes;
  }

  logRequest(r: {
    at: number;
    endpoint: string;
    status: number | null;
    durationMs: number;
    bytes: number;
    attempt: number;
    errorCode: string | null;
  }): void {
    this.s['logRequest']!.run(r.at, r.endpoint, r.status, r.durationMs, r.bytes, r.attempt, r.errorCode);
  }

  /** Requests logged at or after `since` (ms). */
  requestsSince(since: number): number {
    return (this.s['requestsSince']!.get(since) as { n: number }).n;
  }

  saveQuota(q: QuotaSnapshot, now: number): void {
    this.s['saveQuota']!.run(JSON.stringify(q), now);
  }

  /** Forgets the quota snapshot (another key, service or mode reports its own). */
  deleteQuota(): void {
    this.s['deleteQuota']!.run();
  }

  loadQuota(): QuotaSnapshot | null {
    const r = this.s['loadQuota']!.get() as { snapshot: string } | undefined;
    return r ? (JSON.parse(r.snapshot) as QuotaSnapshot) : null;
  }

  getSecret(name: string): Buffer | null {
    const r = this.s['getSecret']!.get(name) as { ciphertext: Buffer } | undefined;
    return r ? r.ciphertext : null;
  }

  setSecret(name: string, ciphertext: Buffer, now: number): void {
    this.s['setSecret']!.run(name, ciphertext, now);
  }

  deleteSecret(name: string): void {
    this.s['deleteSecret']!.run(name);
  }
}
