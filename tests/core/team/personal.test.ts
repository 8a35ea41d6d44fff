import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER, runAs, type Actor } from '../../../src/core/actor';
import type { Core } from '../../../src/core/app';
import type { Store } from '../../../src/core/db/store';
import { AlertRulesSchema, type AlertKind } from '../../../src/shared/watch';
import { channelSaves } from '../channels/channelSaves';
import { coreEngines, placesPerTest } from '../../helpers/coreEngines';
import { FakeClock } from '../../helpers/fakeClock';
import { startHttpReceiver, startNtfyServer, startSmtpServer } from '../../helpers/receivers';
import type { HttpReceiver, NtfyReceiver, SmtpReceiver } from '../../helpers/receivers';

// What belongs to each member of a team (src/core/team/personal.ts) on a team's PostgreSQL database, through
// createCore and runAs as a team server runs each request: the alerts are the team's, and each member keeps their
// own read state, mutes and snoozes, quiet hours and alert channels (real local SMTP and webhook receivers). The
// local owner (outside any runAs) keeps the desktop's behaviour.

const PG = coreEngines().find((e) => e.name === 'postgres')!;
/** 23:00 UTC: inside quiet hours of 22:00–07:00 (the tests' time zone is UTC). */
const START = Date.UTC(2026, 5, 1, 23, 0, 0);
const PASSWORD = 'pw-member-ana-1c9e';
const ANA: Actor = { userId: 1, name: 'Ana', role: 'buyer' };
const BEN: Actor = { userId: 2, name: 'Ben', role: 'buyer' };
const LOT = 'copart:45416833';
const OTHER = 'copart:50001234';

let smtp: SmtpReceiver;
let ntfy: NtfyReceiver;
let hook: HttpReceiver;
beforeAll(async () => {
  smtp = await startSmtpServer({ user: 'buyer', password: PASSWORD });
  ntfy = await startNtfyServer({ requireToken: 'tk_ntfy_secret' });
  hook = await startHttpReceiver({ status: () => 200 });
});
afterAll(async () => {
  await Promise.all([smtp.close(), ntfy.close(), hook.close()]);
});
afterEach(() => {
  smtp.received.length = 0;
  hook.received.length = 0;
});

const { email, webhook } = channelSaves(() => ({ smtp, ntfy, hook }), PASSWORD);
/** A member's own webhook, told apart by its path. */
const hookOf = (who: Actor) =>
  webhook({ name: `${who.name}'s webhook`, secret: `${hook.url}/hooks/${who.name.toLowerCase()}` });
/** The titles each member's webhook received, in order. */
const hookTitles = (who: Actor) =>
  hook.received
    .filter((r) => r.path === `/hooks/${who.name.toLowerCase()}`)
    .map((r) => (r.body as { title: string }).title);

describe.skipIf(PG.skip)('each member’s own inbox, settings and channels on a team’s PostgreSQL', () => {
  const place = placesPerTest(PG);
  let clock: FakeClock;
  let core: Core;
  let side: Store;
  let raised = 0;

  /** A ready core over a fresh database, its outbox started, and a second connection to raise alerts from. */
  async function start(): Promise<void> {
    clock = new FakeClock(START);
    const p = await place();
    core = (await p.start({ clock, autoStart: false, demoExamples: false, tzOffsetMinutes: () => 0 })).core;
    core.channelOutbox.start();
    await core.channelOutbox.idle();
    side = await p.side();
  }

  /** Raises one team alert (as the watcher stores it) and waits until the outbox has routed and sent it. */
  async function raise(
    title: string,
    lotKey: string | null,
    kind: AlertKind = 'threshold',
    source = 'watch:1',
  ): Promise<number> {
    raised++;
    const id = await side.alerts.insertAlert(
      {
        dedup_key: `test:${raised}`,
        kind,
        lot_key: lotKey,
        change_id: null,
        source,
        title,
        body: `${title}: the body.`,
        reason: null,
        delivery: 'now',
        deliver_after: null,
      },
      clock.now(),
    );
    core.channelOutbox.kick();
    await core.channelOutbox.idle();
    return id!;
  }

  /** The team watches LOT (stored as the watchlist stores it), with the default rules. */
  const watchLot = () =>
    side.watches.insertWatch(
      {
        kind: 'lot',
        lot_key: LOT,
        vin: null,
        label: 'Blue Tesla',
        rules: AlertRulesSchema.parse({}),
        is_example: false,
      },
      START,
    );
  const as = <T>(who: Actor, fn: () => Promise<T>): Promise<T> => runAs(who, fn);
  const unread = async (who: Actor) => (await as(who, () => core.call('alerts.unread', undefined))).count;
  const listed = async (who: Actor) =>
    (await as(who, () => core.call('alerts.list', undefined))).alerts.map((a) => ({
      title: a.title,
      read: a.read,
      delivery: a.delivery,
      reason: a.reason,
      deliveries: a.deliveries.map((d) => d.channel_name),
    }));

  it('each member marks read on their own: their unread counts differ, and the local owner’s read state stays', async () => {
    await start();
    const [a1, a2] = [await raise('First', null), await raise('Second', null)];
    await raise('Third', null);
    expect([await unread(ANA), await unread(BEN), await unread(LOCAL_OWNER)]).toEqual([3, 3, 3]);
    const r = await as(ANA, () => core.call('alerts.markRead', { ids: [a1, a2], read: true }));
    expect(r.unread).toBe(1);
    expect([await unread(ANA), await unread(BEN), await unread(LOCAL_OWNER)]).toEqual([1, 3, 3]);
    await as(BEN, () => core.call('alerts.markRead', { ids: [a2], read: true }));
    await as(ANA, () => core.call('alerts.markRead', { ids: [a1], read: false }));
    expect([await unread(ANA), await unread(BEN), await unread(LOCAL_OWNER)]).toEqual([2, 2, 3]);
    // Unread first, then newest first, each member's own marks.
    expect((await listed(ANA)).map((a) => [a.title, a.read])).toEqual([
      ['Third', false],
      ['First', false],
      ['Second', true],
    ]);
    expect((await listed(BEN)).map((a) => [a.title, a.read])).toEqual([
      ['Third', false],
      ['First', false],
      ['Second', true],
    ]);
    const onlyUnread = await as(BEN, () => core.call('alerts.list', { unread_only: true }));
    expect(onlyUnread.alerts.map((a) => a.title)).toEqual(['Third', 'First']);
    expect(onlyUnread.unread).toBe(2);
    // The local owner (the watcher's own inbox) reads the alerts' own column, which no member touched.
    expect(
      (await side.alerts.list(false, Number.MAX_SAFE_INTEGER, 10)).every((a) => a.read_at === null),
    ).toBe(true);
  });

  it('a mute by Ana hides the lot’s alerts from her inbox and her channels but not from Ben’s; the team’s rules stay', async () => {
    await start();
    await watchLot();
    await as(ANA, () => core.call('channels.save', hookOf(ANA)));
    await as(BEN, () => core.call('channels.save', hookOf(BEN)));
    const muted = await as(ANA, () => core.call('alerts.mute', { lot_key: LOT, muted: true }));
    expect(muted.rules.muted).toBe(true);
    // The team's watch rules are not the member's: unmuted for the local owner and for Ben.
    const team = (await core.call('watchlist.list', undefined)).find((w) => w.lot_key === LOT)!;
    expect(team.rules.muted).toBe(false);
    // Each member's watchlist shows their own mute.
    const mutedFor = async (who: typeof ANA) =>
      (await as(who, () => core.call('watchlist.list', undefined))).find((w) => w.lot_key === LOT)!.rules
        .muted;
    expect([await mutedFor(ANA), await mutedFor(BEN)]).toEqual([true, false]);
    await raise('Bid on the muted lot', LOT);
    await raise('Bid on another lot', OTHER);
    expect(hookTitles(ANA)).toEqual(['Bid on another lot']);
    expect(hookTitles(BEN)).toEqual(['Bid on the muted lot', 'Bid on another lot']);
    expect((await listed(ANA)).map((a) => a.title)).toEqual(['Bid on another lot']);
    expect((await listed(BEN)).map((a) => a.title)).toEqual(['Bid on another lot', 'Bid on the muted lot']);
    expect([await unread(ANA), await unread(BEN)]).toEqual([1, 2]);
    // Each member sees only their own channel's delivery of an alert.
    expect((await listed(ANA))[0]!.deliveries).toEqual(["Ana's webhook"]);
    expect((await listed(BEN))[0]!.deliveries).toEqual(["Ben's webhook"]);
    // Unmuted, the lot's alerts are back in her inbox (the one raised meanwhile never went to her channel).
    await as(ANA, () => core.call('alerts.mute', { lot_key: LOT, muted: false }));
    expect((await listed(ANA)).map((a) => a.title)).toEqual(['Bid on another lot', 'Bid on the muted lot']);
    await raise('Next bid', LOT);
    expect(hookTitles(ANA)).toEqual(['Bid on another lot', 'Next bid']);
  });

  it('a snooze is the member’s own: held for Ana until the event she waited for, sent to Ben throughout', async () => {
    await start();
    await watchLot();
    await as(ANA, () => core.call('channels.save', hookOf(ANA)));
    await as(BEN, () => core.call('channels.save', hookOf(BEN)));
    await raise('Before the snooze', LOT);
    clock.advance(1_000);
    const w = await as(ANA, () => core.call('alerts.snooze', { lot_key: LOT, until_event: 'sale_result' }));
    expect(w.rules.snooze_until_event).toBe('sale_result');
    await raise('Bid while snoozed', LOT);
    await raise('Sold', LOT, 'sale_result');
    await raise('After the sale', LOT);
    expect(hookTitles(ANA)).toEqual(['Before the snooze', 'Sold', 'After the sale']);
    expect(hookTitles(BEN)).toEqual(['Before the snooze', 'Bid while snoozed', 'Sold', 'After the sale']);
    // Kept in her inbox, marked as held by her snooze; Ben's shows it delivered.
    const held = (await listed(ANA)).find((a) => a.title === 'Bid while snoozed')!;
    expect([held.delivery, held.reason]).toEqual(['suppressed', 'snoozed']);
    const bens = (await listed(BEN)).find((a) => a.title === 'Bid while snoozed')!;
    expect([bens.delivery, bens.reason]).toEqual(['now', null]);
  });

  it('Ana’s quiet hours hold her email while Ben’s webhook goes now; her settings are hers alone', async () => {
    await start();
    const quiet = { enabled: true, start: '22:00', end: '07:00' };
    const mine = await as(ANA, () => core.call('settings.update', { quietHours: quiet, theme: 'dark' }));
    expect(mine).toMatchObject({ quietHours: quiet, theme: 'dark' });
    expect(await as(ANA, () => core.call('settings.get', undefined))).toMatchObject({
      quietHours: quiet,
      theme: 'dark',
    });
    const bens = await as(BEN, () => core.call('settings.get', undefined));
    const owners = await core.call('settings.get', undefined);
    expect(bens).toEqual(owners);
    expect([owners.quietHours.enabled, owners.theme]).toEqual([false, 'system']);
    await as(ANA, () => core.call('channels.save', email()));
    await as(BEN, () => core.call('channels.save', hookOf(BEN)));
    await raise('Bid at night', OTHER);
    expect(hookTitles(BEN)).toEqual(['Bid at night']);
    expect(smtp.received).toEqual([]);
    const night = (await listed(ANA)).find((a) => a.title === 'Bid at night')!;
    expect([night.delivery, night.reason]).toEqual(['digest', 'quiet_hours']);
    // Her quiet hours end at 07:00: the held alert goes to her email then.
    clock.advanceTo(Date.UTC(2026, 5, 2, 7, 1, 0));
    core.channelOutbox.kick();
    await core.channelOutbox.idle();
    expect(smtp.received.map((m) => m.subject)).toEqual(['Bid at night']);
    expect(hookTitles(BEN)).toEqual(['Bid at night']);
  });

  it('a member never lists, changes, tests or removes another’s channels, nor reads their delivery log', async () => {
    await start();
    const a = await as(ANA, () => core.call('channels.save', hookOf(ANA)));
    const b = await as(BEN, () => core.call('channels.save', hookOf(BEN)));
    await raise('One bid', OTHER);
    const anas = await as(ANA, () => core.call('channels.list', undefined));
    expect(anas.channels.map((c) => c.id)).toEqual([a.id]);
    expect(anas.log.map((d) => d.channel_name)).toEqual(["Ana's webhook"]);
    const bens = await as(BEN, () => core.call('channels.list', undefined));
    expect(bens.channels.map((c) => c.id)).toEqual([b.id]);
    // The local owner's channels are the ones without an owner: none here.
    expect((await core.call('channels.list', undefined)).channels).toEqual([]);
    const others: (() => Promise<unknown>)[] = [
      () => core.call('channels.save', { ...hookOf(ANA), id: b.id }),
      () => core.call('channels.test', { id: b.id }),
      () => core.call('channels.remove', { id: b.id }),
    ];
    for (const call of others) await expect(as(ANA, call)).rejects.toMatchObject({ code: 'not_found' });
    expect((await as(BEN, () => core.call('channels.list', undefined))).channels[0]).toMatchObject({
      id: b.id,
      name: "Ben's webhook",
    });
    // A failing channel's alert is its owner's: in Ana's inbox and on her other channel, not in Ben's or on his.
    await as(ANA, () => core.call('channels.save', email()));
    await raise('Alerts are not reaching Ana’s webhook', null, 'channel_failing', `channel:${a.id}`);
    expect(smtp.received.map((m) => m.subject)).toEqual(['Alerts are not reaching Ana’s webhook']);
    expect(hookTitles(ANA)).toEqual(['One bid']);
    expect(hookTitles(BEN)).toEqual(['One bid']);
    expect((await listed(ANA)).map((x) => x.title)).toEqual([
      'Alerts are not reaching Ana’s webhook',
      'One bid',
    ]);
    expect((await listed(BEN)).map((x) => x.title)).toEqual(['One bid']);
    await as(ANA, () => core.call('channels.remove', { id: a.id }));
    expect((await as(BEN, () => core.call('channels.list', undefined))).channels.map((c) => c.id)).toEqual([
      b.id,
    ]);
  });
});
