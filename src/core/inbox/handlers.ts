import type { DeliveryView } from '../../shared/alertChannels';
import type { HandlerGroup } from '../handlerGroups';
import type { WatchlistService } from '../watchlist/service';
import type { InboxService } from './service';

/** What the inbox handlers need: the inbox, the watchlist's snooze and mute, the channels' log, the badge push. */
export interface InboxHandlerDeps {
  inbox: InboxService;
  watchlist: Pick<WatchlistService, 'snooze' | 'mute'>;
  /** Where an alert went besides the inbox (ChannelService.deliveriesOf; read from the store). */
  deliveriesOf: (alertId: number) => Promise<DeliveryView[]>;
  /** Pushes `unread.changed` when the unread count changed (read from the store); resolves once pushed or not. */
  pushUnread: () => Promise<void>;
}

type InboxMethods = 'alerts.list' | 'alerts.markRead' | 'alerts.unread' | 'alerts.snooze' | 'alerts.mute';

/**
 * The alerts inbox: list, read state (pushing `unread.changed` so the badge follows), the unread count, and
 * snooze or mute of a watched lot; each listed alert carries its channel deliveries. Throws not_found for a lot that is not on the watchlist.
 */
export function inboxHandlers(c: InboxHandlerDeps): HandlerGroup<InboxMethods> {
  return {
    // Each alert with where it went besides the inbox (the delivery log of its channels).
    'alerts.list': async (i) => {
      const r = await c.inbox.listAlerts(i);
      const alerts = [];
      for (const a of r.alerts) alerts.push({ ...a, deliveries: await c.deliveriesOf(a.id) });
      return { ...r, alerts };
    },
    'alerts.markRead': async (i) => {
      const r = await c.inbox.markRead(i.ids, i.read);
      await c.pushUnread();
      return r;
    },
    'alerts.unread': async () => ({ count: await c.inbox.unreadCount() }),
    'alerts.snooze': (i) => c.watchlist.snooze(i),
    'alerts.mute': (i) => c.watchlist.mute(i.lot_key, i.muted),
  };
}
