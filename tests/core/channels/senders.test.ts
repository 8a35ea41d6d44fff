import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { emailSender } from '../../../src/core/channels/email';
import { ntfySender } from '../../../src/core/channels/ntfy';
import { SENDERS } from '../../../src/core/channels/senders';
import { ChannelSendError, type ChannelMessage, type SendTarget } from '../../../src/core/channels/types';
import { webhookBody, webhookSender } from '../../../src/core/channels/webhook';
import type { ChannelConfig, WebhookFormat } from '../../../src/shared/alertChannels';
import { closedPort, startHttpReceiver, startNtfyServer, startSmtpServer } from '../../helpers/receivers';
import type { HttpReceiver, NtfyReceiver, SmtpReceiver } from '../../helpers/receivers';

// The three alert channel senders against real receivers on 127.0.0.1 (docs/architecture.md "Delivery").

const LOT_URL = 'https://www.copart.com/lot/50313411';

function message(over: Partial<ChannelMessage> = {}): ChannelMessage {
  return {
    key: 'a1b2c3d4e5f6',
    title: 'Sold: 2018 Toyota Camry SE',
    body: 'Sold for $4,250 (your max was $5,000).\nCopart Dallas, TX',
    kind: 'sale_result',
    lot_key: 'copart:50313411',
    lot_url: LOT_URL,
    url: null,
    created_at: Date.UTC(2025, 4, 6, 15, 30),
    alerts: [
      {
        id: 41,
        kind: 'sale_result',
        title: 'Sold: 2018 Toyota Camry SE',
        body: 'Sold for $4,250 (your max was $5,000).\nCopart Dallas, TX',
        lot_key: 'copart:50313411',
        url: null,
        created_at: Date.UTC(2025, 4, 6, 15, 30),
      },
    ],
    ...over,
  };
}

const target = (config: ChannelConfig, secret: string | null): SendTarget => ({
  name: 'Test',
  config,
  secret,
});

/** Runs `p`, expecting a ChannelSendError, and returns it. */
async function failure(p: Promise<unknown>): Promise<ChannelSendError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ChannelSendError);
  return err as ChannelSendError;
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
function track<T extends { close(): Promise<void> }>(s: T): T {
  servers.push(s);
  return s;
}

it('maps every channel type to its sender', () => {
  expect(SENDERS).toEqual({ email: emailSender, ntfy: ntfySender, webhook: webhookSender });
});

describe('email', () => {
  const emailConfig = (smtp: { host: string; port: number }, username = ''): ChannelConfig => ({
    type: 'email',
    host: smtp.host,
    port: smtp.port,
    security: 'none',
    username,
    from: 'lotwatch@example.com',
    to: 'buyer@example.com',
  });

  it('arrives once with subject, lot page and a stable Message-ID, logged in with the secret', async () => {
    const smtp: SmtpReceiver = track(await startSmtpServer({ user: 'buyer', password: 's3cret pass' }));
    const msg = message();
    const result = await emailSender.send(target(emailConfig(smtp, 'buyer'), 's3cret pass'), msg);

    expect(result.detail).toBe('Sent to buyer@example.com through 127.0.0.1');
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.user).toBe('buyer');
    expect(mail.subject).toBe(msg.title);
    expect(mail.messageId).toBe('<a1b2c3d4e5f6@lotwatch.app>');
    expect(mail.from).toBe('lotwatch@example.com');
    expect(mail.to).toBe('buyer@example.com');
    expect(mail.headers['x-lotwatch-kind']).toBe('sale_result');
    expect(mail.text).toContain('Sold for $4,250 (your max was $5,000).');
    expect(mail.text).toContain(`Lot page: ${LOT_URL}`);
    expect(mail.text).toContain('Change what this address receives in Settings → Alert channels.');
    expect(mail.html).toContain(`<a href="${LOT_URL}">Open the lot page</a>`);
    expect(mail.raw).not.toContain('s3cret');
  });

  it('sends without a login when the user name is empty, escaping the HTML part', async () => {
    const smtp = track(await startSmtpServer());
    await emailSender.send(
      target(emailConfig(smtp), null),
      message({ body: 'Bid <b>&</b> more', lot_url: null }),
    );
    const mail = smtp.received[0]!;
    expect(mail.user).toBeNull();
    expect(mail.text).not.toContain('Lot page:');
    expect(mail.html).toContain('Bid &lt;b&gt;&amp;&lt;/b&gt; more');
  });

  it('gives a permanent error about the user name or password when the login is refused', async () => {
    const smtp = track(await startSmtpServer({ user: 'buyer', password: 'right' }));
    const err = await failure(emailSender.send(target(emailConfig(smtp, 'buyer'), 'wrong'), message()));
    expect(err.permanent).toBe(true);
    expect(err.message).toContain('user name or password');
    expect(err.message).not.toContain('wrong');
    expect(smtp.received).toHaveLength(0);
  });

  it('gives a non-permanent error naming host:port when nothing listens there', async () => {
    const port = await closedPort();
    const err = await failure(
      emailSender.send(target(emailConfig({ host: '127.0.0.1', port }), null), message()),
    );
    expect(err.permanent).toBe(false);
    expect(err.message).toBe(
      `Could not reach the mail server 127.0.0.1:${port}. Check the host and port, or your connection.`,
    );
  });
});

describe('ntfy', () => {
  const ntfyConfig = (server: string, priority = 3): ChannelConfig => ({
    type: 'ntfy',
    server: `${server}//`,
    topic: 'lotwatch-test_1',
    priority,
  });

  it('publishes title, text and lot page, a bumped priority, the sequence id and the token', async () => {
    const ntfy: NtfyReceiver = track(await startNtfyServer({ requireToken: 'tk_abc' }));
    const result = await ntfySender.send(target(ntfyConfig(ntfy.url), 'tk_abc'), message());

    expect(result.detail).toBe(`Sent to topic lotwatch-test_1 on 127.0.0.1:${ntfy.port}`);
    expect(ntfy.received).toHaveLength(1);
    const req = ntfy.received[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/');
    expect(req.headers.authorization).toBe('Bearer tk_abc');
    expect(req.body).toEqual({
      topic: 'lotwatch-test_1',
      title: 'Sold: 2018 Toyota Camry SE',
      message: `Sold for $4,250 (your max was $5,000).\nCopart Dallas, TX\n${LOT_URL}`,
      priority: 4,
      tags: ['moneybag'],
      click: LOT_URL,
      sequence_id: 'a1b2c3d4e5f6',
    });
  });

  it('keeps the priority for other kinds, and sends no token or click when there is none', async () => {
    const ntfy = track(await startNtfyServer());
    await ntfySender.send(
      target(ntfyConfig(ntfy.url, 5), null),
      message({ kind: 'new_match', lot_url: null }),
    );
    await ntfySender.send(
      target(ntfyConfig(ntfy.url, 5), ''),
      message({ kind: 'sale_result', lot_url: null }),
    );
    const [a, b] = ntfy.received;
    expect(a!.headers.authorization).toBeUndefined();
    expect(a!.body).toMatchObject({ priority: 5, tags: ['car'] });
    expect(a!.body).not.toHaveProperty('click');
    expect(b!.body).toMatchObject({ priority: 5 });
  });

  it('gives a permanent error about the token when the server answers 401', async () => {
    const ntfy = track(await startNtfyServer({ requireToken: 'right' }));
    const err = await failure(ntfySender.send(target(ntfyConfig(ntfy.url), 'wrong'), message()));
    expect(err.permanent).toBe(true);
    expect(err.message).toContain('refused the access token for topic lotwatch-test_1');
  });

  it('confirms what it sent, not what it never sent; by title and text without sequence ids', async () => {
    const since = Date.now();
    const ntfy = track(await startNtfyServer({ requireToken: 'tk' }));
    const t = target(ntfyConfig(ntfy.url), 'tk');
    await ntfySender.send(t, message());
    expect(await ntfySender.confirm!(t, message(), since)).toBe(true);
    expect(await ntfySender.confirm!(t, message({ key: 'never-sent', title: 'Another' }), since)).toBe(false);
    expect(await ntfySender.confirm!(target(ntfyConfig(ntfy.url), 'wrong'), message(), since)).toBeNull();

    const old = track(await startNtfyServer({ noSequenceIds: true }));
    const o = target(ntfyConfig(old.url), null);
    await ntfySender.send(o, message());
    expect(old.messages[0]).not.toHaveProperty('sequence_id');
    expect(await ntfySender.confirm!(o, message({ key: 'another-key' }), since)).toBe(true);
    expect(await ntfySender.confirm!(o, message({ body: 'Other text' }), since)).toBe(false);
  });

  it('cannot confirm, and cannot send, when the server is down', async () => {
    const port = await closedPort();
    const t = target(ntfyConfig(`http://127.0.0.1:${port}`), null);
    expect(await ntfySender.confirm!(t, message(), Date.now())).toBeNull();
    const err = await failure(ntfySender.send(t, message()));
    expect(err.permanent).toBe(false);
    expect(err.message).toContain(`Could not reach the ntfy server 127.0.0.1:${port}`);
  });
});

describe('webhook', () => {
  const TOKEN_PATH = '/api/webhooks/1234567890/SeCrEtToKeN_xyz';
  const hook = (format: WebhookFormat): ChannelConfig => ({
    type: 'webhook',
    format,
    telegram_chat_id: format === 'telegram' ? '-100200300' : '',
  });

  it('posts all four formats with the Idempotency-Key header and the expected bodies', async () => {
    const http: HttpReceiver = track(
      await startHttpReceiver({ status: (r) => (r.path.endsWith('discord') ? 204 : 200) }),
    );
    const msg = message();
    for (const format of ['json', 'discord', 'slack', 'telegram'] as const) {
      const result = await webhookSender.send(target(hook(format), `${http.url}/hook/${format}`), msg);
      expect(result.detail).toBe(`Sent to 127.0.0.1:${http.port}`);
    }
    expect(http.received.map((r) => r.path)).toEqual([
      '/hook/json',
      '/hook/discord',
      '/hook/slack',
      '/hook/telegram',
    ]);
    for (const r of http.received) {
      expect(r.method).toBe('POST');
      expect(r.headers['idempotency-key']).toBe('a1b2c3d4e5f6');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toBe('Lotwatch');
    }
    const [json, discord, slack, telegram] = http.received;
    expect(json!.headers['x-lotwatch-kind']).toBe('sale_result');
    expect(discord!.headers['x-lotwatch-kind']).toBeUndefined();
    expect(json!.body).toEqual({
      id: 'a1b2c3d4e5f6',
      type: 'lotwatch.alert',
      kind: 'sale_result',
      title: msg.title,
      body: msg.body,
      lot_key: 'copart:50313411',
      lot_url: LOT_URL,
      url: null,
      created_at: '2025-05-06T15:30:00.000Z',
      alerts: [
        {
          id: 41,
          kind: 'sale_result',
          title: msg.title,
          body: msg.body,
          lot_key: 'copart:50313411',
          url: null,
          created_at: '2025-05-06T15:30:00.000Z',
        },
      ],
    });
    expect(discord!.body).toEqual({
      username: 'Lotwatch',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: msg.title,
          description: msg.body,
          url: LOT_URL,
          timestamp: '2025-05-06T15:30:00.000Z',
          color: 0x2ecc71,
          footer: { text: 'Lotwatch' },
        },
      ],
    });
    expect(slack!.body).toEqual({
      text: 'Sold: 2018 Toyota Camry SE: Sold for $4,250 (your max was $5,000).',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: `*${msg.title}*\n${msg.body}` } },
        { type: 'context', elements: [{ type: 'mrkdwn', text: `<${LOT_URL}|Open the lot page>` }] },
      ],
    });
    expect(telegram!.body).toEqual({
      chat_id: '-100200300',
      text: `<b>${msg.title}</b>\n${msg.body}\n<a href="${LOT_URL}">Open the lot page</a>`,
      parse_mode: 'HTML',
      disable_web_page_preview: true,
    });
  });

  it('escapes <b>& in titles for Telegram and Slack, and cuts a long Discord title', () => {
    const msg = message({ title: 'Sold <b>& gone "now"', body: 'a < b > c & d', lot_url: null });
    expect(webhookBody('telegram', msg, '42')).toMatchObject({
      text: '<b>Sold &lt;b&gt;&amp; gone &quot;now&quot;</b>\na &lt; b &gt; c &amp; d',
    });
    expect(webhookBody('slack', msg, '')).toEqual({
      text: 'Sold &lt;b&gt;&amp; gone "now": a &lt; b &gt; c &amp; d',
      blocks: [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: '*Sold &lt;b&gt;&amp; gone "now"*\na &lt; b &gt; c &amp; d' },
        },
      ],
    });
    const discord = webhookBody('discord', message({ title: 'x'.repeat(300), lot_url: null }), '') as {
      embeds: { title: string; url?: string }[];
    };
    expect(discord.embeds[0]!.title).toHaveLength(256);
    expect(discord.embeds[0]!.title.endsWith('…')).toBe(true);
    expect(discord.embeds[0]).not.toHaveProperty('url');
  });

  it('gives a permanent error naming only the host when the webhook is gone (404)', async () => {
    const http = track(
      await startHttpReceiver({ status: 404, body: { message: 'Unknown Webhook', code: 10015 } }),
    );
    const secret = `${http.url}${TOKEN_PATH}`;
    const err = await failure(webhookSender.send(target(hook('discord'), secret), message()));
    expect(err.permanent).toBe(true);
    expect(err.message).toBe(
      `The webhook address on 127.0.0.1:${http.port} was refused (HTTP 404: Unknown Webhook): the webhook ` +
        'may have been deleted. Paste a new address in Settings → Alert channels.',
    );
    expect(inspect(err)).not.toContain('SeCrEtToKeN');
    expect(inspect(err)).not.toContain('/api/webhooks');
  });

  it('retries 503, waits for a 429 Retry-After, hides the address when the receiver is down', async () => {
    const http = track(
      await startHttpReceiver({
        status: (r) => (r.path.startsWith('/busy') ? 429 : 503),
        headers: (r): Record<string, string> => (r.path.startsWith('/busy') ? { 'retry-after': '7' } : {}),
      }),
    );
    const down = await failure(
      webhookSender.send(target(hook('slack'), `${http.url}/down${TOKEN_PATH}`), message()),
    );
    expect(down.permanent).toBe(false);
    expect(down.retryAfterMs).toBeNull();
    expect(down.message).toContain('HTTP 503');
    const busy = await failure(
      webhookSender.send(target(hook('json'), `${http.url}/busy${TOKEN_PATH}`), message()),
    );
    expect(busy.permanent).toBe(false);
    expect(busy.retryAfterMs).toBe(7000);

    const port = await closedPort();
    const gone = await failure(
      webhookSender.send(target(hook('json'), `http://127.0.0.1:${port}${TOKEN_PATH}`), message()),
    );
    expect(gone.permanent).toBe(false);
    expect(gone.message).toContain(`Could not reach the webhook at 127.0.0.1:${port}`);
    expect(inspect(gone)).not.toContain('SeCrEtToKeN');
  });

  it('needs a stored address', async () => {
    const err = await failure(webhookSender.send(target(hook('json'), null), message()));
    expect(err.permanent).toBe(true);
    expect(err.message).toBe('No webhook address is stored. Paste it in Settings → Alert channels.');
  });
});
