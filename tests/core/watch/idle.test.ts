import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coresPerTest } from '../../helpers/core';
import { FakeClock } from '../../helpers/fakeClock';
import { startSandbox, type Sandbox } from '../../helpers/sandbox';

// With the budget spent, the watcher sleeps until the next request fits instead of ticking for nothing (a free-plan
// user's normal state for much of the month). Core against the sandbox over real HTTP, on fake time: the day is driven
// timer by timer, and the timers the engine sets are counted. A loop that re-ticks at once never moves the clock.

const MIN = 60_000;
const HOUR = 60 * MIN;
const START = Date.UTC(2026, 5, 1, 6, 0, 0);
const WATCHES = 100;
const DAY = 24 * HOUR;
let sb: Sandbox;
/** A sandbox whose plan has exactly the requests that adding the lots takes: spent when they are added. */
let small: Sandbox;

beforeAll(async () => {
  [sb, small] = await Promise.all([
    startSandbox({ seed: 14, lots: 3000, startTime: START, speed: 0, ratePerSecond: 0 }),
    startSandbox({
      seed: 14,
      lots: 3000,
      startTime: START,
      speed: 0,
      ratePerSecond: 0,
      quota: { limit: WATCHES, periodMs: 30 * DAY },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([sb.dispose(), small.dispose()]);
});
const startCore = coresPerTest();

/** A started core in Demo mode with 100 watched lots (one request each to add) and `requestsPerDay` set. */
async function hundredWatches(requestsPerDay: number, service: Sandbox) {
  const {
    core,
    clock,
    value: ok,
  } = await startCore({ sandbox: service, clock: new FakeClock(START), autoStart: true });
  await ok('settings.update', { requestsPerDay });
  // Lots selling over the next days, some today: their sale-time anchors are due during the simulated day.
  const lots = service.market.sorted
    .filter((l) => l.subStatus === 'Open' && l.auctionAt > START + HOUR)
    .slice(0, WATCHES);
  for (const l of lots) await ok('watchlist.add', { target: l.lotNumber });
  await core.engine.idle();
  const requests = async () => ((await ok('status.get'))['budget'] as { spentLast24h: number }).spentLast24h;
  /** Drives the clock timer by timer to `end` (at most `limit` timers); returns how many fired. */
  async function driveTo(end: number, limit = 3000): Promise<number> {
    let fired = 0;
    while (clock.now() < end && fired < limit) {
      const next = clock.nextTimerAt();
      if (next !== null && next <= end) fired++;
      clock.advanceTo(Math.min(next ?? end, end));
      await core.engine.idle();
    }
    return fired;
  }
  return { core, clock, ok, requests, driveTo };
}

describe('idle when nothing fits', () => {
  it('with the daily allowance spent by 100 watches: a few dozen ticks over a day, not one per millisecond', async () => {
    const env = await hundredWatches(20, sb);
    // Adding the lots spent 100 requests: five times the day's 20.
    expect(await env.requests()).toBe(WATCHES);
    const fired = await env.driveTo(START + 23 * HOUR);
    expect(env.clock.now()).toBe(START + 23 * HOUR);
    expect(fired).toBeLessThan(100);
    // Nothing went out while the rolling day was over its allowance.
    expect(await env.requests()).toBe(WATCHES);
  }, 120_000);

  it('with the plan spent until the period ends: wakes for what it can do, not every minute', async () => {
    const env = await hundredWatches(1000, small);
    // The service's headers said so with the last add: nothing left until the period ends, days away.
    expect(env.core.engine.pause()).toMatchObject({ kind: 'quota_spent' });
    const before = await env.requests();
    const fired = await env.driveTo(START + 24 * HOUR);
    expect(env.clock.now()).toBe(START + 24 * HOUR);
    expect(fired).toBeLessThan(100);
    expect(await env.requests()).toBe(before);
  }, 120_000);
});
