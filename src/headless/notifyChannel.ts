import { buildDigest } from '../core/alerts/digest';
import type { ContractEvent } from '../shared/ipc/contract';

/** One notification core decided to show (after settings, mute, snooze, quiet hours and the digest). */
export interface ChannelNotification {
  title: string;
  body: string;
  lotKey?: string;
}

/** Where the channel sends: every open page, or one page that just connected. */
export interface PageStreams {
  /** Sends the event to every open page; returns how many got it (0: no tab is open). */
  broadcast(e: ContractEvent): number;
}

/**
 * The browser shell's notification channel. A notification goes to every open Lotwatch tab as `notification.posted`
 * (the page shows it as a browser Notification, one per tag, so two tabs show it once). When no tab is open the
 * notification would be lost, so the channel keeps it, and the next tab that opens gets one summary
 * ("3 alerts while no Lotwatch tab was open") instead of a burst. The alerts themselves are in the inbox either way;
 * what is kept here is only the notification, in memory: a restart before a tab opens drops the summary, never an
 * alert, and nothing is ever shown twice. Settings' notification switch covers the summary too: with notifications
 * off when the tab opens, the kept ones are dropped unshown.
 */
export class BrowserNotifyChannel {
  private missed: ChannelNotification[] = [];
  private seq = 0;

  /**
   * @param pages where notifications go.
   * @param notificationsOn whether Settings' notifications are on now (read when a tab opens); on when absent.
   */
  constructor(
    private readonly pages: PageStreams,
    private readonly notificationsOn: () => boolean = () => true,
  ) {}

  /** Shows one notification on the open tabs, or keeps it for the next tab. Throws nothing. */
  notify(n: ChannelNotification): void {
    if (this.pages.broadcast(this.posted(n.lotKey ?? 'app', n)) === 0) this.missed.push(n);
  }

  /**
   * A tab connected: returns the one summary notification of what was missed while no tab was open (and forgets
   * them), or null when nothing was missed or notifications are now off in Settings (then they are forgotten: the
   * alerts are in the inbox). The single missed notification is passed on as it was. The summary lists titles as the
   * quiet hours digest does (buildDigest).
   */
  takeMissed(): ContractEvent | null {
    const missed = this.missed;
    this.missed = [];
    if (missed.length === 0 || !this.notificationsOn()) return null;
    if (missed.length === 1) return this.posted('missed', missed[0]!);
    return this.posted('missed', {
      title: `${missed.length} alerts while no Lotwatch tab was open`,
      body: buildDigest(missed, 0).body,
    });
  }

  /** The `notification.posted` event of one notification, under a tag of its own. */
  private posted(tagSuffix: string, n: ChannelNotification): ContractEvent {
    return {
      name: 'notification.posted',
      payload: {
        tag: `lotwatch-${++this.seq}-${tagSuffix}`,
        title: n.title,
        body: n.body,
        lot_key: n.lotKey ?? null,
      },
    };
  }
}
