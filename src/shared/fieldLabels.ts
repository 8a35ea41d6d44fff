import { SEARCH_PARAMS } from './vehicleParams';

/**
 * The label the screen shows for each field a contract input or a service request can name
 * (docs/writing-guide.md rule 2: say the field's label as the screen shows it, never `year_from` or
 * `rules.bid_above_usd`). Error texts built from a field map go through `fieldsMessage`; the map's keys stay as they
 * are, since the screens mark their fields by key. Pure: core and the renderer both import it.
 */

/** Fields named by two path segments, where the last one alone is ambiguous (`start` of which quiet hours?). */
const BY_PAIR: Readonly<Record<string, string>> = {
  // Settings: the app's quiet hours.
  'quietHours.enabled': 'Quiet hours',
  'quietHours.start': 'Quiet hours from',
  'quietHours.end': 'Quiet hours until',
  // A channel's own quiet hours.
  'quiet_hours.enabled': 'Quiet hours',
  'quiet_hours.start': 'Quiet from',
  'quiet_hours.end': 'Quiet until',
  // A channel's server settings (src/shared/alertChannels.ts).
  'config.host': 'Mail server (SMTP host)',
  'config.port': 'Port',
  'config.security': 'Security',
  'config.username': 'User name',
  'config.from': 'From address',
  'config.to': 'To address',
  'config.server': 'ntfy server',
  'config.topic': 'Topic',
  'config.priority': 'Priority',
  'config.format': 'Format',
  'config.telegram_chat_id': 'Telegram chat ID',
  'config.type': 'Channel type',
  'rules.kinds': 'Notify me about',
  'desk.port': 'Port',
  'desk.membership': 'Membership',
};

/** Fields named by their last path segment. */
const BY_NAME: Readonly<Record<string, string>> = {
  // Alert rules (src/shared/watch.ts AlertRulesSchema), as the rules form labels them.
  bid_above_usd: 'Bid rises to (USD)',
  bid_below_usd: 'Bid at or below (USD)',
  buy_now_under_usd: 'Buy now at or under (USD)',
  max_price_usd: 'New matches only under (USD)',
  max_bid_usd: 'Max bid (USD)',
  max_bid_near_percent: 'Alert near the max bid (%)',
  comps_below_percent: "New matches only under this % of comparable sales' median",
  relist_attempt: 'Tell me when it comes back for attempt no. (2-20)',
  exportable_only: 'Exportable title only',
  repair_under_acv_percent: 'Repair cost under this % of ACV',
  target_landed_usd: 'Landed cost (USD)',
  max_bid_excludes: 'Max bid leaves out',
  remind_minutes_before: 'Remind me (minutes before)',
  muted: 'Mute',
  snooze_until: 'Snooze until',
  snooze_until_event: 'Snooze until',
  cap_per_lot_per_hour: 'Alerts per lot per hour',
  kinds: 'Alerts to send',
  rules: 'Alert rules',
  // Settings (src/shared/settings.ts SettingsSchema).
  theme: 'Theme',
  demoMode: 'Demo mode',
  serviceUrl: 'Service URL',
  openAtLogin: 'Start at login',
  watchPausedUntil: 'Watching paused until',
  notificationsEnabled: 'System notifications',
  quietHours: 'Quiet hours',
  requestsPerDay: 'Requests a day',
  spendNoticesSeen: 'Request notices',
  desk: 'Buying costs',
  membership: 'Membership',
  omit_fees: 'Fees you never pay',
  custom_fees: 'Fees you always pay',
  own_lines: 'Your own cost lines',
  port_choice: 'Port for landed cost',
  destinations: 'Destinations',
  country: 'Country',
  ocean_freight_usd: 'Ocean freight (USD)',
  duty_percent: 'Duty (% of the bid)',
  // Alert channels (src/shared/alertChannels.ts).
  name: 'Name',
  enabled: 'On',
  quiet: 'Quiet hours',
  quiet_hours: 'Quiet hours',
  host: 'Mail server (SMTP host)',
  port: 'Port',
  security: 'Security',
  username: 'User name',
  from: 'From address',
  to: 'To address',
  server: 'ntfy server',
  topic: 'Topic',
  priority: 'Priority',
  format: 'Format',
  telegram_chat_id: 'Telegram chat ID',
  secret: 'Password, token or address',
  config: 'Channel settings',
  // Saved searches, the watchlist, the lot page.
  schedule: 'Schedule',
  max_pages: 'Pages a run',
  maxPages: 'Pages',
  target: 'VIN, lot number or lot-page URL',
  label: 'Label',
  notes: 'Notes',
  tags: 'Tags',
  key: 'API key',
  // Single-lot and location requests (the API console names them as the service does).
  slugVin: 'VIN or lot number',
  vin: 'VIN',
  lot_number: 'Lot number',
  ports: 'Ports',
  url: 'Address (URL)',
  state: 'State',
  q: 'Search text',
};

/** GET /vehicles parameters, labelled as the search form labels them (src/shared/vehicleParams.ts). */
const SEARCH_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  SEARCH_PARAMS.map((p) => [p.name, p.label]),
);

function own(map: Readonly<Record<string, string>>, key: string | undefined): string | null {
  return key !== undefined && Object.hasOwn(map, key) ? (map[key] ?? null) : null;
}

/**
 * The screen's label for a field key as a field map names it (`rules.bid_above_usd`, `quietHours.start`,
 * `params.year_from`, `remind_minutes_before.0`), or null when Lotwatch has no label for it (an unknown parameter,
 * a root-level problem `_`). Array indexes are skipped. Throws nothing.
 */
export function fieldLabel(key: string): string | null {
  const parts = key.split('.').filter((p) => p !== '' && !/^\d+$/.test(p));
  const last = parts[parts.length - 1];
  const pair = parts.length >= 2 ? `${parts[parts.length - 2]}.${last}` : undefined;
  return own(BY_PAIR, pair) ?? own(SEARCH_LABELS, last) ?? own(BY_NAME, last);
}

/** Words a field message may start with that read on after a colon in lower case ("Year from: enter a number."). */
const LOWER_AFTER_COLON = new Set([
  'Enter',
  'Choose',
  'Keep',
  'Use',
  'Give',
  'Must',
  'Fill',
  'Add',
  'Remove',
  'Correct',
  'Check',
  'Select',
  'Set',
  'Pick',
  'Allow',
  'At',
  'The',
  'This',
  'That',
  'Not',
  'Only',
  'A',
  'An',
  'Too',
  'Paste',
  'Type',
  'Write',
]);

/** A field's message after its label and a colon: the first word in lower case when it is an ordinary word. */
function afterColon(message: string): string {
  const first = /^[A-Za-z]+/.exec(message)?.[0];
  return first && LOWER_AFTER_COLON.has(first) ? message.charAt(0).toLowerCase() + message.slice(1) : message;
}

/**
 * "Year from: enter a number." A field's label and its message as one line, the message's first word in lower case
 * when it is an ordinary word and a full stop at its end. Throws nothing.
 */
export function labelled(label: string, message: string): string {
  const said = message.trim() || 'This value is not valid.';
  return `${label}: ${afterColon(/[.!?]$/.test(said) ? said : `${said}.`)}`;
}

/**
 * One sentence for a field map (`{ key: [messages] }`), as core's `bad_input` errors say it: "Bid rises to (USD):
 * enter a number." for one field, "Year from: enter a whole number from 1900 to 2100 (and 2 more marked fields)."
 * for several. A key with no label reads "Correct the marked field: …"; a problem with the input as a whole (key
 * `_`, or no key) is said alone. The keys are never in the text. Empty map: null. Throws nothing.
 */
export function fieldsMessage(fields: Readonly<Record<string, readonly string[]>>): string | null {
  const entries = Object.entries(fields).filter(([, msgs]) => msgs.length > 0);
  const first = entries[0];
  if (!first) return null;
  const [key, msgs] = first;
  const said = (msgs[0] ?? '').trim() || 'This value is not valid.';
  const message = /[.!?]$/.test(said) ? said : `${said}.`;
  const more = entries.length - 1;
  const body =
    more > 0
      ? `${message.replace(/[.\s]+$/, '')} (and ${more} more marked field${more === 1 ? '' : 's'}).`
      : message;
  if (key === '_' || key === '') return body;
  return labelled(fieldLabel(key) ?? 'Correct the marked field', body);
}
