import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/core/app';
import { postgresDatabase } from '../../../src/core/coreDatabase';
import { openPostgres, type PostgresHandle } from '../../../src/core/db/pg/open';
import { PgStore } from '../../../src/core/db/pg/store';
import { LEADER_RETRY_MS, claimAsServer, type Leadership } from '../../../src/core/team/leader';
import { coresPerTest } from '../../helpers/core';
import { FakeClock } from '../../helpers/fakeClock';
import { pgAvailable, testDatabase } from '../../helpers/postgres';
import { startHttpReceiver, type HttpReceiver, type ReceivedRequest } from '../../helpers/receivers';
import { tempDir } from '../../helpers/tmp';
import { endBackend, seatsPerTest } from './teamHelpers';

// The alert channels' outbox on several servers of one team (docs/architecture.md "Delivery"): every server runs it,
// a delivery is claimed with FOR UPDATE SKIP LOCKED, so two servers never send one delivery; a message left `sending`
// by a server that is alive is left to it, even by a server that starts meanwhile; one left by a server that died is
// sent again by a live one, once, under the same key.

const START = Date.UTC(2026, 5, 1, 12, 0, 0);
let hook: HttpReceiver;
/** While set, the next webhook request is held unanswered: `reached` resolves when it arrived. */
let hold: { reached: () => void; release: Promise<void> } | null = null;

beforeAll(async () => {
  hook = await startHttpReceiver({
    hold: async () => {
      if (!hold) return;
      const h = hold;
      hold = null;
      h.reached();
      await h.release;
    },
  });
});
afterAll(() => hook.close());
afterEach(() => {
  hook.received.length = 0;
  hold = null;
});

const seat = seatsPerTest();
const startCore = coresPerTest();
const key = (r: ReceivedRequest) => r.headers['idempotency-key'];

describe.skipIf(!pgAvailable())('the alert channels’ outbox on several servers of one database', () => {
  let url: string;
  let side: PostgresHandle;
  let store: PgStore;
  let clock: FakeClock;
  let dir: ReturnType<typeof tempDir>;
  beforeEach(async () => {
    url = (await testDatabase('claims'))!;
    clock = new FakeClock(START);
    dir = tempDir();
    return async () => {
      await side?.close();
      dir.cleanup();
    };
  });

  /**
   * A team server: a core over its own pool on the test's database (one data folder for all, as a team's servers
   * share their secret key), its seat, its claims named by the seat's number, its outbox started, and every check of
   * the seat asking the outbox to take over what a gone server left (as the team server wires it).
   */
  async function server(seatClock: FakeClock = clock): Promise<{ core: Core; seat: Leadership }> {
    const database = await postgresDatabase(url, { dataDir: dir.dir, clock });
    const { core } = await startCore({
      clock,
      database,
      dir: dir.dir,
      autoStart: false,
      demoExamples: false,
      tzOffsetMinutes: () => 0,
    });
    const s = await seat(url, { clock: seatClock, onCheck: () => core.channelOutbox.recoverLeft() });
    claimAsServer(database.store, s.serverId);
    core.channelOutbox.start();
    await core.channelOutbox.idle();
    return { core, seat: s };
  }

  async function openSide(): Promise<void> {
    side = await openPostgres(url, { max: 2 });
    store = new PgStore(side.db);
  }

  let raised = 0;
  /** Stores an alert as the watching server would (delivered now, sent by every channel at once). */
  async function raise(): Promise<number> {
    raised++;
    const id = await store.alerts.insertAlert(
      {
        dedup_key: `claims:${raised}`,
        kind: 'quota_low',
        lot_key: null,
        change_id: null,
        source: 'test',
        title: `Requests are running low (${raised})`,
        body: 'Few requests left.',
        reason: null,
        delivery: 'now',
        deliver_after: null,
      },
      clock.now(),
    );
    return id!;
  }

  const webhook = () => ({
    name: 'Dispatch webhook',
    config: { type: 'webhook' as const, format: 'json' as const, telegram_chat_id: '' },
    secret: `${hook.url}/hooks/s3cr3t-path`,
  });

  it('sends each of many alerts exactly once to the webhook while two servers route and send them at once', async () => {
    const a = await server();
    const b = await server();
    await openSide();
    await a.core.call('channels.save', webhook());
    const ALERTS = 60;
    for (let round = 0; round < ALERTS / 6; round++) {
      for (let i = 0; i < 6; i++) await raise();
      a.core.channelOutbox.kick();
      b.core.channelOutbox.kick();
      await Promise.all([a.core.channelOutbox.idle(), b.core.channelOutbox.idle()]);
    }
    // Retries and recoveries that might be due later change nothing.
    clock.advance(2 * LEADER_RETRY_MS);
    await Promise.all([a.core.channelOutbox.idle(), b.core.channelOutbox.idle()]);
    const titles = hook.received.map((r) => (r.body as { title: string }).title);
    expect(titles).toHaveLength(ALERTS);
    expect(new Set(titles).size).toBe(ALERTS);
    expect(new Set(hook.received.map(key)).size).toBe(ALERTS);
    const rows = await side.db
      .selectFrom('deliveries')
      .select(['status', 'attempts', 'claimed_by'])
      .execute();
    expect(rows).toHaveLength(ALERTS);
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    const by = new Map<number | null, number>();
    for (const r of rows) by.set(r.claimed_by, (by.get(r.claimed_by) ?? 0) + 1);
    // Which server sent which is the race's; every one was sent by one of the two.
    expect([...by.keys()].every((k) => k === a.seat.serverId || k === b.seat.serverId)).toBe(true);
    console.info(
      `deliveries sent by server ${a.seat.serverId}: ${by.get(a.seat.serverId) ?? 0}, by server ${b.seat.serverId}: ${by.get(b.seat.serverId) ?? 0}`,
    );
  });

  it('gives up a claim at once, claiming nothing, while another server holds one of its deliveries', async () => {
    const a = await server();
    await openSide();
    await a.core.call('channels.save', webhook());
    // The claims below are made as a server of the test's own (`mine`). Server A's outbox stops here: a round of its
    // own (its seat's every check asks for one) would otherwise send the held rows before they are claimed.
    await a.core.channelOutbox.dispose();
    hook.received.length = 0;
    // Routed but not sent: no outbox runs while the rows are held and claimed.
    const [first, second] = [await raise(), await raise()];
    const channelId = (await store.channels.list())[0]!.id;
    for (const alertId of [first, second])
      await store.channels.addDelivery(alertId, channelId, 'held', clock.now(), null, clock.now());
    const ids = (await store.channels.dueFor(channelId, clock.now())).map((d) => d.id);
    expect(ids).toHaveLength(2);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const lockedNow = new Promise<void>((r) => (locked = r));
    // Another server's claim in flight: its transaction holds the first row.
    const other = side.db.transaction().execute(async (trx) => {
      await trx.selectFrom('deliveries').select('id').where('id', '=', ids[0]!).forUpdate().execute();
      locked();
      await released;
    });
    await lockedNow;
    const mine = new PgStore(side.db);
    claimAsServer(mine, 999);
    expect(await mine.channels.claim(ids, 'lw-test', clock.now())).toBe(false);
    release();
    await other;
    const rows = await side.db
      .selectFrom('deliveries')
      .select(['status', 'claimed_by'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.status, r.claimed_by])).toEqual([
      ['held', null],
      ['held', null],
    ]);
    expect(await mine.channels.claim(ids, 'lw-test', clock.now())).toBe(true);
    const claimed = await side.db
      .selectFrom('deliveries')
      .select(['status', 'claimed_by'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    expect(claimed.map((r) => [r.status, r.claimed_by])).toEqual([
      ['sending', 999],
      ['sending', 999],
    ]);
  });

  it('leaves a message being sent by a live server alone, and a live server sends it again once when that server dies', async () => {
    // A's seat asks on a clock of its own: once A is dead it stands still (a dead process reconnects nothing).
    const a = await server(new FakeClock(START));
    const b = await server();
    await openSide();
    await a.core.call('channels.save', webhook());
    let reached!: () => void;
    let release!: () => void;
    const arrived = new Promise<void>((r) => (reached = r));
    hold = { reached, release: new Promise<void>((r) => (release = r)) };
    const id = await raise();
    a.core.channelOutbox.kick();
    await arrived;
    const row = async () =>
      side.db
        .selectFrom('deliveries')
        .select(['status', 'attempts', 'claimed_by', 'message_key'])
        .where('alert_id', '=', id)
        .executeTakeFirstOrThrow();
    expect(await row()).toMatchObject({ status: 'sending', attempts: 1, claimed_by: a.seat.serverId });

    // While A sends: B looks for gone servers' rows at each check, and a third server starts (and recovers at its
    // start). Neither touches A's message.
    clock.advance(LEADER_RETRY_MS);
    await b.seat.settled();
    await b.core.channelOutbox.idle();
    const c = await server();
    await c.seat.settled();
    await c.core.channelOutbox.idle();
    expect(hook.received).toHaveLength(1);
    expect(await row()).toMatchObject({ status: 'sending', claimed_by: a.seat.serverId });

    // A dies mid-send (kill -9): its sends stop, and the database ends its session, which frees its number.
    await a.core.dispose();
    await endBackend(url, a.seat.backendPid());
    release();
    clock.advance(LEADER_RETRY_MS);
    await Promise.all([b.seat.settled(), c.seat.settled()]);
    await Promise.all([b.core.channelOutbox.idle(), c.core.channelOutbox.idle()]);
    clock.advance(LEADER_RETRY_MS);
    await Promise.all([b.seat.settled(), c.seat.settled()]);
    await Promise.all([b.core.channelOutbox.idle(), c.core.channelOutbox.idle()]);
    // Sent again once, by one of the survivors, under the same key (a receiver that keeps keys drops the repeat).
    expect(hook.received).toHaveLength(2);
    expect(key(hook.received[1]!)).toBe(key(hook.received[0]!));
    const after = await row();
    expect(after.status).toBe('sent');
    expect(after.attempts).toBe(2);
    expect([b.seat.serverId, c.seat.serverId]).toContain(after.claimed_by);
  });
});
