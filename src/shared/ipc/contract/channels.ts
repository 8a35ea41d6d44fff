import { z } from 'zod';
import {
  ChannelSaveSchema,
  ChannelTestResultSchema,
  ChannelViewSchema,
  DeliveryViewSchema,
} from '../../alertChannels';
import { Done, Id, Void } from './common';

/** The alert channels domain of the contract. */

/** The methods of this domain; contract.ts joins every domain into the one contract. */
export const channelMethods = {
  'channels.list': {
    input: Void,
    output: z.object({ channels: z.array(ChannelViewSchema), log: z.array(DeliveryViewSchema) }),
  },
  /** Creates or changes a channel; its secret is stored encrypted and never returned. */
  'channels.save': { input: ChannelSaveSchema, output: ChannelViewSchema },
  /** Deletes a channel, its secret and its delivery log. */
  'channels.remove': { input: Id, output: Done },
  /** Sends one test message through a saved channel now (outside the outbox) and says what happened. */
  'channels.test': { input: Id, output: ChannelTestResultSchema },
  /** The watched lot whose sale comes next (the tray's tooltip), or null. */
} as const;
