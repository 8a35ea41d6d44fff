import { buildDigest, buildRecoveryNotice } from '../alerts';
import type { Clock } from '../clock';
import type { Notifier } from '../alerts/notifier';
import type { AlertRow, AlertsRepo } from '../db/alertsRepo';
import type { Async, Transact } from '../db/store';
import type { Logger } from '../log';
import type { ContractEvent } from '../../shared/ipc/contract';

/** The outbox's view of the alerts table: due rows, the claim, the mark, and the digest's own inbox entry. */
export type OutboxStore = Pick<
  Async<AlertsRepo>,
  'dueAlerts' | 'claimAlert' | 'markDelivered' | 'insertAlert' | 'claimedAlerts' | 'markRecovered'
>;

/** What the outbox needs; the notification sink is a port so delivery can change without touching the polls. */
export interface OutboxDeps {
  store: OutboxStore;
  clock: Clock;
  log: Logger;
  /** The shell's channel. */
  notifier: Notifier;
  /** Settings' "Show alerts as notifications": off, alerts land in the inbox only. */
  notificationsEnabled: () => boolean;
  emit: (e: ContractEvent) => void;
  /** Called after each delivery round: the inbox may have new rows (the unread count follows). */
  afterDeliver?: () => void;
  /** Runs `fn` in one transaction (the digest's claim, marks and inbox entry are all or nothing). */
  transaction: Transact;
}

/**
 * The alert outbox: alerts are written by the polls (in the poll's transaction) and delivered from here, so the
 * user is told about a change once, whenever the app gets to it, and a crash never shows an alert twice.
 */
export class Outbox {
  constructor(private readonly d: OutboxDeps) {}

  /**
   * At start, before the first delivery: alerts a stopped run left claimed (it claimed them, then stopped before
   * marking them shown) are marked `recovered` and named in one pending notice, "Lotwatch stopped while showing 2
   * alerts" (buildRecoveryNotice), in one transaction; the next `deliver` shows it. So no alert is left untold after
   * a crash, and none is shown as itself twice (docs/architecture.md "An alert, from poll to notification"). Returns
   * how many alerts it named. Rejects only with the store's errors.
   */
  recover(): Promise<number> {
    const now = this.d.clock.now();
    return this.d.transaction(async () => {
      const left = await this.d.store.claimedAlerts();
      if (left.length === 0) return 0;
      for (const a of left) await this.d.store.markRecovered(a.id, now);
      await this.insertSummary(buildRecoveryNotice(left, now), now);
      return left.length;
    });
  }

  /**
   * Delivers the outbox. First the held (digest) alerts whose quiet hours have ended become one digest: in one
   * transaction they are marked delivered and one inbox entry of kind `digest` ("7 alerts during quiet hours") is
   * written, pending. Then each pending alert (the digest among them) is claimed, shown through the notifier when
   * notifications are on, and marked delivered. A crash between claim and mark leaves the row claimed: the next
   * start names it in a recovery notice (`recover`), never shows it twice. Emits `alert.raised` for each alert that lands.
   * A claim is taken by one caller only, so two rounds at once never show an alert twice.
   * Rejects only with the store's errors (a failing notification is logged).
   */
  async deliver(): Promise<void> {
    const now = this.d.clock.now();
    const due = await this.d.store.dueAlerts(now);
    const held = due.filter((a) => a.status === 'digest');
    let pending = due;
    if (held.length) {
      const claimed = await this.d.transaction(async () => {
        const claimed: AlertRow[] = [];
        for (const a of held) if (await this.d.store.claimAlert(a.id)) claimed.push(a);
        if (claimed.length === 0) return claimed;
        for (const a of claimed) await this.d.store.markDelivered(a.id, now);
        await this.insertSummary(buildDigest(claimed, now), now);
        return claimed;
      });
      for (const a of claimed) this.raised(a);
      // The digest entry just written is pending: read the outbox again so it goes out like any other alert.
      if (claimed.length) pending = await this.d.store.dueAlerts(now);
    }
    for (const a of pending) {
      if (a.status !== 'pending' || !(await this.d.store.claimAlert(a.id))) continue;
      this.show(a);
      await this.d.store.markDelivered(a.id, this.d.clock.now());
    }
    this.d.afterDeliver?.();
  }

  /** Writes a summary entry (a digest or a recovery notice) to the inbox, pending: it goes out like any alert. */
  private async insertSummary(
    t: { title: string; body: string; dedup_key: string },
    now: number,
  ): Promise<void> {
    await this.d.store.insertAlert(
      {
        dedup_key: t.dedup_key,
        kind: 'digest',
        lot_key: null,
        change_id: null,
        source: '',
        title: t.title,
        body: t.body,
        reason: null,
        delivery: 'now',
        deliver_after: null,
      },
      now,
    );
  }

  private show(a: AlertRow): void {
    if (this.d.notificationsEnabled()) {
      try {
        this.d.notifier.notify({ title: a.title, body: a.body, ...(a.lot_key ? { lotKey: a.lot_key } : {}) });
      } catch (e) {
        this.d.log.warn('watch: notification failed', { id: a.id, error: (e as Error).message });
      }
    }
    this.raised(a);
  }

  private raised(a: AlertRow): void {
    this.d.emit({
      name: 'alert.raised',
      payload: { id: a.id, kind: a.kind, title: a.title, body: a.body, lot_key: a.lot_key },
    });
  }
}
