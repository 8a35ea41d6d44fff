import type { ApiClient } from '../api';
import type { Clock } from '../clock';
import type { CallWatchRow, CallWatchesRepo } from '../db/callWatchesRepo';
import type { Async } from '../db/async';
import { memberIds } from '../db/members';
import { BadInputError, LotwatchError } from '../errors';
import { memberRef } from '../owners';
import type { WatchEngine } from '../watch/engine';
import { checkScheduleAndRules } from '../watchlist/rules';
import {
  CallTargetSchema,
  CallWatchConfigSchema,
  type CallTarget,
  type CallWatchConfig,
} from '../../shared/callWatch';
import type { CallWatchView, MethodInput, MethodOutput } from '../../shared/ipc/contract';
import { AlertRulesSchema, type AlertRules } from '../../shared/watch';
import { parseExtract } from './runner';

/** What the call-watch service needs; everything with side effects is injected. */
export interface CallWatchServiceDeps {
  calls: Async<CallWatchesRepo>;
  engine: Pick<WatchEngine, 'refresh' | 'runCallNow' | 'callSchedule'>;
  clock: Clock;
  /** The client, or the one "no key" error (src/core/api/clientOrThrow.ts). */
  clientOrThrow: () => ApiClient;
  /** The console endpoint names (ApiConsole.endpoints), to refuse one that does not exist before saving. */
  endpoints: () => readonly string[];
  /** Whether Demo mode's examples run: outside Demo mode the engine runs no example (src/core/watch/runs.ts). */
  examplesActive: () => boolean;
}

const DAY = 86_400_000;

/**
 * Call watches (docs/architecture.md "Call watches"): any API console call saved with a cron schedule and alert rules,
 * listed beside the saved searches with its cost per day; its runs are the watch engine's (src/core/calls/runner.ts).
 */
export class CallWatchService {
  constructor(private readonly d: CallWatchServiceDeps) {}

  private async require(id: number): Promise<CallWatchRow> {
    const w = await this.d.calls.get(id);
    if (!w) throw new LotwatchError('not_found', `There is no call watch ${id}; it may have been deleted.`);
    return w;
  }

  /**
   * The view of one row: its schedule's next run and cost, the last good answer's list, the last day's alerts, and
   * who made it (`names`: the members' names, read once per list; read here when not given).
   */
  private async view(w: CallWatchRow, names?: ReadonlyMap<number, string>): Promise<CallWatchView> {
    const now = this.d.clock.now();
    const who = names ?? (await this.d.calls.memberNames(memberIds([w.created_by])));
    // An example outside Demo mode is not run by the engine (runs.ts): no next run, no cost, whatever its flag.
    const waits = w.is_example && !this.d.examplesActive();
    const schedule = waits ? { next: null, runsPerDay: 0 } : this.d.engine.callSchedule(w.id, w.paused);
    const last = await this.d.calls.lastGoodAnswer(w.id);
    const extract = last ? parseExtract(last.extract) : null;
    return {
      id: w.id,
      name: w.name,
      target: w.target,
      config: w.config,
      schedule: w.schedule,
      rules: w.rules,
      paused: w.paused,
      paused_reason: w.paused ? (w.paused_reason ?? 'buyer') : null,
      is_example: w.is_example,
      waits_for_demo: waits,
      created_at: w.created_at,
      last_run_at: w.last_run_at,
      last_ok_at: w.last_ok_at,
      next_run_at: schedule.next,
      last_status: w.last_status,
      consecutive_failures: w.consecutive_failures,
      last_error: w.last_error,
      refused_params: w.refused_params,
      list_path: extract?.list_path ?? null,
      item_key: extract?.item_key ?? null,
      items: extract?.items ? extract.items.length : null,
      // One request a run, counted as a saved search's cost is (runs a day of its schedule).
      requests_per_day: schedule.runsPerDay ?? 0,
      alerts_24h: await this.d.calls.alertsOf(`call:${w.id}`, now - DAY),
      created_by: memberRef(w.created_by, who),
    };
  }

  /** Every call watch as the list shows it. Rejects with database errors only. */
  async list(): Promise<CallWatchView[]> {
    const out: CallWatchView[] = [];
    const rows = await this.d.calls.list();
    const names = await this.d.calls.memberNames(memberIds(rows.map((w) => w.created_by)));
    for (const w of rows) out.push(await this.view(w, names));
    return out;
  }

  /**
   * Checks a call watch's input: an endpoint the console offers, a valid cron schedule (node-cron), and rules merged
   * over `base`. @throws BadInputError naming each bad field (`target.endpoint`, `schedule`, `rules.<field>`).
   */
  private check(i: MethodInput<'callWatches.create'>, base: AlertRules) {
    const fields: Record<string, string[]> = {};
    if (!this.d.endpoints().includes(i.target.endpoint))
      fields['target.endpoint'] = ['Choose an endpoint from the API console’s list.'];
    const { schedule, rules } = checkScheduleAndRules(i, base, fields);
    const first = Object.entries(fields)[0];
    if (first) throw new BadInputError(`${first[0]}: ${first[1][0]}`, fields);
    // Already checked by the contract; parsed again for the defaults the input may leave out.
    const target: CallTarget = CallTargetSchema.parse(i.target);
    const config: CallWatchConfig = CallWatchConfigSchema.parse(i.config ?? {});
    return { name: i.name, target, config, schedule, rules, paused: i.paused ?? false };
  }

  /**
   * Saves a call watch (an `example` one for Demo mode) and schedules it; its first run, at once when the budget lets
   * it, is the baseline. @throws BadInputError naming each bad field.
   */
  async create(i: MethodInput<'callWatches.create'>, example = false): Promise<CallWatchView> {
    const w = this.check(i, AlertRulesSchema.parse({}));
    const id = await this.d.calls.create(
      { ...w, paused_reason: w.paused ? 'buyer' : null },
      this.d.clock.now(),
      example,
    );
    await this.d.engine.refresh();
    return this.view(await this.require(id));
  }

  /** Rewrites a call watch; rules not given keep theirs. @throws BadInputError, not_found. */
  async update(i: MethodInput<'callWatches.update'>): Promise<CallWatchView> {
    const old = await this.require(i.id);
    const w = this.check(i, old.rules);
    const reason = w.paused ? (old.paused ? (old.paused_reason ?? 'buyer') : 'buyer') : null;
    await this.d.calls.update(i.id, { ...w, paused_reason: reason }, this.d.clock.now());
    await this.d.engine.refresh();
    return this.view(await this.require(i.id));
  }

  /** Deletes a call watch with its answers and unschedules it. @throws not_found. */
  async remove(id: number): Promise<MethodOutput<'callWatches.remove'>> {
    await this.require(id);
    await this.d.calls.remove(id);
    await this.d.engine.refresh();
    return { ok: true };
  }

  /**
   * Pauses (the buyer's) or resumes a call watch; resuming one that paused itself clears its failure count.
   * @throws not_found.
   */
  async setPaused(id: number, paused: boolean): Promise<CallWatchView> {
    await this.require(id);
    await this.d.calls.setPaused(id, paused, 'buyer', this.d.clock.now());
    await this.d.engine.refresh();
    return this.view(await this.require(id));
  }

  /** Runs a call watch now (a paused one too), queued behind the engine's job in flight. @throws not_found, no key. */
  async runNow(id: number): Promise<MethodOutput<'callWatches.runNow'>> {
    await this.require(id);
    this.d.clientOrThrow();
    return this.d.engine.runCallNow(id);
  }

  /** The last good answer stored (JSON as received), or nulls before the first or once its body aged out. */
  async answer(id: number): Promise<MethodOutput<'callWatches.answer'>> {
    await this.require(id);
    const a = await this.d.calls.lastGoodAnswer(id);
    if (!a || a.body === null) return { at: a?.at ?? null, status: a?.status ?? null, json: null };
    try {
      return { at: a.at, status: a.status, json: JSON.parse(a.body) as unknown };
    } catch {
      return { at: a.at, status: a.status, json: null };
    }
  }
}
