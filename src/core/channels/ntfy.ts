import { request, type Dispatcher } from 'undici';
import { SYSTEM_ALERT_KINDS, type ChannelConfig } from '../../shared/alertChannels';
import { ChannelSendError, type ChannelMessage, type SendTarget, type Sender } from './types';
import { readSome, retryAfterMsOf } from './http';
import { defaultReach } from './reach';

/**
 * The ntfy channel (docs/architecture.md "Delivery"): push to the buyer's phone through an ntfy server (the
 * public ntfy.sh or one of their own). Published as JSON to the server's root; the message's key is the ntfy
 * sequence id, so a repeat replaces the first notification instead of showing a second one, and the server's
 * message cache lets `confirm` ask whether an interrupted send arrived.
 */

type NtfyConfig = Extract<ChannelConfig, { type: 'ntfy' }>;

/**
 * Longest silence while waiting for the server's headers, and between parts of its body, ms. The whole publish or
 * poll has a deadline of its own (withinDeadline in senders.ts), since a server that drips is never silent.
 */
const TIMEOUT_MS = 15_000;
/** ntfy turns a message over 4,096 bytes into a file attachment; stay under it. */
const MAX_MESSAGE_BYTES = 4_000;
/** The most of a poll answer read by `confirm`, bytes (ntfy keeps 12 hours of messages by default). */
const MAX_POLL_BYTES = 4 * 1024 * 1024;

/** Kinds that go one priority higher than the channel's own: a sale's result, and Lotwatch's own problems. */
export const NTFY_URGENT_KINDS: readonly string[] = [
  'sale_result',
  'key_rejected',
  'quota_low',
  'channel_failing',
];

const TAGS: Record<string, string> = {
  new_match: 'car',
  bid_changed: 'hammer',
  buy_now_changed: 'label',
  status_changed: 'information_source',
  rescheduled: 'calendar',
  sale_result: 'moneybag',
  relisted: 'recycle',
  dropped_out: 'x',
  threshold: 'chart_with_upwards_trend',
  reminder: 'alarm_clock',
  digest: 'bell',
  test: 'white_check_mark',
};

/**
 * The emoji tag ntfy shows before the title, by alert kind (ntfy's emoji short codes); `car` for any other.
 */
export function ntfyTag(kind: string): string {
  if ((SYSTEM_ALERT_KINDS as readonly string[]).includes(kind)) return 'warning';
  return TAGS[kind] ?? 'car';
}

/** The priority a message goes with: the channel's (1 to 5), one higher (at most 5) for NTFY_URGENT_KINDS. */
export function ntfyPriority(kind: string, configured: number): number {
  return NTFY_URGENT_KINDS.includes(kind) ? Math.min(5, configured + 1) : configured;
}

/**
 * The notification's text: the body, then the lot page's address on a line of its own, cut to stay under
 * ntfy's 4,096 bytes (a longer message would arrive as a file). Pure; `confirm` compares against the same
 * text.
 */
export function ntfyMessageText(msg: ChannelMessage): string {
  const link = msg.lot_url ?? msg.url;
  const tail = link ? `\n${link}` : '';
  const room = MAX_MESSAGE_BYTES - Buffer.byteLength(tail);
  let body = msg.body;
  if (Buffer.byteLength(body) > room) {
    while (Buffer.byteLength(body) + 3 > room) body = body.slice(0, Math.max(0, body.length - 64));
    body = `${body.trimEnd()}…`;
  }
  return body + tail;
}

/** The JSON published to the server's root (ntfy's "publish as JSON"). Pure. */
export function ntfyPayload(config: NtfyConfig, msg: ChannelMessage): Record<string, unknown> {
  return {
    topic: config.topic,
    title: msg.title,
    message: ntfyMessageText(msg),
    priority: ntfyPriority(msg.kind, config.priority),
    tags: [ntfyTag(msg.kind)],
    ...((msg.lot_url ?? msg.url) ? { click: msg.lot_url ?? msg.url } : {}),
    sequence_id: msg.key,
  };
}

function ntfyConfigOf(target: SendTarget): NtfyConfig {
  if (target.config.type !== 'ntfy') {
    throw new ChannelSendError(
      'This channel is not an ntfy channel. Set it up again in Settings → Alert channels.',
      {
        permanent: true,
      },
    );
  }
  return target.config;
}

/**
 * The server's address without trailing slashes, and its host for messages; throws a permanent error if
 * unusable.
 */
function serverOf(config: NtfyConfig): { base: string; host: string } {
  const base = config.server.trim().replace(/\/+$/, '');
  try {
    const url = new URL(base);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http');
    return { base, host: url.host };
  } catch {
    throw new ChannelSendError(
      'The ntfy server address is not a web address. Enter one such as https://ntfy.sh in Settings → ' +
        'Alert channels.',
      { permanent: true },
    );
  }
}

function headersOf(target: SendTarget, json: boolean): Record<string, string> {
  return {
    'user-agent': 'Lotwatch',
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(target.secret ? { authorization: `Bearer ${target.secret}` } : {}),
  };
}

/** The `error` field of ntfy's JSON error answer, short; '' when there is none. */
function ntfyErrorText(text: string): string {
  try {
    const v = JSON.parse(text) as { error?: unknown };
    if (typeof v.error === 'string') return v.error.slice(0, 200);
  } catch {
    // not JSON: say nothing of it
  }
  return '';
}

/** A failure to get any answer from the server (refused, unknown host, timed out) in the buyer's words. */
function networkFailure(err: unknown, host: string): ChannelSendError {
  const code = typeof err === 'object' && err !== null ? String((err as { code?: unknown }).code ?? '') : '';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new ChannelSendError(
      `The ntfy server ${host} did not answer within 15 seconds. Lotwatch will try again.`,
      { permanent: false, cause: err },
    );
  }
  return new ChannelSendError(
    `Could not reach the ntfy server ${host}. Check the server address in Settings → Alert channels, ` +
      'or your connection.',
    { permanent: false, cause: err },
  );
}

/** An answer other than 2xx in the buyer's words: what the server said, and what to change. */
async function statusFailure(
  res: Dispatcher.ResponseData,
  host: string,
  topic: string,
): Promise<ChannelSendError> {
  const status = res.statusCode;
  const said = ntfyErrorText(await readSome(res.body, 16 * 1024).catch(() => ''));
  if (status === 401 || status === 403) {
    return new ChannelSendError(
      `The ntfy server refused the access token for topic ${topic}. Check the token in Settings → ` +
        'Alert channels (or clear it for a public topic).',
      { permanent: true },
    );
  }
  if (status === 404) {
    return new ChannelSendError(
      `The ntfy server ${host} does not know this address (HTTP 404). Check the server address in ` +
        'Settings → Alert channels.',
      { permanent: true },
    );
  }
  if (status === 429) {
    return new ChannelSendError(
      `The ntfy server ${host} asked Lotwatch to send fewer messages for now. Lotwatch will try again later.`,
      { permanent: false, retryAfterMs: retryAfterMsOf(res.headers) },
    );
  }
  if (status >= 500) {
    return new ChannelSendError(
      `The ntfy server ${host} had a problem (HTTP ${status}). Lotwatch will try again.`,
      {
        permanent: false,
      },
    );
  }
  if (status >= 300 && status < 400) {
    return new ChannelSendError(
      `The ntfy server ${host} sent Lotwatch elsewhere (HTTP ${status}). Check the server address ` +
        '(https://) in Settings → Alert channels.',
      { permanent: true },
    );
  }
  return new ChannelSendError(
    `The ntfy server ${host} refused the message (HTTP ${status}${said ? `: ${said}` : ''}). ` +
      'Check the server and topic in Settings → Alert channels.',
    { permanent: true },
  );
}

/**
 * Sends to an ntfy topic with undici (docs/architecture.md "Delivery"). `send` POSTs the JSON of ntfyPayload
 * to the server's root and resolves on a 2xx with `Sent to topic <topic> on <host>`; throws ChannelSendError:
 * 401/403 (the token), 404 and other 4xx are permanent, 429 (with the server's Retry-After, ms), 5xx,
 * timeouts (15 s of silence) and network errors are not. `signal` aborts either request, its answer's body
 * included (the connection is closed). `confirm` polls the topic's cached messages since the attempt
 * began (less a minute for clock skew): true when one carries the message's sequence id (or, from a server
 * older than sequence ids, which answers without any, its exact title and text), false when the poll answered
 * without it, null when the poll failed. It never throws.
 */
export const ntfySender: Sender = {
  async send(target, msg, signal) {
    const config = ntfyConfigOf(target);
    const { base, host } = serverOf(config);
    let res: Dispatcher.ResponseData;
    try {
      res = await request(`${base}/`, {
        dispatcher: (target.reach ?? defaultReach()).dispatcher,
        method: 'POST',
        headers: headersOf(target, true),
        body: JSON.stringify(ntfyPayload(config, msg)),
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
        ...(signal ? { signal } : {}),
      });
    } catch (err) {
      if (err instanceof ChannelSendError) throw err;
      throw networkFailure(err, host);
    }
    if (res.statusCode < 200 || res.statusCode >= 300) throw await statusFailure(res, host, config.topic);
    await res.body.dump().catch(() => undefined);
    return { detail: `Sent to topic ${config.topic} on ${host}` };
  },

  async confirm(target, msg, since, signal) {
    try {
      const config = ntfyConfigOf(target);
      const { base } = serverOf(config);
      const sinceS = Math.floor(since / 1000) - 60;
      const res = await request(`${base}/${encodeURIComponent(config.topic)}/json?poll=1&since=${sinceS}`, {
        dispatcher: (target.reach ?? defaultReach()).dispatcher,
        method: 'GET',
        headers: headersOf(target, false),
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
        ...(signal ? { signal } : {}),
      });
      if (res.statusCode < 200 || res.statusCode >= 300) {
        await res.body.dump().catch(() => undefined);
        return null;
      }
      const text = await readSome(res.body, MAX_POLL_BYTES);
      const message = ntfyMessageText(msg).trim();
      for (const line of text.split('\n')) {
        if (!line.trim()) continue;
        let m: Record<string, unknown>;
        try {
          m = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        if (m === null || typeof m !== 'object' || m.event !== 'message') continue;
        if (m.sequence_id === msg.key) return true;
        // A server older than sequence ids drops ours: the same title and text within the window is this
        // send.
        const older = m.sequence_id === undefined || m.sequence_id === null || m.sequence_id === '';
        if (older && m.title === msg.title && typeof m.message === 'string' && m.message.trim() === message) {
          return true;
        }
      }
      return false;
    } catch {
      return null;
    }
  },

  timedOut(target, seconds) {
    let where = 'The ntfy server';
    try {
      where = `The ntfy server ${serverOf(ntfyConfigOf(target)).host}`;
    } catch {
      // An unusable address fails before a send starts: this is only said of a changed channel.
    }
    return new ChannelSendError(
      `${where} did not finish within ${seconds} seconds; check the server address in Settings → Alert channels, ` +
        'and that the server is up.',
      { permanent: false },
    );
  },
};
