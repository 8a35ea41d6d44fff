import type { ChannelType } from '../../shared/alertChannels';
import type { Clock } from '../clock';
import { emailSender } from './email';
import { ntfySender } from './ntfy';
import type { Sender } from './types';
import { webhookSender } from './webhook';

/**
 * The sender of each channel type (docs/architecture.md "Delivery"): the outbox looks a channel's type up
 * here and hands it the message. A record over every ChannelType, so a new type without a sender is a compile
 * error.
 */
export const SENDERS: Record<ChannelType, Sender> = {
  email: emailSender,
  ntfy: ntfySender,
  webhook: webhookSender,
};

/**
 * The longest one send may take, ms: from opening the connection to the end of the receiver's answer (the whole
 * SMTP conversation; an HTTP answer's headers and body), and the same for ntfy's confirm. A receiver that is alive
 * but never finishes (a byte every few seconds, endless `250-` lines) would otherwise hold its send for ever, since
 * the senders' own timeouts only measure silence.
 */
export const SEND_DEADLINE_MS = 30_000;

/** A send given up because Lotwatch is stopping: not a failure of the channel (the next start sends it again). */
export class SendStopped extends Error {
  constructor() {
    super('Lotwatch stopped before the send finished.');
    this.name = 'SendStopped';
  }
}

/**
 * Runs one send (or confirm) under a deadline for the whole of it (docs/architecture.md "Alert channels"). `work`
 * gets a signal that aborts when `ms` pass on `clock` (the network's clock: real timers in the app, a test's fake
 * clock in tests) or when `stop` aborts; the sender closes its connection then. This answers at that moment
 * whatever the sender does, so no receiver can hold its caller longer than `ms`; a late result of `work` is dropped.
 *
 * @returns what `work` resolved to before the deadline.
 * @throws what `work` threw before the deadline; `onTimeout()` (the sender's timedOut error, a ChannelSendError)
 *   when the deadline came first; SendStopped when `stop` aborted first (at once when it already was; `work` is
 *   not started then).
 */
export async function withinDeadline<T>(
  opts: { clock: Clock; ms: number; stop: AbortSignal; onTimeout: () => Error },
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  if (opts.stop.aborted) throw new SendStopped();
  const ac = new AbortController();
  let fail: (e: Error) => void = () => undefined;
  // Rejected before the signal aborts, so the caller gets this error rather than the sender's own abort error.
  const cut = new Promise<never>((_, reject) => (fail = reject));
  const end = (e: Error) => {
    fail(e);
    ac.abort(e);
  };
  const onStop = () => end(new SendStopped());
  opts.stop.addEventListener('abort', onStop, { once: true });
  const cancel = opts.clock.setTimeout(() => end(opts.onTimeout()), opts.ms);
  try {
    const run = work(ac.signal);
    run.catch(() => undefined);
    return await Promise.race([run, cut]);
  } finally {
    cancel();
    opts.stop.removeEventListener('abort', onStop);
  }
}
