import { PlaceholderView } from './PlaceholderView';

/** Every change that passed your rules, unread first, grouped by lot. */
export function AlertsView() {
  return <PlaceholderView title="Alerts" text="Every change that passed your rules, unread first, grouped by lot." />;
}
