import BetterSqlite3 from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, DEMO_KEY } from '../../../src/sandbox/index';
import type { ChannelSave } from '../../../src/shared/alertChannels';
import { FakeClock } from '../../helpers/fakeClock';
import {
  startHttpReceiver,
  startNtfyServer,
  startSmtpServer,
  type HttpReceiver,
  type NtfyReceiver,
  type ReceivedMail,
  type ReceivedRequest,
  type SmtpReceiver,
} from '../../helpers/receivers';
import { makeCore } from '../../helpers/core';
import { childScript } from '../../helpers/children';
import { tempDir } from '../../helpers/tmp';

// kill -9 in the middle of delivering one sale result to three alert channels (docs/architecture.md "Delivery"):
// a real SMTP server, an ntfy stand-in and a webhook receiver on 127.0.0.1, and a child process running core. For
// each channel and each moment (a) the connection is open and nothing sent, (b) the receiver has the whole message
// and has not answered, (c) the receiver answered and Lotwatch has not recorded it yet (the test holds the data
// file's write lock, so the child's "sent" cannot commit), the child is killed with SIGKILL and started again.
// After every cycle each receiver holds the sale result under exactly one message id, and nothing is lost:
// - ntfy: exactly one publish in every case: a message left in flight is looked up on the server, found, not sent again;
// - email and webhook: one message when the kill came before the receiver had it; after (b) and (c) Lotwatch cannot
//   know, so it sends again under the same id (Message-ID, Idempotency-Key), which a receiver that keeps ids drops.
// The other two channels are sent at the same time (each channel on its own), so the kill finds each of them at some
// moment too: sent (nothing more arrives), or still in flight (the same rules as above).

type Channel = 'email' | 'ntfy' | 'webhook';
type Moment = 'connected' | 'received' | 'answered';

let smtp: SmtpReceiver;
let ntfy: NtfyReceiver;
let hook: HttpReceiver;
let childJs: string;
let seed: { dir: string; cleanup(): void };
let saleTitle = '';
/** The test's hold on a receiver's answer: set while a cycle waits at (b) or (c). */
let hold: { channel: Channel; reached: () => void; release: Promise<void> } | null = null;
/** What a cycle waiting at (a) does when a connection to a receiver opens; `drop` closes it unread. */
let connectHook: ((channel: Channel, drop: () => void) => void) | null = null;

function holdFor(channel: Channel) {
  return async (_: ReceivedMail | ReceivedRequest) => {
    if (hold?.channel !== channel) return;
    const h = hold;
    h.reached();
    await h.release;
  };
}

beforeAll(async () => {
  smtp = await startSmtpServer({ user: 'buyer', password: 'smtp-pass', hold: holdFor('email') });
  ntfy = await startNtfyServer({ hold: holdFor('ntfy') });
  hook = await startHttpReceiver({ hold: holdFor('webhook') });
  smtp.onConnect(() => connectHook?.('email', () => undefined));
  ntfy.onConnection((sock) => connectHook?.('ntfy', () => sock.destroy()));
  hook.onConnection((sock) => connectHook?.('webhook', () => sock.destroy()));
  childJs = childScript('kill-child');
  seed = tempDir('lotwatch-kill-seed-');
  saleTitle = await prepare(seed.dir);
}, 120_000);

afterAll(async () => {
  await Promise.all([smtp?.close(), ntfy?.close(), hook?.close()]);
  seed?.cleanup();
});

/**
 * A data folder with the three channels and one sale result in the inbox that no channel has been sent yet: a watched
 * lot on the sandbox sells, core checks it (its channel outbox not started). Returns the alert's title.
 */
async function prepare(dir: string): Promise<string> {
  const clock = new FakeClock(Date.now());
  const sb = createSandbox({
    seed: 23,
    lots: 2000,
    startTime: clock.now(),
    speed: 1,
    now: () => clock.now(),
    ratePerSecond: 0,
    refresh: 'instant',
  });
  await sb.start(0, '127.0.0.1');
  const { core } = makeCore({
    dir,
    clock,
    notifier: { notify() {} },
    version: 't',
    demoService: async () => ({ baseUrl: sb.baseUrl!, apiKey: DEMO_KEY, ratePerSecond: 1e9 }),
    autoStart: false,
    demoExamples: false,
    tzOffsetMinutes: () => 0,
  });
  try {
    await core.ready;
    const channels: ChannelSave[] = [
      {
        name: 'Office email',
        enabled: true,
        kinds: ['sale_result'],
        quiet: 'never',
        quiet_hours: { enabled: false, start: '22:00', end: '07:00' },
        config: {
          type: 'email',
          host: '127.0.0.1',
          port: smtp.port,
          security: 'none',
          username: 'buyer',
          from: 'lotwatch@example.com',
          to: 'buyer@example.com',
        },
        secret: 'smtp-pass',
      },
      {
        name: 'My phone',
        enabled: true,
        kinds: ['sale_result'],
        quiet: 'never',
        quiet_hours: { enabled: false, start: '22:00', end: '07:00' },
        config: { type: 'ntfy', server: ntfy.url, topic: 'lotwatch-kill', priority: 3 },
      },
      {
        name: 'Dispatch',
        enabled: true,
        kinds: ['sale_result'],
        quiet: 'never',
        quiet_hours: { enabled: false, start: '22:00', end: '07:00' },
        config: { type: 'webhook', format: 'json', telegram_chat_id: '' },
        secret: `${hook.url}/hooks/dispatch`,
      },
    ];
    for (const c of channels) await core.call('channels.save', c);
    const lot = sb.market.sorted.find(
      (l) => l.subStatus === 'Open' && l.auctionAt > clock.now() + 5 * 60_000,
    )!;
    const w = await core.call('watchlist.add', { target: lot.lotNumber, rules: { kinds: ['sale_result'] } });
    clock.advanceTo(sb.market.timeline(lot.lotNumber)!.endAt + 60_000);
    await core.call('watchlist.checkNow', { id: w.id });
    const sale = (await core.call('alerts.list', undefined)).alerts.filter((a) => a.kind === 'sale_result');
    expect(sale).toHaveLength(1);
    return sale[0]!.title;
  } finally {
    await core.dispose();
    await sb.dispose();
  }
}

function startChild(dir: string): Promise<ChildProcess> {
  return new Promise((res, rej) => {
    const p = spawn(process.execPath, [childJs, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    p.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    p.stdout?.on('data', (c: Buffer) => {
      if (c.toString().includes('ready')) res(p);
    });
    p.on('exit', (code, sig) => {
      if (sig !== 'SIGKILL' && sig !== 'SIGTERM' && code !== 0)
        rej(new Error(`child exited ${code}: ${err}`));
    });
  });
}

const exited = (p: ChildProcess) =>
  new Promise<void>((r) => {
    if (p.exitCode !== null || p.signalCode !== null) return r();
    p.once('exit', () => r());
  });

/** The deliveries' statuses in the data folder, read while the child runs (WAL: readers never block it). */
function statuses(dir: string): string[] {
  const db = new BetterSqlite3(join(dir, 'lotwatch.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT status FROM deliveries ORDER BY channel_id').pluck().all() as string[];
  } finally {
    db.close();
  }
}

async function until(ok: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Message ids each receiver got for the sale result, repeats included. */
function received(): Record<Channel, string[]> {
  return {
    email: smtp.received.filter((m) => m.subject === saleTitle).map((m) => m.messageId),
    ntfy: ntfy.received
      .filter((r) => (r.body as { title?: string }).title === saleTitle)
      .map((r) => (r.body as { sequence_id: string }).sequence_id),
    webhook: hook.received
      .filter((r) => (r.body as { title?: string }).title === saleTitle)
      .map((r) => String(r.headers['idempotency-key'])),
  };
}

/** What the receivers got and where each delivery stood (email, ntfy, webhook) when the first child was dead. */
interface AtKill {
  got: Record<Channel, string[]>;
  status: string[];
}

/**
 * Kills the child at `moment` of `channel`'s delivery, starts it again, and waits until all three are sent. Returns
 * what the receivers got in all, and at the kill.
 */
async function cycle(
  channel: Channel,
  moment: Moment,
): Promise<{ got: Record<Channel, string[]>; atKill: AtKill }> {
  smtp.received.length = 0;
  ntfy.received.length = 0;
  ntfy.messages.length = 0;
  hook.received.length = 0;
  const t = tempDir('lotwatch-kill-');
  try {
    for (const f of ['lotwatch.sqlite', 'secret.key']) copyFileSync(join(seed.dir, f), join(t.dir, f));
    // The running child; the hooks above kill it from the receivers' callbacks.
    const proc: { child: ChildProcess | null } = { child: null };
    let r!: () => void;
    const reached = new Promise<void>((x) => (r = x));
    let killed: Promise<void> = Promise.resolve();
    if (moment === 'connected') {
      // The connection is open and nothing was sent (an SMTP server has not even greeted): kill, then drop it unread.
      connectHook = (c, drop) => {
        if (c !== channel) return;
        connectHook = null;
        proc.child!.kill('SIGKILL');
        drop();
        r();
      };
    } else {
      let release!: () => void;
      hold = { channel, reached: r, release: new Promise<void>((x) => (release = x)) };
      killed = (async () => {
        await reached;
        if (moment === 'answered') {
          // Hold the data file's write lock so the child's "sent" cannot commit, let the receiver answer, kill.
          const lock = new BetterSqlite3(join(t.dir, 'lotwatch.sqlite'));
          lock.exec('BEGIN IMMEDIATE');
          release();
          await new Promise((x) => setTimeout(x, 300));
          proc.child!.kill('SIGKILL');
          await exited(proc.child!);
          lock.exec('ROLLBACK');
          lock.close();
        } else {
          proc.child!.kill('SIGKILL');
          await exited(proc.child!);
          release();
        }
        hold = null;
      })();
    }
    proc.child = await startChild(t.dir);
    await reached;
    await killed;
    await exited(proc.child!);
    const atKill: AtKill = { got: received(), status: statuses(t.dir) };
    expect(atKill.status).toContain('sending');
    const again = await startChild(t.dir);
    try {
      await until(() => statuses(t.dir).filter((s) => s === 'sent').length === 3, 'three sent deliveries');
    } finally {
      again.kill('SIGTERM');
      await exited(again);
    }
    return { got: received(), atKill };
  } finally {
    hold = null;
    connectHook = null;
    t.cleanup();
  }
}

describe('alert channels under kill -9', () => {
  const cases: [Channel, Moment][] = [];
  for (const c of ['email', 'ntfy', 'webhook'] as const)
    for (const m of ['connected', 'received', 'answered'] as const) cases.push([c, m]);

  it.each(cases)(
    'killed while sending to %s (%s): every receiver has the sale result under one id, none lost',
    async (channel, moment) => {
      const { got, atKill } = await cycle(channel, moment);
      for (const [i, c] of (['email', 'ntfy', 'webhook'] as const).entries()) {
        expect(new Set(got[c]).size, `${c}: distinct message ids`).toBe(1);
        if (c === channel) {
          const resent = c !== 'ntfy' && moment !== 'connected';
          expect(got[c], `${c}: messages received`).toHaveLength(resent ? 2 : 1);
          continue;
        }
        // Sent beside the killed one: recorded sent, nothing more; else as for a kill in flight (ntfy asks first).
        const before = atKill.got[c].length;
        const expected = atKill.status[i] === 'sent' ? before : c === 'ntfy' ? 1 : before + 1;
        expect(got[c], `${c} (${atKill.status[i]} at the kill): messages received`).toHaveLength(expected);
      }
    },
    60_000,
  );
});
