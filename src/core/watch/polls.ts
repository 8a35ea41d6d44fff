import type { ApiClient } from '../api';
import type { Clock } from '../clock';
import type { WatchRow, Store } from '../db/store';
import { diffSearch, parseAuctionAt } from '../diff';
import { connectionLostOf, databaseErrorOf, LotwatchError } from '../errors';
import type { ContractEvent } from '../../shared/ipc/contract';
import { passesRefinements } from '../../shared/localRefinements';
import type { Vehicle } from '../../shared/vehicle';
import {
  lotKeyOf,
  parseLotKey,
  pollTargetKey,
  type Change,
  type PollTarget,
  type LotState,
} from '../../shared/watch';
import type { RequestBudget } from './budget';
import { nextCoverage, windowFrom } from './coverage';
import type { Outbox } from './outbox';
import { auctionOver } from './planner';
import type { Recorder } from './recorder';
import type { PauseGate } from './pause';
import { runFailed } from './runFailed';
import { refusesCursor, sweepCursorOf } from './sweepCursors';

/** What a search run or a watch check did; `error` is what stopped it (code and the buyer's words), null when none. */
export type RunOutcome = {
  status: 'ok' | 'partial' | 'error' | 'skipped';
  requests: number;
  changes: number;
  alerts: number;
  error: { code: string; message: string } | null;
  /** Records of a search run's pages left out for want of a usable lot number (parse.ts); absent when none. */
  skipped?: number;
};

/** A watch check whose answer names no lot number Lotwatch can store (parse.ts: 1 to 12 digits). */
const UNUSABLE_LOT =
  'The auction data service sent this lot without a lot number Lotwatch can use, so nothing was stored.';

const SKIPPED: RunOutcome = { status: 'skipped', requests: 0, changes: 0, alerts: 0, error: null };

/** What the polls need; everything with side effects is injected. */
export interface PollsDeps {
  store: Store;
  /** The client for the current key and mode, or null when there is none. */
  client: () => ApiClient | null;
  clock: Clock;
  budget: RequestBudget;
  emit: (e: ContractEvent) => void;
  pause: PauseGate;
  recorder: Recorder;
  outbox: Outbox;
  /** Requests kept back for the watchlist's next hour (a scheduled search may not spend them). */
  watchReserve: (now: number) => number;
  /**
   * Whether one more request of a scheduled run at `now` leaves the day's places kept for sale-result looks; a list's
   * first reading (`firstReading`) keeps those of the next 24 hours.
   */
  leavesSaleLooks: (now: number, firstReading: boolean) => boolean;
  /** Whether the allowance at `now` reads every list often (spending.ts readsListsOften): a run cut short reads its head. */
  readsListsOften: (now: number) => boolean;
}

/**
 * The polls: one run of a saved search, one check of a watch, and the storing of records fetched outside the
 * schedule. Each poll's writes (observations, changes, alerts, run row) are one transaction, so a crash keeps all
 * of a poll or none; its alerts are then handed to the outbox.
 */
export class Polls {
  constructor(private readonly d: PollsDeps) {}

  /**
   * Stores records fetched outside the schedule (a manual search, a lot opened, related lots) the same way a poll
   * does: observation, diff against the stored state, timeline, and alerts for watched lots. Without this, a
   * change first seen by a manual fetch would be missing from the timeline. One transaction, or the caller's open one.
   * `source` names the fetch in the observations (`explore`, a poll target's wire string). With `deliver` false the
   * alerts raised wait for the caller's own delivery (WatchEngine.ingestWithin).
   */
  async ingest(vehicles: Vehicle[], source: string, deliver = true): Promise<void> {
    const now = this.d.clock.now();
    await this.d.store.transaction(async () => {
      const prevOf = new Map<string, LotState | null>();
      const changes: Change[] = [];
      for (const v of vehicles) {
        const o = await this.d.store.lots.observe(v, now, source);
        if (!o) continue;
        const key = lotKeyOf(o.next.platform, o.next.lot_number);
        if (prevOf.has(key)) continue;
        prevOf.set(key, o.prev);
        changes.push(...(await this.d.recorder.lotDiff(o.prev, o.next)));
      }
      await this.d.recorder.record(changes, now, (k) => prevOf.get(k) ?? null, null);
    });
    if (deliver) await this.d.outbox.deliver();
  }

  /** Pauses on a 429, raises the alert a failure calls for, and returns its code and message for the run row. */
  private failed(e: unknown, now: number): Promise<{ code: string; message: string }> {
    return runFailed(this.d, e, now);
  }

  /**
   * Does one poll's work after its run row was started. Any exception (a database error, a fault of Lotwatch's own)
   * marks the row failed with its code and reason and announces the end (`poll.finished`, status `error`) before it
   * goes on to the caller: a run row never stays `running`. `requests()` says how many were sent so far.
   */
  private async ended(
    runId: number,
    target: string,
    requests: () => number,
    work: () => Promise<RunOutcome>,
  ): Promise<RunOutcome> {
    try {
      return await work();
    } catch (e) {
      const now = this.d.clock.now();
      // A database failure is said as one (db_unavailable with what to do); anything else keeps its own words.
      const known = e instanceof LotwatchError ? e : (databaseErrorOf(e) ?? connectionLostOf(e));
      const code = known?.code ?? 'internal';
      const message = known?.message ?? (e instanceof Error ? e.message : String(e));
      try {
        await this.d.store.searches.finishRun(runId, now, {
          status: 'error',
          requests: requests(),
          records: 0,
          changes: 0,
          complete: null,
          error_code: code,
          error_message: message,
        });
      } catch {
        // The store itself fails: the row stays open until the next start marks it interrupted.
      }
      this.d.emit({
        name: 'poll.finished',
        payload: { target, at: now, status: 'error', requests: requests(), changes: 0, alerts: 0 },
      });
      throw e;
    }
  }

  /**
   * One run of a saved search: pages until the end, max_pages, the budget or an error; then one transaction.
   * A list longer than one run is read in a sweep of `auction_date_from` windows, each run going on where the
   * last stopped, and new matches are called only where complete page sequences read before (coverage.ts,
   * docs/architecture.md "Saved searches and new matches"); a sweep cursor stored by an earlier run that the service
   * refuses (sweepCursors.ts refusesCursor: 400 or 422) costs that one request and the run reads its window instead.
   * Every record read is stored, but only the lots that pass the search's local refinements
   * (src/shared/localRefinements) are its members, new matches and alerts (docs/architecture.md "Local refinements").
   * A `manual` run also runs a paused search and may spend the watchlist's reserve. Skipped without a client or
   * search. Never throws for service errors (they end the run and are stored); throws database errors, after marking
   * the run failed (`ended`).
   */
  async runSearch(id: number, manual: boolean): Promise<RunOutcome> {
    const s = await this.d.store.searches.getSearch(id);
    const client = this.d.client();
    if (!s || (s.paused && !manual) || !client) return { ...SKIPPED };
    const started = this.d.clock.now();
    // On a plan's quota the run may take the day up to its whole run beyond what the day had spent when it started.
    const dayAtStart = this.d.budget.spentLastDay(started);
    const pageFits = (at: number) => {
      const reserve = manual ? 0 : this.d.watchReserve(at);
      if (!this.d.budget.canSpend(1, at, reserve, dayAtStart + s.max_pages + reserve)) return false;
      return manual || this.d.leavesSaleLooks(at, !s.baseline_done);
    };
    // Not even its first page fits: the run has not happened (no run row, no failure, its wait keeps counting).
    if (!pageFits(started)) return { ...SKIPPED };
    const run: PollTarget = { kind: 'search', id };
    const target = pollTargetKey(run);
    const runId = await this.d.store.searches.startRun(run, started);
    this.d.emit({ name: 'poll.started', payload: { target, at: started } });
    let requests = 0;
    return this.ended(
      runId,
      target,
      () => requests,
      async () => {
        const vehicles: Vehicle[] = [];
        const coverage = {
          baseline_done: s.baseline_done,
          covered_until: s.covered_until,
          sweep_from: s.sweep_from,
        };
        const from = windowFrom(coverage, s.params['auction_date_from'], s.params['auction_date_to']);
        const head = { ...s.params, per_page: 20 };
        const query = { ...head, ...(from ? { auction_date_from: from } : {}) };
        // A window leaves the head of the list unread, and the head holds the lots about to sell, where a late listing,
        // a reschedule or a bid is most urgent: a windowed run of a search with a baseline reads the first page too, when
        // the budget allows the whole run, or 2 of its pages on an allowance that reads the lists often (spending.ts
        // readsListsOften); else a run the budget cuts short keeps its pages for the sweep.
        const reserveAtStart = manual ? 0 : this.d.watchReserve(started);
        const fits = (n: number) =>
          this.d.budget.canSpend(n, started, reserveAtStart, dayAtStart + s.max_pages + reserveAtStart);
        const often = this.d.readsListsOften(started);
        const headFirst =
          from !== null && s.baseline_done && s.max_pages > 1 && (fits(s.max_pages) || (often && fits(2)));
        let lastAuctionAt: number | null = null;
        let complete = false;
        let skipped = 0;
        let error: { code: string; message: string } | null = null;
        let cursor = often ? undefined : sweepCursorOf(s); // a rarely read list's sweep goes on from it
        // Whether `cursor` is still the one stored by an earlier run (not yet answered by the service in this run).
        let storedCursor = cursor !== undefined;
        let refused = 0;
        for (let page = 0; page < s.max_pages; page++) {
          // The first page was checked above, at the same instant.
          if (requests > 0 && !pageFits(this.d.clock.now())) {
            error = { code: 'budget', message: 'Paused by the request budget; the next run continues.' };
            break;
          }
          try {
            requests++;
            if (headFirst && page === 0) {
              const first = await client.searchVehicles(head);
              vehicles.push(...first.data);
              skipped += first.skipped;
              await this.d.recorder.onQuota(client.quota());
              continue;
            }
            const r = await client.searchVehicles({ ...query, ...(cursor ? { cursor } : {}) });
            storedCursor = false;
            vehicles.push(...r.data);
            skipped += r.skipped;
            for (const v of r.data) lastAuctionAt = parseAuctionAt(v.auction.auction_at) ?? lastAuctionAt;
            await this.d.recorder.onQuota(client.quota());
            const next = r.meta?.next_cursor ?? null;
            if (!next) {
              complete = true;
              break;
            }
            cursor = next;
          } catch (e) {
            await this.d.recorder.onQuota(client.quota());
            if (storedCursor && refusesCursor(e)) {
              // The service refused a cursor kept from an earlier run (too old, or from before an update of the
              // service). It cost this one request (the request log keeps its status); the run reads its window instead
              // of failing, so a free key's one run of the day still finds the day's new matches.
              cursor = undefined;
              storedCursor = false;
              refused++;
              page--; // the same page again, from the window
              continue;
            }
            cursor = undefined; // a failed page falls back to the window next time
            error = await this.failed(e, this.d.clock.now());
            break;
          }
        }
        const now = this.d.clock.now();
        let changes = 0;
        let alerts = 0;
        await this.d.store.transaction(async () => {
          const states: LotState[] = [];
          const lotChanges: Change[] = [];
          // Changes of lots the search's local refinements leave out: on the timeline, never the search's to alert.
          const otherChanges: Change[] = [];
          const prevOf = new Map<string, LotState | null>();
          for (const v of vehicles) {
            // Every record read is an observation (docs/architecture.md "Local refinements").
            const o = await this.d.store.lots.observe(v, now, target);
            if (!o) continue;
            const key = lotKeyOf(o.next.platform, o.next.lot_number);
            // The same lot twice in one run (it moved between pages): diff against the first state only once.
            if (prevOf.has(key)) continue;
            prevOf.set(key, o.prev);
            const diff = await this.d.recorder.lotDiff(o.prev, o.next);
            if (!passesRefinements(v, s.refine)) {
              otherChanges.push(...diff);
              continue;
            }
            states.push(o.next);
            lotChanges.push(...diff);
          }
          const fetchedSomething = vehicles.length > 0 || complete;
          // Only a reading of the whole list from its head to its end tells which members left it.
          const wholeList = complete && from === null;
          const members = await this.d.store.searches.memberKeys(id);
          const searchChanges = fetchedSomething
            ? diffSearch(members, states, {
                complete: wholeList,
                baseline: !s.baseline_done,
                coveredUntil: s.covered_until,
                observedAt: now,
              })
            : [];
          const r = await this.d.recorder.record(
            [...searchChanges, ...lotChanges],
            now,
            (k) => prevOf.get(k) ?? null,
            s,
          );
          // A watched lot among them is still alerted under its watch's rules.
          const o = await this.d.recorder.record(otherChanges, now, (k) => prevOf.get(k) ?? null, null);
          changes = r.changes + o.changes;
          alerts = r.alerts + o.alerts;
          const seen = states.map((x) => lotKeyOf(x.platform, x.lot_number));
          const dropped = searchChanges.filter((c) => c.kind === 'dropped_out').map((c) => c.lot_key);
          await this.d.store.searches.updateMembers(id, seen, dropped, now);
          if (error && !fetchedSomething) {
            await this.d.store.searches.searchRunFailed(id, now, error.code, error.message);
            // The coverage stands, without its cursor: the next run reads the window, not from where this one failed.
            if (s.sweep_cursor !== null) await this.d.store.searches.setCoverage(id, coverage);
            const after = await this.d.store.searches.getSearch(id);
            if (after && error.code !== 'budget')
              alerts += await this.d.recorder.searchFailing(
                s,
                after.consecutive_failures,
                error.message,
                now,
              );
          } else {
            if (wholeList) {
              const counts = await this.d.store.searches.recentResultCounts(id, 3);
              alerts += await this.d.recorder.searchEmpty(s, [...counts, seen.length], now);
            }
            await this.d.store.searches.searchRunOk(id, now, seen.length, wholeList);
            const next = nextCoverage(coverage, {
              from,
              reachedEnd: complete,
              lastAuctionAt,
              full: requests - refused >= s.max_pages,
            });
            await this.d.store.searches.setCoverage(id, next, complete ? null : (cursor ?? null));
          }
          await this.d.store.searches.finishRun(runId, now, {
            status: error ? (fetchedSomething ? 'partial' : 'error') : 'ok',
            requests,
            records: vehicles.length,
            changes,
            complete: wholeList,
            error_code: error?.code ?? null,
            error_message: error?.message ?? null,
          });
        });
        const status: RunOutcome['status'] = error ? (vehicles.length ? 'partial' : 'error') : 'ok';
        this.d.emit({
          name: 'poll.finished',
          payload: { target, at: now, status, requests, changes, alerts },
        });
        await this.d.outbox.deliver();
        return {
          status,
          requests,
          changes,
          alerts,
          error: error ? { code: error.code, message: error.message } : null,
          ...(skipped > 0 ? { skipped } : {}),
        };
      },
    );
  }

  /**
   * One check of a watch: the lot by lot number, or by VIN (a VIN watch, or a lot that ended unsold: relists).
   * One request. Skipped without a client, without budget, or without anything to ask for. Never throws for
   * service errors (they are stored on the watch and the run), nor for an answer without a lot number Lotwatch can
   * store (a failed check, code `bad_response`, that leaves the watch on its lot); throws database errors, after
   * marking the run failed (`ended`). `runFloor`: the day's cap
   * raised on a plan's quota (budget.canSpend), for the sale-critical checks the scheduler lets past the day's share.
   */
  async pollWatch(w: WatchRow, runFloor = 0): Promise<RunOutcome> {
    const client = this.d.client();
    if (!client) return { ...SKIPPED };
    const now0 = this.d.clock.now();
    if (!this.d.budget.canSpend(1, now0, 0, runFloor)) return { ...SKIPPED };
    const lot = w.lot_key ? await this.d.store.lots.getLotState(w.lot_key) : null;
    const vin = w.vin ?? lot?.vin ?? null;
    const byVin = w.kind === 'vin' || (lot !== null && auctionOver(lot) && vin !== null);
    const id = byVin && vin ? vin : ((w.lot_key ? parseLotKey(w.lot_key)?.lot_number : undefined) ?? vin);
    if (!id) return { ...SKIPPED };
    const run: PollTarget = { kind: 'watch', id: w.id };
    const target = pollTargetKey(run);
    const runId = await this.d.store.searches.startRun(run, now0);
    this.d.emit({ name: 'poll.started', payload: { target, at: now0 } });
    return this.ended(
      runId,
      target,
      () => 1,
      async () => {
        let v: Vehicle | null = null;
        let error: { code: string; message: string } | null = null;
        try {
          v = (await client.getVehicle(id)).data;
        } catch (e) {
          error = await this.failed(e, this.d.clock.now());
        }
        if (v && v.lot_number === null) {
          // Nothing to store or to follow (a lot number of 1e308, say): the watch stays on its lot for the next check.
          error = { code: 'bad_response', message: UNUSABLE_LOT };
          v = null;
        }
        await this.d.recorder.onQuota(client.quota());
        const now = this.d.clock.now();
        let changes = 0;
        let alerts = 0;
        const found = v;
        await this.d.store.transaction(async () => {
          if (found) {
            const o = await this.d.store.lots.observe(found, now, target);
            if (o) {
              const key = lotKeyOf(o.next.platform, o.next.lot_number);
              const r = await this.d.recorder.record(
                await this.d.recorder.lotDiff(o.prev, o.next),
                now,
                () => o.prev,
                null,
                w,
              );
              changes = r.changes;
              alerts = r.alerts;
              // A relisted vehicle: the watch follows it to its new lot.
              await this.d.store.watches.watchChecked(w.id, now, key, o.next.vin);
            } else {
              await this.d.store.watches.watchChecked(w.id, now, null, null);
            }
          } else if (error) {
            await this.d.store.watches.watchFailed(w.id, now, error.message);
          }
          await this.d.store.searches.finishRun(runId, now, {
            status: error ? 'error' : 'ok',
            requests: 1,
            records: found ? 1 : 0,
            changes,
            complete: null,
            error_code: error?.code ?? null,
            error_message: error?.message ?? null,
          });
        });
        const status = error ? 'error' : 'ok';
        this.d.emit({
          name: 'poll.finished',
          payload: { target, at: now, status, requests: 1, changes, alerts },
        });
        await this.d.outbox.deliver();
        return {
          status,
          requests: 1,
          changes,
          alerts,
          error: error ? { code: error.code, message: error.message } : null,
        };
      },
    );
  }
}
