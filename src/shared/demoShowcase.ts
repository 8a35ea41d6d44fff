/**
 * A lot of the Demo market about to bid on the block, as the built-in sandbox knows it (its ground truth): Demo mode
 * picks its example watches from these so a new user sees an alert within minutes (src/core/demo/showcase.ts). Only
 * the simulated market can say this; the real service never tells when a lot goes on the block.
 */
export interface DemoLiveBid {
  /** The lot number, as the service lists it (never truncated). */
  lot_number: string;
  /** The vehicle's title, e.g. `2019 TESLA MODEL 3 LONG RANGE`. */
  title: string;
  /** The listed sale time (auction.auction_at), ms since the epoch. */
  auction_at: number;
  /** When the lot's next bid on the block is placed, ms since the epoch (the service shows it 10 to 15 s later). */
  bid_at: number;
  /** That bid, USD. */
  bid_usd: number;
  /** When the lot's auction ends, ms since the epoch. */
  end_at: number;
}
