import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/core/app';
import type { Lot, Sandbox } from '../../../src/sandbox/index';
import { FakeClock } from '../../helpers/fakeClock';
import { driveTo, endDay, HOUR, key, MIN, simulatedDayCore, START } from './simulatedDay';

// The Demo as a buyer tries it: six lots selling within the next hour, each watched with "bid reaches current +
// $200", against the Demo's sandbox over real HTTP (the real service's dialect, its refresh lag: prices within
// 15 minutes, live bids every 10 to 15 s, the Demo plan's quota), on fake time that drives the market and the watcher
// alike, as the stepped Demo clock does. Each threshold alert must come while the lot is still open: before its
// sale-result alert, naming a bid below the final price, not the hammer price beside "Sold for".

type Alert = { kind: string; lot_key: string | null; title: string; created_at: number };
const LOTS = 6;
const money = (s: string): number | null => {
  const m = /bid reached \$([\d,]+)/.exec(s);
  return m ? Number(m[1]!.replace(/,/g, '')) : null;
};

describe('bids before the sale (the Demo, lots selling within the hour)', () => {
  let sb: Sandbox;
  let core: Core;
  let cleanup: () => void;
  let watched: Lot[] = [];
  let alerts: Alert[] = [];
  let requests = 0;
  const thresholds = new Map<string, number>();

  beforeAll(async () => {
    const clock = new FakeClock(START);
    const day = await simulatedDayCore(clock, { sandbox: { refresh: 'real', lots: 5_000 } });
    ({ sb, core, cleanup } = day);
    const shown = sb.market.service;
    watched = sb.market.sorted
      .filter((l) => l.subStatus === 'Open' && l.auctionAt > START + 5 * MIN && l.auctionAt <= START + HOUR)
      .filter((l) => (shown.findLot(l.lotNumber)?.currentBid ?? 0) > 0)
      // Lots whose bid will pass the buyer's threshold with room for a bid between it and the hammer: the market's
      // plan (its last bid step), which the watcher never sees.
      .filter((l) => Math.max(...l.steps.map((s) => ((s.k as number) === 0 ? s.v : 0))) > l.currentBid + 300)
      .slice(0, LOTS);
    for (const l of watched) {
      // The bid the buyer sees now, plus $200.
      const threshold = shown.findLot(l.lotNumber)!.currentBid + 200;
      thresholds.set(key(l), threshold);
      await day.ok('watchlist.add', { target: l.lotNumber, rules: { bid_above_usd: threshold } });
    }
    const end = Math.max(...watched.map((l) => l.auctionAt)) + 2 * HOUR;
    await core.engine.runDue();
    await driveTo({ core, sb }, clock, end, sb.market.events.at(-1)?.seq ?? 0);
    alerts = (await day.ok('alerts.list', { limit: 500 }))['alerts'] as Alert[];
    requests = ((await day.ok('status.get'))['budget'] as { spentLast24h: number }).spentLast24h;
  }, 120_000);

  afterAll(() => endDay({ core, sb, cleanup }));

  it(`watches ${LOTS} lots selling within the hour that sell above their threshold`, () => {
    expect(watched).toHaveLength(LOTS);
    for (const l of watched) {
      expect(l.subStatus, key(l)).toBe('Ended');
      expect(l.currentBid, key(l)).toBeGreaterThanOrEqual(thresholds.get(key(l))!);
    }
  });

  it('alerts each threshold while the lot is open: before its sale result, at a bid below the final price', () => {
    for (const l of watched) {
      const mine = alerts.filter((a) => a.lot_key === key(l));
      const threshold = mine.filter((a) => a.kind === 'threshold');
      const result = mine.filter((a) => a.kind === 'sale_result');
      expect(threshold, `${key(l)}: ${mine.map((a) => a.title).join(' | ')}`).toHaveLength(1);
      expect(result, key(l)).toHaveLength(1);
      expect(threshold[0]!.created_at, key(l)).toBeLessThan(result[0]!.created_at);
      expect(threshold[0]!.title).not.toMatch(/seen only with the result/);
      const bid = money(threshold[0]!.title);
      expect(bid, threshold[0]!.title).not.toBeNull();
      expect(bid!, `${key(l)} final ${l.currentBid}`).toBeGreaterThanOrEqual(thresholds.get(key(l))!);
      expect(bid!, `${key(l)} final ${l.currentBid}`).toBeLessThan(l.currentBid);
    }
  });

  it('spends tens of requests a lot on its last hour and its sale, not hundreds', () => {
    // Printed for the record: the cost of the looks before and on the block.
    console.info(`bids before the sale: ${requests} requests for ${LOTS} lots`);
    expect(requests).toBeLessThan(LOTS * 60);
  });
});
