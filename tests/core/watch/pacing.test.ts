import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/core/app';
import type { Lot, MarketEvent, Sandbox } from '../../../src/sandbox/index';
import { FakeClock } from '../../helpers/fakeClock';
import { driveTo, END, endDay, HOUR, key, MIN, narrowSearchesOn, START, watchedDay } from './simulatedDay';

// A tight budget spread over the day (docs/architecture.md "Request budget"): 300 requests a day for ten watched lots
// and three saved searches that alone would want about a thousand. The engine against the sandbox for a simulated
// day on fake time. The day's requests must not all go in its first hours (no silence of hours while searches are due
// every ten minutes), stay within the allowance, and the searches must not starve the sale results of watched lots.

const BUDGET = 300;

describe('a day at 300 requests with 10 watched lots and 3 saved searches', () => {
  let sb: Sandbox;
  let core: Core;
  let cleanup: () => void;
  let watched: Lot[] = [];
  let events: MarketEvent[] = [];
  let alerts: { kind: string; lot_key: string | null; created_at: number }[] = [];
  let sent: { at: number; endpoint: string }[] = [];
  let spent = 0;

  beforeAll(async () => {
    const clock = new FakeClock(START);
    const day = await watchedDay(
      clock,
      BUDGET,
      // Ten lots selling between the 1st and the 22nd hour, one every hour and a half or more: sale results due all
      // day long, each one affordable at 12.5 requests an hour.
      (m) => {
        const picked: Lot[] = [];
        for (const l of m.sorted) {
          if (l.subStatus !== 'Open' || l.auctionAt <= START + HOUR || l.auctionAt >= START + 22 * HOUR)
            continue;
          if (picked.length === 10) break;
          if (picked.length === 0 || l.auctionAt >= picked.at(-1)!.auctionAt + 100 * MIN) picked.push(l);
        }
        return picked;
      },
      // Three saved searches every 10 minutes, two or three pages each: about a thousand requests a day on their own.
      (m) => narrowSearchesOn(m, '*/10 * * * *', 5),
    );
    ({ sb, core, cleanup, watched } = day);
    const { ok } = day;
    const firstEvent = day.fromSeq;
    events = await driveTo({ core, sb }, clock, END, firstEvent, 20_000);
    alerts = (await ok('alerts.list', { limit: 500 }))['alerts'] as typeof alerts;
    sent = ((await ok('requests.list', { limit: 1000 }))['rows'] as typeof sent).sort((a, b) => a.at - b.at);
    spent = ((await ok('status.get'))['budget'] as { spentLast24h: number }).spentLast24h;
  }, 180_000);

  afterAll(() => endDay({ core, sb, cleanup }));

  it('spreads the requests over the day: no gap over 2 hours, within the allowance', () => {
    expect(spent).toBeLessThanOrEqual(BUDGET);
    // Searches are due every ten minutes all day: work is always waiting.
    const times = [...sent.map((r) => r.at), END];
    let gap = 0;
    for (let i = 1; i < times.length; i++) gap = Math.max(gap, times[i]! - times[i - 1]!);
    const perHour = Array.from(
      { length: 24 },
      (_, h) => sent.filter((r) => r.at >= START + h * HOUR && r.at < START + (h + 1) * HOUR).length,
    );
    console.log(
      `[pacing] ${spent}/${BUDGET} requests; per hour ${perHour.join(' ')}; longest gap ${(gap / MIN).toFixed(0)} min`,
    );
    expect(gap / HOUR).toBeLessThanOrEqual(2);
    // Spread, not spent in the first hours: the last third of the day still gets a fair share.
    const late = sent.filter((r) => r.at >= START + 16 * HOUR).length;
    expect(late).toBeGreaterThanOrEqual(BUDGET / 6);
  });

  it('uses the day it is given: at least 95 % of the allowance, since searches are always waiting', () => {
    // A search waiting for the tokens kept for the watchlist must not hold the watch checks behind it (nor send the
    // loop to sleep for an hour with the bucket full).
    expect(spent).toBeGreaterThanOrEqual(0.95 * BUDGET);
  });

  it('catches every sale result of a watched lot within 15 minutes of the service showing it: searches yield first', () => {
    const lots = new Set(watched.map(key));
    const ends = events.filter(
      (e) => e.kind === 'state' && lots.has(key(e)) && e.data['lot_sub_status'] === 'Ended',
    );
    expect(ends.length).toBeGreaterThanOrEqual(8);
    for (const e of ends) {
      const a = alerts.filter((x) => x.kind === 'sale_result' && x.lot_key === key(e));
      expect(a, key(e)).toHaveLength(1);
      // From when the service showed it: the service itself refreshes states within about 15 minutes.
      expect((a[0]!.created_at - e.visible_t) / MIN, key(e)).toBeLessThanOrEqual(15);
    }
    // The searches got the rest: pacing does not stop them altogether.
    expect(
      sent.filter((r) => r.endpoint.startsWith('/vehicles?') || r.endpoint === '/vehicles').length,
    ).toBeGreaterThan(50);
  });
});
