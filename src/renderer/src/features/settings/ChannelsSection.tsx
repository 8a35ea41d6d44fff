import { format, isSameDay } from 'date-fns';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  CHANNEL_ALERT_KINDS,
  DEFAULT_CHANNEL_KINDS,
  SYSTEM_ALERT_KINDS,
  WEBHOOK_FORMATS,
  channelAddress,
  channelDestination,
  type ChannelAlertKind,
  type ChannelConfig,
  type ChannelQuietMode,
  type ChannelType,
  type ChannelView,
  type DeliveryView,
  type WebhookFormat,
} from '../../../../shared/alertChannels';
import type { MethodInput } from '../../../../shared/ipc/contract';
import { channelAddressVerdict } from '../../../../shared/netAddress';
import type { ErrorPayload } from '../../../../shared/ipc/errors';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Modal } from '../../components/Modal';
import { useContractEvents } from '../../components/watch/common';
import { appNow } from '../../lib/clock';
import { dateTime } from '../../lib/format';
import { useCall, useCaller } from '../../lib/useCall';
import '../../components/lwTable.css';
import './channels.css';

type Security = 'starttls' | 'tls' | 'none';
type ChannelSaveInput = MethodInput<'channels.save'>;

/** "10:02 AM" for a time today, "Nov 23, 10:02 AM" for another day. */
export function shortTime(t: number, now: number): string {
  return isSameDay(t, now) ? format(t, 'h:mm a') : dateTime(t);
}

/**
 * One delivery in words. `chip`: the inbox's short form ("Held until 7:00 AM", "Retrying at 10:07 AM (why)");
 * `log`: the Settings delivery log's, where the reason has a column of its own.
 */
export function deliveryWords(d: DeliveryView, now: number, style: 'chip' | 'log'): string {
  const why = style === 'chip' && d.detail ? ` (${d.detail})` : '';
  switch (d.status) {
    case 'sent':
      return style === 'chip' ? `Sent ${shortTime(d.at, now)}` : 'Sent';
    case 'held':
      if (style === 'log') {
        return d.next_at !== null
          ? `Waiting for quiet hours to end at ${shortTime(d.next_at, now)}`
          : 'Waiting for quiet hours to end';
      }
      return d.next_at !== null ? `Held until ${shortTime(d.next_at, now)}` : 'Held for quiet hours';
    case 'pending':
      if (d.attempts === 0) return 'Waiting to send';
      return `${d.next_at !== null ? `Retrying at ${shortTime(d.next_at, now)}` : 'Retrying soon'}${why}`;
    case 'sending':
      return 'Sending';
    case 'failed':
      return `Gave up${why}`;
    case 'skipped':
      return d.detail ? `Not sent: ${d.detail}` : 'Not sent';
  }
}

/** Whether a delivery is in trouble (shown in the error color): retrying after a failure, or given up. */
export function deliveryTrouble(d: DeliveryView): boolean {
  return d.status === 'failed' || (d.status === 'pending' && d.attempts > 0);
}

const FORMAT_LABEL: Record<WebhookFormat, string> = {
  json: 'Lotwatch JSON',
  discord: 'Discord',
  slack: 'Slack',
  telegram: 'Telegram bot',
};

/** The name a new webhook channel gets for each format (changed with the format until the buyer types one). */
const FORMAT_NAME: Record<WebhookFormat, string> = {
  json: 'Webhook',
  discord: 'Discord',
  slack: 'Slack',
  telegram: 'Telegram',
};

const TYPE_LABEL: Record<ChannelType, string> = { email: 'Email', ntfy: 'Phone (ntfy)', webhook: 'Webhook' };

/** The channel's type in words: "Email", "Phone (ntfy)", "Webhook · Discord". */
function typeWords(c: ChannelView): string {
  return c.config.type === 'webhook' ? `Webhook · ${FORMAT_LABEL[c.config.format]}` : TYPE_LABEL[c.type];
}

/** Where the channel sends, when that is not a secret: the email address, the ntfy topic. */
function whereWords(c: ChannelView): string | null {
  if (c.config.type === 'email') return `to ${c.config.to}`;
  if (c.config.type === 'ntfy') return `topic ${c.config.topic}`;
  return null;
}

const SECURITY_LABEL: Record<Security, string> = {
  starttls: 'STARTTLS (port 587)',
  tls: 'TLS (port 465)',
  none: 'None (a relay on your own network)',
};
const SECURITY_PORT: Record<Security, string> = { starttls: '587', tls: '465', none: '25' };

const PRIORITY_LABEL: Record<number, string> = {
  1: 'Lowest (no sound)',
  2: 'Low',
  3: 'Normal',
  4: 'High',
  5: 'Urgent',
};

/** The alert kinds in the buyer's words, as the channel's checkboxes say them. */
const KIND_WORDS: Record<ChannelAlertKind, string> = {
  new_match: 'New matches of a saved search',
  bid_changed: 'Bid changes',
  buy_now_changed: 'Buy-now price changes',
  status_changed: 'Status changes',
  rescheduled: 'Sale moved to another time',
  sale_result: 'Sale results',
  relisted: 'Lots relisted',
  dropped_out: 'Lots gone from a search',
  threshold: 'Price limits reached',
  reminder: 'Sale reminders',
  key_rejected: 'API key refused',
  quota_low: 'Quota running low',
  search_failing: 'A saved search keeps failing',
  search_empty: 'A saved search finds nothing',
  channel_failing: 'Another channel keeps failing',
  call_new_item: 'New item in a watched call',
  call_removed_item: 'Item gone from a watched call',
  call_value_changed: 'Watched value changed',
  call_shape_changed: 'Call answer changed shape',
  call_failing: 'Call watch paused itself',
};
const isCallKind = (k: string) => k.startsWith('call_');
const LOT_KINDS = CHANNEL_ALERT_KINDS.filter((k) => !SYSTEM_ALERT_KINDS.includes(k) && !isCallKind(k));
/** A watched call's own alerts; its failing alert is Lotwatch's own (SYSTEM_ALERT_KINDS) and sits there. */
const CALL_KINDS = CHANNEL_ALERT_KINDS.filter((k) => !SYSTEM_ALERT_KINDS.includes(k) && isCallKind(k));
const OWN_KINDS = CHANNEL_ALERT_KINDS.filter((k) => SYSTEM_ALERT_KINDS.includes(k));

const QUIET_LABEL: Record<ChannelQuietMode, string> = {
  app: 'Same quiet hours as the app',
  never: 'Always send (day and night)',
  own: 'Its own quiet hours',
};
const QUIET_MODES: ChannelQuietMode[] = ['app', 'never', 'own'];

/** What the edit form holds: strings as typed, every type's fields (switching type is not offered, but is harmless). */
interface Draft {
  id: number | null;
  type: ChannelType;
  name: string;
  kinds: ChannelAlertKind[];
  quiet: ChannelQuietMode;
  quietStart: string;
  quietEnd: string;
  host: string;
  port: string;
  security: Security;
  username: string;
  from: string;
  to: string;
  server: string;
  topic: string;
  priority: string;
  format: WebhookFormat;
  telegramChatId: string;
  /** The secret as typed: sent only when not empty. */
  secret: string;
  /** The stored secret is to be forgotten (sent as null) unless a new one is typed. */
  forget: boolean;
}

function draftOf(type: ChannelType, c: ChannelView | null): Draft {
  const d: Draft = {
    id: c?.id ?? null,
    type,
    name: c?.name ?? (type === 'email' ? 'Email' : type === 'ntfy' ? 'My phone' : FORMAT_NAME.json),
    kinds: c?.kinds ?? [...DEFAULT_CHANNEL_KINDS],
    quiet: c?.quiet ?? (type === 'ntfy' ? 'own' : 'app'),
    quietStart: c?.quiet_hours.start ?? '22:00',
    quietEnd: c?.quiet_hours.end ?? '07:00',
    host: '',
    port: '587',
    security: 'starttls',
    username: '',
    from: '',
    to: '',
    server: 'https://ntfy.sh',
    topic: '',
    priority: '3',
    format: 'json',
    telegramChatId: '',
    secret: '',
    forget: false,
  };
  const cfg = c?.config;
  if (cfg?.type === 'email') {
    Object.assign(d, {
      host: cfg.host,
      port: String(cfg.port),
      security: cfg.security,
      username: cfg.username,
      from: cfg.from,
      to: cfg.to,
    });
  } else if (cfg?.type === 'ntfy') {
    Object.assign(d, { server: cfg.server, topic: cfg.topic, priority: String(cfg.priority) });
  } else if (cfg?.type === 'webhook') {
    Object.assign(d, { format: cfg.format, telegramChatId: cfg.telegram_chat_id });
  }
  return d;
}

/** The `channels.save` input for a draft: `secret` only when typed, null when the stored one is to be forgotten. */
function saveInput(d: Draft, channel: ChannelView | null): ChannelSaveInput {
  const config: ChannelSaveInput['config'] =
    d.type === 'email'
      ? {
          type: 'email',
          host: d.host,
          port: d.port.trim() === '' ? 0 : Number(d.port),
          security: d.security,
          username: d.username,
          from: d.from,
          to: d.to,
        }
      : d.type === 'ntfy'
        ? { type: 'ntfy', server: d.server, topic: d.topic, priority: Number(d.priority) }
        : {
            type: 'webhook',
            format: d.format,
            telegram_chat_id: d.format === 'telegram' ? d.telegramChatId : '',
          };
  const input: ChannelSaveInput = {
    name: d.name,
    enabled: channel?.enabled ?? true,
    kinds: d.kinds,
    quiet: d.quiet,
    quiet_hours: {
      enabled: d.quiet === 'own' ? true : (channel?.quiet_hours.enabled ?? true),
      start: d.quietStart,
      end: d.quietEnd,
    },
    config,
  };
  if (d.id !== null) input.id = d.id;
  const typed = d.type === 'webhook' ? d.secret.trim() : d.secret;
  if (typed.trim() !== '') input.secret = typed;
  else if (d.forget) input.secret = null;
  return input;
}

/**
 * Where a draft sends, in the form's words: `note` says so for a computer on the buyer's own network or this one
 * ("This sends alerts to a computer on your own network: 192.168.1.20."); `moved` is true when an email or ntfy
 * channel with a stored secret now points at another server (host and port, or the ntfy server's origin) and no
 * new secret is typed: core sends a secret only where it was saved for, so the form asks for it again.
 */
function draftWhere(d: Draft, channel: ChannelView | null): { note: string | null; moved: boolean } {
  // The draft's config has every field the schema defaults, so it reads as the parsed shape.
  const config = saveInput(d, channel).config as ChannelConfig;
  const address = channelAddress(config, d.type === 'webhook' ? d.secret : null);
  const note = address ? channelAddressVerdict(address.hostname, address.port).note : null;
  const moved =
    channel !== null &&
    channel.has_secret &&
    d.type !== 'webhook' &&
    !d.forget &&
    d.secret.trim() === '' &&
    channelDestination(config) !== channelDestination(channel.config);
  return { note, moved };
}

/** The channel as saved, but with `enabled` changed: what the list's on/off switch sends (the secret is kept). */
function toggleInput(c: ChannelView, enabled: boolean): ChannelSaveInput {
  return {
    id: c.id,
    name: c.name,
    enabled,
    kinds: c.kinds,
    quiet: c.quiet,
    quiet_hours: c.quiet_hours,
    config: c.config,
  };
}

/** A labelled field with its hint or its error (which marks the control `aria-invalid`). */
function Field({
  label,
  error,
  hint,
  className,
  children,
}: {
  label: string;
  error: string | undefined;
  hint?: ReactNode;
  className?: string;
  children: (a: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = `ch-field-${useId()}`;
  const described = error ? `${id}-error` : hint ? `${id}-hint` : '';
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        ...(error ? { 'aria-invalid': true } : {}),
        ...(described ? { 'aria-describedby': described } : {}),
      })}
      {error ? (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      ) : (
        hint && (
          <span className="muted small" id={`${id}-hint`}>
            {hint}
          </span>
        )
      )}
    </div>
  );
}

/** Field error keys the form shows beside a field; any other key is listed under the form. */
const SHOWN_FIELDS = new Set([
  'name',
  'secret',
  'kinds',
  'quiet_hours',
  'quiet_hours.start',
  'quiet_hours.end',
  'config.host',
  'config.port',
  'config.security',
  'config.username',
  'config.from',
  'config.to',
  'config.server',
  'config.topic',
  'config.priority',
  'config.format',
  'config.telegram_chat_id',
]);

/**
 * The add/edit form of one channel, inline in the section (as the rest of Settings edits in place). It is not a
 * `<form>`: the section sits inside the Settings form, so Enter in a field saves this channel instead.
 */
function ChannelForm({
  channel,
  type,
  onSaved,
  onCancel,
}: {
  /** The channel being edited (its latest copy), or null for a new one. */
  channel: ChannelView | null;
  type: ChannelType;
  onSaved: (c: ChannelView) => void;
  onCancel: () => void;
}) {
  const call = useCaller();
  const [draft, setDraft] = useState<Draft>(() => draftOf(type, channel));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const titleId = useId();
  const kindsId = useId();
  const quietId = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    nameRef.current?.focus();
  }, []);

  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const fieldError = (key: string) => error?.fields?.[key]?.[0];
  const quietErrors = Object.entries(error?.fields ?? {})
    .filter(([k]) => k === 'quiet_hours' || k.startsWith('quiet_hours.'))
    .flatMap(([, m]) => m);
  const otherErrors = Object.entries(error?.fields ?? {})
    .filter(([k]) => !SHOWN_FIELDS.has(k))
    .flatMap(([, m]) => m);

  const save = async () => {
    if (busy) return;
    setBusy(true);
    const r = await call('channels.save', saveInput(draft, channel));
    setBusy(false);
    if (r.ok) onSaved(r.value);
    else setError(r.error);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter' && e.target instanceof HTMLInputElement) {
      // Not the Settings form's submit: Enter in a channel's field saves the channel.
      e.preventDefault();
      void save();
    }
  };

  const stored = channel?.has_secret ?? false;
  const where = draftWhere(draft, channel);
  const addressNote = where.note && (
    <p className="ch-note small" role="status">
      {where.note}
    </p>
  );
  const secretLabel =
    draft.type === 'email'
      ? 'Password'
      : draft.type === 'ntfy'
        ? 'Access token (optional)'
        : draft.format === 'telegram'
          ? 'Bot address'
          : 'Webhook address';
  const secretWhat = draft.type === 'email' ? 'password' : draft.type === 'ntfy' ? 'access token' : 'address';
  const secretExample =
    draft.type === 'email'
      ? ''
      : draft.type === 'ntfy'
        ? 'Only for a protected topic'
        : draft.format === 'discord'
          ? 'https://discord.com/api/webhooks/…'
          : draft.format === 'slack'
            ? 'https://hooks.slack.com/services/…'
            : draft.format === 'telegram'
              ? 'https://api.telegram.org/bot<token>/sendMessage'
              : 'https://example.com/lotwatch-alerts';
  const secretPlaceholder = stored
    ? draft.forget
      ? `Forgotten when you save`
      : where.moved
        ? `Enter the ${secretWhat} for the new server`
        : `Stored: ${channel?.secret_hint ?? '••••'} (leave empty to keep)`
    : secretExample;
  const secretHint =
    draft.type === 'email'
      ? 'The password of this login (an app password for Gmail or Outlook). Kept encrypted, never shown again.'
      : draft.type === 'ntfy'
        ? 'Only a protected topic or a server of your own needs one. Kept encrypted, never shown again.'
        : draft.format === 'telegram'
          ? 'https://api.telegram.org/bot<token>/sendMessage, with the token BotFather gave you. Kept encrypted: it works as a password.'
          : draft.format === 'discord'
            ? 'In Discord: channel settings → Integrations → Webhooks → Copy webhook URL. Kept encrypted: it works as a password.'
            : draft.format === 'slack'
              ? 'A Slack incoming webhook (https://hooks.slack.com/services/…). Kept encrypted: it works as a password.'
              : 'Lotwatch posts each alert as JSON to this address. Kept encrypted, never shown again.';

  const toggleKind = (k: ChannelAlertKind, on: boolean) =>
    set(
      'kinds',
      on
        ? CHANNEL_ALERT_KINDS.filter((x) => x === k || draft.kinds.includes(x))
        : draft.kinds.filter((x) => x !== k),
    );
  const kindBox = (k: ChannelAlertKind) => (
    <label className="check" key={k}>
      <input
        type="checkbox"
        checked={draft.kinds.includes(k)}
        onChange={(e) => toggleKind(k, e.target.checked)}
      />
      <span>{KIND_WORDS[k]}</span>
    </label>
  );

  return (
    <div className="ch-form" role="group" aria-labelledby={titleId} aria-busy={busy} onKeyDown={onKeyDown}>
      <h3 id={titleId} className="ch-form-title">
        {channel
          ? `Edit ${channel.name}`
          : `New ${draft.type === 'ntfy' ? 'phone (ntfy)' : draft.type} channel`}
      </h3>
      <Field
        label="Name"
        error={fieldError('name')}
        hint="Shown in the delivery log and under each alert in the inbox."
      >
        {(a) => (
          <input
            {...a}
            ref={nameRef}
            type="text"
            value={draft.name}
            maxLength={60}
            onChange={(e) => set('name', e.target.value)}
          />
        )}
      </Field>

      {draft.type === 'email' && (
        <>
          <div className="ch-row">
            <Field label="Mail server (SMTP host)" error={fieldError('config.host')} className="ch-grow">
              {(a) => (
                <input
                  {...a}
                  type="text"
                  value={draft.host}
                  placeholder="smtp.gmail.com"
                  spellCheck={false}
                  onChange={(e) => set('host', e.target.value)}
                />
              )}
            </Field>
            <Field label="Port" error={fieldError('config.port')} className="ch-port">
              {(a) => (
                <input
                  {...a}
                  type="number"
                  min={1}
                  max={65535}
                  inputMode="numeric"
                  value={draft.port}
                  onChange={(e) => set('port', e.target.value)}
                />
              )}
            </Field>
          </div>
          {addressNote}
          <Field label="Security" error={fieldError('config.security')}>
            {(a) => (
              <select
                {...a}
                value={draft.security}
                onChange={(e) => {
                  const security = e.target.value as Security;
                  // The usual port follows the security, unless the buyer typed another one.
                  setDraft((d) => ({
                    ...d,
                    security,
                    port: d.port === SECURITY_PORT[d.security] ? SECURITY_PORT[security] : d.port,
                  }));
                }}
              >
                {(Object.keys(SECURITY_LABEL) as Security[]).map((s) => (
                  <option key={s} value={s}>
                    {SECURITY_LABEL[s]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            label="User name"
            error={fieldError('config.username')}
            hint="Usually your email address; empty for a server that takes mail without a login."
          >
            {(a) => (
              <input
                {...a}
                type="text"
                autoComplete="off"
                spellCheck={false}
                value={draft.username}
                onChange={(e) => set('username', e.target.value)}
              />
            )}
          </Field>
        </>
      )}

      {draft.type === 'ntfy' && (
        <>
          <Field
            label="ntfy server"
            error={fieldError('config.server')}
            hint="The public server, or one of your own."
          >
            {(a) => (
              <input
                {...a}
                type="url"
                spellCheck={false}
                value={draft.server}
                onChange={(e) => set('server', e.target.value)}
              />
            )}
          </Field>
          {addressNote}
          <Field
            label="Topic"
            error={fieldError('config.topic')}
            hint="Subscribe to this topic in the ntfy app on your phone. Anyone who knows it can read it: make it hard to guess."
          >
            {(a) => (
              <input
                {...a}
                type="text"
                spellCheck={false}
                autoComplete="off"
                placeholder="lotwatch-k7q2x9"
                value={draft.topic}
                onChange={(e) => set('topic', e.target.value)}
              />
            )}
          </Field>
          <Field
            label="Priority"
            error={fieldError('config.priority')}
            hint="Sale results and Lotwatch's own problems go one higher."
          >
            {(a) => (
              <select {...a} value={draft.priority} onChange={(e) => set('priority', e.target.value)}>
                {[1, 2, 3, 4, 5].map((p) => (
                  <option key={p} value={String(p)}>
                    {PRIORITY_LABEL[p]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </>
      )}

      {draft.type === 'webhook' && (
        <Field label="Format" error={fieldError('config.format')}>
          {(a) => (
            <select
              {...a}
              value={draft.format}
              onChange={(e) => {
                const format = e.target.value as WebhookFormat;
                setDraft((d) => ({
                  ...d,
                  format,
                  // A new channel's name follows the format until the buyer names it.
                  name: d.id === null && d.name === FORMAT_NAME[d.format] ? FORMAT_NAME[format] : d.name,
                }));
              }}
            >
              {WEBHOOK_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {FORMAT_LABEL[f]}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}

      <Field label={secretLabel} error={fieldError('secret')} hint={secretHint}>
        {(a) => (
          <div className="ch-secret">
            <input
              {...a}
              type="password"
              autoComplete="new-password"
              spellCheck={false}
              placeholder={secretPlaceholder}
              value={draft.secret}
              onChange={(e) => set('secret', e.target.value)}
            />
            {stored && (
              <button
                type="button"
                aria-pressed={draft.forget}
                aria-label={
                  draft.forget ? `Keep the stored ${secretWhat}` : `Forget the stored ${secretWhat}`
                }
                onClick={() => set('forget', !draft.forget)}
              >
                {draft.forget ? 'Keep it' : 'Forget'}
              </button>
            )}
          </div>
        )}
      </Field>
      {stored && draft.forget && draft.secret.trim() === '' && (
        <p className="ch-note small" role="status">
          The stored {secretWhat} is forgotten when you save.
        </p>
      )}
      {where.moved && (
        <p className="ch-note small" role="status">
          You changed the server: enter the {secretWhat} again. Lotwatch sends a saved {secretWhat} only to
          the server it was entered for (or choose Forget to save without one).
        </p>
      )}
      {draft.type === 'webhook' && addressNote}

      {draft.type === 'webhook' && draft.format === 'telegram' && (
        <Field
          label="Telegram chat ID"
          error={fieldError('config.telegram_chat_id')}
          hint="The chat the bot writes to: a number such as -1001234567890, or @yourchannel."
        >
          {(a) => (
            <input
              {...a}
              type="text"
              spellCheck={false}
              value={draft.telegramChatId}
              onChange={(e) => set('telegramChatId', e.target.value)}
            />
          )}
        </Field>
      )}

      {draft.type === 'email' && (
        <div className="ch-row">
          <Field
            label="From address"
            error={fieldError('config.from')}
            className="ch-grow"
            hint="An address your mail server accepts for this login."
          >
            {(a) => (
              <input
                {...a}
                type="email"
                spellCheck={false}
                value={draft.from}
                onChange={(e) => set('from', e.target.value)}
              />
            )}
          </Field>
          <Field
            label="To address"
            error={fieldError('config.to')}
            className="ch-grow"
            hint="Where the alerts go."
          >
            {(a) => (
              <input
                {...a}
                type="email"
                spellCheck={false}
                value={draft.to}
                onChange={(e) => set('to', e.target.value)}
              />
            )}
          </Field>
        </div>
      )}

      <div
        className="ch-kinds"
        role="group"
        aria-labelledby={kindsId}
        aria-describedby={fieldError('kinds') ? `${kindsId}-error` : undefined}
      >
        <span className="ch-group-title" id={kindsId}>
          Alerts to send
        </span>
        <div className="ch-kind-cols">
          <div className="ch-kind-col">
            <span className="muted small">About lots</span>
            {LOT_KINDS.map(kindBox)}
          </div>
          {CALL_KINDS.length > 0 && (
            <div className="ch-kind-col">
              <span className="muted small">About watched calls</span>
              {CALL_KINDS.map(kindBox)}
            </div>
          )}
          <div className="ch-kind-col">
            <span className="muted small">About Lotwatch itself (sent at once, even in quiet hours)</span>
            {OWN_KINDS.map(kindBox)}
          </div>
        </div>
        {fieldError('kinds') ? (
          <span className="field-error" id={`${kindsId}-error`}>
            {fieldError('kinds')}
          </span>
        ) : (
          draft.kinds.length === 0 && (
            <span className="muted small">Nothing is ticked: this channel will send no alerts.</span>
          )
        )}
      </div>

      <div className="ch-quiet" role="radiogroup" aria-labelledby={quietId}>
        <span className="ch-group-title" id={quietId}>
          Quiet hours
        </span>
        {QUIET_MODES.map((m) => (
          <label className="check" key={m}>
            <input
              type="radio"
              name={`${quietId}-mode`}
              value={m}
              checked={draft.quiet === m}
              onChange={() => set('quiet', m)}
            />
            <span>{QUIET_LABEL[m]}</span>
          </label>
        ))}
        {draft.quiet === 'own' && (
          <div className="row ch-quiet-times">
            <Field label="Quiet from" error={fieldError('quiet_hours.start')}>
              {(a) => (
                <input
                  {...a}
                  type="time"
                  value={draft.quietStart}
                  onChange={(e) => set('quietStart', e.target.value)}
                />
              )}
            </Field>
            <Field label="Quiet until" error={fieldError('quiet_hours.end')}>
              {(a) => (
                <input
                  {...a}
                  type="time"
                  value={draft.quietEnd}
                  onChange={(e) => set('quietEnd', e.target.value)}
                />
              )}
            </Field>
          </div>
        )}
        {quietErrors.length > 0 && !fieldError('quiet_hours.start') && !fieldError('quiet_hours.end') && (
          <span className="field-error">{quietErrors.join(' ')}</span>
        )}
        <span className="muted small">Alerts held in quiet hours go out as one message when they end.</span>
      </div>

      {otherErrors.length > 0 && (
        <ul className="ch-other-errors">
          {otherErrors.map((m, i) => (
            <li key={i} className="field-error">
              {m}
            </li>
          ))}
        </ul>
      )}
      {error && !error.fields && <ErrorNotice error={error} />}
      <div className="actions">
        <button type="button" className="primary" disabled={busy} onClick={() => void save()}>
          {busy ? 'Saving…' : channel ? 'Save channel' : 'Add channel'}
        </button>
        <button type="button" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
        {error?.fields && (
          <span className="field-error" role="alert">
            Nothing was saved: correct the highlighted fields.
          </span>
        )}
      </div>
    </div>
  );
}

/** A channel's health in words: when it last sent, its failures in a row with what to fix, what waits. */
function Health({ c, now }: { c: ChannelView; now: number }) {
  const h = c.health;
  const parts: string[] = [];
  if (!c.enabled) parts.push('Turned off: sends nothing');
  parts.push(h.last_sent_at !== null ? `Last sent ${shortTime(h.last_sent_at, now)}` : 'Nothing sent yet');
  if (h.waiting > 0) parts.push(`${h.waiting} waiting`);
  return (
    <p className="ch-health small">
      <span className="muted">{parts.join(' · ')}</span>
      {h.failures > 0 && (
        <span className="ch-bad">
          {' · '}
          {h.failures} {h.failures === 1 ? 'failure' : 'failures'}
          {h.last_error ? `: ${h.last_error}` : ''}
        </span>
      )}
    </p>
  );
}

type TestState = { busy: true } | { busy: false; ok: boolean; message: string };
type Editing = { type: ChannelType; id: number | null };

/**
 * Settings, Alert channels (docs/architecture.md "Delivery"): email, a phone through ntfy, and webhooks (JSON,
 * Discord, Slack, Telegram) that get alerts besides the inbox. Each channel can be switched off, edited, tested and
 * deleted; the delivery log below says what went where. Follows `deliveries.changed`.
 */
export function ChannelsSection() {
  const list = useCall('channels.list');
  const call = useCaller();
  const refresh = list.run;
  const [now, setNow] = useState(() => appNow());
  const [editing, setEditing] = useState<Editing | null>(null);
  const [tests, setTests] = useState<ReadonlyMap<number, TestState>>(new Map());
  const [toggling, setToggling] = useState<number | null>(null);
  const [error, setError] = useState<ErrorPayload | null>(null);
  const [removing, setRemoving] = useState<ChannelView | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);
  const [removeError, setRemoveError] = useState<ErrorPayload | null>(null);
  const [note, setNote] = useState<string | null>(null);
  /** Where focus goes once the list shows it: a channel's Edit button (after a save), or the Add buttons. */
  const focusTo = useRef<number | 'add' | null>(null);
  const editButtons = useRef(new Map<number, HTMLButtonElement>());
  const addButtons = useRef(new Map<ChannelType, HTMLButtonElement>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const reload = async () => {
    await refresh();
    setNow(appNow());
  };
  useContractEvents((e) => {
    if (e.name !== 'deliveries.changed' || timer.current) return;
    // Deliveries change in bursts (a digest to three channels); one refresh per burst is enough.
    timer.current = setTimeout(() => {
      timer.current = null;
      void reload();
    }, 300);
  });
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  useEffect(() => {
    const to = focusTo.current;
    if (to === null) return;
    const el = to === 'add' ? addButtons.current.get('email') : editButtons.current.get(to);
    if (!el || el.disabled) return;
    el.focus();
    focusTo.current = null;
  });

  const channels = list.data?.channels ?? [];
  const log = [...(list.data?.log ?? [])].sort((a, b) => b.at - a.at || b.id - a.id);
  const editedChannel =
    editing && editing.id !== null ? (channels.find((c) => c.id === editing.id) ?? null) : null;
  // A channel deleted elsewhere while its form was open closes the form.
  const openForm = editing && (editing.id === null || editedChannel) ? editing : null;

  const open = (type: ChannelType, id: number | null) => {
    setNote(null);
    setError(null);
    focusTo.current = null;
    setEditing({ type, id });
  };
  const closeForm = () => {
    const was = editing;
    setEditing(null);
    focusTo.current = was?.id ?? 'add';
  };
  const onSaved = (c: ChannelView) => {
    const added = editing?.id === null;
    setEditing(null);
    setNote(added ? `Added ${c.name}. Use Test to send it a message now.` : `Saved ${c.name}.`);
    focusTo.current = c.id;
    void reload();
  };
  const toggle = async (c: ChannelView, enabled: boolean) => {
    setToggling(c.id);
    setNote(null);
    const r = await call('channels.save', toggleInput(c, enabled));
    setToggling(null);
    if (r.ok) setError(null);
    else setError(r.error);
    await reload();
  };
  const test = async (c: ChannelView) => {
    setTests((m) => new Map(m).set(c.id, { busy: true }));
    const r = await call('channels.test', { id: c.id });
    setTests((m) =>
      new Map(m).set(
        c.id,
        r.ok ? { busy: false, ...r.value } : { busy: false, ok: false, message: r.error.message },
      ),
    );
    void reload();
  };
  const remove = async (c: ChannelView) => {
    setRemoveBusy(true);
    setRemoveError(null);
    const r = await call('channels.remove', { id: c.id });
    setRemoveBusy(false);
    if (!r.ok) return setRemoveError(r.error);
    setRemoving(null);
    setNote(`Deleted ${c.name}.`);
    focusTo.current = 'add';
    void reload();
  };

  return (
    <fieldset className="channels-section" aria-busy={list.loading}>
      <legend>Alert channels</legend>
      <p className="muted small ch-intro">
        Send alerts to your email, your phone (ntfy) or a chat (Discord, Slack, Telegram) as well. Lotwatch
        sends each alert once, retries when a channel is down, and keeps a log below.
      </p>
      {list.error && <ErrorNotice error={list.error} onRetry={() => void reload()} />}
      {error && <ErrorNotice error={error} />}
      {note && (
        <p className="ok ch-note" role="status">
          {note}
        </p>
      )}
      {list.data && channels.length === 0 && (
        <p className="muted">No channels yet: alerts go to the inbox only.</p>
      )}
      {channels.length > 0 && (
        <ul className="ch-list" aria-label="Alert channels">
          {channels.map((c) => {
            const t = tests.get(c.id);
            const where = whereWords(c);
            const isEdited = openForm?.id === c.id;
            return (
              <li key={c.id} className={`ch-item${c.enabled ? '' : ' off'}`}>
                <div className="ch-item-head">
                  <div className="ch-what">
                    <strong className="ch-name">{c.name}</strong>
                    <span className="muted small">
                      {typeWords(c)}
                      {where ? ` · ${where}` : ''}
                    </span>
                  </div>
                  <label className="check ch-enabled">
                    <input
                      type="checkbox"
                      checked={c.enabled}
                      disabled={toggling === c.id}
                      aria-label={`Send alerts to ${c.name}`}
                      onChange={(e) => void toggle(c, e.target.checked)}
                    />
                    <span aria-hidden="true">On</span>
                  </label>
                  <div className="ch-buttons">
                    <button
                      type="button"
                      className="lw-small"
                      ref={(el) => {
                        if (el) editButtons.current.set(c.id, el);
                        else editButtons.current.delete(c.id);
                      }}
                      aria-label={`Edit ${c.name}`}
                      aria-expanded={isEdited}
                      disabled={openForm !== null && !isEdited}
                      onClick={() => (isEdited ? closeForm() : open(c.type, c.id))}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="lw-small"
                      aria-label={`Test ${c.name}`}
                      disabled={t?.busy === true}
                      onClick={() => void test(c)}
                    >
                      {t?.busy ? 'Testing…' : 'Test'}
                    </button>
                    <button
                      type="button"
                      className="lw-small danger"
                      aria-label={`Delete ${c.name}`}
                      disabled={isEdited}
                      onClick={() => {
                        setRemoveError(null);
                        setRemoving(c);
                      }}
                    >
                      Delete
                    </button>
                  </div>
                </div>
                <Health c={c} now={now} />
                {t && !t.busy && (
                  <p className={`ch-test small ${t.ok ? 'ok' : 'ch-bad'}`} role="status">
                    {t.message}
                  </p>
                )}
                {isEdited && (
                  <ChannelForm channel={editedChannel} type={c.type} onSaved={onSaved} onCancel={closeForm} />
                )}
              </li>
            );
          })}
        </ul>
      )}
      <div className="ch-add" role="group" aria-label="Add a channel">
        <span className="ch-group-title">Add a channel</span>
        {(['email', 'ntfy', 'webhook'] as const).map((type) => (
          <button
            key={type}
            type="button"
            ref={(el) => {
              if (el) addButtons.current.set(type, el);
              else addButtons.current.delete(type);
            }}
            aria-expanded={openForm?.id === null && openForm.type === type}
            disabled={openForm !== null}
            onClick={() => open(type, null)}
          >
            {type === 'email'
              ? 'Email'
              : type === 'ntfy'
                ? 'Phone (ntfy)'
                : 'Webhook (Discord, Slack, Telegram…)'}
          </button>
        ))}
      </div>
      {openForm && openForm.id === null && (
        <ChannelForm
          key={openForm.type}
          channel={null}
          type={openForm.type}
          onSaved={onSaved}
          onCancel={closeForm}
        />
      )}

      <h3 className="ch-log-title" id="ch-log-title">
        Delivery log
      </h3>
      {list.data && log.length === 0 && <p className="muted small">Nothing has gone to a channel yet.</p>}
      {log.length > 0 && (
        <div className="lw-table-wrap ch-log">
          <table className="lw-table" aria-labelledby="ch-log-title">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Alert</th>
                <th scope="col">Channel</th>
                <th scope="col">Status</th>
                <th scope="col" className="lw-num">
                  Attempts
                </th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {log.map((d) => (
                <tr key={d.id}>
                  <td title={dateTime(d.at)}>{shortTime(d.at, now)}</td>
                  <td className="ch-wrap ch-log-alert">{d.alert_title}</td>
                  <td className="ch-wrap">{d.channel_name}</td>
                  <td
                    className={`ch-wrap${deliveryTrouble(d) ? ' ch-bad' : d.status === 'sent' ? ' ok' : ''}`}
                  >
                    {deliveryWords(d, now, 'log')}
                  </td>
                  <td className="lw-num">{d.attempts}</td>
                  <td className="ch-wrap ch-log-detail">{d.status === 'skipped' ? '' : (d.detail ?? '')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {removing && (
        <Modal
          title={`Delete ${removing.name}?`}
          className="ch-modal"
          onClose={() => {
            if (!removeBusy) setRemoving(null);
          }}
        >
          <h2>Delete {removing.name}?</h2>
          <p>
            Lotwatch stops sending alerts to it, and forgets its settings, its stored{' '}
            {removing.type === 'email' ? 'password' : removing.type === 'ntfy' ? 'access token' : 'address'}{' '}
            and its delivery log. Alerts stay in the inbox.
          </p>
          {removeError && <ErrorNotice error={removeError} />}
          <div className="actions">
            <button
              type="button"
              className="danger-button filled"
              data-autofocus
              disabled={removeBusy}
              onClick={() => void remove(removing)}
            >
              {removeBusy ? 'Deleting…' : 'Delete channel'}
            </button>
            <button type="button" disabled={removeBusy} onClick={() => setRemoving(null)}>
              Cancel
            </button>
          </div>
        </Modal>
      )}
    </fieldset>
  );
}
