import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChannelSave } from '../../../src/shared/alertChannels';
import { makeCore, type Core } from '../../helpers/core';
import { FakeClock } from '../../helpers/fakeClock';
import {
  startDripReceiver,
  startEndlessSmtp,
  startHttpReceiver,
  type HttpReceiver,
  type SlowReceiver,
} from '../../helpers/receivers';
import { alertRaiser } from './raise';

// A receiver that is alive but never finishes (docs/architecture.md "Alert channels"): every send has a deadline for
// the whole request, channels are sent independently, and the Test button answers by the deadline. Time is the fake
// clock's: the deadline fires when the test moves the clock, never by waiting. The receivers drip in real time (a byte
// every few ms or seconds), which keeps any idle timeout from ever firing.

const DEADLINE = 30_000;
/** A real-time guard for things that happen at once when the code is right; only a broken build waits this long. */
const GUARD_MS = 10_000;
const open: { close(): unknown }[] = [];
const receivers: { close(): Promise<void> }[] = [];

afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
  for (const o of open.splice(0).reverse()) await o.close();
});

/** `p`, or a failure that says what did not happen when it takes longer than GUARD_MS of real time. */
async function within<T>(p: Promise<T>, what: string): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    t = setTimeout(() => reject(new Error(`${what}: not within ${GUARD_MS / 1000} s`)), GUARD_MS);
  });
  try {
    return await Promise.race([p, guard]);
  } finally {
    clearTimeout(t);
  }
}

async function setup(): Promise<{
  core: Core;
  clock: FakeClock;
  raise: (kind: 'sale_result' | 'new_match', title: string) => void;
}> {
  const made = makeCore({ autoStart: false, demoExamples: false, tzOffsetMinutes: () => 0 });
  const raiser = alertRaiser(made.dbPath);
  open.push({ close: () => made.cleanup() }, { close: () => raiser.close() });
  await made.core.ready;
  made.core.channelOutbox.start();
  await made.core.channelOutbox.idle();
  return {
    core: made.core,
    clock: made.clock,
    raise(kind, title) {
      raiser.raise(kind, title, made.clock.now());
      made.core.channelOutbox.kick();
    },
  };
}

async function receiver<T extends { close(): Promise<void> }>(p: Promise<T>): Promise<T> {
  const r = await p;
  receivers.push(r);
  return r;
}

const webhook = (name: string, address: string, over: Partial<ChannelSave> = {}): ChannelSave =>
  ({
    name,
    config: { type: 'webhook', format: 'json', telegram_chat_id: '' },
    secret: address,
    ...over,
  }) as ChannelSave;

const titles = (r: HttpReceiver): string[] => r.received.map((x) => (x.body as { title: string }).title);

/** The alerts a channel's log says were sent to it (recorded after the receiver answered), in the order raised. */
async function sentTo(core: Core, name: string): Promise<string[]> {
  const { log } = await core.call('channels.list', undefined);
  return log
    .filter((d) => d.channel_name === name && d.status === 'sent')
    .sort((a, b) => a.alert_id - b.alert_id)
    .map((d) => d.alert_title);
}

async function health(core: Core, name: string) {
  const { channels } = await core.call('channels.list', undefined);
  return channels.find((c) => c.name === name)!.health;
}

describe('a receiver that never finishes', () => {
  it('a webhook that answers 200 and then drips never holds another channel; its attempt fails at the deadline and counts as today', async () => {
    const slow: SlowReceiver = await receiver(startDripReceiver({ status: 200, everyMs: 4_000 }));
    const good = await receiver(startHttpReceiver());
    const { core, clock, raise } = await setup();
    // The slow one is the first channel: the old outbox sent channels one after another, in this order.
    await core.call(
      'channels.save',
      webhook('Slow hook', `${slow.url}/drip`, { kinds: ['sale_result', 'channel_failing'] }),
    );
    await core.call('channels.save', webhook('Healthy hook', `${good.url}/ok`));
    const t0 = clock.now();

    raise('sale_result', 'Sold A');
    await within(slow.requests.reached(1), 'the slow webhook got the first alert');
    await vi.waitFor(async () => expect(await sentTo(core, 'Healthy hook')).toEqual(['Sold A']), {
      timeout: GUARD_MS,
    });
    // Alerts raised while the slow send is still in flight reach the healthy channel when they are raised.
    clock.advance(10_000);
    raise('new_match', 'Match B');
    await vi.waitFor(async () => expect(await sentTo(core, 'Healthy hook')).toEqual(['Sold A', 'Match B']), {
      timeout: GUARD_MS,
    });
    clock.advance(10_000);
    raise('new_match', 'Match C');
    await vi.waitFor(
      async () => expect(await sentTo(core, 'Healthy hook')).toEqual(['Sold A', 'Match B', 'Match C']),
      {
        timeout: GUARD_MS,
      },
    );
    const sentAt = (await core.call('channels.list', undefined)).log
      .filter((d) => d.channel_name === 'Healthy hook')
      .map((d) => [d.alert_title, d.status, d.at - t0]);
    expect(sentAt.sort()).toEqual([
      ['Match B', 'sent', 10_000],
      ['Match C', 'sent', 20_000],
      ['Sold A', 'sent', 0],
    ]);
    expect(slow.requests.n).toBe(1);
    expect(await health(core, 'Slow hook')).toMatchObject({ failures: 0, waiting: 1 });

    // The deadline: 30 s after the attempt began, whatever the receiver still drips.
    clock.advance(DEADLINE - 20_000 - 1);
    expect(await health(core, 'Slow hook')).toMatchObject({ failures: 0 });
    clock.advance(1);
    await within(core.channelOutbox.idle(), 'the outbox is idle after the deadline');
    await within(slow.dropped.reached(1), 'Lotwatch let go of the slow connection');
    const message =
      `The webhook at 127.0.0.1:${slow.port} did not finish within 30 seconds; check that the webhook address in ` +
      'Settings → Alert channels is right and that the service behind it is up.';
    expect(await health(core, 'Slow hook')).toMatchObject({ failures: 1, last_error: message, waiting: 1 });
    const row = (await core.call('channels.list', undefined)).log.find(
      (d) => d.channel_name === 'Slow hook' && d.alert_title === 'Sold A',
    )!;
    expect(row).toMatchObject({ alert_title: 'Sold A', status: 'pending', attempts: 1, detail: message });
    expect(row.next_at! - t0).toBe(DEADLINE + 30_000);

    // Backoff as for any failure: again after 30 s, then after a minute; the third failure raises the alert, which
    // goes to the healthy channel.
    clock.advance(30_000);
    await within(slow.requests.reached(2), 'the first retry');
    clock.advance(DEADLINE);
    await within(core.channelOutbox.idle(), 'the outbox is idle after the second deadline');
    expect(await health(core, 'Slow hook')).toMatchObject({ failures: 2 });
    clock.advance(60_000);
    await within(slow.requests.reached(3), 'the second retry');
    clock.advance(DEADLINE);
    await within(core.channelOutbox.idle(), 'the outbox is idle after the third deadline');
    expect(await health(core, 'Slow hook')).toMatchObject({ failures: 3 });
    await vi.waitFor(() => expect(titles(good)).toContain('Alerts are not reaching “Slow hook”'), {
      timeout: GUARD_MS,
    });
    expect(await health(core, 'Healthy hook')).toMatchObject({ failures: 0, waiting: 0 });
  });

  it('the Test button answers by the deadline when a webhook drips a 500 answer', async () => {
    const drip = await receiver(startDripReceiver({ status: 500, everyMs: 20 }));
    const { core, clock } = await setup();
    const ch = await core.call('channels.save', webhook('Dripping hook', `${drip.url}/x`));
    let answered = false;
    const p = core.call('channels.test', { id: ch.id }).finally(() => (answered = true));
    await within(drip.drips.reached(3), 'the receiver dripped');
    expect(answered).toBe(false);
    clock.advance(DEADLINE);
    expect(await within(p, 'the Test button answered')).toEqual({
      ok: false,
      message:
        `The webhook at 127.0.0.1:${drip.port} did not finish within 30 seconds; check that the webhook address in ` +
        'Settings → Alert channels is right and that the service behind it is up.',
    });
    await within(drip.dropped.reached(1), 'Lotwatch let go of the connection');
  });

  it('the Test button answers by the deadline when a mail server sends endless 250- lines', async () => {
    const smtp = await receiver(startEndlessSmtp({ everyMs: 20 }));
    const { core, clock } = await setup();
    const ch = await core.call('channels.save', {
      name: 'Endless mail',
      config: {
        type: 'email',
        host: '127.0.0.1',
        port: smtp.port,
        security: 'none',
        username: '',
        from: 'lotwatch@example.com',
        to: 'buyer@example.com',
      },
    } as ChannelSave);
    let answered = false;
    const p = core.call('channels.test', { id: ch.id }).finally(() => (answered = true));
    await within(smtp.drips.reached(3), 'the server sent 250- lines');
    expect(answered).toBe(false);
    clock.advance(DEADLINE);
    expect(await within(p, 'the Test button answered')).toEqual({
      ok: false,
      message:
        `The mail server 127.0.0.1:${smtp.port} did not finish within 30 seconds; check the host, port and security ` +
        'choice in Settings → Alert channels, or ask your mail provider whether the server works.',
    });
    await within(smtp.dropped.reached(1), 'Lotwatch let go of the connection');
  });

  it('the Test button answers by the deadline when an ntfy server answers 200 and never ends it', async () => {
    const drip = await receiver(startDripReceiver({ status: 200, everyMs: 20 }));
    const { core, clock } = await setup();
    const ch = await core.call('channels.save', {
      name: 'Dripping phone',
      config: { type: 'ntfy', server: drip.url, topic: 'lotwatch-test', priority: 3 },
    } as ChannelSave);
    let answered = false;
    const p = core.call('channels.test', { id: ch.id }).finally(() => (answered = true));
    await within(drip.drips.reached(3), 'the server dripped');
    expect(answered).toBe(false);
    clock.advance(DEADLINE);
    expect(await within(p, 'the Test button answered')).toEqual({
      ok: false,
      message:
        `The ntfy server 127.0.0.1:${drip.port} did not finish within 30 seconds; check the server address in ` +
        'Settings → Alert channels, and that the server is up.',
    });
    await within(drip.dropped.reached(1), 'Lotwatch let go of the connection');
  });

  it('a stop aborts an ntfy send that never ends, and at the next start the check whether it arrived has the same deadline', async () => {
    const drip = await receiver(startDripReceiver({ status: 200, everyMs: 20 }));
    const good = await receiver(startHttpReceiver());
    const made = makeCore({ autoStart: false, demoExamples: false, tzOffsetMinutes: () => 0 });
    const raiser = alertRaiser(made.dbPath);
    open.push({ close: () => raiser.close() });
    await made.core.ready;
    made.core.channelOutbox.start();
    await made.core.call('channels.save', {
      name: 'Dripping phone',
      config: { type: 'ntfy', server: drip.url, topic: 'lotwatch-test', priority: 3 },
    } as ChannelSave);
    await made.core.call('channels.save', webhook('Healthy hook', `${good.url}/ok`));
    raiser.raise('sale_result', 'Sold A', made.clock.now());
    made.core.channelOutbox.kick();
    await within(drip.requests.reached(1), 'the ntfy server got the message');
    await vi.waitFor(
      async () =>
        expect(
          (await made.core.call('channels.list', undefined)).log.map((d) => [d.channel_name, d.status]),
        ).toContainEqual(['Healthy hook', 'sent']),
      { timeout: GUARD_MS },
    );
    // Stopping does not wait for the answer that never ends, and does not count it as the channel's failure.
    await within(made.core.dispose(), 'the stop');
    await within(drip.dropped.reached(1), 'Lotwatch let go of the connection');

    // The next start asks the server whether the message arrived; the server never finishes that answer either.
    const clock = new FakeClock(made.clock.now() + 60_000);
    const { core } = makeCore({
      dir: made.dir,
      clock,
      autoStart: false,
      demoExamples: false,
      tzOffsetMinutes: () => 0,
    });
    open.push({ close: () => made.cleanup() }, { close: () => core.dispose() });
    await core.ready;
    core.channelOutbox.start();
    await within(drip.requests.reached(2), 'the check whether it arrived');
    // Meanwhile the other channel sends what is raised.
    raiser.raise('new_match', 'Match B', clock.now());
    core.channelOutbox.kick();
    await vi.waitFor(() => expect(titles(good)).toEqual(['Sold A', 'Match B']), { timeout: GUARD_MS });
    clock.advance(DEADLINE);
    // The check gave up at its deadline: the message goes again under the same key (a third request, a publish).
    await within(drip.requests.reached(3), 'the message sent again');
    expect(drip.seen.map((r) => r.replace(/since=\d+/, 'since=…'))).toEqual([
      'POST /',
      'GET /lotwatch-test/json?poll=1&since=…',
      'POST /',
    ]);
    const row = (await core.call('channels.list', undefined)).log.find(
      (d) => d.channel_name === 'Dripping phone' && d.alert_title === 'Sold A',
    )!;
    expect(row).toMatchObject({ alert_title: 'Sold A', status: 'sending', attempts: 2 });
    expect(await health(core, 'Dripping phone')).toMatchObject({ failures: 0 });
  });
});
