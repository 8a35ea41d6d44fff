import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KyselyLotsRepo } from '../../../../src/core/db/kysely/lotsRepo';
import { sqliteKysely } from '../../../../src/core/db/kyselySqlite';
import type { LotsRepo } from '../../../../src/core/db/lotsRepo';
import type { DB } from '../../../../src/core/db/schema';
import type { Async } from '../../../../src/core/db/store';
import type { Vehicle } from '../../../../src/shared/vehicle';
import type { Change } from '../../../../src/shared/watch';
import { engines, type EngineCase, type EngineDb } from '../../../helpers/engines';
import { vehicle } from '../../watch/storeFixtures';

// LotsRepo's contract (src/core/db/lotsRepo.ts defines it): the same cases on the SQLite repositories, the Kysely
// repository over a SQLite file and over PostgreSQL. Each case asserts what the method means, and then that every
// answer equals the SQLite repository's for the same calls (a reference file of its own), so the engines cannot
// drift apart on a shape (a number read as a string, a column more, NULLs ordered elsewhere).

/** One engine's database with its lots repository, a transaction and a Kysely to look at its tables. */
interface Under {
  db: EngineDb;
  lots: Async<LotsRepo>;
  transaction: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Kysely over the same database (for the SQLite store: over its connection). */
  k: Kysely<DB>;
}

async function openUnder(e: EngineCase): Promise<Under> {
  const db = await e.open();
  if (db.name === 'sqlite') {
    const s = db.sqlite!;
    return { db, lots: s.lots, transaction: s.transaction, k: sqliteKysely(s.db) };
  }
  const exec = db.exec!;
  return {
    db,
    lots: new KyselyLotsRepo(exec, db.name === 'postgres' ? 'postgres' : 'sqlite'),
    transaction: (fn) => exec.transaction(fn),
    k: db.kysely!,
  };
}

const K1 = 'copart:50000001';
const K2 = 'copart:50000002';
const K3 = 'iaai:7001';
const VIN = '1HGCM82633A004352';

const change = (over: Partial<Change>): Change => ({
  lot_key: K1,
  kind: 'bid_changed',
  field: 'current_bid_usd',
  before: 500,
  after: 750,
  related_lot_key: null,
  vin: VIN,
  observed_at: 3000,
  outcome: null,
  ...over,
});

/** Every read of LotsRepo, over what `story` stored. */
async function reads(lots: Async<LotsRepo>) {
  return {
    row: await lots.getRow(K1),
    row2: await lots.getRow(K2),
    missingRow: await lots.getRow('copart:1'),
    state: await lots.getLotState(K1),
    missingState: await lots.getLotState('copart:1'),
    record: await lots.getLotRecord(K1),
    missingRecord: await lots.getLotRecord('copart:1'),
    titleDoc: await lots.titleDocument(K1),
    missingTitleDoc: await lots.titleDocument('copart:1'),
    estimate: await lots.saleEstimate(K1),
    noEstimate: await lots.saleEstimate(K2),
    missingEstimate: await lots.saleEstimate('copart:1'),
    lastChange: await lots.lastChangeAt(K1),
    noChange: await lots.lastChangeAt(K3),
    others: await lots.otherLotsOfVin(VIN, K2),
    othersNone: await lots.otherLotsOfVin('NOPE', K2),
    vinRows: await lots.rowsOfVin(VIN),
    latestOfVin: await lots.latestKeyOfVin(VIN),
    latestOfMissingVin: await lots.latestKeyOfVin('NOPE'),
    latestOfNumber: await lots.latestKeyOfNumber('50000002'),
    latestOfMissingNumber: await lots.latestKeyOfNumber('1'),
    all: await lots.all(),
    timeline: await lots.timeline(K1),
    emptyTimeline: await lots.timeline(K3),
    bidChanges: await lots.bidChangesSince(K1, 3000),
    bidChangesLater: await lots.bidChangesSince(K1, 3001),
    bids: await lots.bids(K1),
    bidsOfMissing: await lots.bids('copart:1'),
    observations: await lots.observationCount(K1),
    observationsOfMissing: await lots.observationCount('copart:1'),
  };
}

/** The records of the story: lot 1 seen, seen again, its bid changed; lot 2 (same VIN, later); lot 3 (no auction time). */
const TITLE_DOC = { name: 'CLEAN TITLE', group: 'clean', export: true, brand: null };
/** The service's estimate band of lot 1's sale price, as a real record carries it (docs/service-contract.md). */
const ESTIMATE = { estimated_cost_from_usd: 1450, estimated_cost_to_usd: 15000 };
const withEstimate = (v: Vehicle): Vehicle => ({ ...v, pricing: { ...v.pricing, ...ESTIMATE } });
const V1 = () => withEstimate(vehicle({ title_document: TITLE_DOC }));
const V1_BID = () => withEstimate(vehicle({ title_document: TITLE_DOC, bid: 750 }));
const V2 = () =>
  vehicle({
    lot_number: '50000002',
    auction: { ...vehicle().auction, auction_at: '2026-12-01T15:00:00+00:00' },
  });
const V3 = () =>
  vehicle({
    platform: 'iaai',
    lot_number: '7001',
    vin: '5YJ3E1EA7KF317000',
    auction: { ...vehicle().auction, auction_at: null },
  });

/** Stores the story through `lots` (in the store's transactions, as a poll does) and returns what the writes returned. */
async function story(u: Pick<Under, 'lots' | 'transaction'>) {
  const { lots } = u;
  const first = await u.transaction(() => lots.observe(V1(), 1000, 'test'));
  const same = await lots.observe(V1(), 2000, 'test');
  const changed = await u.transaction(async () => {
    const r = await lots.observe(V1_BID(), 3000, 'test');
    const ids = [
      await lots.insertChange(change({}), null),
      await lots.insertChange(
        change({
          kind: 'status_changed',
          field: 'lot_status',
          before: 'Timed',
          after: 'Live',
          observed_at: 3500,
        }),
        null,
      ),
    ];
    return { r, ids };
  });
  const second = await lots.observe(V2(), 4000, 'search');
  const third = await lots.observe(V3(), 5000, 'search');
  const unkeyed = await lots.observe(vehicle({ lot_number: null }), 6000, 'test');
  return { first, same, changed, second, third, unkeyed };
}

describe.each(engines())('LotsRepo contract: $name', (e) => {
  let u: Under;
  let ref: Under;
  beforeEach(async () => {
    if (e.skip) return;
    u = await openUnder(e);
    ref = await openUnder(engines()[0]!);
  });
  afterEach(async () => {
    if (e.skip) return;
    await u.db.close();
    await ref.db.close();
  });

  /** The observations of the lots, as stored. */
  const observations = (x: Under) =>
    x.k
      .selectFrom('observations')
      .select(['lot_key', 'observed_at', 'source', 'last_seen_at', 'seen'])
      .select((eb) =>
        eb
          .case()
          .when(eb.or([eb('raw', 'is not', null), eb('raw_z', 'is not', null)]))
          .then(1)
          .else(0)
          .end()
          .as('copy'),
      )
      .orderBy('id')
      .execute();

  it.skipIf(e.skip)(
    'observes a new lot, the same record again and a change, as the SQLite store does',
    async () => {
      const w = await story(u);
      expect(w.first).toEqual({
        prev: null,
        next: expect.objectContaining({ lot_number: '50000001', current_bid_usd: 500, observed_at: 1000 }),
      });
      expect(w.first!.next.auction_at).toBe(Date.parse('2026-11-23T15:00:00Z'));
      expect(w.same!.prev).toEqual({ ...w.same!.next, observed_at: 1000 });
      expect(w.changed.r!.prev).toMatchObject({ current_bid_usd: 500, observed_at: 2000 });
      expect(w.changed.r!.next).toMatchObject({ current_bid_usd: 750, observed_at: 3000 });
      expect(w.changed.ids).toEqual([1, 2]);
      expect(w.unkeyed).toBeNull();
      // The same record again adds no row: the first observation is marked seen at 2000. Each record is stored once.
      expect((await observations(u)).filter((o) => o.lot_key === K1)).toEqual([
        { lot_key: K1, observed_at: 1000, source: 'test', last_seen_at: 2000, seen: 2, copy: 1 },
        { lot_key: K1, observed_at: 3000, source: 'test', last_seen_at: null, seen: 1, copy: 0 },
      ]);
      expect(w).toEqual(await story(ref));
      expect(await observations(u)).toEqual(await observations(ref));
    },
  );

  it.skipIf(e.skip)(
    'reads rows, states, records, timelines, bids and VIN lookups as the SQLite store does',
    async () => {
      await story(u);
      const r = await reads(u.lots);
      expect(r.row).toMatchObject({
        lot_key: K1,
        platform: 'copart',
        lot_number: '50000001',
        vin: VIN,
        current_bid_usd: 750,
        first_seen_at: 1000,
        last_observed_at: 3000,
        notes: '',
        tags: '',
        pruned_at: null,
      });
      expect(JSON.parse(r.row!.raw)).toMatchObject({ extra_field_the_spec_does_not_list: 1 });
      expect(Buffer.isBuffer(r.row!.raw_z)).toBe(true);
      expect(r.missingRow).toBeNull();
      expect(r.state).toMatchObject({
        current_bid_usd: 750,
        observed_at: 3000,
        auction_at: Date.parse('2026-11-23T15:00:00Z'),
      });
      expect(r.record).toMatchObject({
        lot_key: K1,
        title: '2003 HONDA ACCORD EX',
        pricing: { current_bid_usd: 750 },
      });
      expect(r.titleDoc).toEqual({ name: 'CLEAN TITLE', group: 'clean', export: true, brand: null });
      // The estimate band as numbers, read from the stored record; none where the record has none or no lot is stored.
      expect(r.estimate).toEqual({ from: 1450, to: 15000 });
      expect(r.noEstimate).toBeNull();
      expect(r.missingEstimate).toBeNull();
      expect(r.lastChange).toBe(3500);
      expect(r.noChange).toBeNull();
      expect(r.others.map((s) => s.lot_number)).toEqual(['50000001']);
      // Oldest auction first, a lot without an auction time first of all (SQLite orders NULL lowest).
      expect(r.vinRows.map((x) => x.lot_key)).toEqual([K1, K2]);
      expect(r.latestOfVin).toBe(K2);
      expect(r.latestOfNumber).toBe(K2);
      expect(r.all.map((x) => x.lot_key)).toEqual([K3, K2, K1]);
      expect(r.timeline.map((c) => [c.id, c.kind, c.before, c.after, c.observed_at])).toEqual([
        [1, 'bid_changed', '500', '750', 3000],
        [2, 'status_changed', '"Timed"', '"Live"', 3500],
      ]);
      expect(r.bidChanges).toEqual([{ observed_at: 3000, before: '500', after: '750' }]);
      expect(r.bidChangesLater).toEqual([]);
      expect(r.bids).toEqual([
        [1000, 500],
        [3000, 750],
      ]);
      expect(r.observations).toBe(3);
      expect(r.observationsOfMissing).toBe(0);
      await story(ref);
      expect(r).toEqual(await reads(ref.lots));
    },
  );

  it.skipIf(e.skip)(
    'reads a watchlist in batches: the same states, estimates and bid changes as one lot at a time',
    async () => {
      // The story, and a bid change more on each of lots 1 and 2.
      const stored = async (x: Under) => {
        await story(x);
        await x.lots.insertChange(change({ lot_key: K2, before: 100, after: 200, observed_at: 4100 }), null);
        await x.lots.insertChange(change({ before: 750, after: 900, observed_at: 3200 }), null);
      };
      await stored(u);
      // A key listed twice reads once; a key never stored is absent, as are a lot's empty reads.
      const keys = [K1, K2, K3, 'copart:1', K1];
      const batch = async (x: Under) => ({
        states: await x.lots.lotStates(keys),
        estimates: await x.lots.saleEstimates(keys),
        changes: await x.lots.bidChangesSinceOf(keys, 3000),
        later: await x.lots.bidChangesSinceOf(keys, 4000),
        none: await x.lots.lotStates([]),
      });
      const got = await batch(u);
      const one = new Map<string, unknown>();
      for (const k of [K1, K2, K3]) one.set(k, await u.lots.getLotState(k));
      expect(got.states).toEqual(one);
      expect(got.estimates).toEqual(new Map([[K1, { from: 1450, to: 15000 }]]));
      expect(got.changes).toEqual(
        new Map([
          [K1, await u.lots.bidChangesSince(K1, 3000)],
          [K2, await u.lots.bidChangesSince(K2, 3000)],
        ]),
      );
      expect(got.changes.get(K1)!.map((c) => c.observed_at)).toEqual([3000, 3200]);
      expect(got.later).toEqual(new Map([[K2, [{ observed_at: 4100, before: '100', after: '200' }]]]));
      expect(got.none).toEqual(new Map());
      await stored(ref);
      expect(got).toEqual(await batch(ref));
    },
  );

  it.skipIf(e.skip)('orders a lot without an auction time as SQLite does (NULL lowest)', async () => {
    const noTime = (n: string) =>
      vehicle({ lot_number: n, auction: { ...vehicle().auction, auction_at: null } });
    for (const x of [u, ref]) {
      await x.lots.observe(V1(), 1, 't');
      await x.lots.observe(noTime('60000001'), 2, 't');
      await x.lots.observe(V2(), 3, 't');
    }
    const order = async (x: Under) => ({
      rows: (await x.lots.rowsOfVin(VIN)).map((r) => r.lot_key),
      others: (await x.lots.otherLotsOfVin(VIN, 'copart:0')).map((s) => s.lot_number),
      latest: await x.lots.latestKeyOfVin(VIN),
    });
    expect(await order(u)).toEqual({
      rows: ['copart:60000001', K1, K2],
      others: ['50000002', '50000001', '60000001'],
      latest: K2,
    });
    expect(await order(u)).toEqual(await order(ref));
  });

  it.skipIf(e.skip)(
    'writes the state columns again for a row an older projection wrote, and starts a new observation when none is left',
    async () => {
      const run = async (x: Under) => {
        await x.lots.observe(V1(), 1000, 't');
        // An older projection wrote another bid; the retention pass collapsed the observations.
        await x.k.updateTable('lots').set({ current_bid_usd: 1 }).where('lot_key', '=', K1).execute();
        await x.k.deleteFrom('observations').where('lot_key', '=', K1).execute();
        const seen = await x.lots.observe(V1(), 2000, 't');
        return { seen, state: await x.lots.getLotState(K1), observations: await observations(x) };
      };
      const got = await run(u);
      expect(got.seen?.prev?.current_bid_usd).toBe(500);
      expect(got.state).toMatchObject({ current_bid_usd: 500, observed_at: 2000 });
      expect(got.observations).toEqual([
        { lot_key: K1, observed_at: 2000, source: 't', last_seen_at: null, seen: 1, copy: 0 },
      ]);
      expect(got).toEqual(await run(ref));
    },
  );

  it.skipIf(e.skip)('keeps the photos seen before when a record comes without any', async () => {
    const run = async (x: Under) => {
      await x.lots.observe(V1(), 1000, 't');
      const bare: Vehicle = { ...V1(), media: { ...V1().media, photos: [] }, odometer: 1 };
      await x.lots.observe(bare, 2000, 't');
      return (await x.lots.getLotRecord(K1))!;
    };
    const rec = await run(u);
    expect(rec.media.photos).toEqual(['https://cs.copart.com/x_hrs.jpg']);
    expect(rec.odometer).toBe(1);
    expect(rec).toEqual(await run(ref));
  });

  it.skipIf(e.skip)(
    "joins the caller's transaction: a rejection rolls the observation and the change back",
    async () => {
      await expect(
        u.transaction(async () => {
          await u.lots.observe(V1(), 1000, 't');
          await u.lots.insertChange(change({}), null);
          expect(await u.lots.getLotState(K1)).not.toBeNull();
          throw new Error('poll failed');
        }),
      ).rejects.toThrow('poll failed');
      expect(await u.lots.getRow(K1)).toBeNull();
      expect(await u.lots.timeline(K1)).toEqual([]);
      expect(await observations(u)).toEqual([]);
    },
  );
});
