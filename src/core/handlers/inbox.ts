import type { HandlerContext, HandlerGroup } from './context';

type InboxMethods = 'alerts.list' | 'alerts.markRead' | 'alerts.unread' | 'alerts.snooze' | 'alerts.mute';

/**
 * The alerts inbox: list, read state (pushing `unread.changed` so the badge follows), the unread count, and
 * snooze or mute of a watched lot; each listed alert carries its channel deliveries. Throws not_found for a lot that is not on the watchlist.
 */
export function inboxHandlers(c: HandlerContext): HandlerGroup<InboxMethods> {
  return {
    // Each alert with where it went besides the inbox (the delivery log of its channels).
    'alerts.list': (i) => {
      const r = c.service.listAlerts(i);
      return { ...r, alerts: r.alerts.map((a) => ({ ...a, deliveries: c.channels.deliveriesOf(a.id) })) };
    },
    'alerts.markRead': (i) => {
      const r = c.service.markRead(i.ids, i.read);
      c.pushUnread();
      return r;
    },
    'alerts.unread': () => ({ count: c.service.unreadCount() }),
    'alerts.snooze': (i) => c.service.snooze(i),
    'alerts.mute': (i) => c.service.mute(i.lot_key, i.muted),
  };
}
