import type { ContractEvent } from '../../shared/ipc/contract';
import type { DeliveryView } from '../../shared/alertChannels';
import type { WatchView } from '../../shared/ipc/contract';
import { currentActor } from '../actor';
import { LotwatchError } from '../errors';
import type { HandlerGroup } from '../handlerGroups';
import type { MemberState } from '../team/personal';
import type { WatchlistService } from '../watchlist/service';
import type { InboxService } from './service';

/** What the inbox handlers need: the inbox, the watchlist's snooze and mute, the channels' log, the badge push. */
export interface InboxHandlerDeps {
  inbox: InboxService;
  watchlist: Pick<WatchlistService, 'snooze' | 'mute' | 'listWatches'>;
  /** Where an alert went besides the inbox (ChannelService.deliveriesOf; read from the store). */
  deliveriesOf: (alertId: number) => Promise<DeliveryView[]>;
  /** Pushes `unread.changed` when the unread count changed (read from the store); resolves once pushed or not. */
  pushUnread: () => Promise<void>;
  /** A team member's own mute and snooze of a lot (team/personal.ts). */
  member: MemberState;
  /**
   * Sends a contract event: a member's read marks, mute and snooze change their own unread count, which the team
   * server reads again for each member's page on `unread.changed` (headless/teamServer.ts).
   */
  emit: (e: ContractEvent) => void;
}

type InboxMethods = 'alerts.list' | 'alerts.markRead' | 'alerts.unread' | 'alerts.snooze' | 'alerts.mute';

/**
 * The alerts inbox: list, read state (pushing `unread.changed` so the badge follows), the unread count, and
 * snooze or mute of a watched lot; each listed alert carries its channel deliveries. Throws not_found for a lot that
 * is not on the watchlist. The local owner's snooze and mute are the watch's rules (the team's, on a team server);
 * a team member's are their own (team/personal.ts): the watch answered carries them in its rules, the team's rules
 * stay as they are, and a member's change sends `unread.changed` with their count (each page reads its own member's again).
 */
export function inboxHandlers(c: InboxHandlerDeps): HandlerGroup<InboxMethods> {
  /** Changes member `user`'s own mute or snooze of the lot, and answers its watch with their values in its rules. */
  const memberLot = async (
    user: number,
    lotKey: string,
    change: Parameters<MemberState['setLot']>[2],
  ): Promise<WatchView> => {
    const w = (await c.watchlist.listWatches()).find(
      (v) => v.lot_key === lotKey || v.lot?.lot_key === lotKey,
    );
    if (!w)
      throw new LotwatchError(
        'not_found',
        'Only lots on your watchlist can be snoozed or muted. Watch it first.',
      );
    await c.member.setLot(user, lotKey, change);
    c.emit({ name: 'unread.changed', payload: { count: await c.inbox.unreadCount() } });
    return (await c.member.ownRules(user, [w]))[0]!;
  };
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
      if (currentActor().userId === null) await c.pushUnread();
      else c.emit({ name: 'unread.changed', payload: { count: r.unread } });
      return r;
    },
    'alerts.unread': async () => ({ count: await c.inbox.unreadCount() }),
    'alerts.snooze': (i) => {
      const user = currentActor().userId;
      if (user === null) return c.watchlist.snooze(i);
      return memberLot(user, i.lot_key, {
        snooze_until: i.until ?? null,
        snooze_until_event: i.until_event ?? null,
      });
    },
    'alerts.mute': (i) => {
      const user = currentActor().userId;
      return user === null
        ? c.watchlist.mute(i.lot_key, i.muted)
        : memberLot(user, i.lot_key, { muted: i.muted });
    },
  };
}
