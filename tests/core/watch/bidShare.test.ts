import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/core/app';
import type { Lot, Sandbox } from '../../../src/sandbox/index';
import { FakeClock } from '../../helpers/fakeClock';
import { driveTo, endDay, HOUR, key, sellingBetween, simulatedDayCore, START } from './simulatedDay';

// A bid share the allowance pays for (docs/architecture.md "Request budget", its paragraph on bids before the sale):
// 40 watched lots selling 62 to 100 hours after the start, each with a bid rule far above its bid, on 32 requests a
// day and no saved search. Each lot's fair share is a look every 30 hours (40 lots x 24 h / 32), and no sale falls in
// the first two days, so the share is paid for: each lot is looked at again before its sale, once the first readings
// have left the rolling day (the day's allowance is paced, so a few lots' looks come after hour 60: three quarters of
// them are required, here 35 of 40). The share is over a day, so the rule before (kept only when it looked daily)
// stretched it by the watchlist's scale: none of the 40 was looked at again before hour 60.

const BUDGET = 32;
const LOTS = 40;

describe('a bid share the allowance pays for: looks between the first reading and the sale', () => {
  let sb: Sandbox;
  let core: Core;
  let cleanup: () => void;
  let watched: Lot[] = [];
  /** Each watched lot's stored observations: when each content was first and last seen (ms). */
  let seen: { lot_key: string; observed_at: number; last_seen_at: number }[] = [];

  beforeAll(async () => {
    const clock = new FakeClock(START);
    const day = await simulatedDayCore(clock);
    ({ sb, core, cleanup } = day);
    await day.ok('settings.update', { requestsPerDay: BUDGET });
    const shown = sb.market.service;
    const all = sellingBetween(sb.market, 62, 100);
    // Evenly along the sale times, as a buyer adds lots days ahead.
    watched = Array.from({ length: LOTS }, (_, i) => all[Math.floor((i * all.length) / LOTS)]!);
    for (const l of watched) {
      const threshold = (shown.findLot(l.lotNumber)?.currentBid ?? 0) + 1_000_000;
      await day.ok('watchlist.add', { target: l.lotNumber, rules: { bid_above_usd: threshold } });
    }
    await core.engine.runDue();
    await driveTo({ core, sb }, clock, START + 60 * HOUR, sb.market.events.at(-1)?.seq ?? 0);
    const db = new BetterSqlite3(join(day.dir, 'lotwatch.sqlite'), { readonly: true });
    seen = db.prepare('SELECT lot_key, observed_at, last_seen_at FROM observations').all() as typeof seen;
    db.close();
  }, 180_000);

  afterAll(() => endDay({ core, sb, cleanup }));

  it('looks at each lot again in the two days before any of them sells', () => {
    expect(watched).toHaveLength(LOTS);
    expect(new Set(watched.map(key)).size).toBe(LOTS);
    const lookedAgain = watched.filter((l) =>
      seen.some(
        (o) =>
          o.lot_key === key(l) &&
          [o.observed_at, o.last_seen_at].some((t) => t >= START + HOUR && t <= START + 60 * HOUR),
      ),
    );
    console.log(`[bidShare] ${lookedAgain.length} of ${LOTS} lots looked at between hour 1 and hour 60`);
    expect(lookedAgain.length).toBeGreaterThanOrEqual((LOTS * 3) / 4);
  });
});
