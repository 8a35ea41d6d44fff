import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/core/app';
import type { Lot, Sandbox } from '../../../src/sandbox/index';
import { FakeClock } from '../../helpers/fakeClock';
import { driveTo, endDay, HOUR, key, narrowSearches, simulatedDayCore, START } from './simulatedDay';

// A tight budget (docs/architecture.md "Request budget", its paragraph on relist look-ups on a tight budget): 10
// requests a day for four watched lots that end unsold in the first hours and three saved searches every 15 minutes. With the lots over, what the watchlist
// still wants is relist look-ups by VIN, which mostly find nothing; the searches' pages bring new matches. The pages
// must get the day's requests, and each lot must still be looked up for a relist (delayed, not dropped).

const BUDGET = 10;

describe('relist look-ups beside three saved searches on 10 requests a day', () => {
  let sb: Sandbox;
  let core: Core;
  let cleanup: () => void;
  let watched: Lot[] = [];
  let sent: { at: number; endpoint: string }[] = [];
  let watches: { vin: string | null; last_checked_at: number | null }[] = [];
  const end = START + 72 * HOUR;

  beforeAll(async () => {
    const clock = new FakeClock(START);
    const day = await simulatedDayCore(clock);
    ({ sb, core, cleanup } = day);
    const { ok } = day;
    await ok('settings.update', { requestsPerDay: BUDGET });
    watched = sb.market.sorted
      .filter(
        (l) =>
          l.subStatus === 'Open' &&
          l.outcome === 'unsold' &&
          l.auctionAt > START + HOUR &&
          l.auctionAt < START + 4 * HOUR,
      )
      .slice(0, 4);
    for (const l of watched) await ok('watchlist.add', { target: l.lotNumber });
    for (const { name, make, model, platform } of narrowSearches(sb.market)) {
      await ok('searches.create', { name, params: { make, model, platform }, schedule: '*/15 * * * *' });
    }
    const first = sb.market.events.at(-1)?.seq ?? 0;
    await driveTo({ core, sb }, clock, end, first, 20_000);
    sent = ((await ok('requests.list', { limit: 1000 }))['rows'] as typeof sent).sort((a, b) => a.at - b.at);
    watches = (await ok('watchlist.list')) as unknown as typeof watches;
  }, 180_000);

  afterAll(() => endDay({ core, sb, cleanup }));

  it('gives the saved searches the requests once the lots are over, and still looks each lot up for a relist', () => {
    expect(watched).toHaveLength(4);
    const over = Math.max(...watched.map((l) => l.endedAt ?? Infinity)) + HOUR;
    expect(over).toBeLessThan(START + 12 * HOUR);
    const after = sent.filter((r) => r.at >= over);
    const pages = after.filter((r) => r.endpoint === '/vehicles').length;
    const lookUps = after.length - pages;
    console.log(`[relistYield] after the lots ended: ${pages} search pages, ${lookUps} relist look-ups`);
    expect(after.length).toBeLessThanOrEqual(3 * BUDGET);
    expect(pages).toBeGreaterThan(lookUps);
    // Each lot was fetched again hours after its result (the result is seen within minutes of the end): a look-up.
    for (const l of watched) {
      const w = watches.find((x) => x.vin === l.v.vin);
      expect(w?.last_checked_at ?? 0, key(l)).toBeGreaterThan((l.endedAt ?? Infinity) + 2 * HOUR);
    }
  });
});
