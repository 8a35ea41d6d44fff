import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/core/app';
import type { Lot, Sandbox } from '../../../src/sandbox/index';
import { FakeClock } from '../../helpers/fakeClock';
import {
  driveTo,
  endDay,
  HOUR,
  key,
  narrowSearchesOn,
  sellingBetween,
  START,
  watchedDay,
} from './simulatedDay';

// A tight budget (docs/architecture.md "Request budget", its paragraph on relist look-ups on a tight budget): 10
// requests a day for four or eight watched lots that end unsold in the first hours and three saved searches every 15
// minutes. With the lots over, what the watchlist still wants is relist look-ups by VIN, which mostly find nothing;
// the searches' pages bring new matches. The pages must get most of the day's requests, and each lot must still be
// looked up for a relist (delayed, not dropped). Eight lots took 16 of 20 requests when a look-up beat a page
// whenever it had waited its own interval.

const BUDGET = 10;

describe.each([4, 8])('%i unsold lots beside three saved searches on 10 requests a day', (LOTS) => {
  let sb: Sandbox;
  let core: Core;
  let cleanup: () => void;
  let watched: Lot[] = [];
  let sent: { at: number; endpoint: string }[] = [];
  let watches: { vin: string | null; last_checked_at: number | null }[] = [];
  const end = START + 72 * HOUR;

  beforeAll(async () => {
    const clock = new FakeClock(START);
    const day = await watchedDay(
      clock,
      BUDGET,
      (m) =>
        sellingBetween(m, 1, 4)
          .filter((l) => l.outcome === 'unsold')
          .slice(0, LOTS),
      (m) => narrowSearchesOn(m, '*/15 * * * *'),
    );
    ({ sb, core, cleanup, watched } = day);
    const { ok } = day;
    await driveTo({ core, sb }, clock, end, day.fromSeq, 20_000);
    sent = ((await ok('requests.list', { limit: 1000 }))['rows'] as typeof sent).sort((a, b) => a.at - b.at);
    watches = (await ok('watchlist.list')) as unknown as typeof watches;
  }, 180_000);

  afterAll(() => endDay({ core, sb, cleanup }));

  it('gives the saved searches the requests once the lots are over, and still looks each lot up for a relist', () => {
    expect(watched).toHaveLength(LOTS);
    const over = Math.max(...watched.map((l) => l.endedAt ?? Infinity)) + HOUR;
    expect(over).toBeLessThan(START + 12 * HOUR);
    const after = sent.filter((r) => r.at >= over);
    const pages = after.filter((r) => r.endpoint === '/vehicles').length;
    const lookUps = after.length - pages;
    console.log(
      `[relistYield ${LOTS}] after the lots ended: ${pages} search pages, ${lookUps} relist look-ups`,
    );
    expect(after.length).toBeLessThanOrEqual(3 * BUDGET);
    expect(pages).toBeGreaterThan(lookUps);
    // Each lot was fetched again hours after its result (the result is seen within minutes of the end): a look-up.
    for (const l of watched) {
      const w = watches.find((x) => x.vin === l.v.vin);
      expect(w?.last_checked_at ?? 0, key(l)).toBeGreaterThan((l.endedAt ?? Infinity) + 2 * HOUR);
    }
  });
});
