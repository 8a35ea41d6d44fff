import { PlaceholderView } from './PlaceholderView';

/** Auction facilities by text, state, facility or ZIP radius. */
export function LocationsView() {
  return <PlaceholderView title="Locations" text="Auction facilities by text, state, facility or ZIP radius." />;
}
