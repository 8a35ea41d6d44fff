import { PlaceholderView } from './PlaceholderView';

/** Everything Lotwatch has fetched, searchable offline, with CSV export. */
export function LibraryView() {
  return <PlaceholderView title="Library" text="Everything Lotwatch has fetched, searchable offline, with CSV export." />;
}
