import { PlaceholderView } from './PlaceholderView';

/** Your key's quota, the request log and the scheduler's budget plan. */
export function UsageView() {
  return <PlaceholderView title="Usage" text="Your key's quota, the request log and the scheduler's budget plan." />;
}
