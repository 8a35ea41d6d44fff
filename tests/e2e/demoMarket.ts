import { expect } from '@playwright/test';

/**
 * The Demo market of a headless shell started with `--demo-control --demo-clock stepped`, driven through its
 * test-only control routes: the market (and the watcher with it) moves only when a spec steps it, and a lot sells,
 * is rescheduled or is relisted when the spec says. Every call checks the route answered 200 and fails the test with
 * the route's message otherwise.
 */

const DEMO_KEY = 'lotwatch-demo-key';
const MIN = 60_000;

/** A lot as the Demo service lists it (the real service's shape, the Demo default). */
export interface MarketLot {
  lot_number: string;
  title: string;
  vin: string;
  make: string;
  model: string;
  year: number;
  /** `state` is "open" until the lot ends. */
  auction: { auction_at: string; state: string };
  pricing: { current_bid_usd: number | null };
}

export class DemoMarket {
  constructor(readonly url: string) {}

  /** The market's time, ms since the epoch. */
  async now(): Promise<number> {
    const body = (await this.control('GET', 'clock')) as { market_now_ms: number };
    return body.market_now_ms;
  }

  /**
   * Steps the market and the watcher `minutes` of market time; resolves when the watcher's work that came due
   * (checks, saved-search runs, alerts) has run, in time order.
   */
  async step(minutes: number): Promise<void> {
    await this.control('POST', 'clock', { advance_ms: minutes * MIN });
  }

  /** Ends the open lot now at `price` USD ('sold' unless told: 'approval' or 'unsold'). */
  async sell(
    lotNumber: string,
    price: number | null,
    outcome: 'sold' | 'approval' | 'unsold' = 'sold',
  ): Promise<void> {
    await this.control('POST', 'sell', { lot_number: lotNumber, price, outcome });
  }

  /** Moves the open lot's sale to `auctionAt` (ms since the epoch, later than its present date). */
  async reschedule(lotNumber: string, auctionAt: number): Promise<void> {
    await this.control('POST', 'reschedule', {
      lot_number: lotNumber,
      auction_at: new Date(auctionAt).toISOString(),
    });
  }

  /** Lists the ended (unsold) lot's vehicle again with its sale at `auctionAt`; returns the new lot's number and title. */
  async relist(lotNumber: string, auctionAt: number): Promise<{ lot_number: string; title: string }> {
    return (await this.control('POST', 'relist', {
      lot_number: lotNumber,
      auction_at: new Date(auctionAt).toISOString(),
    })) as {
      lot_number: string;
      title: string;
    };
  }

  /**
   * The first open lot of the service's list (soonest sale first) whose sale is `fromMin` to `toMin` market minutes
   * away and whose title has `titleHas`, if given.
   * @throws Error when none is found in the first 10 pages.
   */
  async openLot(fromMin: number, toMin: number, titleHas = ''): Promise<MarketLot> {
    const now = await this.now();
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const query = `per_page=20${titleHas ? `&make=${encodeURIComponent(titleHas)}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await fetch(`${this.url}/api/v1/vehicle-auction/vehicles?${query}`, {
        headers: { 'X-API-Key': DEMO_KEY },
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: MarketLot[]; meta: { next_cursor: string | null } };
      const hit = body.data.find((v) => {
        const t = Date.parse(v.auction.auction_at) - now;
        return v.auction.state === 'open' && t > fromMin * MIN && t < toMin * MIN;
      });
      if (hit) return hit;
      cursor = body.meta.next_cursor;
      if (!cursor) break;
    }
    throw new Error(`no open lot ${fromMin}-${toMin} market minutes from its sale`);
  }

  private async control(method: 'GET' | 'POST', route: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${this.url}/__sandbox/${route}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as { data?: unknown; message?: string };
    expect(res.status, `${method} /__sandbox/${route}: ${json.message ?? ''}`).toBe(200);
    return json.data;
  }
}
