import type { HandlerGroup } from '../handlerGroups';
import type { DeskService, MemberRules } from './service';

/** What the desk handlers need: the service, and the client's set-up for the one call that reaches the service. */
export interface DeskHandlerDeps {
  desk: DeskService;
  /** Resolves once the client for the current mode is set up. */
  ready: Promise<void>;
  /**
   * A team member's own max bid (MemberState, src/core/team/personal.ts): a member's desk, calendar and CSV show
   * theirs, not the team's. Left out: everyone sees the watch's rules as stored.
   */
  member?: MemberRules;
}

/**
 * The buyer's desk (docs/architecture.md "The buyer's desk"): a lot's figures, notes and tags and comparable sales,
 * all offline; market comparables from the service (an Ended search the user asked for, once a day per band); the watched sales as a
 * calendar file, a new address for the headless shell's calendar subscription, and the library's CSV export. On a
 * team server a member's max bid in them is their own (DeskService MemberRules).
 */
export function deskHandlers(
  c: DeskHandlerDeps,
): HandlerGroup<
  | 'lots.setNotes'
  | 'desk.lot'
  | 'desk.marketComps'
  | 'plan.calendar'
  | 'plan.renewCalendar'
  | 'library.export'
> {
  return {
    'library.export': (i) => c.desk.exportCsv(i, c.member),
    'lots.setNotes': (i) => c.desk.setNotes(i),
    'desk.lot': (i) => c.desk.lot(i.lot_key, c.member),
    'desk.marketComps': async (i) => {
      await c.ready;
      return c.desk.marketComps(i.lot_key);
    },
    'plan.calendar': () => c.desk.calendar(c.member),
    'plan.renewCalendar': () => c.desk.renewCalendar(),
  };
}
