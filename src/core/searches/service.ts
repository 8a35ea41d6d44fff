import type { LocalRefinements } from '../../shared/localRefinements';
import type { MethodInput, MethodOutput, SavedSearchView } from '../../shared/ipc/contract';
import { pollTargetKey, type AlertRules } from '../../shared/watch';
import type { ApiClient } from '../api';
import { checkSearchParams, type SearchParams } from '../api/validate';
import type { Clock } from '../clock';
import type { AlertsRepo } from '../db/alertsRepo';
import type { SavedSearchRow, SearchesRepo } from '../db/searchesRepo';
import type { Async, Transact } from '../db/async';
import { memberIds } from '../db/members';
import { BadInputError, LotwatchError } from '../errors';
import { changedByName, ConflictError, machineOffset, memberRef } from '../owners';
import type { RequestBudget } from '../watch/budget';
import { runsPerWeek } from '../watch/cron';
import type { SchedulePlan, WatchEngine } from '../watch/engine';
import { checkScheduleAndRules, DEFAULT_SEARCH_RULES } from '../watchlist/rules';

/** What saved searches need: their repository, the new-match counts, the engine facade, the budget, the client. */
export interface SearchesDeps {
  searches: Async<SearchesRepo>;
  /** Read only: new matches in the last 24 hours. */
  alerts: Pick<Async<AlertsRepo>, 'newMatchesSince'>;
  engine: Pick<WatchEngine, 'refresh' | 'plan' | 'runSearchNow'>;
  /** The day's allowance, for the cost estimate. */
  budget: Pick<RequestBudget, 'plan'>;
  clock: Clock;
  /** The client, or the one "no key" error (src/core/api/clientOrThrow.ts). */
  clientOrThrow: () => ApiClient;
  /** Runs `fn` in one transaction (Store.transaction): a save's check of what is stored, and its write. */
  transaction: Transact;
  /** The user's UTC offset at a time (minutes east), for the time a refusal names; default: the machine's. */
  tzOffsetMinutes?: (t: number) => number;
}

/**
 * Saved searches: named GET /vehicles parameters with a cron schedule and alert rules, their CRUD, pause, run now
 * (queued behind the engine's job in flight) and the cost estimate shown while editing.
 */
export class SearchesService {
  constructor(private readonly d: SearchesDeps) {}

  /**
   * A saved search as the list shows it: its next run from `plan` (the engine's plan, read once per list; read here
   * when not given), its new matches of the last 24 hours, and who made it (`names`: the members' names, read once
   * per list; read here when not given).
   */
  private async searchView(
    s: SavedSearchRow,
    plan?: SchedulePlan,
    names?: ReadonlyMap<number, string>,
  ): Promise<SavedSearchView> {
    const now = this.d.clock.now();
    const runs = (plan ?? (await this.d.engine.plan())).nextSearchRuns;
    const who = names ?? (await this.d.searches.memberNames(memberIds([s.created_by])));
    const next = runs.find((x) => x.id === s.id)?.at ?? null;
    return {
      id: s.id,
      name: s.name,
      params: s.params,
      refine: s.refine,
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
      new_matches_24h: await this.d.alerts.newMatchesSince(
        pollTargetKey({ kind: 'search', id: s.id }),
        now - 86_400_000,
      ),
      created_by: memberRef(s.created_by, who),
      updated_at: s.updated_at,
    };
  }

  private async requireSearch(id: number): Promise<SavedSearchRow> {
    const s = await this.d.searches.getSearch(id);
    if (!s) throw new LotwatchError('not_found', `There is no saved search ${id}; it may have been deleted.`);
    return s;
  }

  /** Every saved search as the list shows it (next run, new matches of the last day). Rejects with database errors. */
  async listSearches(): Promise<SavedSearchView[]> {
    const rows = await this.d.searches.listSearches();
    const plan = await this.d.engine.plan();
    const names = await this.d.searches.memberNames(memberIds(rows.map((s) => s.created_by)));
    const out: SavedSearchView[] = [];
    for (const s of rows) out.push(await this.searchView(s, plan, names));
    return out;
  }

  private checkSearch(
    i: MethodInput<'searches.create'>,
    base: AlertRules,
    baseRefine: LocalRefinements = {},
  ) {
    const fields: Record<string, string[]> = {};
    let params: SearchParams = {};
    try {
      const { cursor: _c, per_page: _p, ...rest } = i.params;
      params = checkSearchParams(rest);
    } catch (e) {
      for (const [k, v] of Object.entries(
        (e as LotwatchError).fields ?? { params: [(e as Error).message] },
      )) {
        fields[`params.${k}`] = v;
      }
    }
    const { schedule, rules } = checkScheduleAndRules(i, base, fields);
    const first = Object.entries(fields)[0];
    if (first) throw new BadInputError(`${first[0]}: ${first[1][0]}`, fields);
    return { params, refine: i.refine ?? baseRefine, schedule, rules };
  }

  /** Creates a saved search (an `isExample` one for Demo mode) and schedules it. @throws BadInputError naming each bad field. */
  async createSearch(i: MethodInput<'searches.create'>, isExample = false): Promise<SavedSearchView> {
    const { params, refine, schedule, rules } = this.checkSearch(i, DEFAULT_SEARCH_RULES);
    const id = await this.d.searches.insertSearch(
      {
        name: i.name!,
        params,
        refine,
        schedule,
        rules,
        max_pages: i.max_pages ?? 5,
        paused: i.paused ?? false,
        is_example: isExample,
      },
      this.d.clock.now(),
    );
    await this.d.engine.refresh();
    return this.searchView(await this.requireSearch(id));
  }

  /**
   * Edits a saved search; new params or local refinements restart its baseline; refinements left out stay as they
   * were. With `expected_updated_at` the edit is written only if the search is still as the editor read it: the
   * check and the write are one statement in one transaction, so of two members saving the same copy at once one
   * wins and the other is refused. @throws BadInputError, not_found, ConflictError (`conflict`: it changed since;
   * nothing written).
   */
  async updateSearch(i: MethodInput<'searches.update'>): Promise<SavedSearchView> {
    const old = await this.requireSearch(i.id);
    const expected = i.expected_updated_at;
    if (expected !== undefined && old.updated_at !== expected) throw await this.changedSince(old);
    const { params, refine, schedule, rules } = this.checkSearch(i, old.rules, old.refine);
    const edit = {
      name: i.name!,
      params,
      refine,
      schedule,
      rules,
      max_pages: i.max_pages ?? old.max_pages,
      paused: i.paused ?? old.paused,
    };
    await this.d.transaction(async () => {
      if (await this.d.searches.updateSearch(i.id, edit, this.d.clock.now(), expected)) return;
      // Not written: removed, or changed between the read above and the write.
      throw await this.changedSince(await this.requireSearch(i.id));
    });
    await this.d.engine.refresh();
    return this.searchView(await this.requireSearch(i.id));
  }

  /** The refusal of a save made on an older copy of `s`: who changed it last, and when (its `updated_at`). */
  private async changedSince(s: SavedSearchRow): Promise<ConflictError> {
    const names = await this.d.searches.memberNames(memberIds([s.updated_by]));
    const tz = (this.d.tzOffsetMinutes ?? machineOffset)(s.updated_at);
    return new ConflictError(changedByName(s.updated_by, names), s.updated_at, tz);
  }

  /** Deletes a saved search and unschedules it. @throws not_found. */
  async removeSearch(id: number): Promise<{ ok: true }> {
    await this.requireSearch(id);
    await this.d.searches.deleteSearch(id);
    await this.d.engine.refresh();
    return { ok: true };
  }

  /** Pauses or resumes a saved search's schedule (it can still be run by hand). @throws not_found. */
  async setSearchPaused(id: number, paused: boolean): Promise<SavedSearchView> {
    const s = await this.requireSearch(id);
    await this.d.searches.updateSearch(id, { ...s, paused }, this.d.clock.now());
    await this.d.engine.refresh();
    return this.searchView(await this.requireSearch(id));
  }

  /** Runs a saved search now, queued behind the engine's job in flight. @throws not_found, unauthorized without a client. */
  async runSearchNow(id: number): Promise<MethodOutput<'searches.runNow'>> {
    await this.requireSearch(id);
    this.d.clientOrThrow();
    return this.d.engine.runSearchNow(id);
  }

  /**
   * What a schedule costs: runs per week and day, requests per day at `max_pages`, against the day's allowance and
   * what is already planned. A bad schedule is answered (`schedule_error`), not thrown; throws database errors only.
   */
  async estimate(i: MethodInput<'searches.estimate'>): Promise<MethodOutput<'searches.estimate'>> {
    const now = this.d.clock.now();
    let perWeek = 0;
    let scheduleError: string | null = null;
    try {
      perWeek = runsPerWeek(i.schedule, now);
    } catch (e) {
      if (!(e instanceof LotwatchError) || e.code !== 'bad_input') throw e;
      scheduleError = e.fields?.['schedule']?.[0] ?? e.message;
    }
    const runs = perWeek / 7;
    const b = this.d.budget.plan(now, (await this.d.engine.plan()).projectedNext24h);
    return {
      runs_per_week: perWeek,
      runs_per_day: runs,
      requests_per_day: runs * i.max_pages,
      allowed_per_day: b.allowedPerDay,
      planned_per_day: b.projectedNext24h,
      basis: b.basis,
      schedule_error: scheduleError,
    };
  }
}
