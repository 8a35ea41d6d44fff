import nodemailer from 'nodemailer';
import type { ChannelConfig } from '../../shared/alertChannels';
import { defaultReach } from './reach';
import { ChannelSendError, type ChannelMessage, type SendTarget, type Sender } from './types';

/**
 * The email channel (docs/architecture.md "Delivery"): one message per alert (or digest) over SMTP, through
 * the buyer's own mail server. A new connection for every send, closed right after: alerts are rare, and a
 * kept-open connection would only time out on the server's side between them.
 */

type EmailConfig = Extract<ChannelConfig, { type: 'email' }>;

/**
 * How long a connection, the server's greeting and any silence on the socket may take, ms. The whole conversation
 * has a deadline of its own (withinDeadline in senders.ts), since a server that keeps talking is never silent.
 */
const TIMEOUT_MS = 15_000;

/** The last line of every email: why it came, and where to change what this address receives. */
export const EMAIL_FOOTER =
  'Sent by Lotwatch. Change what this address receives in Settings → Alert channels.';

/** What nodemailer puts on the errors it gives (see nodemailer's errors.js). */
interface SmtpError {
  code?: unknown;
  originalCode?: unknown;
  responseCode?: unknown;
  response?: unknown;
  command?: unknown;
  message?: unknown;
}

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The plain-text part: the alert's body, the lot's page when there is one, and the footer. Pure; exported for
 * the tests.
 */
export function emailText(msg: ChannelMessage): string {
  const lot = msg.lot_url ? `\n\nLot page: ${msg.lot_url}` : msg.url ? `\n\nLink: ${msg.url}` : '';
  return `${msg.body}${lot}\n\n-- \n${EMAIL_FOOTER}\n`;
}

/** The HTML part: the same words as emailText, escaped, with the lot page as a link. Pure. */
export function emailHtml(msg: ChannelMessage): string {
  const paragraphs = msg.body
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  const lot = msg.lot_url
    ? `\n<p><a href="${escapeHtml(msg.lot_url)}">Open the lot page</a></p>`
    : msg.url
      ? `\n<p><a href="${escapeHtml(msg.url)}">Open the link</a></p>`
      : '';
  return (
    `<!doctype html>\n<html><body style="font-family: sans-serif">\n${paragraphs}${lot}\n` +
    `<p style="color: #666; font-size: 12px">${escapeHtml(EMAIL_FOOTER)}</p>\n</body></html>\n`
  );
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const trimmed = (s: string, max: number): string => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};

/**
 * Turns what nodemailer threw into a ChannelSendError in the buyer's words: what happened and what to change.
 * Never quotes the password (nodemailer's messages do not carry it; the server's answer is quoted only for
 * refusals the list below does not know).
 */
export function smtpFailure(err: unknown, config: EmailConfig): ChannelSendError {
  const e: SmtpError = typeof err === 'object' && err !== null ? (err as SmtpError) : {};
  const code = str(e.code);
  const original = str(e.originalCode);
  const command = str(e.command);
  const responseCode = typeof e.responseCode === 'number' ? e.responseCode : null;
  const response = trimmed(str(e.response), 200);
  const where = `${config.host}:${config.port}`;
  const fail = (message: string, permanent: boolean) =>
    new ChannelSendError(message, { permanent, cause: err });
  const said = response ? ` (${response})` : '';
  const tlsHint =
    'Check the security choice in Settings → Alert channels: STARTTLS on port 587, TLS on port 465 ' +
    '(ask your mail provider if unsure).';

  if (code === 'EAUTH' && responseCode === null && command === 'API') {
    return fail(
      `No password is stored for the login ${config.username}. Enter it in Settings → Alert channels.`,
      true,
    );
  }
  if (code === 'EAUTH' || responseCode === 535) {
    return fail(
      'The mail server refused the user name or password. Check them in Settings → Alert channels.',
      true,
    );
  }
  if (code === 'ETIMEDOUT' || original === 'ETIMEDOUT') {
    return fail(
      `The mail server ${where} did not answer in time. Lotwatch will try again; if this keeps ` +
        'happening, check the host and port.',
      false,
    );
  }
  const tlsText = /\b(TLS|SSL|certificate|self[- ]signed|wrong version number)\b/i;
  if (
    code === 'ETLS' ||
    /^(ERR_SSL_|ERR_TLS_|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_)/.test(original) ||
    (code === 'ESOCKET' && tlsText.test(str(e.message)))
  ) {
    return fail(`Could not set up a secure connection with the mail server ${where}. ${tlsHint}`, true);
  }
  if (
    code === 'ECONNECTION' ||
    code === 'EDNS' ||
    (code === 'ESOCKET' &&
      /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|ENETUNREACH)$/.test(original)) ||
    (code === 'ESOCKET' && original === '')
  ) {
    return fail(
      `Could not reach the mail server ${where}. Check the host and port, or your connection.`,
      false,
    );
  }
  if (code === 'EENVELOPE' && responseCode !== null && responseCode >= 500) {
    if (/MAIL/i.test(command)) {
      return fail(
        `The mail server refused the sender address ${config.from}${said}. Use an address this login ` +
          'may send from, and check the user name if the server needs a login, in Settings → Alert channels.',
        true,
      );
    }
    return fail(
      `The mail server refused the address ${config.to}${said}. Check the address in Settings → ` +
        'Alert channels.',
      true,
    );
  }
  if (responseCode !== null && responseCode >= 400 && responseCode < 500) {
    return fail(
      `The mail server ${config.host} put the message off for now${said}. Lotwatch will try again later.`,
      false,
    );
  }
  return fail(
    `The mail server ${config.host} did not take the message${response ? `: ${response}` : ''}. ` +
      'Lotwatch will try again.',
    false,
  );
}

function emailConfigOf(target: SendTarget): EmailConfig {
  if (target.config.type !== 'email') {
    throw new ChannelSendError(
      'This channel is not an email channel. Set it up again in Settings → Alert channels.',
      {
        permanent: true,
      },
    );
  }
  return target.config;
}

/**
 * Sends email over SMTP with nodemailer (docs/architecture.md "Delivery"). `send` resolves on the server's
 * 250 for the message, with `Sent to <to> through <host>`; it throws ChannelSendError (see smtpFailure) for
 * any failure. The Message-ID is `<key@lotwatch.app>`, the same on every attempt, so a resent alert threads
 * with (or is dropped as a copy of) the first. `signal` aborts the conversation (nodemailer closes the
 * connection). No `confirm`: a mail server cannot be asked whether it took a message.
 */
export const emailSender: Sender = {
  async send(target, msg, signal) {
    const config = emailConfigOf(target);
    const checked = await (target.reach ?? defaultReach()).smtp(config.host, config.port);
    const transport = nodemailer.createTransport({
      ...checked,
      port: config.port,
      secure: config.security === 'tls',
      requireTLS: config.security === 'starttls',
      ignoreTLS: config.security === 'none',
      ...(config.username !== '' ? { auth: { user: config.username, pass: target.secret ?? '' } } : {}),
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
      logger: false,
    });
    try {
      await transport.sendMail({
        from: config.from,
        to: config.to,
        subject: msg.title,
        text: emailText(msg),
        html: emailHtml(msg),
        messageId: `<${msg.key}@lotwatch.app>`,
        headers: { 'X-Lotwatch-Kind': msg.kind },
        ...(signal ? { signal } : {}),
      });
    } catch (err) {
      throw smtpFailure(err, config);
    } finally {
      transport.close();
    }
    return { detail: `Sent to ${config.to} through ${config.host}` };
  },

  timedOut(target, seconds) {
    const where = target.config.type === 'email' ? ` ${target.config.host}:${target.config.port}` : '';
    return new ChannelSendError(
      `The mail server${where} did not finish within ${seconds} seconds; check the host, port and security ` +
        'choice in Settings → Alert channels, or ask your mail provider whether the server works.',
      { permanent: false },
    );
  },
};
