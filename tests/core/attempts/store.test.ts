import { describe, expect, it } from 'vitest';
import { storeSightings } from '../../../src/core/db/vinAttempts';
import { mergeAttempts } from '../../../src/core/diff/attempts';
import { sellerSignals } from '../../../src/core/diff/signals';
import { Recorder } from '../../../src/core/watch/recorder';
import type { Vehicle } from '../../../src/shared/vehicle';
import { AlertRulesSchema } from '../../../src/shared/watch';
import { FakeClock } from '../../helpers/fakeClock';
import { storesPerTest } from '../../helpers/store';
import { NO_PRICES, QUIET_OFF, vehicle } from '../diff/fixtures';

// A VIN's attempts as the store keeps them (real SQLite file), the relist rule decided on them, and photos that
// outlive the sale.
const stores = storesPerTest();
const VIN = 'WAUZZZF57JA000001';
const H = 3_600_000;
const T = Date.UTC(2026, 5, 1, 12);
const PHOTOS = ['https://cs.copart.com/a_thb.jpg', 'https://cs.copart.com/b_thb.jpg'];

/** Lot `lot` of `platform` open with its bid, auction at `at`. */
function open(platform: string, lot: string, at: string, bid: number, photos: string[] = []): Vehicle {
  return vehicle({
    platform,
    lot_number: lot,
    vin: VIN,
    auction: {
      state: 'open',
      auction_at: at,
      lot_status: 'Timed',
      lot_sub_status: null,
      last_sold_status: null,
      last_sold_day: null,
      is_buy_now: null,
    },
    pricing: { ...NO_PRICES, current_bid_usd: bid },
    media: { thumbs_count: photos.length, has_360: false, photos },
  });
}

/** The same lot finished as the real service reports it, without photos (as an Ended search may answer). */
function finished(v: Vehicle, status: string | null, price: number, day: string): Vehicle {
  return {
    ...v,
    auction: { ...v.auction, state: 'finished', last_sold_status: status, last_sold_day: day },
    pricing: { ...NO_PRICES, current_bid_usd: price, sale_price_usd: price > 0 ? price : null },
    media: { thumbs_count: 0, has_360: false, photos: [] },
  };
}

describe('the store keeps what was seen of a lot', () => {
  it('keeps the photos seen while the lot was open when its finished record comes without any', async () => {
    const { s } = stores();
    const v = open('copart', '100', '2026-06-02T15:00:00Z', 4000, PHOTOS);
    await s.lots.observe(v, T, 'test');
    await s.lots.observe(finished(v, 'Sold', 6100, '2026-06-02'), T + 30 * H, 'test');
    const rec = (await s.lots.getLotRecord('copart:100'))!;
    expect(rec.media.photos).toEqual(PHOTOS);
    expect(rec.auction.state).toBe('finished');
    // The same finished record again is no change; a record with photos of its own replaces them.
    await s.lots.observe(finished(v, 'Sold', 6100, '2026-06-02'), T + 31 * H, 'test');
    expect(await s.lots.observationCount('copart:100')).toBe(3);
    await s.lots.observe(
      { ...v, media: { thumbs_count: 1, has_360: false, photos: ['https://cs.copart.com/c_thb.jpg'] } },
      T + 32 * H,
      'test',
    );
    expect((await s.lots.getLotRecord('copart:100'))!.media.photos).toEqual([
      'https://cs.copart.com/c_thb.jpg',
    ]);
  });
});

describe("a VIN's attempts from the store", () => {
  it('reads every attempt (two under one lot, one on the other platform), decides the Nth-attempt rule on them', async () => {
    const { s } = stores();
    const clock = new FakeClock(T);
    const recorder = new Recorder({
      store: s,
      quota: () => null,
      clock,
      quiet: () => QUIET_OFF,
      tzOffsetMinutes: () => 0,
    });
    const id = await s.searches.insertSearch(
      {
        name: 'Third time',
        params: {},
        schedule: '0 * * * *',
        rules: AlertRulesSchema.parse({ kinds: [], relist_attempt: 3 }),
        is_example: false,
        paused: false,
        max_pages: 1,
      },
      T,
    );
    const search = (await s.searches.getSearch(id))!;
    const see = (v: Vehicle, at: number) =>
      s.transaction(async () => {
        const o = (await s.lots.observe(v, at, 'test'))!;
        await recorder.record(await recorder.lotDiff(o.prev, o.next), at, () => o.prev, search);
      });
    const first = open('copart', '100', '2026-06-02T15:00:00Z', 5200, PHOTOS);
    await see(first, T);
    await see({ ...first, pricing: { ...NO_PRICES, current_bid_usd: 6600 } }, T + 26 * H);
    await see(finished(first, 'Sold on Approval', 6600, '2026-06-02'), T + 30 * H);
    // The seller refused: the same lot comes back a week later, and ends on approval again.
    const again = open('copart', '100', '2026-06-09T15:00:00Z', 3000);
    await see(again, T + 5 * 24 * H);
    await see(finished(again, 'Sold on Approval', 6200, '2026-06-09'), T + 8 * 24 * H);
    expect(await s.alerts.list(false, Number.MAX_SAFE_INTEGER, 10)).toEqual([]); // a 2nd attempt: below the rule
    // Then on IAAI: the 3rd attempt.
    await see(open('iaai', '900', '2026-06-16T15:00:00Z', 0), T + 10 * 24 * H);

    const now = T + 11 * 24 * H;
    const attempts = mergeAttempts(await storeSightings(s.lots, VIN), now);
    expect(
      attempts.map((a) => [
        a.number,
        a.platform,
        a.lot_number,
        a.day,
        a.outcome,
        a.basis,
        a.bid_usd,
        a.price_usd,
      ]),
    ).toEqual([
      [1, 'copart', '100', '2026-06-02', 'sold_on_approval', 'confirmed', 6600, 6600],
      [2, 'copart', '100', '2026-06-09', 'sold_on_approval', 'confirmed', 6200, 6200],
      [3, 'iaai', '900', '2026-06-16', 'open', 'confirmed', null, null],
    ]);
    expect(sellerSignals(attempts, now).facts[0]).toBe(
      '3rd attempt; last two ended on approval at $6,600 and $6,200',
    );
    const alerts = await s.alerts.list(false, Number.MAX_SAFE_INTEGER, 10);
    expect(alerts.map((a) => [a.kind, a.title, a.body])).toEqual([
      [
        'relisted',
        '2018 AUDI S5 · back for its 3rd attempt',
        'Your rule: from the 3rd attempt · auction Tue Jun 16, 3:00 PM · earlier copart lot 100 · iaai lot 900 · Saved search “Third time”',
      ],
    ]);
  });
});
