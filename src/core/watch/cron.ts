import { createTask, validateDetailed, type ScheduledTask } from 'node-cron';
import { BadInputError } from '../errors';
import { DEFAULT_SCHEDULE } from '../../shared/watch';

const MIN = 60_000;
/** Catch-up looks back at most a week of minutes after the machine slept. */
const MAX_LOOKBACK_MIN = 7 * 24 * 60;

/**
 * Checks a cron expression (node-cron syntax, 5 or 6 fields) and returns it trimmed.
 * @throws BadInputError with a `schedule` field error naming what is wrong.
 */
export function checkCron(expr: string): string {
  const e = expr.trim();
  const v = validateDetailed(e);
  if (!v.valid) {
    const detail = v.errors.map(
      (x) => `${x.field}${x.value !== undefined ? ` "${x.value}"` : ''}: ${x.message}`,
    );
    throw new BadInputError(`The schedule "${e}" is not a valid cron expression.`, {
      schedule: [
        `Not a valid cron expression (${detail.join('; ') || 'unreadable'}). Example: ${DEFAULT_SCHEDULE} (every 30 minutes).`,
      ],
    });
  }
  return e;
}

/**
 * One saved search's trigger: a node-cron task, driven by Lotwatch's own clock instead of node-cron's timers so the
 * same engine runs on real time and on the sandbox's accelerated market time. The task's function is the search run;
 * `dueBetween` asks the task's own matcher whether any minute in a window matched, which also gives catch-up after
 * sleep: a missed window runs once, not once per missed minute.
 */
export class CronTrigger {
  readonly task: ScheduledTask;

  constructor(
    readonly expression: string,
    run: () => Promise<void>,
  ) {
    // A failing run is handed back to the caller, not thrown inside the task: node-cron would print it to the
    // console itself, a line per failed run outside Lotwatch's log (and its one-line-per-failure bound).
    this.task = createTask(
      checkCron(expression),
      async () => {
        try {
          await run();
        } catch (e) {
          this.failure = { error: e };
        }
      },
      { noOverlap: true },
    );
  }

  private failure: { error: unknown } | null = null;

  /** True when some whole minute in (fromExclusive, toInclusive] matches the expression. */
  dueBetween(fromExclusive: number, toInclusive: number): boolean {
    let m = Math.floor(fromExclusive / MIN) * MIN + MIN;
    const first = Math.max(m, Math.floor(toInclusive / MIN) * MIN - MAX_LOOKBACK_MIN * MIN);
    for (m = first; m <= toInclusive; m += MIN) if (this.task.match(new Date(m))) return true;
    return false;
  }

  /** The first whole minute after `after` that matches, within a week, or null. */
  nextAfter(after: number): number | null {
    let m = Math.floor(after / MIN) * MIN + MIN;
    for (let i = 0; i < MAX_LOOKBACK_MIN; i++, m += MIN) if (this.task.match(new Date(m))) return m;
    return null;
  }

  private perDay: number | undefined;

  /** Runs in a day (counted once over the day after the first call; a schedule repeats daily or faster). */
  runsPerDay(now: number): number {
    if (this.perDay === undefined) {
      let n = 0;
      let at: number | null = now;
      while (at !== null && n < 1440) {
        at = this.nextAfter(at);
        if (at === null || at > now + 86_400_000) break;
        n++;
      }
      this.perDay = n;
    }
    return this.perDay;
  }

  /**
   * Runs the search now through the task (node-cron's `execute`, no overlap with a scheduled run).
   * @throws what the run threw (a service or database error), after the task has finished.
   */
  async execute(): Promise<unknown> {
    this.failure = null;
    const r = await this.task.execute();
    const f = this.failure as { error: unknown } | null;
    this.failure = null;
    if (f) throw f.error;
    return r;
  }

  dispose(): void {
    void this.task.destroy();
  }
}

/**
 * Runs of a cron schedule in the week (7 x 24 h) after `from` (ms), counted with node-cron's own matcher minute by
 * minute, the way the engine's triggers decide: the cost of a schedule before it is saved. A week, not a day, so
 * "weekdays at 8:00" counts 5 wherever the week starts.
 * @throws BadInputError (field `schedule`) for an invalid expression.
 */
export function runsPerWeek(expression: string, from: number): number {
  const task = createTask(checkCron(expression), () => undefined);
  try {
    let n = 0;
    const start = Math.floor(from / MIN) * MIN + MIN;
    for (let m = start; m < start + MAX_LOOKBACK_MIN * MIN; m += MIN) if (task.match(new Date(m))) n++;
    return n;
  } finally {
    void task.destroy();
  }
}
