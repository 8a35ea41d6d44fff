import { request, type Dispatcher } from 'undici';
import { SYSTEM_ALERT_KINDS, type ChannelConfig, type WebhookFormat } from '../../shared/alertChannels';
import { ChannelSendError, type ChannelMessage, type SendTarget, type Sender } from './types';
import { readSome, retryAfterMsOf } from './http';
import { defaultReach } from './reach';

/**
 * The webhook channel (docs/architecture.md "Delivery"): a POST of JSON to an address the buyer pasted, in
 * Lotwatch's own shape or in what a Discord, Slack or Telegram bot accepts. The address is the secret
 * (Discord's and Slack's carry their token in the path, Telegram's the bot token), so only its host is ever
 * written in a message, a log line or an error.
 */

type WebhookConfig = Extract<ChannelConfig, { type: 'webhook' }>;

/**
 * Longest silence while waiting for the receiver's headers, and between parts of its body, ms. The whole send has a
 * deadline of its own (withinDeadline in senders.ts), since a receiver that drips a byte now and then is never silent.
 */
const TIMEOUT_MS = 15_000;

/** Discord embed colours: green for a sale's result, red for Lotwatch's own problems, blue for the rest. */
const COLOR_SALE = 0x2ecc71;
const COLOR_SYSTEM = 0xe74c3c;
const COLOR_OTHER = 0x3498db;

const iso = (ms: number): string => new Date(ms).toISOString();

/** Cuts `s` to at most `max` characters, ending a cut one with "…". */
const cut = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s);

/** Slack's escaping of user text: only &, < and > (Slack's message formatting rules). */
const slackEscape = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Telegram's HTML parse mode: &, <, > and " as entities. */
const htmlEscape = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A link target for Slack's `<url|text>`: the characters that would end it percent-encoded, & escaped. */
const slackUrl = (u: string): string =>
  u.replace(/\|/g, '%7C').replace(/</g, '%3C').replace(/>/g, '%3E').replace(/&/g, '&amp;');

/**
 * Escapes `raw` with `esc` and keeps the result within `max` characters, cutting the raw text (never an
 * entity).
 */
function fitEscaped(raw: string, esc: (s: string) => string, max: number): string {
  let text = raw;
  let out = esc(text);
  while (out.length > max) {
    text = text.slice(0, Math.max(0, Math.min(text.length - 1, Math.floor(text.length * 0.9), max - 1)));
    out = `${esc(text.trimEnd())}…`;
  }
  return out;
}

function discordColor(kind: string): number {
  if (kind === 'sale_result') return COLOR_SALE;
  if ((SYSTEM_ALERT_KINDS as readonly string[]).includes(kind)) return COLOR_SYSTEM;
  return COLOR_OTHER;
}

/**
 * The JSON body of one message in a webhook format (pure; the tests and the Settings page's note use it):
 * - `json`: Lotwatch's own shape, `{ id (the message key), type: 'lotwatch.alert', kind, title, body,
 *   lot_key, lot_url, url (the alert's own link, a call watch's item), created_at (ISO 8601), alerts: [{ id, kind,
 *   title, body, lot_key, url, created_at }] }`;
 * - `discord`: one embed (title up to 256 characters, description up to 4,000), no mentions;
 * - `slack`: a fallback `text` and Block Kit blocks in mrkdwn, user text escaped the Slack way;
 * - `telegram`: a Bot API sendMessage body for `chatId`, HTML-escaped, without a link preview.
 */
export function webhookBody(format: WebhookFormat, msg: ChannelMessage, chatId: string): unknown {
  switch (format) {
    case 'json':
      return {
        id: msg.key,
        type: 'lotwatch.alert',
        kind: msg.kind,
        title: msg.title,
        body: msg.body,
        lot_key: msg.lot_key,
        lot_url: msg.lot_url,
        url: msg.url,
        created_at: iso(msg.created_at),
        alerts: msg.alerts.map((a) => ({
          id: a.id,
          kind: a.kind,
          title: a.title,
          body: a.body,
          lot_key: a.lot_key,
          url: a.url,
          created_at: iso(a.created_at),
        })),
      };
    case 'discord':
      return {
        username: 'Lotwatch',
        allowed_mentions: { parse: [] },
        embeds: [
          {
            title: cut(msg.title, 256),
            description: cut(msg.body, 4000),
            ...((msg.lot_url ?? msg.url) ? { url: msg.lot_url ?? msg.url } : {}),
            timestamp: iso(msg.created_at),
            color: discordColor(msg.kind),
            footer: { text: 'Lotwatch' },
          },
        ],
      };
    case 'slack': {
      const firstLine = msg.body.split('\n', 1)[0] ?? '';
      const title = fitEscaped(msg.title, slackEscape, 500);
      const blocks: unknown[] = [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: `*${title}*\n${fitEscaped(msg.body, slackEscape, 2900 - title.length)}`,
          },
        },
      ];
      const link = msg.lot_url ?? msg.url;
      if (link) {
        const label = msg.lot_url ? 'Open the lot page' : 'Open the link';
        blocks.push({
          type: 'context',
          elements: [{ type: 'mrkdwn', text: `<${slackUrl(link)}|${label}>` }],
        });
      }
      return { text: fitEscaped(`${msg.title}: ${firstLine}`, slackEscape, 1000), blocks };
    }
    case 'telegram': {
      const link = msg.lot_url
        ? `\n<a href="${htmlEscape(msg.lot_url)}">Open the lot page</a>`
        : msg.url
          ? `\n<a href="${htmlEscape(msg.url)}">Open the link</a>`
          : '';
      return {
        chat_id: chatId,
        text: `<b>${htmlEscape(cut(msg.title, 256))}</b>\n${htmlEscape(cut(msg.body, 3500))}${link}`,
        parse_mode: 'HTML',
        disable_web_page_preview: true,
      };
    }
  }
}

/**
 * The stored address as a URL; throws a permanent ChannelSendError when none is stored or it is not http(s).
 */
function addressOf(secret: string | null): URL {
  if (secret === null || secret.trim() === '') {
    throw new ChannelSendError('No webhook address is stored. Paste it in Settings → Alert channels.', {
      permanent: true,
    });
  }
  let url: URL | null = null;
  try {
    url = new URL(secret.trim());
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new ChannelSendError(
      'The stored webhook address is not a web address. Paste it again in Settings → Alert channels.',
      { permanent: true },
    );
  }
  return url;
}

/**
 * Removes the address (and its path, which carries the token) from a text the receiver or the network wrote.
 */
function scrub(text: string, url: URL, secret: string): string {
  let out = text.split(secret.trim()).join('…');
  for (const part of [url.href, url.pathname + url.search, url.pathname]) {
    if (part.length > 1) out = out.split(part).join('…');
  }
  return out;
}

/**
 * What the receiver said about a refusal, short and without the address: Telegram's `description`, Discord's
 * `message`, or Slack's one-word text answer ("no_service"). '' when there is nothing readable.
 */
function saidOf(text: string, url: URL, secret: string): string {
  let said = '';
  try {
    const v = JSON.parse(text) as { description?: unknown; message?: unknown; error?: unknown };
    const s = [v.description, v.message, v.error].find((x) => typeof x === 'string');
    said = typeof s === 'string' ? s : '';
  } catch {
    said = /^[\w .:-]{1,80}$/.test(text.trim()) ? text.trim() : '';
  }
  return cut(scrub(said.replace(/\s+/g, ' ').trim(), url, secret), 200);
}

async function statusFailure(
  res: Dispatcher.ResponseData,
  url: URL,
  secret: string,
  format: WebhookFormat,
): Promise<ChannelSendError> {
  const status = res.statusCode;
  const host = url.host;
  const said = saidOf(await readSome(res.body, 16 * 1024).catch(() => ''), url, secret);
  const http = `HTTP ${status}${said ? `: ${said}` : ''}`;
  if (status === 401 || status === 403 || status === 404 || status === 410) {
    return new ChannelSendError(
      `The webhook address on ${host} was refused (${http}): the webhook may have been deleted${
        format === 'telegram' ? ', or the bot may not write to this chat' : ''
      }. Paste a new address in Settings → Alert channels.`,
      { permanent: true },
    );
  }
  if (status === 429) {
    return new ChannelSendError(
      `The webhook at ${host} asked Lotwatch to send fewer messages for now. Lotwatch will try again later.`,
      { permanent: false, retryAfterMs: retryAfterMsOf(res.headers) },
    );
  }
  if (status >= 500) {
    return new ChannelSendError(`The webhook at ${host} had a problem (${http}). Lotwatch will try again.`, {
      permanent: false,
    });
  }
  if (status === 400 || status === 413 || status === 415 || status === 422) {
    return new ChannelSendError(
      `The webhook at ${host} refused the message format (${http}). Check the webhook's format${
        format === 'telegram' ? ' and the chat ID' : ''
      } in Settings → Alert channels.`,
      { permanent: true },
    );
  }
  if (status >= 300 && status < 400) {
    return new ChannelSendError(
      `The webhook at ${host} sent Lotwatch elsewhere (HTTP ${status}). Paste the webhook address again ` +
        'in Settings → Alert channels.',
      { permanent: true },
    );
  }
  return new ChannelSendError(
    `The webhook at ${host} refused the message (${http}). Check the webhook in Settings → Alert channels.`,
    { permanent: status >= 400 && status < 500 },
  );
}

/**
 * No answer at all (refused, unknown host, timed out), with a cause that keeps the code and never the
 * address.
 */
function networkFailure(err: unknown, url: URL, secret: string): ChannelSendError {
  const e = typeof err === 'object' && err !== null ? (err as { code?: unknown; message?: unknown }) : {};
  const code = typeof e.code === 'string' ? e.code : '';
  const cause = Object.assign(
    new Error(scrub(typeof e.message === 'string' ? e.message : 'failed', url, secret)),
    {
      code,
    },
  );
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new ChannelSendError(
      `The webhook at ${url.host} did not answer within 15 seconds. Lotwatch will try again.`,
      {
        permanent: false,
        cause,
      },
    );
  }
  return new ChannelSendError(
    `Could not reach the webhook at ${url.host}. Check the webhook address in Settings → Alert channels, ` +
      'or your connection.',
    { permanent: false, cause },
  );
}

function webhookConfigOf(target: SendTarget): WebhookConfig {
  if (target.config.type !== 'webhook') {
    throw new ChannelSendError(
      'This channel is not a webhook. Set it up again in Settings → Alert channels.',
      {
        permanent: true,
      },
    );
  }
  return target.config;
}

/**
 * Posts to a webhook with undici (docs/architecture.md "Delivery"): the body of webhookBody, with the message
 * key as `Idempotency-Key` so a receiver can drop a repeat. Resolves on a 2xx with `Sent to <host>`; throws
 * ChannelSendError: no address stored, 400, 401/403/404/410 (a deleted webhook) and other 4xx are permanent;
 * 429 (with Retry-After, ms), 5xx, timeouts (15 s of silence) and network errors are not. `signal` aborts the
 * request, its answer's body included (the connection is closed). Only the host appears in messages. No
 * `confirm`: a webhook cannot be asked what it received.
 */
export const webhookSender: Sender = {
  async send(target, msg, signal) {
    const config = webhookConfigOf(target);
    const url = addressOf(target.secret);
    const secret = target.secret ?? '';
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        dispatcher: (target.reach ?? defaultReach()).dispatcher,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': msg.key,
          ...(config.format === 'json' ? { 'x-lotwatch-kind': msg.kind } : {}),
          'user-agent': 'Lotwatch',
        },
        body: JSON.stringify(webhookBody(config.format, msg, config.telegram_chat_id)),
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
        ...(signal ? { signal } : {}),
      });
    } catch (err) {
      if (err instanceof ChannelSendError) throw err;
      throw networkFailure(err, url, secret);
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      throw await statusFailure(res, url, secret, config.format);
    }
    await res.body.dump().catch(() => undefined);
    return { detail: `Sent to ${url.host}` };
  },

  timedOut(target, seconds) {
    let where = 'The webhook';
    try {
      where = `The webhook at ${addressOf(target.secret).host}`;
    } catch {
      // No usable address: a send fails before it starts, so this is only said of a changed channel.
    }
    return new ChannelSendError(
      `${where} did not finish within ${seconds} seconds; check that the webhook address in Settings → ` +
        'Alert channels is right and that the service behind it is up.',
      { permanent: false },
    );
  },
};
