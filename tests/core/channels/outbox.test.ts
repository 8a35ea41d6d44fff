import BetterSqlite3 from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/core/app';
import { createSandbox, DEMO_KEY, type Sandbox } from '../../../src/sandbox/index';
import { makeCore } from '../../helpers/core';
import { FakeClock } from '../../helpers/fakeClock';
import { channelSaves } from './channelSaves';
import { startHttpReceiver, startNtfyServer, startSmtpServer } from '../../helpers/receivers';
import type { HttpReceiver, NtfyReceiver, SmtpReceiver } from '../../helpers/receivers';

// The per-channel outbox through the whole core (docs/architecture.md "Delivery"): a sale result of a watched lot on
// the sandbox reaches a real SMTP server, an ntfy stand-in and a webhook receiver once each; kinds, quiet hours,
// retries with backoff and the self-monitoring alert; the secrets stay out of every answer and out of the file.

const START = Date.UTC(2026, 5, 1, 12, 0, 0);
const MIN = 60_000;
const PASSWORD = 'pw-that-must-never-leak-7f3a';
let sb: Sandbox;
let clock: FakeClock;
let smtp: SmtpReceiver;
let ntfy: NtfyReceiver;
let hook: HttpReceiver;
let hookStatus = 200;
const open: { cleanup(): Promise<void> }[] = [];

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
  ntfy = await startNtfyServer({ requireToken: 'tk_ntfy_secret' });
  hook = await startHttpReceiver({ status: () => hookStatus });
});
afterAll(async () => {
  await sb.dispose();
  await Promise.all([smtp.close(), ntfy.close(), hook.close()]);
});
afterEach(async () => {
  for (const o of open.splice(0)) await o.cleanup();
  smtp.received.length = 0;
  ntfy.received.length = 0;
  ntfy.messages.length = 0;
  hook.received.length = 0;
  hookStatus = 200;
});

async function setup() {
  const { core, dbPath, cleanup } = makeCore({
    clock,
    demoService: async () => ({ baseUrl: sb.baseUrl!, apiKey: DEMO_KEY, ratePerSecond: 1e9 }),
    autoStart: false,
    demoExamples: false,
    tzOffsetMinutes: () => 0,
  });
  open.push({ cleanup });
  await core.ready;
  core.channelOutbox.start();
  await core.channelOutbox.idle();
  return { core, dbPath };
}

const { email, phone, webhook } = channelSaves(() => ({ smtp, ntfy, hook }), PASSWORD);

/** Watches a lot that sells soon, moves the clock past its end and checks it: one sale result lands in the inbox. */
async function sellWatchedLot(core: Core, kinds: string[] = ['sale_result']): Promise<void> {
  const lot = sb.market.sorted.find((l) => l.subStatus === 'Open' && l.auctionAt > clock.now() + 5 * MIN)!;
  const w = await core.call('watchlist.add', { target: lot.lotNumber, rules: { kinds: kinds as never } });
  clock.advanceTo(sb.market.timeline(lot.lotNumber)!.endAt + MIN);
  await core.call('watchlist.checkNow', { id: w.id });
  await core.channelOutbox.idle();
}

describe('alert channels through core', () => {
  it('one sale result reaches the SMTP server, the ntfy server and the webhook exactly once each', async () => {
    const { core } = await setup();
    for (const c of [email(), phone(), webhook()]) await core.call('channels.save', c);
    await sellWatchedLot(core);
    const sale = (await core.call('alerts.list', undefined)).alerts.find((a) => a.kind === 'sale_result')!;
    expect(sale).toBeDefined();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.subject).toBe(sale.title);
    expect(smtp.received[0]!.user).toBe('buyer');
    expect(ntfy.received).toHaveLength(1);
    expect(ntfy.received[0]!.headers.authorization).toBe('Bearer tk_ntfy_secret');
    expect(ntfy.messages[0]!.title).toBe(sale.title);
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]!.path).toBe('/hooks/s3cr3t-path');
    expect(hook.received[0]!.body).toMatchObject({
      type: 'lotwatch.alert',
      kind: 'sale_result',
      title: sale.title,
      lot_key: sale.lot_key,
    });
    // Each message carries its id wherever it can, so a receiver can drop a repeat; each channel's message has its
    // own (`lw-<channel created, base 36>-<channel>-<delivery row>`; email is channel 1, the phone 2, the webhook 3).
    const key = (hook.received[0]!.body as { id: string }).id;
    expect(key).toMatch(/^lw-[0-9a-z]+-3-\d+$/);
    expect(hook.received[0]!.headers['idempotency-key']).toBe(key);
    expect(smtp.received[0]!.messageId).toMatch(/^<lw-[0-9a-z]+-1-\d+@lotwatch\.app>$/);
    expect(ntfy.messages[0]!.sequence_id).toMatch(/^lw-[0-9a-z]+-2-\d+$/);
    // More rounds and more checks send nothing again.
    await core.engine.runDue();
    core.channelOutbox.kick();
    await core.channelOutbox.idle();
    expect([smtp.received.length, ntfy.received.length, hook.received.length]).toEqual([1, 1, 1]);
    // The inbox and the delivery log say where it went.
    const again = (await core.call('alerts.list', undefined)).alerts.find((a) => a.id === sale.id)!;
    expect(again.deliveries.map((d) => [d.channel_name, d.status])).toEqual([
      ['Office email', 'sent'],
      ['My phone', 'sent'],
      ['Dispatch webhook', 'sent'],
    ]);
    expect(again.deliveries[0]!.detail).toBe('Sent to buyer@example.com through 127.0.0.1');
  });

  it('never returns a secret and never stores one in plain text', async () => {
    const { core, dbPath } = await setup();
    await core.call('channels.save', email());
    await core.call('channels.save', webhook());
    const list = await core.call('channels.list', undefined);
    const text = JSON.stringify(list);
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain('s3cr3t-path');
    expect(list.channels.map((c) => [c.has_secret, c.secret_hint])).toEqual([
      [true, '••••••••'],
      [true, `127.0.0.1:${hook.port}/…`],
    ]);
    await core.dispose();
    const bytes = readFileSync(dbPath);
    expect(bytes.includes(Buffer.from(PASSWORD))).toBe(false);
    expect(bytes.includes(Buffer.from('s3cr3t-path'))).toBe(false);
    const db = new BetterSqlite3(dbPath, { readonly: true });
    expect(
      db.prepare("SELECT name FROM secrets WHERE name LIKE 'channel:%' ORDER BY name").pluck().all(),
    ).toEqual(['channel:1', 'channel:1:for', 'channel:2', 'channel:2:for']);
    db.close();
  });

  it('sends only the kinds a channel chose, and says why the others were not sent', async () => {
    const { core } = await setup();
    await core.call('channels.save', email({ kinds: ['new_match'] }));
    await core.call('channels.save', webhook());
    await sellWatchedLot(core);
    expect(smtp.received).toHaveLength(0);
    expect(hook.received).toHaveLength(1);
    const { log } = await core.call('channels.list', undefined);
    expect(log.find((d) => d.channel_name === 'Office email')).toMatchObject({
      status: 'skipped',
      detail: 'Not a kind of alert this channel sends.',
    });
  });

  it('holds alerts through a channel’s own quiet hours and sends them when they end, while an always-on channel sends at once', async () => {
    const { core } = await setup();
    const hhmm = (t: number) => new Date(t).toISOString().slice(11, 16);
    const end = clock.now() + 6 * 60 * MIN;
    await core.call(
      'channels.save',
      phone({ quiet: 'own', quiet_hours: { enabled: true, start: hhmm(clock.now() - MIN), end: hhmm(end) } }),
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
    const { core } = await setup();
    hookStatus = 503;
    await core.call('channels.save', webhook());
    await core.call('channels.save', phone());
    await sellWatchedLot(core);
    expect(hook.received).toHaveLength(1);
    const attempts = [hook.received.length];
    for (const wait of [30_000, 60_000, 120_000]) {
      clock.advance(wait);
      await core.channelOutbox.idle();
      attempts.push(hook.received.length);
    }
    expect(attempts).toEqual([1, 2, 3, 4]);
    await core.engine.idle();
    const failing = (await core.call('alerts.list', undefined)).alerts.filter(
      (a) => a.kind === 'channel_failing',
    );
    expect(failing).toHaveLength(1);
    expect(failing[0]!.title).toBe('Alerts are not reaching “Dispatch webhook”');
    expect(failing[0]!.body).toMatch(
      /^The last 3 tries failed\. .*HTTP 503.* Lotwatch keeps the alerts and sends them once it works again\.$/,
    );
    expect(failing[0]!.body).not.toContain('s3cr3t-path');
    // The failing channel's own alert went to the phone, not back to the webhook.
    expect(ntfy.messages.map((m) => m.title)).toContain('Alerts are not reaching “Dispatch webhook”');
    const [hookView] = (await core.call('channels.list', undefined)).channels;
    expect(hookView!.health).toMatchObject({ failures: 4, waiting: 1 });
    hookStatus = 200;
    clock.advance(240_000);
    await core.channelOutbox.idle();
    expect(hook.received).toHaveLength(5);
    const after = (await core.call('channels.list', undefined)).channels[0]!;
    expect(after.health).toMatchObject({ failures: 0, last_error: null, waiting: 0 });
    clock.advance(3_600_000);
    await core.channelOutbox.idle();
    expect(hook.received).toHaveLength(5);
  });

  it('the Test button sends a test message and says what happened, or what to fix', async () => {
    const { core } = await setup();
    const ok = await core.call('channels.save', email());
    expect(await core.call('channels.test', { id: ok.id })).toEqual({
      ok: true,
      message: 'Sent to buyer@example.com through 127.0.0.1.',
    });
    expect(smtp.received.at(-1)!.subject).toBe('Lotwatch test');
    const bad = await core.call('channels.save', email({ name: 'Wrong password', secret: 'nope' }));
    const r = await core.call('channels.test', { id: bad.id });
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/user name or password/);
  });

  it('refuses a webhook without an address, naming the field, and saves nothing', async () => {
    const { core } = await setup();
    const r = await core.invoke('channels.save', webhook({ secret: 'not a url' }));
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'bad_input', fields: { secret: [expect.stringMatching(/webhook address/)] } },
    });
    expect((await core.call('channels.list', undefined)).channels).toEqual([]);
  });
});
