import type { HandlerContext, HandlerGroup } from './context';

/**
 * The buyer's desk (docs/architecture.md "The buyer's desk"): a lot's figures, notes and tags and comparable sales,
 * all offline; more comparable sales from the service (one request the user asked for); the watched sales as a
 * calendar file, and a new address for the headless shell's calendar subscription.
 */
export function deskHandlers(
  c: HandlerContext,
): HandlerGroup<'lots.setNotes' | 'desk.lot' | 'desk.moreComps' | 'plan.calendar' | 'plan.renewCalendar'> {
  return {
    'lots.setNotes': (i) => c.desk.setNotes(i),
    'desk.lot': (i) => c.desk.lot(i.lot_key),
    'desk.moreComps': async (i) => {
      await c.ready;
      return c.desk.moreComps(i.lot_key);
    },
    'plan.calendar': () => c.desk.calendar(),
    'plan.renewCalendar': () => c.desk.renewCalendar(),
  };
}
