import { PlaceholderView } from './PlaceholderView';

/** Your saved searches, their schedules, last and next run, and new matches. */
export function SavedSearchesView() {
  return <PlaceholderView title="SavedSearches" text="Your saved searches, their schedules, last and next run, and new matches." />;
}
