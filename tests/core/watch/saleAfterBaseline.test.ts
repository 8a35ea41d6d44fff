import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/core/app';
import type { Lot, MarketEvent, Sandbox } from '../../../src/sandbox/index';
import { FakeClock } from '../../helpers/fakeClock';
import {
  driveTo,
  endDay,
  HOUR,
  key,
  MIN,
  narrowSearchesOn,
  sellingBetween,
  START,
  watchedDay,
} from './simulatedDay';

// 30 requests a day, three saved searches created together with the watchlist: their first readings go out at once
// (a dozen pages), which leaves the pacing bucket in debt for hours. A watched lot selling a few hours later must
// still have its sale result seen within minutes of the service showing it: the pace is a preference, the buyer's
// daily limit is the rule, and a sale result is what the budget gives up last.

const BUDGET = 30;

describe('a sale result a few hours after three saved searches first read their lists, at 30 requests a day', () => {
  let sb: Sandbox;
  let core: Core;
  let cleanup: () => void;
  let watched: Lot[] = [];
  let events: MarketEvent[] = [];
  let alerts: { kind: string; lot_key: string | null; created_at: number }[] = [];
  let spent = 0;
  const end = START + 12 * HOUR;

  beforeAll(async () => {
    const clock = new FakeClock(START);
    const day = await watchedDay(
      clock,
      BUDGET,
      (m) => sellingBetween(m, 3, 6).slice(0, 2),
      (m) => narrowSearchesOn(m, '*/15 * * * *'),
    );
    ({ sb, core, cleanup, watched } = day);
    const { ok } = day;
    const first = day.fromSeq;
    events = await driveTo({ core, sb }, clock, end, first, 20_000);
    alerts = (await ok('alerts.list', { limit: 500 }))['alerts'] as typeof alerts;
    spent = ((await ok('status.get'))['budget'] as { spentLast24h: number }).spentLast24h;
  }, 180_000);

  afterAll(() => endDay({ core, sb, cleanup }));

  it('sees each sale result within 30 minutes of the service showing it, within the daily limit', () => {
    expect(watched).toHaveLength(2);
    expect(spent).toBeLessThanOrEqual(BUDGET);
    const lots = new Set(watched.map(key));
    const ends = events.filter(
      (e) => e.kind === 'state' && lots.has(key(e)) && e.data['lot_sub_status'] === 'Ended',
    );
    expect(ends).toHaveLength(2);
    for (const e of ends) {
      const a = alerts.filter((x) => x.kind === 'sale_result' && x.lot_key === key(e));
      expect(a, key(e)).toHaveLength(1);
      expect((a[0]!.created_at - e.visible_t) / MIN, key(e)).toBeLessThanOrEqual(30);
    }
  });
});

// The rolling day, not the bucket: six broad saved searches' first readings hold 30 pages, the whole of a 30-a-day
// limit. Pages sent at the first hour keep their places in the rolling day until the next morning, so if they took
// them all, a watched lot selling at the tenth hour would have its sale result seen a day late. The pages must
// leave the places of the sale-result looks projected over the next 24 hours (spending.ts leavesSaleLooks).

describe('sale results later in the day than broad saved searches first read their lists, at 30 requests a day', () => {
  let sb: Sandbox;
  let core: Core;
  let cleanup: () => void;
  let watched: Lot[] = [];
  let events: MarketEvent[] = [];
  let alerts: { kind: string; lot_key: string | null; created_at: number }[] = [];
  let spentBy3h = 0;
  let spent = 0;
  const end = START + 20 * HOUR;

  beforeAll(async () => {
    const clock = new FakeClock(START);
    const day = await watchedDay(
      clock,
      BUDGET,
      (m) =>
        sellingBetween(m, 9, 16)
          .filter((_, i) => i % 7 === 0)
          .slice(0, 3),
      (m) => {
        // Six makes with at least 100 open lots on one platform: five pages each at 20 a page.
        const counts = new Map<string, number>();
        for (const l of m.sorted)
          if (l.subStatus === 'Open')
            counts.set(
              `${l.v.spec.make}|${l.platform}`,
              (counts.get(`${l.v.spec.make}|${l.platform}`) ?? 0) + 1,
            );
        const broad = [...counts.entries()]
          .filter(([, n]) => n >= 100)
          .sort((a, b) => a[0].localeCompare(b[0]))
          .slice(0, 6);
        expect(broad).toHaveLength(6);
        return broad.map(([name]) => {
          const [make, platform] = name.split('|') as [string, string];
          return { name, params: { make, platform }, schedule: '*/15 * * * *', max_pages: 5 };
        });
      },
    );
    ({ sb, core, cleanup, watched } = day);
    const { ok } = day;
    const first = day.fromSeq;
    const spentNow = async () =>
      ((await ok('status.get'))['budget'] as { spentLast24h: number }).spentLast24h;
    await driveTo({ core, sb }, clock, START + 3 * HOUR, first, 20_000);
    spentBy3h = await spentNow();
    events = await driveTo({ core, sb }, clock, end, first, 20_000);
    alerts = (await ok('alerts.list', { limit: 500 }))['alerts'] as typeof alerts;
    spent = await spentNow();
  }, 180_000);

  afterAll(() => endDay({ core, sb, cleanup }));

  it('sees each sale result within 30 minutes of the service showing it, within the daily limit', () => {
    expect(watched).toHaveLength(3);
    // Everything sent within the 20 hours fits one rolling day of the limit.
    expect(spent).toBeLessThanOrEqual(BUDGET);
    // The first readings went early: most of the day was spent in the first three hours.
    expect(spentBy3h).toBeGreaterThanOrEqual(BUDGET / 2);
    const lots = new Set(watched.map(key));
    const ends = events.filter(
      (e) => e.kind === 'state' && lots.has(key(e)) && e.data['lot_sub_status'] === 'Ended',
    );
    expect(ends).toHaveLength(3);
    for (const e of ends) {
      const a = alerts.filter((x) => x.kind === 'sale_result' && x.lot_key === key(e));
      expect(a, key(e)).toHaveLength(1);
      expect((a[0]!.created_at - e.visible_t) / MIN, key(e)).toBeLessThanOrEqual(30);
    }
  });
});
