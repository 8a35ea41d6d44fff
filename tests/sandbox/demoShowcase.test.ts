import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDemoService, demoWorldStart, DEMO_WORLD_LEAD_MS } from '../../src/sandbox/demo';
import { Market } from '../../src/sandbox/market';
import { START } from './harness';

const MIN = 60_000;
let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe("the Demo market's next bids on the block (the first start's examples)", () => {
  it('lists open lots whose next live bid comes in the window, soonest first, as the market then places it', () => {
    const m = new Market({ seed: 42, lots: 4000, startTime: START });
    const now = START + 30 * MIN;
    m.advanceTo(now);
    const bids = m.upcomingLiveBids(now, now + 10 * MIN, 30);
    expect(bids.length).toBeGreaterThan(0);
    expect(bids.map((b) => b.bidAt)).toEqual([...bids.map((b) => b.bidAt)].sort((a, b) => a - b));
    for (const b of bids) {
      expect(b.bidAt).toBeGreaterThanOrEqual(now);
      expect(b.bidAt).toBeLessThanOrEqual(now + 10 * MIN);
      expect(b.bidAt).toBeLessThan(b.endAt);
      expect(b.bidAt).toBeGreaterThanOrEqual(b.auctionAt);
    }
    // The ground truth holds: at its time, each bid is the lot's current bid on the block.
    for (const b of bids.slice(0, 5)) {
      m.advanceTo(b.bidAt);
      const lot = m.findLot(b.lotNumber)!;
      expect(lot.state).toBe('live');
      expect(lot.currentBid).toBe(b.bidUsd);
    }
    expect(m.upcomingLiveBids(now, now + 10 * MIN, 2)).toHaveLength(Math.min(2, bids.length));
  });

  it('a new Demo world starts 30 minutes back, so its first start has lots bidding on the block within 3 minutes', async () => {
    dir = mkdtempSync(join(tmpdir(), 'demo-showcase-'));
    const now = Date.now();
    const startTime = demoWorldStart(dir, now, undefined, DEMO_WORLD_LEAD_MS);
    expect(startTime).toBe(Math.floor((now - 30 * MIN) / MIN) * MIN);
    // A restart keeps that world.
    expect(demoWorldStart(dir, now + 5 * MIN, undefined, DEMO_WORLD_LEAD_MS)).toBe(startTime);
    const demo = createDemoService({ startTime, align: () => Date.now() });
    try {
      const bids = (await demo.get()).liveBids();
      const t = Date.now();
      expect(bids.length).toBeGreaterThanOrEqual(3);
      for (const b of bids) expect(b.bid_at).toBeLessThanOrEqual(t + 3 * MIN + 1000);
      expect(bids.every((b) => /^\d+$/.test(b.lot_number) && b.title.length > 0)).toBe(true);
    } finally {
      await demo.dispose();
    }
  });
});
