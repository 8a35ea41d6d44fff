import { buildDigest } from '../alerts';
import type { Clock } from '../clock';
import type { AlertRow } from '../db/store';
import type { Logger } from '../log';
import type { ContractEvent } from '../../shared/ipc/contract';

/** One notification to show: an alert's id, its text, the lot it is about (or null) and its kind (or `digest`). */
export interface Notification {
  id: number;
  title: string;
  body: string;
  lot_key: string | null;
  kind: string;
}

/** Shows one notification natively or in the browser. Injected: each shell has its own. May throw. */
export type NotifyPort = (n: Notification) => void;

/** The outbox's view of the alerts table: due rows, the claim, the mark. */
export interface OutboxStore {
  dueAlerts(now: number): AlertRow[];
  claimAlert(id: number): boolean;
  markDelivered(id: number, now: number): void;
}

/** What the outbox needs; the notification sink is a port so delivery can change without touching the polls. */
export interface OutboxDeps {
  store: OutboxStore;
  clock: Clock;
  log: Logger;
  notify: NotifyPort;
  emit: (e: ContractEvent) => void;
}

/**
 * The alert outbox: alerts are written by the polls (in the poll's transaction) and delivered from here, so the
 * user is told about a change once, whenever the app gets to it, and a crash never shows an alert twice.
 */
export class Outbox {
  constructor(private readonly d: OutboxDeps) {}

  /**
   * Delivers the outbox: each pending alert is claimed, then shown, then marked delivered; digest alerts whose
   * quiet hours ended go out as one notification. A crash between claim and show loses the notification, never
   * the alert (it is in the inbox), and never shows it twice. Emits `alert.raised` for each alert delivered.
   * Throws only database errors, and a failing digest notification (a single alert's failure is logged).
   */
  deliver(): void {
    const now = this.d.clock.now();
    const rows = this.d.store.dueAlerts(now);
    const digest: AlertRow[] = [];
    for (const a of rows) {
      if (!this.d.store.claimAlert(a.id)) continue;
      if (a.status === 'digest') {
        digest.push(a);
        continue;
      }
      this.show(a);
      this.d.store.markDelivered(a.id, this.d.clock.now());
    }
    if (digest.length) {
      const d = buildDigest(digest, now);
      this.d.notify({ id: digest[0]!.id, title: d.title, body: d.body, lot_key: null, kind: 'digest' });
      for (const a of digest) {
        this.d.store.markDelivered(a.id, now);
        this.d.emit({ name: 'alert.raised', payload: { id: a.id, kind: a.kind, title: a.title, body: a.body, lot_key: a.lot_key } });
      }
    }
  }

  private show(a: AlertRow): void {
    try {
      this.d.notify({ id: a.id, title: a.title, body: a.body, lot_key: a.lot_key, kind: a.kind });
    } catch (e) {
      this.d.log.warn('watch: notification failed', { id: a.id, error: (e as Error).message });
    }
    this.d.emit({ name: 'alert.raised', payload: { id: a.id, kind: a.kind, title: a.title, body: a.body, lot_key: a.lot_key } });
  }
}
