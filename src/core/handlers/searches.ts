import { LotwatchError } from '../errors';
import { runsPerWeek } from '../watch/cron';
import type { HandlerContext, HandlerGroup } from './context';

type SearchMethods =
  | 'searches.list'
  | 'searches.create'
  | 'searches.update'
  | 'searches.remove'
  | 'searches.runNow'
  | 'searches.setPaused'
  | 'searches.estimate';

/**
 * Saved searches: CRUD, pause, run now (queued behind the engine's job in flight) and the cost estimate shown
 * while editing (runs per week and requests per day against the daily allowance). Throws BadInputError for bad
 * params, schedules or rules; not_found for an unknown id.
 */
export function searchHandlers(c: HandlerContext): HandlerGroup<SearchMethods> {
  return {
    'searches.list': () => c.service.listSearches(),
    'searches.create': (i) => c.service.createSearch(i),
    'searches.update': (i) => c.service.updateSearch(i),
    'searches.remove': (i) => c.service.removeSearch(i.id),
    'searches.runNow': async (i) => {
      await c.ready;
      return c.service.runSearchNow(i.id);
    },
    'searches.setPaused': (i) => c.service.setSearchPaused(i.id, i.paused),
    'searches.estimate': (i) => {
      const now = c.clock.now();
      let perWeek = 0;
      let scheduleError: string | null = null;
      try {
        perWeek = runsPerWeek(i.schedule, now);
      } catch (e) {
        if (!(e instanceof LotwatchError) || e.code !== 'bad_input') throw e;
        scheduleError = e.fields?.['schedule']?.[0] ?? e.message;
      }
      const runs = perWeek / 7;
      const b = c.budget.plan(now, c.engine.plan().projectedNext24h);
      return {
        runs_per_week: perWeek,
        runs_per_day: runs,
        requests_per_day: runs * i.max_pages,
        allowed_per_day: b.allowedPerDay,
        planned_per_day: b.projectedNext24h,
        basis: b.basis,
        schedule_error: scheduleError,
      };
    },
  };
}
