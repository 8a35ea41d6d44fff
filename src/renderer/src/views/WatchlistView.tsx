import { PlaceholderView } from './PlaceholderView';

/** Follow VINs and lots: current bid, buy now, state and a countdown to the auction. */
export function WatchlistView() {
  return <PlaceholderView title="Watchlist" text="Follow VINs and lots: current bid, buy now, state and a countdown to the auction." />;
}
