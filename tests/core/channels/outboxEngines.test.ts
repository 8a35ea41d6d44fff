import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/core/app';
import { createSandbox, DEMO_KEY, type Sandbox } from '../../../src/sandbox/index';
import { coreEngines, placesPerTest, type EnginePlace } from '../../helpers/coreEngines';
import { FakeClock } from '../../helpers/fakeClock';
import { channelSaves } from './channelSaves';
import { startHttpReceiver, startNtfyServer, startSmtpServer } from '../../helpers/receivers';
import type { HttpReceiver, NtfyReceiver, ReceivedRequest, SmtpReceiver } from '../../helpers/receivers';

// The alert channels' outbox (src/core/channels/outbox.ts) on both engines, the desktop's SQLite file and a team's
// PostgreSQL database, with the same outcomes: a sale result of a watched lot on the sandbox reaches a real SMTP
// server, an ntfy stand-in and a webhook receiver exactly once each; a channel's quiet hours hold it; a failing
// webhook is retried with growing waits, raises one alert and sends once when it works; and a message a stop left
// `sending` (the receiver had it, Lotwatch had not recorded its answer) is checked with ntfy or sent again under the
// same key at the next start. outbox.test.ts and kill.test.ts are the SQLite suites these follow.

const START = Date.UTC(2026, 5, 1, 12, 0, 0);
const MIN = 60_000;
const PASSWORD = 'pw-that-must-never-leak-7f3a';
let sb: Sandbox;
let clock: FakeClock;
let smtp: SmtpReceiver;
let ntfy: NtfyReceiver;
let hook: HttpReceiver;
let hookStatus = 200;
/** The test's hold on a receiver's answer: while set, that receiver has the message and does not answer. */
let hold: { on: 'ntfy' | 'webhook'; reached: () => void; release: Promise<void> } | null = null;

/** Holds the next message `on` receives unanswered: `reached` resolves when it has it, `release` lets it answer. */
function holdNext(on: 'ntfy' | 'webhook'): { reached: Promise<void>; release: () => void } {
  let reached!: () => void;
  let release!: () => void;
  const r = new Promise<void>((resolve) => (reached = resolve));
  hold = { on, reached, release: new Promise<void>((resolve) => (release = resolve)) };
  return { reached: r, release };
}

function holdFor(on: 'ntfy' | 'webhook') {
  return async (_: ReceivedRequest) => {
    if (hold?.on !== on) return;
    const h = hold;
    hold = null;
    h.reached();
    await h.release;
  };
}

beforeAll(async () => {
  clock = new FakeClock(START);
  sb = createSandbox({
    seed: 17,
    lots: 3000,
    startTime: START,
    speed: 1,
    now: () => clock.now(),
    ratePerSecond: 0,
    refresh: 'instant',
  });
  await sb.start(0, '127.0.0.1');
  smtp = await startSmtpServer({ user: 'buyer', password: PASSWORD });
  ntfy = await startNtfyServer({ requireToken: 'tk_ntfy_secret', hold: holdFor('ntfy') });
  hook = await startHttpReceiver({ status: () => hookStatus, hold: holdFor('webhook') });
});
afterAll(async () => {
  await sb.dispose();
  await Promise.all([smtp.close(), ntfy.close(), hook.close()]);
});
afterEach(() => {
  smtp.received.length = 0;
  ntfy.received.length = 0;
  ntfy.messages.length = 0;
  hook.received.length = 0;
  hookStatus = 200;
  hold = null;
});

/** A ready core over `p` (a restart when one ran there before) with its channel outbox started and idle. */
async function startOn(p: EnginePlace, opts: { idle?: boolean } = {}): Promise<Core> {
  const { core } = await p.start({
    clock,
    demoService: async () => ({ baseUrl: sb.baseUrl!, apiKey: DEMO_KEY, ratePerSecond: 1e9 }),
    autoStart: false,
    demoExamples: false,
    tzOffsetMinutes: () => 0,
  });
  core.channelOutbox.start();
  if (opts.idle !== false) await core.channelOutbox.idle();
  return core;
}

const { email, phone, webhook } = channelSaves(() => ({ smtp, ntfy, hook }), PASSWORD);

/**
 * Watches a lot that sells soon, moves the clock past its end and checks it: one sale result lands in the inbox.
 * Waits for the channel outbox unless `idle` is false (a receiver is held).
 */
async function sellWatchedLot(core: Core, opts: { idle?: boolean } = {}): Promise<void> {
  const lot = sb.market.sorted.find((l) => l.subStatus === 'Open' && l.auctionAt > clock.now() + 5 * MIN)!;
  const w = await core.call('watchlist.add', { target: lot.lotNumber, rules: { kinds: ['sale_result'] } });
  clock.advanceTo(sb.market.timeline(lot.lotNumber)!.endAt + MIN);
  await core.call('watchlist.checkNow', { id: w.id });
  if (opts.idle !== false) await core.channelOutbox.idle();
}

const idempotencyKey = (r: ReceivedRequest) => r.headers['idempotency-key'];

for (const engine of coreEngines()) {
  describe.skipIf(engine.skip)(`the alert channels' outbox on ${engine.name}`, () => {
    const place = placesPerTest(engine);

    it('one sale result reaches the SMTP server, the ntfy server and the webhook exactly once each', async () => {
      const core = await startOn(await place());
      for (const c of [email(), phone(), webhook()]) await core.call('channels.save', c);
      await sellWatchedLot(core);
      const sale = (await core.call('alerts.list', undefined)).alerts.find((a) => a.kind === 'sale_result')!;
      expect(sale).toBeDefined();
      expect(smtp.received.map((m) => m.subject)).toEqual([sale.title]);
      expect(ntfy.messages.map((m) => m.title)).toEqual([sale.title]);
      expect(hook.received).toHaveLength(1);
      expect(hook.received[0]!.body).toMatchObject({ kind: 'sale_result', title: sale.title });
      expect(idempotencyKey(hook.received[0]!)).toMatch(/^lw-[0-9a-z]+-3-\d+$/);
      await core.engine.runDue();
      core.channelOutbox.kick();
      await core.channelOutbox.idle();
      expect([smtp.received.length, ntfy.received.length, hook.received.length]).toEqual([1, 1, 1]);
      const again = (await core.call('alerts.list', undefined)).alerts.find((a) => a.id === sale.id)!;
      // By channel, not in routing order: on PostgreSQL a round that was routing when the sale committed may route
      // it to a later channel first (each read of its transaction sees what was committed by then).
      const byChannel = again.deliveries.map((d) => [d.channel_name, d.status]).sort();
      expect(byChannel).toEqual([
        ['Dispatch webhook', 'sent'],
        ['My phone', 'sent'],
        ['Office email', 'sent'],
      ]);
      expect(again.deliveries.find((d) => d.channel_name === 'Office email')!.detail).toBe(
        'Sent to buyer@example.com through 127.0.0.1',
      );
    });

    it('holds alerts through a channel’s own quiet hours and sends them when they end, while an always-on channel sends at once', async () => {
      const core = await startOn(await place());
      const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);
      const end = clock.now() + 6 * 60 * MIN;
      await core.call(
        'channels.save',
        phone({
          quiet: 'own',
          quiet_hours: { enabled: true, start: hhmm(clock.now() - MIN), end: hhmm(end) },
        }),
      );
      await core.call('channels.save', webhook({ quiet: 'never' }));
      await sellWatchedLot(core);
      expect(hook.received).toHaveLength(1);
      expect(ntfy.received).toHaveLength(0);
      const held = (await core.call('channels.list', undefined)).log.find(
        (d) => d.channel_name === 'My phone',
      )!;
      expect(held.status).toBe('held');
      expect(held.next_at).toBe(Math.floor(end / MIN) * MIN);
      clock.advanceTo(end + MIN);
      await core.channelOutbox.idle();
      expect(ntfy.received).toHaveLength(1);
      expect(hook.received).toHaveLength(1);
    });

    it('retries a failing webhook with growing waits, raises one alert that says what to fix, and sends once when it works', async () => {
      const core = await startOn(await place());
      hookStatus = 503;
      await core.call('channels.save', webhook());
      await core.call('channels.save', phone());
      await sellWatchedLot(core);
      const attempts = [hook.received.length];
      for (const wait of [30_000, 60_000, 120_000]) {
        clock.advance(wait);
        await core.channelOutbox.idle();
        attempts.push(hook.received.length);
      }
      expect(attempts).toEqual([1, 2, 3, 4]);
      // Every attempt carries the same message id.
      expect(new Set(hook.received.map(idempotencyKey)).size).toBe(1);
      await core.engine.idle();
      const failing = (await core.call('alerts.list', undefined)).alerts.filter(
        (a) => a.kind === 'channel_failing',
      );
      expect(failing.map((a) => a.title)).toEqual(['Alerts are not reaching “Dispatch webhook”']);
      expect(failing[0]!.body).toMatch(/^The last 3 tries failed\. .*HTTP 503/);
      expect(ntfy.messages.map((m) => m.title)).toContain('Alerts are not reaching “Dispatch webhook”');
      const [hookView] = (await core.call('channels.list', undefined)).channels;
      expect(hookView!.health).toMatchObject({ failures: 4, waiting: 1 });
      hookStatus = 200;
      clock.advance(240_000);
      await core.channelOutbox.idle();
      expect(hook.received).toHaveLength(5);
      expect((await core.call('channels.list', undefined)).channels[0]!.health).toMatchObject({
        failures: 0,
        last_error: null,
        waiting: 0,
      });
      clock.advance(3_600_000);
      await core.channelOutbox.idle();
      expect(hook.received).toHaveLength(5);
    });

    it('a webhook message left `sending` by a stop goes again under the same key at the next start, and only once', async () => {
      const p = await place();
      const first = await startOn(p);
      await first.call('channels.save', webhook());
      const held = holdNext('webhook');
      await sellWatchedLot(first, { idle: false });
      first.channelOutbox.kick();
      await held.reached;
      // Stopping aborts the send whose answer has not come: its row stays `sending` under the message's key.
      await first.dispose();
      held.release();
      const side = await p.side();
      const left = await side.channels.leftSending();
      expect(left.map((r) => [r.status, r.message_key])).toEqual([
        ['sending', idempotencyKey(hook.received[0]!)],
      ]);

      const second = await startOn(p);
      expect(hook.received).toHaveLength(2);
      expect(idempotencyKey(hook.received[1]!)).toBe(idempotencyKey(hook.received[0]!));
      expect(hook.received[1]!.body).toEqual(hook.received[0]!.body);
      expect(await side.channels.leftSending()).toEqual([]);
      const { log } = await second.call('channels.list', undefined);
      expect(log.map((d) => [d.channel_name, d.status, d.attempts])).toEqual([
        ['Dispatch webhook', 'sent', 2],
      ]);
      clock.advance(3_600_000);
      second.channelOutbox.kick();
      await second.channelOutbox.idle();
      expect(hook.received).toHaveLength(2);
    });

    it('an ntfy message left `sending` by a stop is found on the server at the next start and not sent again', async () => {
      const p = await place();
      const first = await startOn(p);
      await first.call('channels.save', phone());
      const held = holdNext('ntfy');
      await sellWatchedLot(first, { idle: false });
      first.channelOutbox.kick();
      await held.reached;
      await first.dispose();
      held.release();
      const side = await p.side();
      expect((await side.channels.leftSending()).map((r) => r.status)).toEqual(['sending']);

      const second = await startOn(p);
      expect(ntfy.received).toHaveLength(1);
      expect(await side.channels.leftSending()).toEqual([]);
      const { log } = await second.call('channels.list', undefined);
      expect(log.map((d) => [d.channel_name, d.status, d.detail])).toEqual([
        ['My phone', 'sent', 'Arrived before Lotwatch stopped (the server confirmed it).'],
      ]);
      clock.advance(3_600_000);
      second.channelOutbox.kick();
      await second.channelOutbox.idle();
      expect(ntfy.received).toHaveLength(1);
    });
  });
}
