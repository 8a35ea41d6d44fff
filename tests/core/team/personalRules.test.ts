import { describe, expect, it } from 'vitest';
import { memberRouted } from '../../../src/core/channels/personalRoute';
import type { AlertRow } from '../../../src/core/db/alertRows';
import type { LotPrefsRow } from '../../../src/core/db/personalRepo';
import { memberDelivery, memberHold, splitPatch, withPersonal } from '../../../src/core/team/personal';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';

// The pure rules of what belongs to each member (src/core/team/personal.ts, src/core/channels/personalRoute.ts): how a
// member's own mute, snooze and quiet hours apply to the team's alerts, and which settings are theirs.

const HOUR = 3_600_000;
const T = Date.UTC(2026, 5, 1, 12, 0, 0);
const QUIET = { enabled: true, start: '22:00', end: '07:00' };
const OFF = { ...QUIET, enabled: false };

const alert = (over: Partial<AlertRow> = {}): AlertRow => ({
  id: 10,
  dedup_key: 'change:10',
  kind: 'threshold',
  lot_key: 'copart:1',
  change_id: 10,
  source: 'watch:1',
  title: 'A bid',
  body: 'Body',
  reason: null,
  created_at: T,
  delivery: 'now',
  status: 'delivered',
  deliver_after: null,
  delivered_at: T,
  read_at: null,
  url: null,
  ...over,
});
const prefs = (over: Partial<LotPrefsRow> = {}): LotPrefsRow => ({
  user_id: 1,
  lot_key: 'copart:1',
  muted: 0,
  snooze_until: null,
  snooze_until_event: null,
  snoozed_at: null,
  max_bid_usd: null,
  updated_at: 0,
  ...over,
});

describe('a member’s own holds', () => {
  it('mutes whatever the time, and never holds an alert without a lot or without preferences', () => {
    expect(memberHold(alert(), prefs({ muted: 1 }), null)).toBe('muted');
    expect(memberHold(alert({ lot_key: null }), prefs({ muted: 1 }), null)).toBeNull();
    expect(memberHold(alert(), undefined, null)).toBeNull();
  });

  it('snoozes alerts raised from the snooze on, until its time or until the alert of its event', () => {
    const until = prefs({ snoozed_at: T - HOUR, snooze_until: T + HOUR });
    expect(memberHold(alert(), until, null)).toBe('snoozed');
    expect(memberHold(alert({ created_at: T - 2 * HOUR }), until, null)).toBeNull();
    expect(memberHold(alert({ created_at: T + HOUR }), until, null)).toBeNull();
    const event = prefs({ snoozed_at: T - HOUR, snooze_until_event: 'sale_result' });
    expect(memberHold(alert(), event, null)).toBe('snoozed');
    expect(memberHold(alert({ id: 10 }), event, 10)).toBeNull();
    expect(memberHold(alert({ id: 9 }), event, 10)).toBe('snoozed');
  });

  it('shows an alert in the member’s inbox as it reached them: their hold, their quiet hours, the team’s own hold', () => {
    expect(memberDelivery(alert(), 'muted', OFF, 0)).toEqual({ delivery: 'suppressed', reason: 'muted' });
    const night = alert({ created_at: Date.UTC(2026, 5, 1, 23, 0, 0) });
    expect(memberDelivery(night, null, QUIET, 0)).toEqual({ delivery: 'digest', reason: 'quiet_hours' });
    expect(memberDelivery(night, null, OFF, 0)).toEqual({ delivery: 'now', reason: null });
    const capped = alert({ delivery: 'suppressed', reason: 'cap' });
    expect(memberDelivery(capped, 'snoozed', OFF, 0)).toEqual({ delivery: 'suppressed', reason: 'cap' });
    expect(memberDelivery(alert({ kind: 'quota_low', lot_key: null }), null, QUIET, 0).delivery).toBe('now');
  });
});

describe('routing to a member’s channels', () => {
  const holds = (hold: 'muted' | 'snoozed' | null, quiet = OFF) => ({ hold: () => hold, quiet });

  it('routes the local owner’s channels as the team’s rules left the alert', () => {
    const a = alert({ deliver_after: T + HOUR });
    expect(memberRouted(a, null, undefined, 0, undefined)).toBe(a);
  });

  it('holds back what the member muted or snoozed, and holds what came in their quiet hours until they end', () => {
    expect(memberRouted(alert(), 1, holds('muted'), 0, undefined)).toMatchObject({
      status: 'suppressed',
      reason: 'muted',
    });
    const night = alert({ created_at: Date.UTC(2026, 5, 1, 23, 0, 0), deliver_after: null });
    expect(memberRouted(night, 1, holds(null, QUIET), 0, undefined)).toMatchObject({
      reason: 'quiet_hours',
      deliver_after: Date.UTC(2026, 5, 2, 7, 0, 0),
    });
    // The team's quiet hours are not the member's.
    const teamHeld = alert({ deliver_after: T + HOUR, status: 'digest', reason: 'quiet_hours' });
    expect(memberRouted(teamHeld, 1, holds(null), 0, undefined)).toMatchObject({ deliver_after: null });
  });

  it('sends a failing channel’s alert only to the channels of that channel’s owner', () => {
    const failing = alert({ kind: 'channel_failing', lot_key: null, source: 'channel:3' });
    expect(memberRouted(failing, 2, holds(null), 0, 1)).toBeNull();
    expect(memberRouted(failing, 1, holds(null), 0, 1)).toBe(failing);
    expect(memberRouted(failing, null, undefined, 0, null)).toBe(failing);
    expect(memberRouted(failing, null, undefined, 0, undefined)).toBe(failing);
  });
});

describe('a member’s own settings', () => {
  it('are the team’s with the member’s stored personal values; a damaged one, or a team key, is not', () => {
    const team = { ...DEFAULT_SETTINGS, requestsPerDay: 40, quietHours: { ...QUIET, start: '21:00' } };
    const rows = [
      { key: 'theme', value: '"dark"' },
      { key: 'requestsPerDay', value: '5' },
      { key: 'quietHours', value: '{not json' },
      { key: 'notificationsEnabled', value: '"loud"' },
    ];
    expect(withPersonal(team, rows)).toEqual({ ...team, theme: 'dark' });
  });

  it('splits a patch into the member’s fields and the team’s', () => {
    expect(splitPatch({ theme: 'light', notificationsEnabled: false, requestsPerDay: 9 })).toEqual({
      personal: { theme: 'light', notificationsEnabled: false },
      team: { requestsPerDay: 9 },
    });
  });
});
