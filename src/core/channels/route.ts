import { inQuietHours, quietHoursEnd } from '../alerts/quietHours';
import { buildDigest } from '../alerts/digest';
import { lotLabel } from '../alerts/format';
import { SYSTEM_ALERT_KINDS, type ChannelSettings, type DeliveryStatus } from '../../shared/alertChannels';
import { parseLotKey } from '../../shared/watch';
import { lotPageUrl } from '../../shared/vehicle';
import type { ChannelMessage, MessageAlert } from './types';

/** What routing needs of an alert (a row of the inbox). */
export interface RoutedAlert {
  kind: string;
  /** The inbox row's status: `suppressed` (muted, snoozed, over the lot's hourly cap) goes to no channel. */
  status: string;
  /** Why the inbox did not notify now: `muted`, `snoozed`, `cap`, `quiet_hours`; null otherwise. */
  reason: string | null;
  /** When the app's quiet hours end for a held (digest) alert (ms), else null. */
  deliver_after: number | null;
  /** `channel:<id>` for a channel's own failing alert, the poll target otherwise. */
  source: string;
}

/** Where one alert stands for one channel: a row of the outbox, or nothing at all (the inbox's own summaries). */
export type Route = {
  status: Extract<DeliveryStatus, 'held' | 'pending' | 'skipped'>;
  not_before: number;
  detail: string | null;
} | null;

const INBOX_ONLY: Record<string, string> = {
  muted: 'Muted: kept in the inbox only.',
  snoozed: 'Snoozed: kept in the inbox only.',
  cap: 'Over the limit of alerts an hour for this lot: kept in the inbox only.',
};

/**
 * Routes one alert to one channel (docs/architecture.md "Delivery"). Pure.
 * - The inbox's own summaries (kind `digest`: a quiet-hours digest, a recovery notice) go nowhere: a channel makes
 *   its own digest from the alerts themselves.
 * - Skipped, with why: a muted, snoozed or capped alert; a kind the channel does not send; a channel's failing alert
 *   to that same channel.
 * - Lotwatch's own problems (key rejected, quota, a failing search or channel) go now, whatever the quiet hours.
 * - Otherwise by the channel's quiet setting: `never` now; `app` held until the app's quiet hours end when the inbox
 *   held it; `own` held until the channel's own window ends when `now` is inside it.
 *
 * @param now ms since the epoch; tzOffsetMinutes the user's UTC offset at `now`.
 * @returns the outbox row to write, or null for none. Throws nothing.
 */
export function routeAlert(
  alert: RoutedAlert,
  channel: { id: number; settings: ChannelSettings },
  now: number,
  tzOffsetMinutes: number,
): Route {
  if (alert.kind === 'digest') return null;
  const skip = (detail: string): Route => ({ status: 'skipped', not_before: now, detail });
  if (alert.status === 'suppressed') return skip(INBOX_ONLY[alert.reason ?? ''] ?? 'Kept in the inbox only.');
  if (!(channel.settings.kinds as readonly string[]).includes(alert.kind))
    return skip('Not a kind of alert this channel sends.');
  if (alert.kind === 'channel_failing' && alert.source === `channel:${channel.id}`) {
    return skip('About this channel itself: shown in the inbox and on the other channels.');
  }
  const now_ = { status: 'pending' as const, not_before: now, detail: null };
  if (SYSTEM_ALERT_KINDS.includes(alert.kind as never)) return now_;
  const s = channel.settings;
  if (s.quiet === 'app') {
    return alert.deliver_after !== null && alert.deliver_after > now
      ? { status: 'held', not_before: alert.deliver_after, detail: null }
      : now_;
  }
  if (s.quiet === 'own' && inQuietHours(now, s.quiet_hours, tzOffsetMinutes)) {
    return { status: 'held', not_before: quietHoursEnd(now, s.quiet_hours, tzOffsetMinutes), detail: null };
  }
  return now_;
}

/** How many alerts a channel digest spells out before "and N more": an email shows them all, a phone a few. */
const DIGEST_LINES = 20;

/** The lot's page on its auction's site, from a lot key (`copart:45416833`), or null. */
function lotUrl(lotKey: string | null): string | null {
  const p = lotKey ? parseLotKey(lotKey) : null;
  return p ? lotPageUrl(p.platform, p.lot_number) : null;
}

/**
 * The message that carries `alerts` to a channel: one alert as itself, several (held through quiet hours) as one
 * digest titled like the inbox's ("3 alerts during quiet hours") listing each alert's title and text. The key is
 * the message's id on every attempt, so a resend after a stop is recognisable as the same message. Pure.
 *
 * @param key the stable message id (see ChannelMessage.key).
 * @param alerts at least one, oldest first.
 * @returns the message. Throws nothing.
 */
export function messageFor(key: string, alerts: readonly MessageAlert[]): ChannelMessage {
  const first = alerts[0]!;
  if (alerts.length === 1) {
    return {
      key,
      title: first.title,
      body: first.body,
      kind: first.kind,
      lot_key: first.lot_key,
      lot_url: lotUrl(first.lot_key),
      url: first.url,
      created_at: first.created_at,
      alerts: [...alerts],
    };
  }
  const lines = alerts.slice(0, DIGEST_LINES).map((a) => {
    const url = lotUrl(a.lot_key);
    const lot = a.lot_key ? ` (${lotLabel(a.lot_key)}${url ? `: ${url}` : ''})` : a.url ? ` (${a.url})` : '';
    return `• ${a.title}${lot}\n  ${a.body.replace(/\n/g, '\n  ')}`;
  });
  if (alerts.length > DIGEST_LINES)
    lines.push(`and ${alerts.length - DIGEST_LINES} more: open the Lotwatch inbox.`);
  return {
    key,
    title: buildDigest(alerts, 0).title,
    body: lines.join('\n\n'),
    kind: 'digest',
    lot_key: null,
    lot_url: null,
    url: null,
    created_at: alerts[alerts.length - 1]!.created_at,
    alerts: [...alerts],
  };
}

/** The test message of a channel's Test button (key `test-<channel>-<now>`: never a real alert's). */
export function testMessage(channelId: number, now: number): ChannelMessage {
  return {
    key: `lw-test-${channelId}-${now.toString(36)}`,
    title: 'Lotwatch test',
    body: 'If you can read this, Lotwatch alerts will reach you here.',
    kind: 'test',
    lot_key: null,
    lot_url: null,
    url: null,
    created_at: now,
    alerts: [],
  };
}
