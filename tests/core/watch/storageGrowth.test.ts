import { describe, expect, it } from 'vitest';
import { normalizeVehicle } from '../../../src/core/api/parse';
import { MAX_STORED_PHOTOS } from '../../../src/core/db/lotsRepo';
import { realOpenRecord } from '../api/fixtures/realRecords';
import { storesPerTest } from '../../helpers/store';

// Storage grows only with what changed (docs/architecture.md "Retention"): the real service's records carry a
// countdown that differs on every answer, so a watched lot polled every few minutes used to store a whole new copy
// of its record each time; and a record listing thousands of photos was copied whole into every observation.

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

const store = storesPerTest();

type Json = Record<string, unknown>;

/** The same open lot as the service answers it `minutesLater` after the first poll: only its countdown moved. */
function answerAt(minutesLater: number, over: (r: Json) => void = () => {}): Json {
  const r = realOpenRecord();
  const auction = r['auction'] as Json;
  const left = 3 * 24 * 60 - minutesLater;
  auction['countdown'] = {
    days: Math.floor(left / 1440),
    hours: Math.floor((left % 1440) / 60),
    minutes: left % 60,
  };
  auction['diff_minutes'] = left;
  over(r);
  return r;
}

const vehicleOf = (raw: Json) => normalizeVehicle(raw, []);

describe('observations of a lot that did not change', () => {
  it('store no new row and no copy: the last observation is marked seen again', () => {
    const { db, s } = store();
    const first = answerAt(0);
    const key = s.sync.lots.observe(vehicleOf(first), T0, 'watch:1')!;
    const lotKey = `${key.next.platform}:${key.next.lot_number}`;
    for (let i = 1; i <= 20; i++) {
      const again = answerAt(i * 5);
      // The bytes differ on every answer; the content does not.
      expect(JSON.stringify(again)).not.toBe(JSON.stringify(first));
      s.sync.lots.observe(vehicleOf(again), T0 + i * 5 * MIN, 'watch:1');
    }
    const rows = db
      .prepare(
        `SELECT observed_at, last_seen_at, seen, (raw IS NOT NULL OR raw_z IS NOT NULL) AS copy
      FROM observations`,
      )
      .all();
    // One observation, no copy of the record: the lot's row holds it.
    expect(rows).toEqual([{ observed_at: T0, last_seen_at: T0 + 100 * MIN, seen: 21, copy: 0 }]);
    expect(s.sync.lots.observationCount(lotKey)).toBe(21);
    expect(s.sync.lots.getLotState(lotKey)?.observed_at).toBe(T0 + 100 * MIN);

    // A bid is a change: stored once, and the lot's record follows it.
    const bid = (r: Json) => ((r['pricing'] as Json)['current_bid_usd'] = 7100);
    s.sync.lots.observe(vehicleOf(answerAt(105, bid)), T0 + 105 * MIN, 'watch:1');
    s.sync.lots.observe(vehicleOf(answerAt(110, bid)), T0 + 110 * MIN, 'watch:1');
    const after = db
      .prepare(
        'SELECT observed_at, seen, (raw IS NOT NULL OR raw_z IS NOT NULL) AS copy FROM observations ORDER BY id',
      )
      .all();
    // The record replaced moved into its observation; the new one is the lot's.
    expect(after).toEqual([
      { observed_at: T0, seen: 21, copy: 1 },
      { observed_at: T0 + 105 * MIN, seen: 2, copy: 0 },
    ]);
    expect(s.sync.lots.getLotState(lotKey)?.current_bid_usd).toBe(7100);
    expect(s.sync.lots.bids(lotKey)).toEqual([
      [T0, 6600],
      [T0 + 105 * MIN, 7100],
    ]);
  });

  it('do not rewrite the lot row or its full-text index entry', () => {
    const { db, s } = store();
    s.sync.lots.observe(vehicleOf(answerAt(0)), T0, 'watch:1');
    const ftsRows = () => (db.prepare('SELECT count(*) AS n FROM lots_fts_docsize').get() as { n: number }).n;
    const changesBefore = db.prepare('SELECT total_changes() AS n').get() as { n: number };
    for (let i = 1; i <= 10; i++) s.sync.lots.observe(vehicleOf(answerAt(i)), T0 + i * MIN, 'watch:1');
    const changesAfter = db.prepare('SELECT total_changes() AS n').get() as { n: number };
    // Per poll: the lot's last sight and its observation's count, two rows; no FTS delete and insert.
    expect(changesAfter.n - changesBefore.n).toBe(20);
    expect(ftsRows()).toBe(1);
  });
});

describe('a record with 10,000 photos', () => {
  it(`stores the first ${MAX_STORED_PHOTOS} photo addresses and the count of all of them`, () => {
    const { db, s } = store();
    const urls = Array.from(
      { length: 10_000 },
      (_, i) => `https://cs.copart.com/v1/AUTH_svc.pdoc00001/lpp/0000/${i}_ful.jpg`,
    );
    const raw = answerAt(0, (r) => {
      r['media'] = {
        thumbs_count: 10_000,
        has_360: false,
        has_video: false,
        thumbs: urls.map((u) => u.replace('_ful', '_thb')),
        items: urls.map((u) => ({ type: 'image', large: u, thumb: u.replace('_ful', '_thb') })),
      };
    });
    const v = vehicleOf(raw);
    expect(v.media.photos).toHaveLength(10_000);
    const o = s.sync.lots.observe(v, T0, 'watch:1')!;
    const lotKey = `${o.next.platform}:${o.next.lot_number}`;
    const rec = s.sync.lots.getLotRecord(lotKey)!;
    expect(rec.media.photos).toEqual(urls.slice(0, MAX_STORED_PHOTOS));
    expect(rec.media).toMatchObject({ photos_count: 10_000, thumbs_count: 10_000 });
    const storedRaw = rec.raw as { media: { items: unknown[]; thumbs: unknown[] } };
    expect(storedRaw.media.items).toHaveLength(MAX_STORED_PHOTOS);
    expect(storedRaw.media.thumbs).toHaveLength(MAX_STORED_PHOTOS);
    // Lot row and observation together: tens of kilobytes, not megabytes.
    const bytes = db
      .prepare(
        `SELECT (SELECT length(raw) + length(raw_z) + length(normalized) FROM lots)
        + (SELECT coalesce(sum(length(raw)), 0) + coalesce(sum(length(raw_z)), 0) FROM observations) AS n`,
      )
      .get() as { n: number };
    expect(bytes.n).toBeLessThan(40_000);
    // The next poll, same photos: nothing new stored.
    s.sync.lots.observe(vehicleOf(raw), T0 + MIN, 'watch:1');
    expect(db.prepare('SELECT count(*) AS n FROM observations').get()).toEqual({ n: 1 });
  });
});
