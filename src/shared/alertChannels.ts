import { z } from 'zod';
import { classifyHost, hostOfText, portOfUrl } from './netAddress';
import { ALERT_KINDS, QuietHoursSchema, type AlertKind } from './watch';

/**
 * Alert channels (docs/architecture.md "Delivery"): where an alert goes besides the inbox and the desktop
 * notification. Email over SMTP, push to a phone through an ntfy server, and a webhook (plain JSON, or the ready
 * formats of Discord, Slack and Telegram bots). One schema per concept, used by core, the handlers and the Settings
 * page. Secrets (the SMTP password, an ntfy access token, a webhook address, which carries its own token) are never
 * part of these shapes: they are stored encrypted and only a hint of them reaches the renderer.
 */

/** The channel types, as stored and shown. */
export const CHANNEL_TYPES = ['email', 'ntfy', 'webhook'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** The message formats of a webhook: Lotwatch's own JSON, or what a Discord, Slack or Telegram bot accepts. */
export const WEBHOOK_FORMATS = ['json', 'discord', 'slack', 'telegram'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** Alert kinds a channel can send: every kind but the inbox's own summaries (a channel makes its own digest). */
export const CHANNEL_ALERT_KINDS = ALERT_KINDS.filter(
  (k): k is Exclude<AlertKind, 'digest'> => k !== 'digest',
);
export type ChannelAlertKind = (typeof CHANNEL_ALERT_KINDS)[number];

/** Kinds about Lotwatch itself: sent at once whatever the channel's quiet hours (a stopped watcher cannot wait). */
export const SYSTEM_ALERT_KINDS: readonly AlertKind[] = [
  'key_rejected',
  'quota_low',
  'search_failing',
  'search_empty',
  'channel_failing',
  'call_failing',
];

/** What a new channel sends: every change that matters, and Lotwatch's own problems; bid ticks and drop-outs only on request. */
export const DEFAULT_CHANNEL_KINDS: ChannelAlertKind[] = CHANNEL_ALERT_KINDS.filter(
  (k) => k !== 'bid_changed' && k !== 'dropped_out',
);

/**
 * When a channel keeps quiet: `app` follows the app's quiet hours (held alerts go out as one message when they end),
 * `never` sends at once day and night (email, say), `own` uses this channel's own window (the phone at night).
 */
export const CHANNEL_QUIET_MODES = ['app', 'never', 'own'] as const;
export type ChannelQuietMode = (typeof CHANNEL_QUIET_MODES)[number];

const text = (max: number, what: string) =>
  z.string().trim().min(1, `Enter ${what}.`).max(max, `Keep ${what} under ${max} characters.`);
const email = z.string().trim().email('Enter an email address such as buyer@example.com.').max(254);
const httpUrl = (example: string) =>
  z
    .string()
    .trim()
    .url(`Enter a full address, for example ${example}`)
    .refine(
      (u) => /^https?:\/\//i.test(u),
      'The address must start with https:// (or http:// for a server of your own).',
    );

/** An SMTP server and the addresses of an email channel; the password is a secret of its own. */
export const EmailConfigSchema = z
  .object({
    type: z.literal('email'),
    /** The SMTP server's host name, e.g. `smtp.gmail.com`. */
    host: text(253, 'the mail server (SMTP host)'),
    /** 587 for STARTTLS (most providers), 465 for TLS from the start, 25 on a local relay. */
    port: z
      .number()
      .int('Enter a port number such as 587.')
      .min(1, 'Enter a port from 1 to 65535.')
      .max(65535, 'Enter a port from 1 to 65535.')
      .default(587),
    /** `starttls`: encrypt after connecting (port 587); `tls`: encrypted from the start (465); `none`: a relay on your own network. */
    security: z.enum(['starttls', 'tls', 'none']).default('starttls'),
    /** The SMTP login; empty for a server that takes mail without one. */
    username: z.string().trim().max(254).default(''),
    /** The sender address the server accepts for this login. */
    from: email,
    /** Where alerts go: one address. */
    to: email,
  })
  .strict();

/** An ntfy server and topic: the phone subscribes to the topic in the ntfy app. An access token is a secret. */
export const NtfyConfigSchema = z
  .object({
    type: z.literal('ntfy'),
    /** The ntfy server: the public https://ntfy.sh or one of your own. */
    server: httpUrl('https://ntfy.sh').default('https://ntfy.sh'),
    /** The topic name: on a public server anyone who knows it can read it, so make it hard to guess. */
    topic: z
      .string()
      .trim()
      .regex(/^[-_A-Za-z0-9]{1,64}$/, 'Use 1 to 64 letters, digits, - or _ for the topic (no spaces).'),
    /** ntfy's priority: 3 is default; sale results and Lotwatch's own problems go one higher. */
    priority: z.number().int().min(1).max(5).default(3),
  })
  .strict();

/** A webhook: the address itself is the secret (Discord's and Slack's carry their token); only the format is here. */
export const WebhookConfigSchema = z
  .object({
    type: z.literal('webhook'),
    format: z.enum(WEBHOOK_FORMATS).default('json'),
    /** For the Telegram format: the chat the bot writes to (a number, or @channelname). */
    telegram_chat_id: z.string().trim().max(64).default(''),
  })
  .strict()
  .refine((c) => c.format !== 'telegram' || c.telegram_chat_id !== '', {
    message: 'Enter the chat ID the Telegram bot writes to.',
    path: ['telegram_chat_id'],
  });

/** The part of a channel that depends on its type. */
export const ChannelConfigSchema = z.union([EmailConfigSchema, NtfyConfigSchema, WebhookConfigSchema]);
export type ChannelConfig = z.infer<typeof ChannelConfigSchema>;

/** Everything about a channel but its secret: what is stored (as JSON) and shown. */
export const ChannelSettingsSchema = z
  .object({
    /** The buyer's name for it, shown in the delivery log: "My phone", "Office email". */
    name: text(60, 'a name for this channel'),
    enabled: z.boolean().default(true),
    /** The alert kinds this channel sends. */
    kinds: z
      .array(z.enum(CHANNEL_ALERT_KINDS))
      .max(CHANNEL_ALERT_KINDS.length)
      .default(DEFAULT_CHANNEL_KINDS),
    quiet: z.enum(CHANNEL_QUIET_MODES).default('app'),
    /** The channel's own quiet hours, used when `quiet` is `own`. */
    quiet_hours: QuietHoursSchema.default({ enabled: true, start: '22:00', end: '07:00' }),
    config: ChannelConfigSchema,
  })
  .strict();
export type ChannelSettings = z.infer<typeof ChannelSettingsSchema>;

/**
 * Saving a channel: a new one without `id`. `secret`: absent keeps the stored one, null forgets it, a string
 * replaces it (the SMTP password, the ntfy access token, or the webhook's address).
 */
export const ChannelSaveSchema = ChannelSettingsSchema.extend({
  id: z.number().int().positive().optional(),
  secret: z.string().max(2048).nullable().optional(),
});
export type ChannelSave = z.infer<typeof ChannelSaveSchema>;

/** Where a channel sends: a host as a URL writes it (IPv6 in brackets), its port, and the form field that holds it. */
export interface ChannelAddress {
  hostname: string;
  port: number;
  field: 'config.host' | 'config.server' | 'secret';
}

/**
 * Where a channel sends (docs/architecture.md "Delivery"): the SMTP host and port, the ntfy server, or the
 * webhook's address (`webhookAddress`, the secret as typed or stored). Every spelling of an IPv4 address comes back
 * as four decimal numbers, as the WHATWG URL parser writes it. Null when there is nothing to judge yet (a webhook
 * without an address) or it does not parse (the schema's own checks say so). Throws nothing.
 */
export function channelAddress(config: ChannelConfig, webhookAddress?: string | null): ChannelAddress | null {
  if (config.type === 'email') {
    const hostname = hostOfText(config.host);
    return hostname === null ? null : { hostname, port: config.port, field: 'config.host' };
  }
  const text = config.type === 'ntfy' ? config.server : (webhookAddress ?? '');
  try {
    const u = new URL(text.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    return {
      hostname: u.hostname,
      port: portOfUrl(u),
      field: config.type === 'ntfy' ? 'config.server' : 'secret',
    };
  } catch {
    return null;
  }
}

/**
 * What a channel's secret is bound to (docs/architecture.md "Delivery"): `smtp://host:port` for an email
 * channel's password, the ntfy server's origin for its token, the webhook address's origin. Host names in lower case
 * without trailing dots, so `SMTP.Example.com.` is `smtp.example.com`. A secret is sent only where it was saved
 * for: a destination that changes asks for it again. Null when the address does not parse. Throws nothing.
 */
export function channelDestination(config: ChannelConfig, webhookAddress?: string | null): string | null {
  const a = channelAddress(config, webhookAddress);
  const h = a ? classifyHost(a.hostname) : null;
  if (!a || !h) return null;
  const host = h.ip === 6 ? `[${h.host}]` : h.host;
  if (config.type === 'email') return `smtp://${host}:${a.port}`;
  const scheme = new URL((config.type === 'ntfy' ? config.server : (webhookAddress ?? '')).trim()).protocol;
  return `${scheme}//${host}:${a.port}`;
}

/** How a channel has been doing, for the Settings list. Times in ms since the epoch. */
export const ChannelHealthSchema = z.object({
  last_sent_at: z.number().nullable(),
  /** Failed attempts in a row (0 when the last one worked). */
  failures: z.number().int().min(0),
  /** What the last failure said, in words that say what to fix; null after a success. */
  last_error: z.string().nullable(),
  /** Messages waiting: to retry, or held for quiet hours. */
  waiting: z.number().int().min(0),
});

/** A channel as the renderer sees it: its settings, whether a secret is stored and a hint of it, and its health. */
export const ChannelViewSchema = ChannelSettingsSchema.extend({
  id: z.number().int(),
  type: z.enum(CHANNEL_TYPES),
  has_secret: z.boolean(),
  /** Enough of the secret to recognise it and never enough to use it: `discord.com/api/webhooks/…`, `••••`. */
  secret_hint: z.string().nullable(),
  health: ChannelHealthSchema,
});
export type ChannelView = z.infer<typeof ChannelViewSchema>;

/**
 * One alert's delivery to one channel. `held`: waiting for the channel's quiet hours to end; `pending`: due, or
 * waiting for a retry; `sending`: on its way; `sent`; `failed`: given up after a day of retries; `skipped`: this
 * channel does not send it (its kind, a mute or snooze), with why.
 */
export const DELIVERY_STATUSES = ['held', 'pending', 'sending', 'sent', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A row of the delivery log. */
export const DeliveryViewSchema = z.object({
  id: z.number().int(),
  alert_id: z.number().int(),
  alert_title: z.string(),
  channel_id: z.number().int(),
  channel_name: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int().min(0),
  /** When it was sent, or the last attempt, or when it was queued (ms). */
  at: z.number(),
  /** When the next attempt is due (ms), for held and pending rows; else null. */
  next_at: z.number().nullable(),
  /** Why it failed or was skipped, in plain words; else null. */
  detail: z.string().nullable(),
});
export type DeliveryView = z.infer<typeof DeliveryViewSchema>;

/** The answer of a channel's Test button. */
export const ChannelTestResultSchema = z.object({
  ok: z.boolean(),
  /** What happened, in words: "Sent to buyer@example.com through smtp.example.com." or what to fix. */
  message: z.string(),
});
