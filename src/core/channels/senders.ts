import type { ChannelType } from '../../shared/alertChannels';
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
