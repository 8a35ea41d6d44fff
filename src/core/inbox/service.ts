import { parseTags } from '../../shared/desk';
import { exportBlock } from '../../shared/exportBlock';
import type { AlertView, MethodInput, MethodOutput } from '../../shared/ipc/contract';
import type { Clock } from '../clock';
import type { AlertsRepo } from '../db/alertsRepo';
import type { DeskRepo } from '../db/deskRepo';
import type { LotsRepo } from '../db/lotsRepo';

/** What the inbox needs: the alerts, the lots' notes, tags and title documents (read), one transaction, the clock. */
export interface InboxDeps {
  repos: {
    alerts: Pick<AlertsRepo, 'list' | 'unreadCount' | 'setRead'>;
    desk: Pick<DeskRepo, 'notes'>;
    /** The lot's title document, for the mark of a title that blocks export (read only). */
    lots: Pick<LotsRepo, 'titleDocument'>;
  };
  /** Runs `fn` in one transaction (Store.transaction). */
  transaction: <T>(fn: () => T) => T;
  clock: Clock;
}

/**
 * The alerts inbox: the list with each lot's notes and tags and whether its title blocks export (exportBlock of the
 * stored title document, as it is now), the unread count, and read state.
 */
export class InboxService {
  constructor(private readonly d: InboxDeps) {}

  /** A page of alerts, newest first (before `before_id`, `limit` at most 100 by default), and the unread count. */
  listAlerts(i: MethodInput<'alerts.list'>): MethodOutput<'alerts.list'> {
    const rows = this.d.repos.alerts.list(
      i?.unread_only ?? false,
      i?.before_id ?? Number.MAX_SAFE_INTEGER,
      i?.limit ?? 100,
    );
    // A page holds many alerts of the same lot: each lot's notes and title document are read once per page.
    const lotFacts = new Map<
      string,
      { notes: string; tags: string[]; block: AlertView['lot_export_block'] }
    >();
    const factsOf = (k: string) => {
      let f = lotFacts.get(k);
      if (!f) {
        const n = this.d.repos.desk.notes(k);
        f = {
          notes: n?.notes ?? '',
          tags: parseTags(n?.tags ?? ''),
          block: exportBlock(this.d.repos.lots.titleDocument(k)),
        };
        lotFacts.set(k, f);
      }
      return f;
    };
    const alerts: AlertView[] = rows.map((r) => ({
      lot_notes: r.lot_key ? factsOf(r.lot_key).notes : '',
      lot_tags: r.lot_key ? factsOf(r.lot_key).tags : [],
      lot_export_block: r.lot_key ? factsOf(r.lot_key).block : null,
      deliveries: [], // The inbox handler adds the channel deliveries (ChannelService.deliveriesOf).
      id: r.id,
      kind: r.kind,
      lot_key: r.lot_key ?? null,
      title: r.title,
      body: r.body,
      source: r.source,
      reason: r.reason ?? null,
      created_at: r.created_at,
      delivery: r.delivery,
      status: r.status,
      read: r.read_at !== null,
      url: r.url ?? null,
    }));
    return { alerts, unread: this.d.repos.alerts.unreadCount() };
  }

  /** How many inbox alerts are unread. Throws only database errors. */
  unreadCount(): number {
    return this.d.repos.alerts.unreadCount();
  }

  /** Marks alerts read (or unread again) in one transaction; returns the new unread count. */
  markRead(ids: number[], read: boolean): { unread: number } {
    const now = this.d.clock.now();
    this.d.transaction(() => {
      for (const id of ids) this.d.repos.alerts.setRead(id, read, now);
    });
    return { unread: this.d.repos.alerts.unreadCount() };
  }
}
