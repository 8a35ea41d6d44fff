import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KyselyPersonalRepo } from '../../../../src/core/db/kysely/personalRepo';
import type { PersonalRepo } from '../../../../src/core/db/personalRepo';
import type { Async } from '../../../../src/core/db/store';
import { engines, type EngineDb } from '../../../helpers/engines';
import { alertRow, restRepos, type RestRepos } from './restRepos';

// PersonalRepo's contract (src/core/db/personalRepo.ts defines it) on every engine: each team member's read state,
// personal settings and lot preferences give the same answers on the SQLite store's repository and on
// KyselyPersonalRepo over SQLite and over PostgreSQL; and ChannelsRepo's owner of a channel.

const NO_SNOOZE = { snooze_until: null, snooze_until_event: null, snoozed_at: null, max_bid_usd: null };

for (const e of engines()) {
  describe.skipIf(e.skip)(`PersonalRepo on ${e.name}`, () => {
    let d: EngineDb;
    let r: RestRepos;
    let p: Async<PersonalRepo>;
    beforeEach(async () => {
      d = await e.open();
      r = restRepos(d);
      p =
        d.sqlite && d.name === 'sqlite'
          ? d.sqlite.personal
          : new KyselyPersonalRepo(d.exec!, d.name === 'postgres' ? 'postgres' : 'sqlite');
      // Alerts 1..4: 1 and 2 of lot copart:1001/1002, 3 a failing channel 1's, 4 a failing channel 2's.
      await r.seed
        .insertInto('alerts')
        .values([
          alertRow(1, { source: 'watch:1' }),
          alertRow(2, { read_at: 50, source: 'watch:1' }),
          alertRow(3, { kind: 'channel_failing', lot_key: null, source: 'channel:1' }),
          alertRow(4, { kind: 'channel_failing', lot_key: null, source: 'channel:2' }),
        ])
        .execute();
    });
    afterEach(async () => {
      await r.done();
      await d.close();
    });

    it('keeps each member’s read state apart from the others’ and from the alerts’ own', async () => {
      await r.channels.insert('email', '{}', 0, 1, 7);
      await r.channels.insert('email', '{}', 0, 1, 8);
      // Member 7 owns channel 1: its failing alert is theirs; channel 2's is member 8's.
      expect((await p.listAlerts(7, false, 99, 10)).map((a) => [a.id, a.read_at])).toEqual([
        [3, null],
        [2, null],
        [1, null],
      ]);
      expect(await p.unreadCount(7)).toBe(3);
      await p.setRead(7, 2, true, 100);
      await p.setRead(7, 2, true, 200);
      expect((await p.listAlerts(7, false, 99, 10)).map((a) => [a.id, a.read_at])).toEqual([
        [3, null],
        [1, null],
        [2, 100],
      ]);
      expect((await p.listAlerts(7, true, 99, 10)).map((a) => a.id)).toEqual([3, 1]);
      expect((await p.listAlerts(7, false, 3, 1)).map((a) => a.id)).toEqual([1]);
      expect([await p.unreadCount(7), await p.unreadCount(8)]).toEqual([2, 3]);
      expect((await p.listAlerts(8, false, 99, 10)).map((a) => a.id)).toEqual([4, 2, 1]);
      await p.setRead(7, 2, false, 300);
      expect(await p.unreadCount(7)).toBe(3);
      const own = await r.seed.selectFrom('alerts').select(['id', 'read_at']).orderBy('id').execute();
      expect(own.map((a) => a.read_at)).toEqual([null, 50, null, null]);
    });

    it('hides a muted lot from that member alone, and keeps their snooze and max bid', async () => {
      await p.setLotPrefs(7, 'copart:1001', { ...NO_SNOOZE, muted: 1 }, 10);
      expect((await p.listAlerts(7, false, 99, 10)).map((a) => a.id)).toEqual([2]);
      expect(await p.unreadCount(7)).toBe(1);
      expect((await p.listAlerts(8, false, 99, 10)).map((a) => a.id)).toEqual([2, 1]);
      const snooze = {
        muted: 0,
        snooze_until: 90,
        snooze_until_event: 'sale_result',
        snoozed_at: 20,
        max_bid_usd: 4200.5,
      };
      await p.setLotPrefs(7, 'copart:1001', snooze, 30);
      expect(await p.lotPrefs(7)).toEqual([
        { ...snooze, user_id: 7, lot_key: 'copart:1001', updated_at: 30 },
      ]);
      expect(await p.lotPrefs(8)).toEqual([]);
      expect((await p.listAlerts(7, false, 99, 10)).map((a) => a.id)).toEqual([2, 1]);
      expect(await p.firstAlertOfKind('copart:1001', 'new_lot', 10_001)).toBe(1);
      expect(await p.firstAlertOfKind('copart:1001', 'new_lot', 10_002)).toBeNull();
    });

    it('keeps each member’s personal settings', async () => {
      await p.setSettings(
        7,
        [
          ['theme', '"dark"'],
          ['quietHours', '{"enabled":true}'],
        ],
        10,
      );
      await p.setSettings(7, [['theme', '"light"']], 20);
      expect(await p.settings(7)).toEqual([
        { key: 'quietHours', value: '{"enabled":true}' },
        { key: 'theme', value: '"light"' },
      ]);
      expect(await p.settings(8)).toEqual([]);
    });

    it('keeps a channel’s owner, and each owner’s delivery log apart', async () => {
      const mine = await r.channels.insert('email', '{"name":"Mine"}', 0, 1, 7);
      const desk = await r.channels.insert('email', '{"name":"Desk"}', 0, 1);
      expect((await r.channels.get(mine))!.owner_id).toBe(7);
      expect((await r.channels.get(desk))!.owner_id).toBeNull();
      await r.channels.addDelivery(1, mine, 'pending', 1, null, 1);
      await r.channels.addDelivery(1, desk, 'pending', 1, null, 1);
      expect((await r.channels.log(10, 7)).map((x) => x.channel_name)).toEqual(['Mine']);
      expect((await r.channels.log(10)).map((x) => x.channel_name)).toEqual(['Desk']);
      expect((await r.channels.forAlert(1, 7)).map((x) => x.channel_id)).toEqual([mine]);
      expect((await r.channels.forAlert(1, 8)).map((x) => x.channel_id)).toEqual([]);
      expect((await r.channels.forAlert(1)).map((x) => x.channel_id)).toEqual([desk]);
    });
  });
}
