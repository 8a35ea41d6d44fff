import { parseTags } from '../../shared/desk';
import { exportBlock } from '../../shared/exportBlock';
import type { AlertView, MethodInput, MethodOutput } from '../../shared/ipc/contract';
import type { Clock } from '../clock';
import type { AlertsRepo } from '../db/alertsRepo';
import type { DeskRepo } from '../db/deskRepo';
import type { LotsRepo } from '../db/lotsRepo';
import type { Async, Transact } from '../db/async';

/** What the inbox needs: the alerts, the lots' notes, tags and title documents (read), one transaction, the clock. */
export interface InboxDeps {
  repos: {
    alerts: Pick<Async<AlertsRepo>, 'list' | 'unreadCount' | 'setRead'>;
    desk: Pick<Async<DeskRepo>, 'notes'>;
    /** The lot's title document, for the mark of a title that blocks export (read only). */
    lots: Pick<Async<LotsRepo>, 'titleDocument'>;
  };
  /** Runs `fn` in one transaction (Store.transaction). */
  transaction: Transact;
  clock: Clock;
}

/**
 * The alerts inbox: the list with each lot's notes and tags and whether its title blocks export (exportBlock of the
 * stored title document, as it is now), the unread count, and read state.
 */
export class InboxService {
  constructor(private readonly d: InboxDeps) {}

  /** A page of alerts, newest first (before `before_id`, `limit` at most 100 by default), and the unread count. */
  async listAlerts(i: MethodInput<'alerts.list'>): Promise<MethodOutput<'alerts.list'>> {
    const rows = await this.d.repos.alerts.list(
      i?.unread_only ?? false,
      i?.before_id ?? Number.MAX_SAFE_INTEGER,
      i?.limit ?? 100,
    );
    // A page holds many alerts of the same lot: each lot's notes and title document are read once per page.
    const lotFacts = new Map<
      string,
      { notes: string; tags: string[]; block: AlertView['lot_export_block'] }
    >();
    for (const r of rows) {
      const k = r.lot_key;
      if (!k || lotFacts.has(k)) continue;
      const n = await this.d.repos.desk.notes(k);
      lotFacts.set(k, {
        notes: n?.notes ?? '',
        tags: parseTags(n?.tags ?? ''),
        block: exportBlock(await this.d.repos.lots.titleDocument(k)),
      });
    }
    const factsOf = (k: string | null | undefined) => (k ? lotFacts.get(k) : undefined);
    const alerts: AlertView[] = rows.map((r) => ({
      lot_notes: factsOf(r.lot_key)?.notes ?? '',
      lot_tags: factsOf(r.lot_key)?.tags ?? [],
      lot_export_block: factsOf(r.lot_key)?.block ?? null,
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
    return { alerts, unread: await this.d.repos.alerts.unreadCount() };
  }

  /** How many inbox alerts are unread. Rejects only with database errors. */
  unreadCount(): Promise<number> {
    return this.d.repos.alerts.unreadCount();
  }

  /** Marks alerts read (or unread again) in one transaction; returns the new unread count. */
  async markRead(ids: number[], read: boolean): Promise<{ unread: number }> {
    const now = this.d.clock.now();
    await this.d.transaction(async () => {
      for (const id of ids) await this.d.repos.alerts.setRead(id, read, now);
    });
    return { unread: await this.d.repos.alerts.unreadCount() };
  }
}
