import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AlertRow, AlertsRepo, NewAlert } from '../../../../src/core/db/alertsRepo';
import { KyselyAlertsRepo } from '../../../../src/core/db/kysely/alertsRepo';
import type { Async, Transact } from '../../../../src/core/db/store';
import { engines, type EngineDb } from '../../../helpers/engines';

// AlertsRepo's contract (docs/architecture.md "Two engines: one store"): the SQLite class, and the Kysely class on a
// SQLite file and on PostgreSQL, give the same results for the same calls. Each case runs on every engine.

const a: NewAlert = {
  dedup_key: 'change:1',
  kind: 'bid_changed',
  lot_key: 'copart:1',
  change_id: 1,
  source: 'watch:1',
  title: 't',
  body: 'b',
  reason: null,
  delivery: 'now',
  deliver_after: null,
};

for (const engine of engines()) {
  describe.skipIf(engine.skip)(`AlertsRepo on ${engine.name}`, () => {
    let db: EngineDb;
    let alerts: Async<AlertsRepo>;
    let transaction: Transact;

    beforeEach(async () => {
      db = await engine.open();
      if (db.name === 'sqlite') {
        alerts = db.sqlite!.alerts;
        transaction = db.sqlite!.transaction;
      } else {
        alerts = new KyselyAlertsRepo(db.exec!, db.name === 'postgres' ? 'postgres' : 'sqlite');
        transaction = (fn) => db.exec!.transaction(fn);
      }
    });
    afterEach(() => db.close());

    /** Inserts an alert that must be new; returns its id. */
    const add = async (x: Partial<NewAlert> & { dedup_key: string }, now: number) => {
      const id = await alerts.insertAlert({ ...a, ...x }, now);
      expect(id).not.toBeNull();
      return id!;
    };

    it('stores an alert once per dedup key, in the status its delivery starts in', async () => {
      const now = await add({ dedup_key: 'k1', url: 'https://example.test/v/1' }, 10);
      expect(await alerts.insertAlert({ ...a, dedup_key: 'k1', title: 'other' }, 11)).toBeNull();
      const digest = await add({ dedup_key: 'k2', delivery: 'digest', deliver_after: 100 }, 12);
      const quiet = await add(
        { dedup_key: 'k3', delivery: 'suppressed', lot_key: null, change_id: null },
        13,
      );
      expect(new Set([now, digest, quiet]).size).toBe(3);
      const row = (id: number, x: Partial<AlertRow>): AlertRow => ({
        id,
        ...a,
        created_at: 0,
        status: 'pending',
        delivered_at: null,
        read_at: null,
        url: null,
        ...x,
      });
      expect(await alerts.list(false, Number.MAX_SAFE_INTEGER, 10)).toEqual([
        row(quiet, {
          dedup_key: 'k3',
          delivery: 'suppressed',
          status: 'suppressed',
          lot_key: null,
          change_id: null,
          created_at: 13,
        }),
        row(digest, {
          dedup_key: 'k2',
          delivery: 'digest',
          status: 'digest',
          deliver_after: 100,
          created_at: 12,
        }),
        row(now, { dedup_key: 'k1', created_at: 10, url: 'https://example.test/v/1' }),
      ]);
      // A duplicate inside a transaction is ignored without failing the transaction's other writes.
      await transaction(async () => {
        expect(await alerts.insertAlert({ ...a, dedup_key: 'k1' }, 14)).toBeNull();
        await add({ dedup_key: 'k4' }, 14);
      });
      expect(await alerts.unreadCount()).toBe(4);
    });

    it('stores one alert of several inserted at once with the same dedup key', async () => {
      const ids = await Promise.all(Array.from({ length: 4 }, (_, i) => alerts.insertAlert(a, 10 + i)));
      expect(ids.filter((id) => id !== null)).toHaveLength(1);
      expect(await alerts.unreadCount()).toBe(1);
    });

    it('hands out due alerts once through claim, holds digests until their time, and marks them delivered', async () => {
      expect(await alerts.nextDigestAt()).toBeNull();
      const id = await add({ dedup_key: 'change:1' }, 10);
      expect((await alerts.dueAlerts(20)).map((r) => r.id)).toEqual([id]);
      expect(await alerts.claimAlert(id)).toBe(true);
      expect(await alerts.claimAlert(id)).toBe(false);
      expect(await alerts.dueAlerts(20)).toEqual([]);
      await alerts.markDelivered(id, 30);
      const digest = await add({ dedup_key: 'change:2', delivery: 'digest', deliver_after: 100 }, 40);
      const later = await add({ dedup_key: 'change:4', delivery: 'digest', deliver_after: 200 }, 41);
      expect(await alerts.nextDigestAt()).toBe(100);
      expect(await alerts.dueAlerts(99)).toEqual([]);
      expect((await alerts.dueAlerts(100)).map((r) => r.id)).toEqual([digest]);
      await add({ dedup_key: 'change:3', delivery: 'suppressed' }, 50);
      const pending = await add({ dedup_key: 'change:5' }, 51);
      expect((await alerts.dueAlerts(1000)).map((r) => r.id)).toEqual([digest, later, pending]);
      expect(await alerts.claimAlert(digest)).toBe(true);
      expect(await alerts.nextDigestAt()).toBe(200);
      expect(await alerts.alertsForLotSince('copart:1', 0)).toBe(4);
      expect(await alerts.alertsForLotSince('copart:1', 40)).toBe(2);
      expect(await alerts.alertsForLotSince('copart:2', 0)).toBe(0);
      const shown = (await alerts.list(false, Number.MAX_SAFE_INTEGER, 10)).find((r) => r.id === id);
      expect(shown).toMatchObject({ status: 'delivered', delivered_at: 30 });
      // A claim of an alert that does not exist, or was delivered, claims nothing.
      expect(await alerts.claimAlert(id)).toBe(false);
      expect(await alerts.claimAlert(pending + 100)).toBe(false);
    });

    it('gives exactly one of several concurrent claims of an alert', async () => {
      const id = await add({ dedup_key: 'change:1' }, 10);
      const won = await Promise.all(Array.from({ length: 4 }, () => alerts.claimAlert(id)));
      expect(won.filter(Boolean)).toHaveLength(1);
    });

    it('lists alerts left claimed and marks them recovered', async () => {
      const one = await add({ dedup_key: 'change:1' }, 10);
      const two = await add({ dedup_key: 'change:2' }, 11);
      const three = await add({ dedup_key: 'change:3' }, 12);
      await alerts.claimAlert(one);
      await alerts.claimAlert(three);
      expect((await alerts.claimedAlerts()).map((r) => r.id)).toEqual([one, three]);
      await alerts.markRecovered(one, 50);
      await alerts.markRecovered(two, 50);
      expect((await alerts.claimedAlerts()).map((r) => r.id)).toEqual([three]);
      const rows = await alerts.list(false, Number.MAX_SAFE_INTEGER, 10);
      expect(rows.find((r) => r.id === one)).toMatchObject({ status: 'recovered', delivered_at: 50 });
      // Only a claimed alert is recovered.
      expect(rows.find((r) => r.id === two)).toMatchObject({ status: 'pending', delivered_at: null });
    });

    it('pages the inbox unread first, then newest first, and keeps the read state', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) ids.push(await add({ dedup_key: `k${i}` }, 10 + i));
      const [i0, i1, i2, i3, i4, i5] = ids as [number, number, number, number, number, number];
      expect(await alerts.unreadCount()).toBe(6);
      await alerts.setRead(i5, true, 100);
      await alerts.setRead(i2, true, 101);
      await alerts.setRead(i0, true, 102);
      await alerts.setRead(i0, false, 103);
      expect(await alerts.unreadCount()).toBe(4);
      const page = async (unreadOnly: boolean, before: number, limit: number) =>
        (await alerts.list(unreadOnly, before, limit)).map((r) => r.id);
      expect(await page(false, Number.MAX_SAFE_INTEGER, 10)).toEqual([i4, i3, i1, i0, i5, i2]);
      expect(await page(false, Number.MAX_SAFE_INTEGER, 3)).toEqual([i4, i3, i1]);
      expect(await page(false, i3, 10)).toEqual([i1, i0, i2]);
      expect(await page(true, Number.MAX_SAFE_INTEGER, 10)).toEqual([i4, i3, i1, i0]);
      expect(await page(true, i1, 10)).toEqual([i0]);
      expect(await page(true, i0, 10)).toEqual([]);
      const rows = await alerts.list(false, Number.MAX_SAFE_INTEGER, 10);
      expect(rows.find((r) => r.id === i5)?.read_at).toBe(100);
      expect(rows.find((r) => r.id === i0)?.read_at).toBeNull();
    });

    it("counts a saved search's new-match alerts after a time", async () => {
      const m = { kind: 'new_match' as const, source: 'search:1' };
      await add({ ...m, dedup_key: 'm1' }, 10);
      await add({ ...m, dedup_key: 'm2', delivery: 'suppressed' }, 20);
      await add({ ...m, dedup_key: 'm3', source: 'search:2' }, 20);
      await add({ dedup_key: 'b1', source: 'search:1' }, 30);
      expect(await alerts.newMatchesSince('search:1', 0)).toBe(2);
      expect(await alerts.newMatchesSince('search:1', 10)).toBe(1);
      expect(await alerts.newMatchesSince('search:3', 0)).toBe(0);
    });

    it("joins the store's transaction: a throw rolls back inserts, claims and read marks", async () => {
      const id = await add({ dedup_key: 'change:1' }, 10);
      await expect(
        transaction(async () => {
          await add({ dedup_key: 'change:2' }, 11);
          expect(await alerts.claimAlert(id)).toBe(true);
          await alerts.setRead(id, true, 12);
          expect(await alerts.unreadCount()).toBe(1);
          throw new Error('stop');
        }),
      ).rejects.toThrow('stop');
      expect((await alerts.dueAlerts(100)).map((r) => r.id)).toEqual([id]);
      expect(await alerts.unreadCount()).toBe(1);
      expect(await alerts.insertAlert({ ...a, dedup_key: 'change:2' }, 13)).not.toBeNull();
    });
  });
}
