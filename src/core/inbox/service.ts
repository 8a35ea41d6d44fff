import { parseTags } from '../../shared/desk';
import { exportBlock } from '../../shared/exportBlock';
import type { AlertView, MethodInput, MethodOutput } from '../../shared/ipc/contract';
import type { Clock } from '../clock';
import type { AlertsRepo } from '../db/alertsRepo';
import type { DeskRepo } from '../db/deskRepo';
import type { LotsRepo } from '../db/lotsRepo';
import type { Async, Transact } from '../db/async';
import { currentActor } from '../actor';
import type { AlertRow } from '../db/alertRows';
import { memberDelivery, type MemberState } from '../team/personal';

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
  /** Each team member's own read state, mutes, snoozes and quiet hours (team/personal.ts). */
  member: MemberState;
  /** The UTC offset in minutes at time t (a member's quiet hours are local times). */
  tzOffsetMinutes: (t: number) => number;
}

/**
 * The alerts inbox: the list with each lot's notes and tags and whether its title blocks export (exportBlock of the
 * stored title document, as it is now), the unread count, and read state. The inbox is the caller's
 * (`currentActor`): the local owner's reads and writes the alerts' own read state, as the desktop always has; a team
 * member's their own (team/personal.ts), without the lots they muted, and each alert's delivery as it reached them
 * (their mute, snooze and quiet hours).
 */
export class InboxService {
  constructor(private readonly d: InboxDeps) {}

  /** A page of alerts, newest first (before `before_id`, `limit` at most 100 by default), and the unread count. */
  async listAlerts(i: MethodInput<'alerts.list'>): Promise<MethodOutput<'alerts.list'>> {
    const user = currentActor().userId;
    const page = [i?.unread_only ?? false, i?.before_id ?? Number.MAX_SAFE_INTEGER, i?.limit ?? 100] as const;
    const rows =
      user === null ? await this.d.repos.alerts.list(...page) : await this.d.member.listAlerts(user, ...page);
    const as = user === null ? (r: AlertRow) => r : await this.asMember(user);
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
    const alerts: AlertView[] = rows.map(as).map((r) => ({
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
    return { alerts, unread: await this.unreadCount() };
  }

  /** Each alert as it reached member `user`: its delivery and reason under their mute, snooze and quiet hours. */
  private async asMember(user: number): Promise<(r: AlertRow) => AlertRow> {
    const m = await this.d.member.holds(user);
    return (r) => ({
      ...r,
      ...memberDelivery(r, m.hold(r), m.quiet, this.d.tzOffsetMinutes(r.created_at)),
    });
  }

  /** How many of the caller's inbox alerts are unread. Rejects only with database errors. */
  unreadCount(): Promise<number> {
    const user = currentActor().userId;
    return user === null ? this.d.repos.alerts.unreadCount() : this.d.member.unreadCount(user);
  }

  /** Marks the caller's alerts read (or unread again) in one transaction; returns their new unread count. */
  async markRead(ids: number[], read: boolean): Promise<{ unread: number }> {
    const now = this.d.clock.now();
    const user = currentActor().userId;
    if (user !== null) await this.d.member.markRead(user, ids, read, now);
    else
      await this.d.transaction(async () => {
        for (const id of ids) await this.d.repos.alerts.setRead(id, read, now);
      });
    return { unread: await this.unreadCount() };
  }
}
