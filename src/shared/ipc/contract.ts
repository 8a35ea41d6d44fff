import { z } from 'zod';
import '../zodMessages';
import { SettingsSchema } from '../settings';
import { QuotaSnapshotSchema } from '../vehicle';
import { WatchingStateSchema } from '../watching';
import type { EventName, MethodName } from './channels';
import { lotMethods } from './contract/lots';
import { exploreMethods } from './contract/explore';
import { deskMethods } from './contract/desk';
import { watchlistMethods } from './contract/watchlist';
import { searchMethods } from './contract/searches';
import { callWatchMethods } from './contract/callWatches';
import { channelMethods } from './contract/channels';
import { inboxMethods } from './contract/inbox';
import { demoMethods } from './contract/demo';
import { appMethods, type AppInfoSchema } from './contract/app';
import { teamMethods } from './contract/team';
import { teamLinkMethods } from './contract/teamLink';
export { LotSummarySchema, type LotSummary, LotDeskSchema, type LotDesk } from './contract/common';
export {
  ChangeViewSchema,
  LotDetailSchema,
  type LotDetail,
  VehicleRowSchema,
  type VehicleRow,
  SaleViewSchema,
} from './contract/lots';
export { LocationViewSchema, RequestLogRowSchema, ConsoleEndpointSchema } from './contract/explore';
export {
  CompViewSchema,
  type CompView,
  CompsViewSchema,
  type CompsView,
  KeptShippingSchema,
  FeeTableViewSchema,
  type FeeTableView,
} from './contract/desk';
export { WatchViewSchema, type WatchView } from './contract/watchlist';
export { SavedSearchViewSchema, type SavedSearchView } from './contract/searches';
export { CallWatchViewSchema, type CallWatchView } from './contract/callWatches';
export { AlertViewSchema, type AlertView } from './contract/inbox';
export { AppInfoSchema, StatusSchema, type Status, BackupSchema, type Backup } from './contract/app';

/**
 * The one contract between the renderer and core (docs/architecture.md "One contract, two shells"). Each method has
 * a zod input and output; both shells parse the input before core sees it and the output before the renderer does.
 * Types are inferred from here, never restated.
 */

export const contract = {
  ...lotMethods,
  ...exploreMethods,
  ...deskMethods,
  ...watchlistMethods,
  ...searchMethods,
  ...callWatchMethods,
  ...channelMethods,
  ...inboxMethods,
  ...demoMethods,
  ...appMethods,
  ...teamMethods,
  ...teamLinkMethods,
} as const satisfies Record<MethodName, { input: z.ZodType; output: z.ZodType }>;

export const events = {
  'settings.changed': SettingsSchema,
  /** The user clicked a native notification; the renderer opens the lot. */
  'notification.clicked': z.object({ lotKey: z.string() }),
  /** A poll of `search:<id>` or `watch:<id>` began. */
  'poll.started': z.object({ target: z.string(), at: z.number() }),
  'poll.finished': z.object({
    target: z.string(),
    at: z.number(),
    status: z.enum(['ok', 'partial', 'error', 'skipped']),
    requests: z.number().int(),
    changes: z.number().int(),
    alerts: z.number().int(),
  }),
  /** An alert landed in the inbox (the inbox refreshes). Whether it is also shown as a notification is core's call. */
  'alert.raised': z.object({
    id: z.number().int(),
    kind: z.string(),
    title: z.string(),
    body: z.string(),
    lot_key: z.string().nullable(),
  }),
  'quota.changed': QuotaSnapshotSchema,
  /** The number of unread inbox alerts changed (an alert arrived, or some were read). */
  'unread.changed': z.object({ count: z.number().int().min(0) }),
  /**
   * The browser shell's notification channel: core decided to show this notification now (settings, mute, snooze,
   * quiet hours and the digest already applied), and the page shows it as a browser Notification. Never sent in
   * the desktop app, which shows native notifications from its main process.
   */
  'notification.posted': z.object({
    /** Stable tag: the browser shows one notification per tag, so a second tab does not show it twice. */
    tag: z.string(),
    title: z.string(),
    body: z.string(),
    lot_key: z.string().nullable(),
  }),
  /** The service became reachable or unreachable (see StatusSchema.service_reachable). */
  'reachability.changed': z.object({ reachable: z.boolean(), at: z.number() }),
  /** A delivery to an alert channel was queued, sent, retried or given up (Settings and the inbox refresh). */
  'deliveries.changed': z.object({ at: z.number() }),
  /** The one state of watching changed (running, paused by the buyer or a spent quota, offline, key refused). */
  'watching.changed': WatchingStateSchema,
} as const satisfies Record<EventName, z.ZodType>;

export type Contract = typeof contract;
export type Method = keyof Contract;
export type MethodInput<M extends Method> = z.input<Contract[M]['input']>;
export type MethodOutput<M extends Method> = z.output<Contract[M]['output']>;
export type Events = typeof events;
export type EventPayload<E extends keyof Events> = z.output<Events[E]>;
/** One event as it travels from core to a shell to the renderer. */
export type ContractEvent = { [E in keyof Events]: { name: E; payload: EventPayload<E> } }[keyof Events];
export type AppInfo = z.infer<typeof AppInfoSchema>;
