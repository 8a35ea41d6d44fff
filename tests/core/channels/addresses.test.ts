import type BetterSqlite3 from 'better-sqlite3';
import type { LookupFunction } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { silentLogger } from '../../../src/core/log';
import { startHeadless } from '../../../src/headless/start';
import type { ChannelSave } from '../../../src/shared/alertChannels';
import type { MakeCoreOptions } from '../../helpers/core';
import { tempDir } from '../../helpers/tmp';
import { outboxCore } from './raise';
import {
  startHttpReceiver,
  startSmtpServer,
  type HttpReceiver,
  type SmtpReceiver,
} from '../../helpers/receivers';

// Where an alert channel may send (docs/architecture.md "Delivery", "Alert channels"): never to a link-local or cloud
// metadata address, in any spelling, nor to Lotwatch's own port; a private network address is allowed (the form
// says so).
// Checked on save against what was typed, and again when sending against what the name resolved to (a lookup the
// test injects points harmless-looking names at 169.254.169.254 and at Lotwatch's own port).

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c();
});

/** Every spelling of 169.254.169.254 a resolver or URL parser turns into it, and other metadata addresses. */
const METADATA_HOSTS = [
  '169.254.169.254',
  '2852039166',
  '0xa9fea9fe',
  '0xA9FEA9FE',
  '0251.0376.0251.0376',
  '169.254.43518',
  '169.254.169.254.',
  '::ffff:169.254.169.254',
  '[::ffff:a9fe:a9fe]',
  '[::FFFF:A9FE:A9FE]',
  'fe80::1',
  '[fe80::1]',
  'metadata.google.internal',
  'METADATA.GOOGLE.INTERNAL.',
  'metadata',
  'instance-data',
  '100.100.100.200',
  '[fd00:ec2::254]',
];
/** The host as a URL writes it. */
const inUrl = (h: string): string => (h.includes(':') && !h.startsWith('[') ? `[${h}]` : h);

/** A lookup that answers `names` from the table and fails for anything else (no real DNS in these tests). */
function fakeLookup(names: Record<string, string>): LookupFunction {
  return ((hostname: string, options: unknown, callback: unknown) => {
    const cb = (typeof options === 'function' ? options : callback) as (
      err: NodeJS.ErrnoException | null,
      address: string | { address: string; family: number }[],
      family?: number,
    ) => void;
    const all =
      typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true;
    const address = names[hostname.toLowerCase()];
    if (address === undefined) {
      const err: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
        code: 'ENOTFOUND',
      });
      process.nextTick(() => cb(err, ''));
      return;
    }
    const family = address.includes(':') ? 6 : 4;
    process.nextTick(() => (all ? cb(null, [{ address, family }]) : cb(null, address, family)));
  }) as LookupFunction;
}

/** A core with its channel outbox running; its `raise` is one of Lotwatch's own alerts, sent by every channel. */
async function setup(over: MakeCoreOptions = {}) {
  const made = await outboxCore('address-test', over);
  open.push(made.close);
  return made;
}

const lastDetail = (raw: BetterSqlite3.Database, channel: number): string =>
  (
    raw
      .prepare('SELECT detail FROM deliveries WHERE channel_id = ? ORDER BY id DESC LIMIT 1')
      .get(channel) as {
      detail: string | null;
    }
  ).detail ?? '';

const email = (host: string, port = 587): ChannelSave =>
  ({
    name: 'Office email',
    config: {
      type: 'email',
      host,
      port,
      security: 'none',
      username: '',
      from: 'lotwatch@example.com',
      to: 'buyer@example.com',
    },
  }) as ChannelSave;
const phone = (server: string): ChannelSave =>
  ({
    name: 'My phone',
    config: { type: 'ntfy', server, topic: 'lotwatch-addr', priority: 3 },
  }) as ChannelSave;
const hook = (address: string): ChannelSave =>
  ({
    name: 'Hook',
    config: { type: 'webhook', format: 'json', telegram_chat_id: '' },
    secret: address,
  }) as ChannelSave;

describe('on save, by what was typed', () => {
  it('refuses every spelling of a link-local or metadata address, at the field that holds it', async () => {
    const { core } = await setup();
    for (const h of METADATA_HOSTS) {
      for (const [input, field] of [
        [email(h), 'config.host'],
        [phone(`http://${inUrl(h)}/`), 'config.server'],
        [hook(`http://${inUrl(h)}/hooks/x`), 'secret'],
      ] as const) {
        await expect(core.call('channels.save', input), `${h} at ${field}`).rejects.toMatchObject({
          code: 'bad_input',
          fields: {
            [field]: [
              expect.stringMatching(/link-local or cloud metadata address, .*Lotwatch does not send there/),
            ],
          },
        });
      }
    }
    expect((await core.call('channels.list', undefined)).channels).toEqual([]);
  });

  it("refuses Lotwatch's own port on this computer, and takes a private network address", async () => {
    const { core } = await setup({ ownPorts: () => [48123] });
    for (const [input, field] of [
      [email('127.0.0.1', 48123), 'config.host'],
      [email('localhost', 48123), 'config.host'],
      [phone('http://127.0.0.1:48123'), 'config.server'],
      [phone('http://[::1]:48123/'), 'config.server'],
      [hook('http://LOCALHOST.:48123/rpc/settings.update'), 'secret'],
      [hook('http://2130706433:48123/x'), 'secret'],
    ] as const) {
      await expect(core.call('channels.save', input)).rejects.toMatchObject({
        code: 'bad_input',
        fields: { [field]: [expect.stringMatching(/is Lotwatch itself/)] },
      });
    }
    // Another port on this computer, and a computer on the buyer's own network, are fine.
    await core.call('channels.save', email('192.168.1.20', 25));
    await core.call('channels.save', phone('http://10.0.0.7:8080'));
    await core.call('channels.save', hook('http://127.0.0.1:48124/hook'));
    expect((await core.call('channels.list', undefined)).channels).toHaveLength(3);
  });
});

describe("the browser shell's own port", () => {
  it('is refused on save once the shell listens: its core knows the port', async () => {
    const data = tempDir();
    const renderer = tempDir();
    writeFileSync(`${renderer.dir}/index.html`, '<!doctype html><title>Lotwatch</title>');
    const running = await startHeadless({
      dataDir: data.dir,
      rendererDir: renderer.dir,
      version: '0.0.0-test',
      log: silentLogger,
    });
    open.push(async () => {
      await running.dispose();
      data.cleanup();
      renderer.cleanup();
    });
    const port = Number(new URL(running.url).port);
    await expect(
      running.core.call('channels.save', hook(`http://localhost:${port}/rpc/settings.update`)),
    ).rejects.toMatchObject({
      code: 'bad_input',
      fields: { secret: [expect.stringMatching(/is Lotwatch itself/)] },
    });
    await running.core.call('channels.save', hook(`http://localhost:${port + 1}/hook`));
  });
});

describe('on send, by what the name resolved to', () => {
  it('does not connect to a name that resolves to a link-local address or to Lotwatch itself; another name goes', async () => {
    const smtp: SmtpReceiver = await startSmtpServer();
    const http: HttpReceiver = await startHttpReceiver();
    // Stands for the browser shell's own port.
    const lotwatch: HttpReceiver = await startHttpReceiver();
    open.push(
      () => smtp.close(),
      () => http.close(),
      () => lotwatch.close(),
    );
    const lookup = fakeLookup({
      'mail.example.test': '127.0.0.1',
      'hooks.example.test': '127.0.0.1',
      'evil-mail.example.test': '169.254.169.254',
      'evil-hook.example.test': '169.254.169.254',
      'evil6-hook.example.test': 'fe80::1',
      'self.example.test': '127.0.0.1',
    });
    const { core, raw, raise } = await setup({ channelLookup: lookup, ownPorts: () => [lotwatch.port] });

    const good = [
      await core.call('channels.save', email('mail.example.test', smtp.port)),
      await core.call('channels.save', hook(`http://hooks.example.test:${http.port}/fine`)),
    ];
    // Names are judged when sending: each of these saves.
    const bad = [
      await core.call('channels.save', email('evil-mail.example.test', smtp.port)),
      await core.call('channels.save', hook(`http://evil-hook.example.test:${http.port}/meta`)),
      await core.call('channels.save', phone(`http://evil6-hook.example.test:${http.port}`)),
      await core.call('channels.save', hook(`http://self.example.test:${lotwatch.port}/self`)),
    ];
    await raise();

    expect(smtp.received).toHaveLength(1);
    expect(http.received.map((r) => r.path)).toEqual(['/fine']);
    expect(lotwatch.received).toEqual([]);
    for (const c of good) expect(lastDetail(raw, c.id)).toMatch(/^Sent to/);
    const [mail, meta, meta6, self] = bad.map((c) => lastDetail(raw, c.id));
    expect(mail).toMatch(
      /evil-mail\.example\.test points to 169\.254\.169\.254, .*Lotwatch does not send there/,
    );
    expect(meta).toMatch(/evil-hook\.example\.test points to 169\.254\.169\.254/);
    expect(meta6).toMatch(/evil6-hook\.example\.test points to \[fe80::1\]/);
    expect(self).toMatch(/self\.example\.test points to 127\.0\.0\.1:\d+, which is Lotwatch itself/);

    // The Test button is held to the same rule.
    const t = await core.call('channels.test', { id: bad[0]!.id });
    expect(t).toMatchObject({ ok: false, message: expect.stringMatching(/points to 169\.254\.169\.254/) });
    expect(smtp.received).toHaveLength(1);
  }, 30_000);
});
