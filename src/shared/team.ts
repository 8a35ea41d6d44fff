import { z } from 'zod';
import './zodMessages';
import type { MethodName } from './ipc/channels';
import type { Settings, SettingsPatch } from './settings';
import type { AlertRules } from './watch';

/**
 * A team member's role on a team server (docs/architecture.md "A team on one server"). Each role can do what the
 * ones before it can:
 * - `viewer` reads the team's searches, watches, lots and notes, and keeps their own inbox (read/unread);
 * - `buyer` also changes searches, watches, rules and notes, spends the team's requests, and keeps their own alert
 *   channels, snoozes, mutes, quiet hours and max bids;
 * - `admin` also sets the key, the plan and the team's settings, and manages the team's members.
 * The desktop app's one user is the local owner, who can do everything.
 */
export const ROLES = ['viewer', 'buyer', 'admin'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** True when `have` can do what `need` allows (admin > buyer > viewer). */
export function roleAllows(have: Role, need: Role): boolean {
  return ROLES.indexOf(have) >= ROLES.indexOf(need);
}

/**
 * The role each contract method needs on a team server: one line per method, so a method added to the contract
 * without a role fails the type check. Reads are `viewer`; whatever changes the team's data or spends a request of
 * the team's quota is `buyer`; the key, the plan, backups, the Demo examples and the team's members are `admin`.
 * A method a viewer may call still only ever touches the caller's own personal data (their inbox, their channels).
 * `settings.update` is `viewer` for a member's personal settings; a team setting in it needs `admin`
 * (TEAM_SETTING_KEYS), checked by the settings handler.
 */
export const METHOD_ROLES = {
  'app.info': 'viewer',
  'settings.get': 'viewer',
  'settings.update': 'viewer',
  'searches.list': 'viewer',
  'searches.create': 'buyer',
  'searches.update': 'buyer',
  'searches.remove': 'buyer',
  'searches.runNow': 'buyer',
  'searches.setPaused': 'buyer',
  'searches.estimate': 'viewer',
  'callWatches.list': 'viewer',
  'callWatches.create': 'buyer',
  'callWatches.update': 'buyer',
  'callWatches.remove': 'buyer',
  'callWatches.runNow': 'buyer',
  'callWatches.setPaused': 'buyer',
  'callWatches.answer': 'buyer',
  'watchlist.list': 'viewer',
  'watchlist.add': 'buyer',
  'watchlist.remove': 'buyer',
  'watchlist.setRules': 'buyer',
  'watchlist.checkNow': 'buyer',
  'alerts.list': 'viewer',
  'alerts.markRead': 'viewer',
  'alerts.snooze': 'buyer',
  'alerts.mute': 'buyer',
  'alerts.unread': 'viewer',
  'library.search': 'viewer',
  'lots.get': 'viewer',
  'status.get': 'viewer',
  'photos.get': 'viewer',
  'vehicles.search': 'buyer',
  'vehicles.filters': 'viewer',
  'vehicles.get': 'buyer',
  'vehicles.history': 'buyer',
  'vehicles.attempts': 'viewer',
  'vehicles.related': 'buyer',
  'shipping.get': 'viewer',
  'locations.list': 'viewer',
  'usage.fetch': 'buyer',
  'usage.byUser': 'viewer',
  'requests.list': 'viewer',
  'console.endpoints': 'viewer',
  'console.call': 'buyer',
  'lots.setNotes': 'buyer',
  'desk.lot': 'viewer',
  'desk.marketComps': 'buyer',
  'plan.calendar': 'viewer',
  'plan.renewCalendar': 'admin',
  'library.export': 'viewer',
  'examples.remove': 'admin',
  'examples.intro': 'viewer',
  'examples.dismissIntro': 'viewer',
  'key.set': 'admin',
  'key.test': 'admin',
  'key.clear': 'admin',
  'backups.list': 'admin',
  'backups.restore': 'admin',
  'channels.list': 'viewer',
  'channels.save': 'buyer',
  'channels.remove': 'buyer',
  'channels.test': 'buyer',
  'watchlist.nextSale': 'viewer',
  'watchlist.bulk': 'buyer',
  'team.me': 'viewer',
  'team.users.list': 'admin',
  'team.users.create': 'admin',
  'team.users.update': 'admin',
  'team.users.resetPassword': 'admin',
  'team.password.change': 'viewer',
  'teamLink.get': 'viewer',
  'teamLink.join': 'admin',
  'teamLink.leave': 'admin',
} as const satisfies Record<MethodName, Role>;

/**
 * The settings each member of a team keeps for themselves (their theme, whether they get notifications, their quiet
 * hours, the spend notices they have seen): on a team server `settings.get` answers the team's settings with the member's own values of these, and
 * `settings.update` writes these to the member's own row. Every other setting is the team's. The desktop app's one
 * user keeps every setting in one place, as before.
 */
export const PERSONAL_SETTING_KEYS = [
  'theme',
  'notificationsEnabled',
  'quietHours',
  // Each member is told once, before their own first request of a kind, that it uses the team's quota.
  'spendNoticesSeen',
] as const satisfies readonly (keyof Settings)[];
export type PersonalSettingKey = (typeof PERSONAL_SETTING_KEYS)[number];

/**
 * The fields of a watch's rules each member of a team keeps for themselves, per lot (table `lot_user_prefs`): their
 * max bid (USD) and their mute and snooze. On a team server a member's `watchlist.setRules` writes these to their own
 * row and the rest to the team's rules; every answer that carries a watch's rules to a member (the watchlist, the
 * answers of `watchlist.setRules`, `alerts.mute` and `alerts.snooze`) and the desk show the member's own values, and
 * a member who set none sees none (null, not muted), never the team's. The team's values of these fields are the
 * local owner's, and the watcher raises the team's alerts from them alone ("bid near / past your max bid" follows the
 * team's max bid): a member's own max bid raises no alert. The desktop app's one user keeps them in the watch's rules.
 */
export const PERSONAL_RULE_FIELDS = [
  'max_bid_usd',
  'muted',
  'snooze_until',
  'snooze_until_event',
] as const satisfies readonly (keyof AlertRules)[];
export type PersonalRuleField = (typeof PERSONAL_RULE_FIELDS)[number];

/**
 * The rule fields that describe the team's max bid (the landed cost it was solved for, what that left out): a member
 * sees them null beside their own max bid (the desk works out theirs from their max bid and the costs now), and a
 * member's `watchlist.setRules` keeps them out of the team's rules, since they describe the member's max bid.
 */
export const MAX_BID_DETAIL_FIELDS = [
  'target_landed_usd',
  'max_bid_excludes',
] as const satisfies readonly (keyof AlertRules)[];

/**
 * The settings that are the team's (the mode and service, the request limit, retention, costs, the watch pause,
 * and the rest): a `settings.update` that names one of them needs `admin` on a team server.
 */
export const TEAM_SETTING_KEYS = [
  'demoMode',
  'serviceUrl',
  'openAtLogin',
  'watchPausedUntil',
  'requestsPerDay',
  'retentionDays',
  'desk',
] as const;

/** Every settings key is either personal or the team's, and none is both: a new setting must be placed here. */
type SettingKey = keyof SettingsPatch;
type Listed = (typeof PERSONAL_SETTING_KEYS)[number] | (typeof TEAM_SETTING_KEYS)[number];
const _everySettingPlaced: [Exclude<SettingKey, Listed>, Exclude<Listed, SettingKey>] extends [never, never]
  ? true
  : false = true;
void _everySettingPlaced;

/** The team settings a `settings.update` input names (empty for anything that is not an object of settings). */
export function teamSettingsIn(patch: unknown): string[] {
  if (typeof patch !== 'object' || patch === null) return [];
  const team: readonly string[] = TEAM_SETTING_KEYS;
  return Object.keys(patch).filter((k) => team.includes(k));
}
