import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection';
import { SqliteStore } from '../../../src/core/db/store';
import { diffLot, toLotState } from '../../../src/core/diff';
import type { Vehicle } from '../../../src/shared/vehicle';
import { tempDir } from '../../helpers/tmp';
import { vehicle } from '../watch/storeFixtures';

// The lot state the store writes, and that the watcher's diff reads back as `prev`, is the diff's own projection
// (toLotState), through LotsRepo.observe: the write path every poll and every manual fetch takes.

const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

function store() {
  const t = tempDir();
  dirs.push(t);
  const db = openDatabase(join(t.dir, 'lotwatch.sqlite'));
  return { db, s: new SqliteStore(db).sync };
}

/** The fixture record with its auction fields replaced. */
function withAuction(auction: Partial<Vehicle['auction']>, over: Partial<Vehicle> = {}): Vehicle {
  const v = vehicle(over);
  return { ...v, auction: { ...v.auction, ...auction } };
}

const KEY = 'copart:50000001';

describe('the stored lot state is the diff projection', () => {
  it('an auction time without an offset is stored as unknown, as toLotState says, never read in the machine zone', () => {
    const { db, s } = store();
    const v = withAuction({ auction_at: '2026-11-23T10:00:00' });
    const projected = toLotState(v, 1_000);
    expect(projected?.auction_at).toBeNull();
    const o = s.lots.observe(v, 1_000, 'test');
    expect(o?.next).toEqual(projected);
    expect(s.lots.getLotState(KEY)).toEqual(projected);
    expect(db.prepare('SELECT auction_at FROM lots WHERE lot_key = ?').get(KEY)).toEqual({
      auction_at: null,
    });
  });

  it('blank strings and non-finite amounts are stored as null, as the diff compares them', () => {
    const { s } = store();
    const v = withAuction(
      { state: '  ', lot_status: '', auction_at: '2026-11-23T10:00:00-05:00' },
      { vin: ' ', pricing: { ...vehicle().pricing, current_bid_usd: Number.NaN } },
    );
    const o = s.lots.observe(v, 2_000, 'test');
    expect(o?.next).toEqual(toLotState(v, 2_000));
    expect(s.lots.getLotState(KEY)).toMatchObject({
      state: null,
      lot_status: null,
      vin: null,
      current_bid_usd: null,
      auction_at: Date.UTC(2026, 10, 23, 15),
    });
  });

  it('what the diff reads back as prev is what toLotState gave for the record stored before', () => {
    const { s } = store();
    const first = withAuction({ auction_at: '2026-11-23T10:00:00+01:00' });
    const second = withAuction(
      { auction_at: '2026-11-24T10:00:00+01:00' },
      { pricing: { ...vehicle().pricing, current_bid_usd: 900 } },
    );
    s.lots.observe(first, 1_000, 'test');
    const o = s.lots.observe(second, 2_000, 'test')!;
    expect(o.prev).toEqual(toLotState(first, 1_000));
    expect(o.next).toEqual(toLotState(second, 2_000));
    expect(diffLot(o.prev, o.next).map((c) => c.kind)).toEqual(['bid_changed', 'rescheduled']);
  });

  it('a row whose state an older projection wrote is brought in line once, with no change for the same record', () => {
    const { db, s } = store();
    const v = withAuction({ auction_at: '2026-11-23T10:00:00' });
    s.lots.observe(v, 1_000, 'test');
    // What a build that read the offset-less time in the machine's zone stored for the same record.
    db.prepare('UPDATE lots SET auction_at = ? WHERE lot_key = ?').run(Date.UTC(2026, 10, 23, 10), KEY);
    const again = s.lots.observe(v, 2_000, 'test')!;
    expect(diffLot(again.prev, again.next)).toEqual([]);
    expect(s.lots.getLotState(KEY)).toEqual(toLotState(v, 2_000));
    // Still the one observation, seen twice: the same record is stored once.
    expect(s.lots.observationCount(KEY)).toBe(2);
    expect(db.prepare('SELECT count(*) AS n FROM observations').get()).toEqual({ n: 1 });
  });

  it('a record the projection cannot key (blank lot number) is refused, as toLotState refuses it', () => {
    const { s } = store();
    const v = vehicle({ lot_number: '   ' });
    expect(toLotState(v, 1)).toBeNull();
    expect(s.lots.observe(v, 1, 'test')).toBeNull();
    expect(s.lots.all()).toEqual([]);
  });
});
