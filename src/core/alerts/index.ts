/**
 * Alert rules and policy (docs/architecture.md "The parts": alerts/ pure rules + policy -> alerts; delivery ports).
 * Everything here is pure: time comes in as ms since the epoch.
 */
export { decide, deliveryFor, type AlertDecision, type DecideInput, type DeliveryDecision } from './decide';
export { inQuietHours, quietHoursEnd } from './quietHours';
export { dueReminders } from './reminders';
export { buildDigest, buildRecoveryNotice, DIGEST_TITLES } from './digest';
export {
  keyRejectedAlert,
  quotaLowAlert,
  quotaSpentAlert,
  searchFailingAlert,
  searchEmptyAlert,
  SEARCH_FAILING_AFTER,
  channelFailingAlert,
  CHANNEL_FAILING_AFTER,
} from './system';
export {
  callChangeAlerts,
  callFailingAlert,
  callShapeAlert,
  itemNoun,
  valueText,
  type CallAlertDecision,
  type CallWatchRef,
} from './callAlerts';
export type { Notifier } from './notifier';
export { usd } from './format';
