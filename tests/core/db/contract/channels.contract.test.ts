import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryRow } from '../../../../src/core/db/channelsRepo';
import { engines, type EngineDb } from '../../../helpers/engines';
import { alertRow, restRepos, type RestRepos } from './restRepos';

// ChannelsRepo's contract (src/core/db/channelsRepo.ts defines it) on every engine: the SQLite store's repository,
// KyselyChannelsRepo over SQLite and over PostgreSQL give the same answers to the same calls.

const PHONE = JSON.stringify({ name: 'My phone', enabled: true, config: { type: 'ntfy', topic: 't' } });
const MAIL = JSON.stringify({ enabled: true, config: { type: 'email' } });

for (const e of engines()) {
  describe.skipIf(e.skip)(`ChannelsRepo on ${e.name}`, () => {
    let d: EngineDb;
    let r: RestRepos;
    beforeEach(async () => {
      d = await e.open();
      r = restRepos(d);
    });
    afterEach(async () => {
      await r.done();
      await d.close();
    });

    /** Stores alerts 1..n (ids 1..n on every engine). */
    const seedAlerts = async (n: number) => {
      await r.seed
        .insertInto('alerts')
        .values(
          Array.from({ length: n }, (_, i) => alertRow(i + 1, i === 1 ? { url: 'https://x.example/1' } : {})),
        )
        .execute();
    };

    it('stores, lists, changes and removes channels', async () => {
      expect(await r.channels.list()).toEqual([]);
      const a = await r.channels.insert('ntfy', PHONE, 7, 1_000);
      const b = await r.channels.insert('email', MAIL, 0, 2_000);
      expect([a, b]).toEqual([1, 2]);
      const first = {
        id: 1,
        type: 'ntfy',
        settings: PHONE,
        cursor: 7,
        failures: 0,
        failing_since: null,
        last_error: null,
        last_sent_at: null,
        created_at: 1_000,
        updated_at: 1_000,
        owner_id: null,
      };
      expect(await r.channels.get(a)).toEqual(first);
      expect(await r.channels.get(99)).toBeUndefined();
      await r.channels.update(a, MAIL, 3_000);
      await r.channels.setCursor(a, 9);
      expect(await r.channels.get(a)).toEqual({ ...first, settings: MAIL, updated_at: 3_000, cursor: 9 });
      expect((await r.channels.list()).map((c) => c.id)).toEqual([1, 2]);
      expect(await r.channels.remove(a)).toBe(true);
      expect(await r.channels.remove(a)).toBe(false);
      expect((await r.channels.list()).map((c) => c.id)).toEqual([2]);
      await expect(r.channels.insert('fax', '{}', 0, 1)).rejects.toThrow();
      // A new channel's id is none of the stored ones'. (SQLite gives the removed newest id again, PostgreSQL's
      // identity a new one: the engines differ here, and nothing keys by a removed channel's id.)
      const c = await r.channels.insert('webhook', PHONE, 0, 4_000);
      expect(c).toBeGreaterThan(b);
      expect((await r.channels.list()).map((x) => x.id)).toEqual([b, c]);
    });

    it("counts a channel's failure streak from its first failure, and ends it on a success or a change", async () => {
      const id = await r.channels.insert('ntfy', PHONE, 0, 1_000);
      expect(await r.channels.recordFailure(id, 'Refused.', 2_000)).toEqual({ failures: 1, since: 2_000 });
      expect(await r.channels.recordFailure(id, 'Timed out.', 3_000)).toEqual({ failures: 2, since: 2_000 });
      expect(await r.channels.get(id)).toMatchObject({
        failures: 2,
        failing_since: 2_000,
        last_error: 'Timed out.',
      });
      await r.channels.recordSuccess(id, 4_000);
      expect(await r.channels.get(id)).toMatchObject({
        failures: 0,
        failing_since: null,
        last_error: null,
        last_sent_at: 4_000,
      });
      await r.channels.recordFailure(id, 'Refused.', 5_000);
      await r.channels.clearHealth(id);
      expect(await r.channels.get(id)).toMatchObject({
        failures: 0,
        failing_since: null,
        last_error: null,
        last_sent_at: 4_000,
      });
      expect(await r.channels.recordFailure(id, 'Again.', 6_000)).toEqual({ failures: 1, since: 6_000 });
    });

    it('reads the newest alert id and the alerts after a cursor, oldest first', async () => {
      expect(await r.channels.newestAlertId()).toBe(0);
      expect(await r.channels.alertsAfter(0, 10)).toEqual([]);
      await seedAlerts(4);
      expect(await r.channels.newestAlertId()).toBe(4);
      const after = await r.channels.alertsAfter(1, 2);
      expect(after).toEqual([
        {
          id: 2,
          dedup_key: 'change:2',
          kind: 'new_lot',
          lot_key: 'copart:1002',
          change_id: null,
          source: '',
          title: 'Alert 2',
          body: 'Body 2',
          reason: null,
          created_at: 10_002,
          delivery: 'now',
          status: 'pending',
          deliver_after: null,
          delivered_at: null,
          read_at: null,
          url: 'https://x.example/1',
        },
        expect.objectContaining({ id: 3, dedup_key: 'change:3', url: null }),
      ]);
      expect((await r.channels.alertsAfter(0, 100)).map((a) => a.id)).toEqual([1, 2, 3, 4]);
      expect(await r.channels.alertsAfter(4, 100)).toEqual([]);
    });

    it('routes an alert to a channel once, and lists what is due, with the alert texts', async () => {
      await seedAlerts(3);
      const ch = await r.channels.insert('ntfy', PHONE, 0, 1_000);
      await r.channels.addDelivery(1, ch, 'pending', 100, null, 50);
      await r.channels.addDelivery(2, ch, 'held', 500, 'Quiet hours.', 50);
      await r.channels.addDelivery(3, ch, 'skipped', 0, 'Below the threshold.', 50);
      const first: DeliveryRow = {
        id: 1,
        alert_id: 1,
        channel_id: ch,
        status: 'pending',
        not_before: 100,
        attempts: 0,
        message_key: null,
        detail: null,
        created_at: 50,
        attempted_at: null,
        sent_at: null,
        kind: 'new_lot',
        title: 'Alert 1',
        body: 'Body 1',
        url: null,
        lot_key: 'copart:1001',
        alert_created_at: 10_001,
      };
      expect(await r.channels.dueFor(ch, 99)).toEqual([]);
      expect(await r.channels.dueFor(ch, 100)).toEqual([first]);
      expect((await r.channels.dueFor(ch, 500)).map((x) => [x.id, x.status, x.url])).toEqual([
        [1, 'pending', null],
        [2, 'held', 'https://x.example/1'],
      ]);
      expect(await r.channels.nextDueFor(ch)).toBe(100);
      expect(await r.channels.waitingFor(ch)).toBe(2);
      expect(await r.channels.nextDueFor(99)).toBeNull();
      expect(await r.channels.waitingFor(99)).toBe(0);
      // A second routing of the pair writes nothing. (PostgreSQL's identity still spends an id on it: ids of later
      // deliveries may have gaps there, never on SQLite; ids are only ever compared, never counted.)
      await r.channels.addDelivery(1, ch, 'held', 999, 'again', 60);
      expect(await r.channels.forAlert(1)).toEqual([{ ...first, channel_name: 'My phone' }]);
      expect(await r.channels.waitingFor(ch)).toBe(2);
    });

    it('claims a message, marks it sent, puts failures back, and makes retries due now', async () => {
      await seedAlerts(3);
      const ch = await r.channels.insert('ntfy', PHONE, 0, 1_000);
      for (const a of [1, 2, 3]) await r.channels.addDelivery(a, ch, 'pending', 100, null, 50);
      expect(await r.channels.claim([1, 2], 'lw-key', 200)).toBe(true);
      expect(await r.channels.leftSending()).toEqual([
        expect.objectContaining({
          id: 1,
          status: 'sending',
          attempts: 1,
          attempted_at: 200,
          message_key: 'lw-key',
        }),
        expect.objectContaining({
          id: 2,
          status: 'sending',
          attempts: 1,
          attempted_at: 200,
          message_key: 'lw-key',
        }),
      ]);
      expect(await r.channels.waitingFor(ch)).toBe(3);
      expect(await r.channels.nextDueFor(ch)).toBe(100);
      // Row 1 is no longer due: the claim says so (it stops at row 1; row 3 stays unclaimed).
      expect(await r.channels.claim([1, 3], 'lw-other', 300)).toBe(false);
      expect((await r.channels.dueFor(ch, 1_000)).map((x) => x.id)).toEqual([3]);
      await r.channels.markSent([1, 2, 3], 400, 'Accepted (200).');
      expect(await r.channels.leftSending()).toEqual([]);
      const log = await r.channels.forAlert(1);
      expect(log).toEqual([
        expect.objectContaining({
          id: 1,
          status: 'sent',
          sent_at: 400,
          detail: 'Accepted (200).',
          channel_name: 'My phone',
        }),
      ]);
      expect((await r.channels.forAlert(3))[0]).toMatchObject({
        status: 'pending',
        sent_at: null,
        detail: null,
      });
      await r.channels.setStatus(3, 'pending', 5_000, 'Refused (503).');
      expect(await r.channels.nextDueFor(ch)).toBe(5_000);
      await r.channels.retryNow(ch, 600);
      expect(await r.channels.dueFor(ch, 600)).toEqual([
        expect.objectContaining({ id: 3, not_before: 600, detail: 'Refused (503).' }),
      ]);
      await r.channels.setStatus(3, 'failed', 700, 'Gave up.');
      await r.channels.retryNow(ch, 800);
      expect(await r.channels.forAlert(3)).toEqual([
        expect.objectContaining({ status: 'failed', not_before: 700, detail: 'Gave up.' }),
      ]);
      expect(await r.channels.waitingFor(ch)).toBe(0);
      expect(await r.channels.nextDueFor(ch)).toBeNull();
    });

    it("logs every channel's deliveries newest first, with the channel's name ('' without one)", async () => {
      await seedAlerts(2);
      const phone = await r.channels.insert('ntfy', PHONE, 0, 1_000);
      const mail = await r.channels.insert('email', MAIL, 0, 1_000);
      await r.channels.addDelivery(1, phone, 'sent', 0, 'ok', 10);
      await r.channels.addDelivery(1, mail, 'pending', 0, null, 11);
      await r.channels.addDelivery(2, phone, 'held', 0, null, 12);
      expect((await r.channels.log(2)).map((x) => [x.id, x.alert_id, x.channel_name])).toEqual([
        [3, 2, 'My phone'],
        [2, 1, ''],
      ]);
      expect(
        (await r.channels.forAlert(1)).map((x) => [x.id, x.channel_id, x.channel_name, x.title]),
      ).toEqual([
        [1, phone, 'My phone', 'Alert 1'],
        [2, mail, '', 'Alert 1'],
      ]);
      expect(await r.channels.log(0)).toEqual([]);
      // Removing a channel removes its deliveries.
      expect(await r.channels.remove(phone)).toBe(true);
      expect((await r.channels.log(10)).map((x) => x.id)).toEqual([2]);
    });

    it('lets one of two transactions claiming the same delivery at once have it', async () => {
      await seedAlerts(1);
      const ch = await r.channels.insert('ntfy', PHONE, 0, 1_000);
      await r.channels.addDelivery(1, ch, 'pending', 0, null, 0);
      const claimed = await Promise.all(
        ['a', 'b'].map((key) => r.transaction(() => r.channels.claim([1], key, 5))),
      );
      expect(claimed.filter(Boolean)).toHaveLength(1);
      expect(await r.channels.leftSending()).toEqual([
        expect.objectContaining({ id: 1, attempts: 1, message_key: claimed[0] ? 'a' : 'b' }),
      ]);
    });

    it('joins the store transaction: a lost claim rolled back by its caller claims nothing', async () => {
      await seedAlerts(2);
      const ch = await r.channels.insert('ntfy', PHONE, 0, 1_000);
      await r.channels.addDelivery(1, ch, 'pending', 0, null, 0);
      await r.channels.addDelivery(2, ch, 'pending', 0, null, 0);
      await r.channels.setStatus(2, 'sent', 0, 'already');
      class Lost extends Error {}
      await expect(
        r.transaction(async () => {
          if (!(await r.channels.claim([1, 2], 'k', 5))) throw new Lost();
        }),
      ).rejects.toBeInstanceOf(Lost);
      expect(await r.channels.dueFor(ch, 10)).toEqual([
        expect.objectContaining({ id: 1, attempts: 0, message_key: null }),
      ]);
      await r.transaction(async () => {
        expect(await r.channels.claim([1], 'k', 5)).toBe(true);
        await r.channels.markSent([1], 6, 'ok');
        await r.channels.recordSuccess(ch, 6);
      });
      expect(await r.channels.forAlert(1)).toEqual([
        expect.objectContaining({ status: 'sent', attempts: 1, sent_at: 6 }),
      ]);
      expect((await r.channels.get(ch))!.last_sent_at).toBe(6);
    });
  });
}
