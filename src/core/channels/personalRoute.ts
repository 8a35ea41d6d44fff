import { SYSTEM_ALERT_KINDS } from '../../shared/alertChannels';
import { inQuietHours, quietHoursEnd } from '../alerts/quietHours';
import type { AlertRow } from '../db/alertRows';
import type { ChannelRow } from '../db/channelsRepo';
import type { MemberHolds, MemberState } from '../team/personal';
import type { RoutedAlert } from './route';

/*
 * The alert channels of a team's members (docs/architecture.md "Delivery"): a channel belongs to its owner
 * (`channels.owner_id`; null is the local owner's, every channel of the desktop), and an alert goes to it as it
 * reaches that owner: their own mute and snooze hold it back, their own quiet hours hold it (a channel set to the
 * app's quiet hours), and a failing channel's alert goes only to the channels of that channel's owner.
 */

/**
 * `alert` as channel owner `owner` has it, for routeAlert (pure), or null when it is not theirs at all (a failing
 * channel of someone else: no delivery row). The local owner's channels (owner null) route the alert as the team's
 * rules left it. A member's: held back by the team's rules stays so; their mute or snooze makes it `suppressed` with
 * that reason; Lotwatch's own problems as they are; otherwise `deliver_after` is the end of the member's quiet hours
 * when it was raised inside them (`tzOffsetMinutes` at its time), else null.
 * @param sourceOwner the owner of the channel a `channel_failing` alert is about (undefined: not known).
 */
export function memberRouted(
  alert: AlertRow,
  owner: number | null,
  m: MemberHolds | undefined,
  tzOffsetMinutes: number,
  sourceOwner: number | null | undefined,
): RoutedAlert | null {
  if (alert.kind === 'channel_failing' && sourceOwner !== undefined && sourceOwner !== owner) return null;
  if (owner === null || !m || alert.status === 'suppressed') return alert;
  const hold = m.hold(alert);
  if (hold) return { ...alert, status: 'suppressed', reason: hold };
  if (SYSTEM_ALERT_KINDS.includes(alert.kind as never) || alert.kind === 'digest') return alert;
  const quiet = inQuietHours(alert.created_at, m.quiet, tzOffsetMinutes);
  return {
    ...alert,
    reason: quiet ? 'quiet_hours' : null,
    deliver_after: quiet ? quietHoursEnd(alert.created_at, m.quiet, tzOffsetMinutes) : null,
  };
}

/**
 * The routing of one round: for each channel of `live`, a function giving each alert as the channel's owner has it
 * (memberRouted). Each member owning a channel has their mutes, snoozes and quiet hours read once. Without `member`
 * (no personal state), every alert routes as it is. Rejects only with database errors.
 */
export async function memberRoutes(
  member: MemberRouting | undefined,
  live: readonly { row: ChannelRow }[],
  tzOffsetMinutes: (t: number) => number,
): Promise<(row: ChannelRow) => (a: AlertRow) => RoutedAlert | null> {
  const owners = new Map(live.map((c) => [c.row.id, c.row.owner_id]));
  const holds = new Map<number, MemberHolds>();
  for (const owner of new Set(owners.values()))
    if (owner !== null && member) holds.set(owner, await member.holds(owner));
  const sourceOwner = (source: string) => {
    const id = /^channel:(\d+)$/.exec(source)?.[1];
    return id === undefined ? undefined : owners.get(Number(id));
  };
  return (row) => (a) =>
    memberRouted(
      a,
      row.owner_id,
      row.owner_id === null ? undefined : holds.get(row.owner_id),
      tzOffsetMinutes(a.created_at),
      sourceOwner(a.source),
    );
}

/** What the outbox reads of each member who owns a channel (team/personal.ts MemberState). */
export type MemberRouting = Pick<MemberState, 'holds'>;
