import { SYSTEM_ALERT_KINDS } from '../../shared/alertChannels';
import { SettingsPatchSchema, type Settings, type SettingsPatch } from '../../shared/settings';
import {
  MAX_BID_DETAIL_FIELDS,
  PERSONAL_RULE_FIELDS,
  PERSONAL_SETTING_KEYS,
  type PersonalRuleField,
  type PersonalSettingKey,
} from '../../shared/team';
import type { AlertRules, AlertRulesPatch, Delivery, QuietHours } from '../../shared/watch';
import { inQuietHours } from '../alerts/quietHours';
import type { Clock } from '../clock';
import type { AlertRow } from '../db/alertRows';
import type { Async, Transact } from '../db/async';
import type { LotPrefsRow, PersonalRepo } from '../db/personalRepo';
import { settingRows, type SettingsSource } from '../db/settingsRepo';

/*
 * What belongs to each member of a team (docs/architecture.md "Delivery"): the alerts are the team's, raised once
 * by the watcher under the team's watch rules (decide.ts, unchanged), and each member's own mute and snooze of a lot,
 * quiet hours and read state are applied on top, as a filter, when their inbox is listed and when an alert goes to
 * their channels. A member's own max bid of a lot (PERSONAL_RULE_FIELDS) is what their watchlist and desk show; it
 * raises no alert: "bid near / past your max bid" follows the team's max bid only. The desktop's one user (user id
 * null) never comes here.
 */

/** Why a member's own lot preferences hold an alert back from them, or null when they do not. */
export type Hold = 'muted' | 'snoozed' | null;

/**
 * Whether member's `prefs` of the alert's lot hold `alert` back (pure): `muted` while the lot is muted (whenever the
 * alert was raised); `snoozed` when it was raised after the snooze was set (`snoozed_at`) and before its time
 * (`snooze_until`), or, with `snooze_until_event`, before the alert of that event (`liftId`: the first alert of that
 * kind since the snooze, which ends it, or null while it has not come). Alerts without a lot are never held.
 * Throws nothing.
 */
export function memberHold(
  alert: Pick<AlertRow, 'id' | 'lot_key' | 'created_at'>,
  prefs: LotPrefsRow | undefined,
  liftId: number | null,
): Hold {
  if (alert.lot_key === null || !prefs) return null;
  if (prefs.muted === 1) return 'muted';
  if (prefs.snoozed_at === null || alert.created_at < prefs.snoozed_at) return null;
  if (liftId !== null && alert.id >= liftId) return null;
  if (prefs.snooze_until_event !== null) return 'snoozed';
  return prefs.snooze_until !== null && alert.created_at < prefs.snooze_until ? 'snoozed' : null;
}

/**
 * How an alert reached (or would reach) a member, for their inbox (pure): held back by the team's rules stays so
 * (`suppressed` with the team's reason); held by the member's own mute or snooze is `suppressed` with theirs;
 * Lotwatch's own problems go `now`; otherwise `digest` (`quiet_hours`) when it was raised inside the member's quiet
 * hours, else `now`. `tzOffsetMinutes` is the offset at the alert's time. Throws nothing.
 */
export function memberDelivery(
  alert: Pick<AlertRow, 'kind' | 'delivery' | 'reason' | 'created_at'>,
  hold: Hold,
  quiet: QuietHours,
  tzOffsetMinutes: number,
): { delivery: Delivery; reason: string | null } {
  if (alert.delivery === 'suppressed') return { delivery: alert.delivery, reason: alert.reason };
  if (hold) return { delivery: 'suppressed', reason: hold };
  if (SYSTEM_ALERT_KINDS.includes(alert.kind as never) || alert.kind === 'digest')
    return { delivery: alert.delivery, reason: alert.reason };
  return inQuietHours(alert.created_at, quiet, tzOffsetMinutes)
    ? { delivery: 'digest', reason: 'quiet_hours' }
    : { delivery: 'now', reason: null };
}

/**
 * The team's settings with the member's own values of PERSONAL_SETTING_KEYS where they stored a valid one (pure): a
 * damaged row of theirs reads as the team's value.
 */
export function withPersonal(team: Settings, rows: readonly { key: string; value: string }[]): Settings {
  const out: Record<string, unknown> = { ...team };
  for (const r of rows) {
    if (!isPersonalKey(r.key)) continue;
    try {
      const parsed = SettingsPatchSchema.safeParse({ [r.key]: JSON.parse(r.value) });
      if (parsed.success) out[r.key] = parsed.data[r.key];
    } catch {
      // Not JSON: the team's value stays.
    }
  }
  return out as Settings;
}

/** Whether `key` is a setting each member keeps for themselves. */
export function isPersonalKey(key: string): key is PersonalSettingKey {
  return (PERSONAL_SETTING_KEYS as readonly string[]).includes(key);
}

/** A validated patch split into the member's own fields and the team's (pure). */
export function splitPatch(patch: SettingsPatch): { personal: SettingsPatch; team: SettingsPatch } {
  const personal: Record<string, unknown> = {};
  const team: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch))
    if (v !== undefined) (isPersonalKey(k) ? personal : team)[k] = v;
  return { personal: personal as SettingsPatch, team: team as SettingsPatch };
}

/** A watch as the watchlist shows it: its lot (a VIN watch's current lot in `lot`) and its rules. */
export interface WatchedLot {
  lot_key: string | null;
  lot?: { lot_key: string } | null;
  rules: AlertRules;
}

/** The fields of a rules patch a member keeps for themselves (PERSONAL_RULE_FIELDS). */
export type PersonalRulesPatch = Pick<AlertRulesPatch, PersonalRuleField>;

/**
 * A watch's rules patch split (pure): the member's own fields (PERSONAL_RULE_FIELDS) and the team's; the fields of
 * MAX_BID_DETAIL_FIELDS are in neither (they describe the member's max bid, which their row keeps no details of).
 */
export function splitRulesPatch(patch: AlertRulesPatch | undefined): {
  personal: PersonalRulesPatch;
  team: AlertRulesPatch;
} {
  const personal: Record<string, unknown> = {};
  const team: Record<string, unknown> = {};
  const details: readonly string[] = MAX_BID_DETAIL_FIELDS;
  for (const [k, v] of Object.entries(patch ?? {})) {
    if (v === undefined || details.includes(k)) continue;
    ((PERSONAL_RULE_FIELDS as readonly string[]).includes(k) ? personal : team)[k] = v;
  }
  return { personal: personal as PersonalRulesPatch, team: team as AlertRulesPatch };
}

/**
 * `rules` of a watched lot as a member sees them (pure): their own max bid, mute and snooze (`prefs`, or none:
 * null, not muted) in place of the team's, and the team's max bid details (MAX_BID_DETAIL_FIELDS) null. The team's
 * other rules as they are.
 */
export function ownLotRules(rules: AlertRules, prefs: LotPrefsRow | undefined): AlertRules {
  return {
    ...rules,
    max_bid_usd: prefs?.max_bid_usd ?? null,
    target_landed_usd: null,
    max_bid_excludes: null,
    muted: prefs?.muted === 1,
    snooze_until: prefs?.snooze_until ?? null,
    snooze_until_event: (prefs?.snooze_until_event ?? null) as AlertRules['snooze_until_event'],
  };
}

/** A member's view of watch rules, loaded once: a lot's rules (the team's) as they see them (ownLotRules). */
export type OwnRulesOf = (lotKey: string | null, rules: AlertRules) => AlertRules;

/** What a member's own lot preferences say of each alert, loaded once: `hold(alert)`. */
export interface MemberHolds {
  /** Whether the member's mute or snooze holds `alert` back from them. */
  hold(alert: Pick<AlertRow, 'id' | 'lot_key' | 'created_at'>): Hold;
  /** The member's quiet hours (theirs, else the team's). */
  quiet: QuietHours;
}

/** What MemberState needs: the personal tables and one transaction, the team's settings, the clock. */
export interface MemberStateDeps {
  store: { personal: Async<PersonalRepo>; transaction: Transact };
  /** The team's settings. */
  settings: Pick<SettingsSource, 'get'>;
  clock: Clock;
}

/**
 * Each team member's own state over the personal tables (migration 170): their inbox's read state, their settings,
 * their mute and snooze of a lot. Every method takes the member's user id (never null: the local owner keeps the
 * desktop's columns) and rejects only with database errors.
 */
export class MemberState {
  constructor(private readonly d: MemberStateDeps) {}

  /** A page of the member's inbox (PersonalRepo.listAlerts: their read state; muted lots left out). */
  listAlerts(userId: number, unreadOnly: boolean, beforeId: number, limit: number): Promise<AlertRow[]> {
    return this.d.store.personal.listAlerts(userId, unreadOnly, beforeId, limit);
  }

  /** How many alerts of the member's inbox they have not read. */
  unreadCount(userId: number): Promise<number> {
    return this.d.store.personal.unreadCount(userId);
  }

  /** Marks the member's alerts `ids` read (or unread again) at `now` (ms), in one transaction. */
  async markRead(userId: number, ids: readonly number[], read: boolean, now: number): Promise<void> {
    await this.d.store.transaction(async () => {
      for (const id of ids) await this.d.store.personal.setRead(userId, id, read, now);
    });
  }

  /** The member's settings: the team's, with their own values of PERSONAL_SETTING_KEYS. */
  async settings(userId: number): Promise<Settings> {
    return withPersonal(this.d.settings.get(), await this.d.store.personal.settings(userId));
  }

  /**
   * Writes the personal fields of a validated `patch` (PERSONAL_SETTING_KEYS; others are ignored here) to the
   * member's own rows at `now` (ms), in one transaction; resolves to the member's settings after it.
   */
  async updateSettings(userId: number, patch: SettingsPatch, now: number): Promise<Settings> {
    const rows = settingRows(splitPatch(patch).personal);
    await this.d.store.transaction(() => this.d.store.personal.setSettings(userId, rows, now));
    return this.settings(userId);
  }

  /** The member's own mute, snooze and max bid of `lotKey`, or undefined when they set none. */
  async lotPrefs(userId: number, lotKey: string): Promise<LotPrefsRow | undefined> {
    return (await this.d.store.personal.lotPrefs(userId)).find((p) => p.lot_key === lotKey);
  }

  /**
   * Changes the member's own mute, snooze or max bid (USD) of `lotKey` now, keeping what the change does not name: a
   * new snooze (`snooze_until` or `snooze_until_event` given) starts now; both null end it. Resolves to the row
   * written.
   */
  async setLot(
    userId: number,
    lotKey: string,
    change: {
      muted?: boolean;
      snooze_until?: number | null;
      snooze_until_event?: string | null;
      max_bid_usd?: number | null;
    },
  ): Promise<LotPrefsRow> {
    const now = this.d.clock.now();
    const was = await this.lotPrefs(userId, lotKey);
    const snoozing = 'snooze_until' in change || 'snooze_until_event' in change;
    const until = snoozing ? (change.snooze_until ?? null) : (was?.snooze_until ?? null);
    const event = snoozing ? (change.snooze_until_event ?? null) : (was?.snooze_until_event ?? null);
    const row = {
      muted: change.muted === undefined ? (was?.muted ?? 0) : change.muted ? 1 : 0,
      snooze_until: until,
      snooze_until_event: event,
      snoozed_at: until === null && event === null ? null : snoozing ? now : (was?.snoozed_at ?? now),
      max_bid_usd: change.max_bid_usd === undefined ? (was?.max_bid_usd ?? null) : change.max_bid_usd,
    };
    await this.d.store.personal.setLotPrefs(userId, lotKey, row, now);
    return { ...row, user_id: userId, lot_key: lotKey, updated_at: now };
  }

  /**
   * Writes the member's own fields of a watch's rules patch (`personal`, from splitRulesPatch) for `lotKey`: the max
   * bid and mute as given; a snooze only when it differs from theirs (merged over it as the team's rules merge a
   * patch), so a form that sends back the snooze it showed does not start it again. Resolves to whether their mute
   * or snooze changed (their inbox and unread count follow it).
   */
  async setOwnRules(userId: number, lotKey: string, personal: PersonalRulesPatch): Promise<boolean> {
    const was = await this.lotPrefs(userId, lotKey);
    const change: Parameters<MemberState['setLot']>[2] = {};
    if (personal.max_bid_usd !== undefined) change.max_bid_usd = personal.max_bid_usd;
    if (personal.muted !== undefined && personal.muted !== (was?.muted === 1)) change.muted = personal.muted;
    const until = personal.snooze_until === undefined ? (was?.snooze_until ?? null) : personal.snooze_until;
    const event =
      personal.snooze_until_event === undefined
        ? (was?.snooze_until_event ?? null)
        : personal.snooze_until_event;
    if (until !== (was?.snooze_until ?? null) || event !== (was?.snooze_until_event ?? null)) {
      change.snooze_until = until;
      change.snooze_until_event = event;
    }
    if (Object.keys(change).length > 0) await this.setLot(userId, lotKey, change);
    return 'muted' in change || 'snooze_until' in change;
  }

  /** The member's view of watch rules (ownLotRules over their lot preferences, read once now). */
  async rulesOf(userId: number): Promise<OwnRulesOf> {
    const prefs = new Map((await this.d.store.personal.lotPrefs(userId)).map((p) => [p.lot_key, p]));
    return (lotKey, rules) => ownLotRules(rules, lotKey === null ? undefined : prefs.get(lotKey));
  }

  /**
   * `watches` as the member sees them: each watched lot's rules with the member's own max bid, mute and snooze in
   * place of the team's (ownLotRules; the team's other rules as they are). For the watchlist and the answers of
   * watchlist.setRules, alerts.mute and alerts.snooze on a team server.
   */
  async ownRules<T extends WatchedLot>(userId: number, watches: T[]): Promise<T[]> {
    const own = await this.rulesOf(userId);
    return watches.map((w) => ({ ...w, rules: own(w.lot_key ?? w.lot?.lot_key ?? null, w.rules) }));
  }

  /**
   * The member's holds, loaded once for a page or a routing round: their lot preferences, and for each snooze until
   * an event, the alert that ended it (if it came).
   */
  async holds(userId: number): Promise<MemberHolds> {
    const prefs = new Map((await this.d.store.personal.lotPrefs(userId)).map((p) => [p.lot_key, p]));
    const lifts = new Map<string, number | null>();
    for (const p of prefs.values()) {
      if (p.snooze_until_event !== null && p.snoozed_at !== null && p.muted !== 1)
        lifts.set(
          p.lot_key,
          await this.d.store.personal.firstAlertOfKind(p.lot_key, p.snooze_until_event, p.snoozed_at),
        );
    }
    const quiet = (await this.settings(userId)).quietHours;
    return {
      quiet,
      hold: (a) =>
        memberHold(a, a.lot_key ? prefs.get(a.lot_key) : undefined, lifts.get(a.lot_key ?? '') ?? null),
    };
  }
}
