/**
 * The zod-free list of what may cross the IPC boundary. The sandboxed preload imports only this file, so
 * it can refuse unknown names without bundling the schemas. `tests/shared/contract.test.ts` proves that
 * these lists and `contract.ts` never drift apart.
 */

/** The single Electron IPC channel that carries every contract call (`ipcMain.handle`). */
export const RPC_CHANNEL = 'lotwatch:rpc';
/** The Electron IPC channel on which the main process pushes contract events to the renderer. */
export const EVENT_CHANNEL = 'lotwatch:event';

/** Every method name of the contract, `domain.verb`. */
export const METHOD_NAMES = [
  'app.info',
  'settings.get',
  'settings.update',
  'searches.list',
  'searches.create',
  'searches.update',
  'searches.remove',
  'searches.runNow',
  'searches.setPaused',
  'searches.estimate',
  'callWatches.list',
  'callWatches.create',
  'callWatches.update',
  'callWatches.remove',
  'callWatches.runNow',
  'callWatches.setPaused',
  'callWatches.answer',
  'watchlist.list',
  'watchlist.add',
  'watchlist.remove',
  'watchlist.setRules',
  'watchlist.checkNow',
  'alerts.list',
  'alerts.markRead',
  'alerts.snooze',
  'alerts.mute',
  'alerts.unread',
  'library.search',
  'lots.get',
  'status.get',
  'photos.get',
  'vehicles.search',
  'vehicles.filters',
  'vehicles.get',
  'vehicles.history',
  'vehicles.attempts',
  'vehicles.related',
  'shipping.get',
  'locations.list',
  'usage.fetch',
  'usage.byUser',
  'requests.list',
  'console.endpoints',
  'console.call',
  'lots.setNotes',
  'desk.lot',
  'desk.marketComps',
  'plan.calendar',
  'plan.renewCalendar',
  'library.export',
  'examples.remove',
  'examples.intro',
  'examples.dismissIntro',
  'key.set',
  'key.test',
  'key.clear',
  'backups.list',
  'backups.restore',
  'channels.list',
  'channels.save',
  'channels.remove',
  'channels.test',
  'watchlist.nextSale',
  'watchlist.bulk',
  'team.me',
  'team.users.list',
  'team.users.create',
  'team.users.update',
  'team.users.resetPassword',
  'team.password.change',
  'teamLink.get',
  'teamLink.join',
  'teamLink.leave',
] as const;

/** Every event name of the contract, `domain.pastTense`. */
export const EVENT_NAMES = [
  'settings.changed',
  'notification.clicked',
  'poll.started',
  'poll.finished',
  'alert.raised',
  'quota.changed',
  'unread.changed',
  'notification.posted',
  'reachability.changed',
  'deliveries.changed',
  'watching.changed',
] as const;

export type MethodName = (typeof METHOD_NAMES)[number];
export type EventName = (typeof EVENT_NAMES)[number];

const methodSet: ReadonlySet<string> = new Set(METHOD_NAMES);
const eventSet: ReadonlySet<string> = new Set(EVENT_NAMES);

/** True when `name` is a method of the contract. */
export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && methodSet.has(name);
}

/** True when `name` is an event of the contract. */
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && eventSet.has(name);
}
