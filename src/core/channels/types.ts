import type { ChannelConfig } from '../../shared/alertChannels';
import type { ChannelReach } from './reach';

/**
 * What every alert channel sender shares (docs/architecture.md "Delivery"): one message, the channel it goes to,
 * and the error a failed send throws. The outbox (outbox.ts) decides what to send and when; a sender only sends.
 */

/** One alert as a channel message carries it. Times in ms since the epoch. */
export interface MessageAlert {
  id: number;
  kind: string;
  title: string;
  body: string;
  lot_key: string | null;
  /** The alert's own link (a call watch's new item), or null. */
  url: string | null;
  created_at: number;
}

/** One message to one channel: a single alert, a quiet-hours digest of several, or the Test button's message. */
export interface ChannelMessage {
  /**
   * The message's stable id: the same on every attempt, so a receiver can drop a repeat. Sent as the webhook's
   * `Idempotency-Key` header and JSON `id`, the email's Message-ID, and the ntfy sequence id (ntfy 2.16 and later
   * replace a notification with the same sequence id instead of showing a second one).
   */
  key: string;
  title: string;
  body: string;
  /** The alert kind (`sale_result`, ...), `digest` for several, `test` for the Test button. */
  kind: string;
  lot_key: string | null;
  /** The lot's page on the auction's site (Copart, IAAI), or null. */
  lot_url: string | null;
  /** The alert's own link (a call watch's item: a video's page), or null; a digest carries none. */
  url: string | null;
  created_at: number;
  /** The alerts it carries, oldest first (one, or several for a digest; none for a test). */
  alerts: MessageAlert[];
}

/** A channel as a sender needs it: its config and its decrypted secret (never logged). */
export interface SendTarget {
  name: string;
  config: ChannelConfig;
  /** The SMTP password, the ntfy access token, or the webhook's address; null when none is stored. */
  secret: string | null;
  /**
   * Where the sender may connect (reach.ts): the dispatcher for HTTP, the checked address for SMTP. The outbox and
   * the Test button always give it; absent only in tests of a sender alone (the senders then use `defaultReach`).
   */
  reach?: ChannelReach;
}

/**
 * A send that did not reach the receiver, with a message that says what to fix in the buyer's words ("The mail
 * server refused the user name or password: check them in Settings → Alert channels."). `permanent`: the same send
 * will fail until the buyer changes something (a refused login, an address that does not exist); the outbox still
 * retries, slowly, since the buyer may fix it. `retryAfterMs`: the receiver asked to wait (HTTP 429 Retry-After).
 */
export class ChannelSendError extends Error {
  readonly permanent: boolean;
  readonly retryAfterMs: number | null;
  constructor(message: string, opts: { permanent: boolean; retryAfterMs?: number | null; cause?: unknown }) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ChannelSendError';
    this.permanent = opts.permanent;
    this.retryAfterMs = opts.retryAfterMs ?? null;
  }
}

/** Sends messages of one channel type. */
export interface Sender {
  /**
   * Sends one message. Resolves once the receiver accepted it (SMTP 250, HTTP 2xx) with a short line for the log
   * ("Sent to buyer@example.com"). Throws ChannelSendError for every failure (network, refusal, timeout), never
   * anything else. `signal` aborts the send: the sender closes its connection at once (the deadline of
   * `withinDeadline` in senders.ts, or Lotwatch stopping); what it throws then does not matter, the caller has
   * already moved on.
   */
  send(target: SendTarget, msg: ChannelMessage, signal?: AbortSignal): Promise<{ detail: string }>;
  /**
   * After Lotwatch stopped in the middle of sending `msg` (no record of whether the receiver got it): asks the
   * receiver whether it did, when the channel can tell. true: it arrived (do not send again); false: it did not;
   * null: this channel cannot tell (the outbox sends again, with the same key). `since` is when the attempt began.
   * `signal` aborts it as it does `send`.
   */
  confirm?(
    target: SendTarget,
    msg: ChannelMessage,
    since: number,
    signal?: AbortSignal,
  ): Promise<boolean | null>;
  /**
   * The error of a send that did not finish within `seconds` (the receiver was reached, or not, and never finished
   * its answer): who did not finish, and what the buyer can check. Pure.
   */
  timedOut(target: SendTarget, seconds: number): ChannelSendError;
}
