import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAs } from '../../../../src/core/actor';
import { KyselyWatchesRepo } from '../../../../src/core/db/kysely/watchesRepo';
import { sqliteKysely } from '../../../../src/core/db/kyselySqlite';
import type { DB } from '../../../../src/core/db/schema';
import type { Async, Transact } from '../../../../src/core/db/store';
import type { WatchesRepo, WatchRow } from '../../../../src/core/db/watchesRepo';
import { AlertRulesSchema } from '../../../../src/shared/watch';
import { addMember, engines, type EngineDb } from '../../../helpers/engines';

// WatchesRepo's contract (docs/architecture.md "Two engines: one store"): the SQLite class, and the Kysely class on
// a SQLite file and on PostgreSQL, give the same results for the same calls. Each case runs on every engine.

const rules = AlertRulesSchema.parse({});
const VIN = '1HGCM82633A004352';
const vinWatch = { kind: 'vin' as const, vin: VIN, lot_key: null, label: 'Accord', rules, is_example: false };
const lotWatch = {
  kind: 'lot' as const,
  vin: null,
  lot_key: 'copart:1',
  label: '',
  rules,
  is_example: false,
};

/** The row a watch inserted at `now` reads back as, before any check. */
const fresh = (id: number, w: typeof vinWatch | typeof lotWatch, now: number): WatchRow => ({
  id,
  ...w,
  created_at: now,
  updated_at: now,
  last_checked_at: null,
  consecutive_failures: 0,
  last_error: null,
  paused: false,
  created_by: null,
  updated_by: null,
});

for (const engine of engines()) {
  describe.skipIf(engine.skip)(`WatchesRepo on ${engine.name}`, () => {
    let db: EngineDb;
    let watches: Async<WatchesRepo>;
    let transaction: Transact;
    /** Kysely over the same database, for the lots the tray's next sale reads. */
    let raw: Kysely<DB>;

    beforeEach(async () => {
      db = await engine.open();
      if (db.name === 'sqlite') {
        watches = db.sqlite!.watches;
        transaction = db.sqlite!.transaction;
        raw = sqliteKysely(db.sqlite!.db);
      } else {
        watches = new KyselyWatchesRepo(db.exec!, db.name === 'postgres' ? 'postgres' : 'sqlite');
        transaction = (fn) => db.exec!.transaction(fn);
        raw = db.kysely!;
      }
    });
    afterEach(async () => {
      if (db.name === 'sqlite') await raw.destroy();
      await db.close();
    });

    it('writes the acting member as maker and last writer, and rules only on the copy they were made on', async () => {
      const ben = await addMember(raw, 3, 'Ben');
      const id = await runAs(ben, () => watches.insertWatch(vinWatch, 5));
      expect(await watches.getWatch(id)).toEqual({ ...fresh(id, vinWatch, 5), created_by: 3, updated_by: 3 });
      expect(await watches.updateWatchRules(id, rules, 'Stale', 9, 4)).toBe(false);
      expect((await watches.getWatch(id))!.label).toBe(vinWatch.label);
      expect(await watches.updateWatchRules(id, rules, 'Mine', 9, 5)).toBe(true);
      expect(await watches.getWatch(id)).toMatchObject({ label: 'Mine', updated_at: 9, updated_by: null });
      expect(await runAs(ben, () => watches.setPaused(id, true, 10))).toBe(true);
      expect(await watches.getWatch(id)).toMatchObject({ updated_at: 10, updated_by: 3, created_by: 3 });
      expect([...(await watches.memberNames([4, 3]))]).toEqual([[3, 'Ben']]);
    });

    /** Stores a lot as the lots repository would (only the columns the tray reads matter here). */
    const lot = (n: number, auctionAt: number | null, title: string | null) =>
      raw
        .insertInto('lots')
        .values({
          lot_key: `copart:${n}`,
          platform: 'copart',
          lot_number: String(n),
          title,
          auction_at: auctionAt,
          normalized: '{}',
          raw: '{}',
          raw_hash: `h${n}`,
          first_seen_at: 1,
          last_observed_at: 1,
        })
        .execute();

    it('inserts, reads back and lists watches; a VIN or lot watched twice is refused', async () => {
      const v = await watches.insertWatch(vinWatch, 5);
      const l = await watches.insertWatch({ ...lotWatch, is_example: true }, 6);
      expect(l).toBeGreaterThan(v);
      expect(await watches.getWatch(v)).toEqual(fresh(v, vinWatch, 5));
      expect(await watches.getWatch(l)).toEqual({ ...fresh(l, lotWatch, 6), is_example: true });
      expect(await watches.getWatch(l + 100)).toBeNull();
      expect(await watches.listWatches()).toEqual([
        fresh(v, vinWatch, 5),
        { ...fresh(l, lotWatch, 6), is_example: true },
      ]);
      await expect(watches.insertWatch({ ...vinWatch, label: 'again' }, 7)).rejects.toThrow();
      await expect(watches.insertWatch(lotWatch, 7)).rejects.toThrow();
      // The same lot as a VIN watch's current lot is no second lot watch.
      await watches.watchChecked(v, 8, 'copart:1', null);
      expect((await watches.listWatches()).map((w) => w.id)).toEqual([v, l]);
    });

    it('replaces rules and label, pauses and resumes, and deletes', async () => {
      const id = await watches.insertWatch(vinWatch, 1);
      const muted = AlertRulesSchema.parse({ muted: true, cap_per_lot_per_hour: 2 });
      await watches.updateWatchRules(id, muted, 'Muted Accord', 2);
      expect(await watches.getWatch(id)).toMatchObject({
        rules: muted,
        label: 'Muted Accord',
        updated_at: 2,
      });
      expect(await watches.setPaused(id, true, 3)).toBe(true);
      expect(await watches.getWatch(id)).toMatchObject({ paused: true, updated_at: 3 });
      expect(await watches.setPaused(id, false, 4)).toBe(true);
      expect(await watches.getWatch(id)).toMatchObject({ paused: false, updated_at: 4 });
      expect(await watches.setPaused(id + 1, true, 5)).toBe(false);
      await watches.deleteWatch(id);
      expect(await watches.getWatch(id)).toBeNull();
      expect(await watches.listWatches()).toEqual([]);
      await watches.deleteWatch(id);
    });

    it('reads damaged rules as the defaults', async () => {
      const id = await watches.insertWatch(vinWatch, 1);
      await raw.updateTable('watches').set({ rules: '{"muted": "yes"}' }).where('id', '=', id).execute();
      expect((await watches.getWatch(id))?.rules).toEqual(rules);
    });

    it('records checks: a VIN watch learns its lot, a lot watch its VIN, a known VIN stays', async () => {
      const v = await watches.insertWatch(vinWatch, 1);
      const l = await watches.insertWatch(lotWatch, 1);
      await watches.watchFailed(v, 2, 'The service did not answer.');
      await watches.watchFailed(v, 3, 'The service did not answer again.');
      expect(await watches.getWatch(v)).toMatchObject({
        last_checked_at: 3,
        consecutive_failures: 2,
        last_error: 'The service did not answer again.',
        lot_key: null,
      });
      await watches.watchChecked(v, 4, 'copart:7', VIN);
      expect(await watches.getWatch(v)).toMatchObject({
        last_checked_at: 4,
        consecutive_failures: 0,
        last_error: null,
        lot_key: 'copart:7',
        vin: VIN,
      });
      // A check that found no lot keeps the one known; a VIN never replaces a known one.
      await watches.watchChecked(v, 5, null, 'SOMEOTHERVIN00000');
      expect(await watches.getWatch(v)).toMatchObject({ lot_key: 'copart:7', vin: VIN, last_checked_at: 5 });
      await watches.watchChecked(l, 6, null, VIN);
      expect(await watches.getWatch(l)).toMatchObject({ lot_key: 'copart:1', vin: VIN });
    });

    it('clears only the stored errors that begin with one of the prefixes, and counts them', async () => {
      const ids = [];
      for (let i = 0; i < 5; i++)
        ids.push(await watches.insertWatch({ ...vinWatch, vin: `VIN${i}`.padEnd(17, '0') }, 1));
      await watches.watchFailed(ids[0]!, 2, 'Could not reach the service: timeout');
      await watches.watchFailed(ids[1]!, 2, 'Could not reach the service: refused');
      await watches.watchFailed(ids[2]!, 2, 'The service is busy; try later');
      await watches.watchFailed(ids[3]!, 2, 'Lot not found');
      expect(await watches.clearErrorsStartingWith([])).toBe(0);
      expect(
        await watches.clearErrorsStartingWith([
          'Could not reach',
          'Could not reach the service',
          'The service is',
        ]),
      ).toBe(3);
      expect((await watches.listWatches()).map((w) => w.last_error)).toEqual([
        null,
        null,
        null,
        'Lot not found',
        null,
      ]);
      // The failure counts stay: only the words go.
      expect((await watches.getWatch(ids[0]!))?.consecutive_failures).toBe(1);
      expect(await watches.clearErrorsStartingWith(['Could not reach'])).toBe(0);
    });

    it("counts and deletes Demo mode's example watches only", async () => {
      const mine = await watches.insertWatch(vinWatch, 1);
      await watches.insertWatch({ ...lotWatch, is_example: true }, 1);
      await watches.insertWatch({ ...lotWatch, lot_key: 'copart:2', is_example: true }, 1);
      expect(await watches.exampleCount()).toBe(2);
      await watches.deleteExampleWatches();
      expect(await watches.exampleCount()).toBe(0);
      expect((await watches.listWatches()).map((w) => w.id)).toEqual([mine]);
    });

    it('gives the watched lot whose sale comes next, from the stored lots, named by its key when it has no title', async () => {
      expect(await watches.nextSale(0)).toBeNull();
      await lot(1, 5_000, '2003 HONDA ACCORD');
      await lot(2, 3_000, null);
      await lot(3, 1_000, 'not watched');
      await lot(4, null, 'no sale time');
      expect(await watches.nextSale(0)).toBeNull();
      await watches.insertWatch({ ...lotWatch, lot_key: 'copart:1' }, 1);
      await watches.insertWatch({ ...vinWatch }, 1);
      await watches.insertWatch({ ...lotWatch, lot_key: 'copart:4' }, 1);
      expect(await watches.nextSale(0)).toEqual({
        lot_key: 'copart:1',
        title: '2003 HONDA ACCORD',
        auction_at: 5_000,
      });
      // A VIN watch counts once it knows its lot.
      const [, v] = (await watches.listWatches()).map((w) => w.id);
      await watches.watchChecked(v!, 2, 'copart:2', null);
      expect(await watches.nextSale(0)).toEqual({
        lot_key: 'copart:2',
        title: 'copart:2',
        auction_at: 3_000,
      });
      expect(await watches.nextSale(3_000)).toEqual({
        lot_key: 'copart:1',
        title: '2003 HONDA ACCORD',
        auction_at: 5_000,
      });
      expect(await watches.nextSale(5_000)).toBeNull();
    });

    it("joins the store's transaction: a throw rolls back every write", async () => {
      const kept = await watches.insertWatch(vinWatch, 1);
      await watches.watchFailed(kept, 1, 'Could not reach the service');
      await expect(
        transaction(async () => {
          await watches.insertWatch(lotWatch, 2);
          expect(await watches.clearErrorsStartingWith(['Could not reach'])).toBe(1);
          await watches.setPaused(kept, true, 2);
          expect(await watches.listWatches()).toHaveLength(2);
          throw new Error('stop');
        }),
      ).rejects.toThrow('stop');
      expect(await watches.listWatches()).toEqual([
        {
          ...fresh(kept, vinWatch, 1),
          last_checked_at: 1,
          consecutive_failures: 1,
          last_error: 'Could not reach the service',
        },
      ]);
    });
  });
}
