import { PlaceholderView } from './PlaceholderView';

/** Find lots on both platforms with every filter of the service, and save a search to watch it. */
export function SearchView() {
  return <PlaceholderView title="Search" text="Find lots on both platforms with every filter of the service, and save a search to watch it." />;
}
