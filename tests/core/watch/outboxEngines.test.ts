import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/log';
import type { NewAlert, Store } from '../../../src/core/db/store';
import { Outbox } from '../../../src/core/watch/outbox';
import { coreEngines, placesPerTest } from '../../helpers/coreEngines';
import { FakeClock } from '../../helpers/fakeClock';
import { startSandbox, type Sandbox } from '../../helpers/sandbox';

// The watch engine's alert outbox (src/core/watch/outbox.ts) on both engines, the desktop's SQLite file and a team's
// PostgreSQL database, with the same outcomes: an alert shown exactly once however many rounds run, alerts held in
// quiet hours sent as one digest when they end, the alerts a stopped run left claimed named in one notice at the next
// start and never shown twice, and two outboxes delivering the same alerts at once (on PostgreSQL on two connections,
// as two servers on one database): each alert, and each digest, shown once. delivery.test.ts is the SQLite suite these follow.

const START = Date.UTC(2026, 5, 1, 12, 0, 0);
const MIN = 60_000;
let sb: Sandbox;
let clock: FakeClock;

beforeAll(async () => {
  clock = new FakeClock(START);
  // Every market change visible at once: these tests check an alert right after the sale.
  sb = await startSandbox({
    seed: 13,
    lots: 3000,
    startTime: START,
    speed: 1,
    now: () => clock.now(),
    ratePerSecond: 0,
    refresh: 'instant',
  });
});
afterAll(async () => sb.dispose());

type Inbox = { id: number; kind: string; delivery: string; status: string; title: string }[];

/** An alert as the watch engine stores it (delivery now, no lot), under `key`. */
const alert = (key: string, title: string, over: Partial<NewAlert> = {}): NewAlert => ({
  dedup_key: key,
  kind: 'sale_result',
  lot_key: null,
  change_id: null,
  source: 'test',
  title,
  body: `${title}: the body of the alert.`,
  reason: null,
  delivery: 'now',
  deliver_after: null,
  ...over,
});

/** An outbox over `store` (a connection of its own, as a second server has), showing into `shown`. */
const outboxOn = (store: Store, shown: string[]) =>
  new Outbox({
    store: store.alerts,
    clock,
    log: silentLogger,
    notifier: { notify: (n) => void shown.push(n.title) },
    notificationsEnabled: () => true,
    emit: () => {},
    transaction: (fn) => store.transaction(fn),
  });

for (const engine of coreEngines()) {
  describe.skipIf(engine.skip)(`the alert outbox on ${engine.name}`, () => {
    const place = placesPerTest(engine);

    it('shows a sale result exactly once, however many rounds run', async () => {
      const p = await place();
      const { core, value, shown } = await p.start({ sandbox: sb, clock });
      const lot = sb.market.sorted.find(
        (l) => l.subStatus === 'Open' && l.auctionAt > clock.now() + 5 * MIN,
      )!;
      const w = await value('watchlist.add', { target: lot.lotNumber, rules: { kinds: ['sale_result'] } });
      clock.advanceTo(sb.market.timeline(lot.lotNumber)!.endAt + MIN);
      await value('watchlist.checkNow', { id: w['id'] });
      const inbox = (await value('alerts.list'))['alerts'] as Inbox;
      expect(inbox.map((a) => [a.kind, a.status])).toEqual([['sale_result', 'delivered']]);
      expect(shown.map((n) => n.title)).toEqual([inbox[0]!.title]);
      for (let i = 0; i < 3; i++) {
        clock.advance(MIN);
        await core.engine.runDue();
      }
      await value('watchlist.checkNow', { id: w['id'] });
      expect(shown).toHaveLength(1);
    });

    it('holds alerts in quiet hours and sends one digest when they end; the inbox has every alert', async () => {
      const p = await place();
      const { core, value, shown } = await p.start({ sandbox: sb, clock });
      const lot = sb.market.sorted.find(
        (l) => l.subStatus === 'Open' && l.auctionAt > clock.now() + 5 * MIN,
      )!;
      const w = await value('watchlist.add', {
        target: lot.lotNumber,
        rules: { kinds: ['bid_changed', 'sale_result'] },
      });
      const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);
      await value('settings.update', {
        quietHours: {
          enabled: true,
          start: hhmm(clock.now() - MIN),
          end: hhmm(lot.auctionAt + 2 * 60 * MIN),
        },
      });
      clock.advanceTo(sb.market.timeline(lot.lotNumber)!.endAt + MIN);
      await value('watchlist.checkNow', { id: w['id'] });
      const inbox = (await value('alerts.list'))['alerts'] as Inbox;
      expect(inbox.length).toBeGreaterThanOrEqual(2);
      expect(inbox.every((a) => a.delivery === 'digest' && a.status === 'digest')).toBe(true);
      expect(shown).toEqual([]);
      clock.advanceTo(lot.auctionAt + 2 * 60 * MIN + MIN);
      await core.engine.runDue();
      expect(shown).toEqual([
        { title: `${inbox.length} alerts during quiet hours`, body: expect.any(String) as string },
      ]);
      await core.engine.runDue();
      expect(shown).toHaveLength(1);
      const after = (await value('alerts.list'))['alerts'] as Inbox;
      expect(after.every((a) => a.status === 'delivered')).toBe(true);
      expect(after.filter((a) => a.kind === 'digest')).toHaveLength(1);
    });

    it('names the alert a stopped run left claimed in one notice at the next start, and shows nothing twice', async () => {
      const p = await place();
      const first = await p.start({ sandbox: sb, clock });
      const lot = sb.market.sorted.find(
        (l) => l.subStatus === 'Open' && l.auctionAt > clock.now() + 5 * MIN,
      )!;
      const w = await first.value('watchlist.add', {
        target: lot.lotNumber,
        rules: { kinds: ['sale_result'] },
      });
      clock.advanceTo(sb.market.timeline(lot.lotNumber)!.endAt + MIN);
      await first.value('watchlist.checkNow', { id: w['id'] });
      const sale = ((await first.value('alerts.list'))['alerts'] as Inbox)[0]!;
      expect(first.shown.map((n) => n.title)).toEqual([sale.title]);
      await first.core.dispose();
      // The moment between the outbox's claim and its mark, as a kill -9 leaves it: an alert stored and claimed by
      // the stopped run (through the store's own claim, on a second connection), never marked shown.
      const side = await p.side();
      const left = await side.alerts.insertAlert(alert('test:left', 'Sold while stopping'), clock.now());
      expect(await side.alerts.claimAlert(left!)).toBe(true);
      expect((await side.alerts.claimedAlerts()).map((a) => a.id)).toEqual([left]);

      const second = await p.start({ sandbox: sb, clock });
      second.core.engine.start();
      await second.core.engine.idle();
      expect(second.shown).toEqual([
        { title: 'Lotwatch stopped while showing an alert', body: 'Sold while stopping' },
      ]);
      const inbox = (await second.value('alerts.list'))['alerts'] as Inbox;
      expect(inbox.find((a) => a.id === left)!.status).toBe('recovered');
      expect(inbox.find((a) => a.id === sale.id)!.status).toBe('delivered');
      expect(inbox.filter((a) => a.kind === 'digest').map((a) => a.status)).toEqual(['delivered']);
      expect(await side.alerts.claimedAlerts()).toEqual([]);
      await second.core.dispose();

      const third = await p.start({ sandbox: sb, clock });
      third.core.engine.start();
      await third.core.engine.idle();
      expect(third.shown).toEqual([]);
    });

    it('two outboxes delivering at once show each alert once, and one digest', async () => {
      const p = await place();
      // A core made the database (migrated it), then stopped: the two outboxes are the only writers. On PostgreSQL
      // each has a pool of its own (two servers on one database); on SQLite they share one connection (one Lotwatch
      // per data file: a second connection in the same process would wait for the first's transaction while
      // blocking the thread that must finish it).
      const made = await p.start({ clock });
      await made.core.dispose();
      const a = await p.side();
      const b = engine.name === 'postgres' ? await p.side() : a;
      const now = clock.now();
      const titles: string[] = [];
      for (let i = 0; i < 12; i++) {
        titles.push(`Sold ${i}`);
        await a.alerts.insertAlert(alert(`test:now:${i}`, `Sold ${i}`), now);
      }
      for (let i = 0; i < 5; i++)
        await a.alerts.insertAlert(
          alert(`test:held:${i}`, `Held ${i}`, { delivery: 'digest', deliver_after: now - MIN }),
          now - 2 * MIN,
        );
      const shownA: string[] = [];
      const shownB: string[] = [];
      const [oa, ob] = [outboxOn(a, shownA), outboxOn(b, shownB)];
      await Promise.all([oa.deliver(), ob.deliver(), oa.deliver(), ob.deliver()]);
      const shown = [...shownA, ...shownB];
      expect(shown.filter((t) => t.startsWith('Sold')).sort()).toEqual([...titles].sort());
      expect(shown.filter((t) => t === '5 alerts during quiet hours')).toHaveLength(1);
      expect(shown).toHaveLength(13);
      expect(await a.alerts.dueAlerts(now)).toEqual([]);
      expect(await a.alerts.claimedAlerts()).toEqual([]);
      await Promise.all([oa.deliver(), ob.deliver()]);
      expect(shownA.length + shownB.length).toBe(13);
    });
  });
}
