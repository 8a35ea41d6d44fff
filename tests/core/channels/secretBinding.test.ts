import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelSave } from '../../../src/shared/alertChannels';
import { outboxCore } from './raise';
import { startHttpReceiver, startNtfyServer, startSmtpServer } from '../../helpers/receivers';
import type { HttpReceiver, NtfyReceiver, SmtpReceiver } from '../../helpers/receivers';

// A channel's secret is bound to where it was saved for, as the API key is to its origin (docs/architecture.md
// "Delivery", "Alert channels"): an SMTP password to its host and port, an ntfy token to its server, a webhook address to its
// origin. Moving a channel elsewhere without giving the secret again is refused at its field, and a stored secret
// whose binding does not match the channel's destination is not used at send time (neither by the outbox nor by
// the Test button). Real SMTP and HTTP receivers on 127.0.0.1, real SQLite.

const PASSWORD = 'pw-for-server-a-only-91c2';
const TOKEN = 'tk_for_ntfy_a_only_4d7e';

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c();
});

async function smtpServer(): Promise<SmtpReceiver> {
  // Each server takes the password: the worst case, a server that would accept what it is given.
  const s = await startSmtpServer({ user: 'buyer', password: PASSWORD });
  open.push(() => s.close());
  return s;
}
async function ntfyServer(): Promise<NtfyReceiver> {
  const s = await startNtfyServer();
  open.push(() => s.close());
  return s;
}
async function hookServer(): Promise<HttpReceiver> {
  const s = await startHttpReceiver();
  open.push(() => s.close());
  return s;
}

/** A core with its channel outbox running; its `raise` is one of Lotwatch's own alerts, sent by every channel. */
async function setup() {
  const made = await outboxCore('binding-test');
  open.push(made.close);
  return made;
}

const details = (raw: BetterSqlite3.Database, channel: number): string[] =>
  (
    raw.prepare('SELECT detail FROM deliveries WHERE channel_id = ? ORDER BY id').all(channel) as {
      detail: string | null;
    }[]
  ).map((r) => r.detail ?? '');

const emailOn = (s: SmtpReceiver, over: Partial<ChannelSave> = {}): ChannelSave =>
  ({
    name: 'Office email',
    config: {
      type: 'email',
      host: s.host,
      port: s.port,
      security: 'none',
      username: 'buyer',
      from: 'lotwatch@example.com',
      to: 'buyer@example.com',
    },
    ...over,
  }) as ChannelSave;
const phoneOn = (s: NtfyReceiver, over: Partial<ChannelSave> = {}): ChannelSave =>
  ({
    name: 'My phone',
    config: { type: 'ntfy', server: s.url, topic: 'lotwatch-binding', priority: 3 },
    ...over,
  }) as ChannelSave;

describe('an SMTP password is bound to its host and port', () => {
  it('is refused at the field when only the host and port change, and server B never gets AUTH with it', async () => {
    const a = await smtpServer();
    const b = await smtpServer();
    const { core, raise } = await setup();
    const ch = await core.call('channels.save', emailOn(a, { secret: PASSWORD }));
    await raise();
    expect(a.received).toHaveLength(1);
    expect(a.logins).toEqual([{ user: 'buyer', password: PASSWORD }]);

    // Only the host and port change: refused, with the reason at the password field; nothing is written.
    const moved = emailOn(b, { id: ch.id });
    await expect(core.call('channels.save', moved)).rejects.toMatchObject({
      code: 'bad_input',
      fields: {
        secret: [expect.stringMatching(/^Enter the password again for the new server 127\.0\.0\.1:\d+/)],
      },
    });
    const [kept] = (await core.call('channels.list', undefined)).channels;
    expect(kept?.config).toMatchObject({ port: a.port });

    // Neither the Test button nor the outbox takes the password anywhere but A.
    expect(await core.call('channels.test', { id: ch.id })).toMatchObject({ ok: true });
    await raise();
    expect(b.logins).toEqual([]);
    expect(b.received).toEqual([]);

    // Given again for B, it goes to B (and B's binding is B's: A no longer gets it without asking).
    await core.call('channels.save', emailOn(b, { id: ch.id, secret: PASSWORD }));
    await raise();
    expect(b.logins).toEqual([{ user: 'buyer', password: PASSWORD }]);
    const sentToA = a.logins.length;
    await expect(core.call('channels.save', emailOn(a, { id: ch.id }))).rejects.toMatchObject({
      code: 'bad_input',
    });
    expect(a.logins).toHaveLength(sentToA);

    // Forgetting the password while moving is allowed: nothing is left to carry.
    await core.call('channels.save', emailOn(a, { id: ch.id, secret: null }));
    expect((await core.call('channels.list', undefined)).channels[0]).toMatchObject({ has_secret: false });
  }, 30_000);

  it('is not used at send time when the stored destination no longer matches (a row changed behind the form)', async () => {
    const a = await smtpServer();
    const b = await smtpServer();
    const { core, raw, raise } = await setup();
    const ch = await core.call('channels.save', emailOn(a, { secret: PASSWORD }));
    // The settings row is moved to B directly, as an older Lotwatch (or a restored file) could have left it.
    const settings = JSON.parse(
      (raw.prepare('SELECT settings FROM channels WHERE id = ?').get(ch.id) as { settings: string }).settings,
    ) as { config: { port: number } };
    settings.config.port = b.port;
    raw.prepare('UPDATE channels SET settings = ? WHERE id = ?').run(JSON.stringify(settings), ch.id);

    await raise();
    const test = await core.call('channels.test', { id: ch.id });
    expect(b.logins).toEqual([]);
    expect(b.received).toEqual([]);
    expect(test.ok).toBe(false);
    expect(test.message).toMatch(/saved for the server 127\.0\.0\.1:\d+.*Enter it again/);
    expect(details(raw, ch.id).at(-1)).toMatch(/Enter it again in Settings → Alert channels/);
  }, 30_000);

  it('binds a password stored before bindings to the server stored at that moment, and keeps it working there', async () => {
    const a = await smtpServer();
    const b = await smtpServer();
    const { core, raw, raise } = await setup();
    const ch = await core.call('channels.save', emailOn(a, { secret: PASSWORD }));
    const names = () =>
      (raw.prepare('SELECT name FROM secrets ORDER BY name').all() as { name: string }[]).map((r) => r.name);
    expect(names()).toEqual([`channel:${ch.id}`, `channel:${ch.id}:for`]);
    // As an older Lotwatch stored it: the password alone.
    raw.prepare('DELETE FROM secrets WHERE name = ?').run(`channel:${ch.id}:for`);

    await raise();
    expect(a.logins).toEqual([{ user: 'buyer', password: PASSWORD }]);
    expect(names()).toEqual([`channel:${ch.id}`, `channel:${ch.id}:for`]);
    await expect(core.call('channels.save', emailOn(b, { id: ch.id }))).rejects.toMatchObject({
      code: 'bad_input',
    });

    // Unbound, and changed through the form before any send: bound to where it was, so still refused.
    raw.prepare('DELETE FROM secrets WHERE name = ?').run(`channel:${ch.id}:for`);
    await expect(core.call('channels.save', emailOn(b, { id: ch.id }))).rejects.toMatchObject({
      code: 'bad_input',
    });
    await raise();
    expect(b.logins).toEqual([]);
  }, 30_000);
});

describe('an ntfy access token is bound to its server', () => {
  it('is refused when only the server changes, and the new server never sees the old Bearer token', async () => {
    const a = await ntfyServer();
    const b = await ntfyServer();
    const { core, raw, raise } = await setup();
    const ch = await core.call('channels.save', phoneOn(a, { secret: TOKEN }));
    await raise();
    expect(a.received.map((r) => r.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);

    await expect(core.call('channels.save', phoneOn(b, { id: ch.id }))).rejects.toMatchObject({
      code: 'bad_input',
      fields: { secret: [expect.stringMatching(/^Enter the access token again for the new server/)] },
    });
    // A changed topic on the same server keeps the token.
    await core.call(
      'channels.save',
      phoneOn(a, { id: ch.id, config: { ...phoneOn(a).config, topic: 'other' } as never }),
    );

    // Behind the form: the row points at B; the token is not sent, by the outbox or the Test button.
    const row = raw.prepare('SELECT settings FROM channels WHERE id = ?').get(ch.id) as { settings: string };
    raw
      .prepare('UPDATE channels SET settings = ? WHERE id = ?')
      .run(row.settings.split(a.url).join(b.url), ch.id);
    await raise();
    expect((await core.call('channels.test', { id: ch.id })).ok).toBe(false);
    expect(b.received.filter((r) => r.headers.authorization !== undefined)).toEqual([]);
    expect(JSON.stringify(b.received)).not.toContain(TOKEN);

    // Given again for B: B gets it.
    await core.call('channels.save', phoneOn(b, { id: ch.id, secret: TOKEN }));
    await raise();
    expect(b.received.map((r) => r.headers.authorization)).toContain(`Bearer ${TOKEN}`);
  }, 30_000);
});

describe('a webhook address is bound to its origin', () => {
  it('sends to the origin it was saved for, and never to another one under an old binding', async () => {
    const a = await hookServer();
    const b = await hookServer();
    const { core, raw, raise } = await setup();
    const config = { type: 'webhook' as const, format: 'json' as const, telegram_chat_id: '' };
    const hook: ChannelSave = {
      name: 'Dispatch',
      enabled: true,
      kinds: ['quota_low'],
      quiet: 'never',
      quiet_hours: { enabled: true, start: '22:00', end: '07:00' },
      config,
      secret: `${a.url}/hooks/secret-path-a`,
    };
    const ch = await core.call('channels.save', hook);
    // The format changes, the address is kept: still A.
    await core.call('channels.save', {
      ...hook,
      id: ch.id,
      secret: undefined,
      config: { ...config, format: 'slack' },
    });
    await raise();
    expect(a.received.map((r) => r.path)).toEqual(['/hooks/secret-path-a']);

    // A binding that names another origin than the stored address (a damaged or swapped row): nothing is sent.
    const bound = raw
      .prepare('SELECT ciphertext FROM secrets WHERE name = ?')
      .get(`channel:${ch.id}:for`) as {
      ciphertext: Buffer;
    };
    const other = await core.call('channels.save', {
      ...hook,
      name: 'Other',
      secret: `${b.url}/hooks/secret-path-b`,
    });
    raw
      .prepare('UPDATE secrets SET ciphertext = ? WHERE name = ?')
      .run(bound.ciphertext, `channel:${other.id}:for`);
    await raise();
    const test = await core.call('channels.test', { id: other.id });
    expect(b.received).toEqual([]);
    expect(details(raw, other.id).at(-1)).toMatch(/Paste the webhook address again/);
    expect(test).toMatchObject({
      ok: false,
      message: expect.stringMatching(/Paste the webhook address again/),
    });
  }, 30_000);
});
