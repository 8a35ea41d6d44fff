import type { ContractEvent } from '../../shared/ipc/contract';
import type { Clock } from '../clock';
import type { HandlerGroup } from '../handlerGroups';
import type { ChannelService } from './service';

/** What the channel handlers need: the service, the clock, and the event push (`deliveries.changed`). */
export interface ChannelHandlerDeps {
  channels: ChannelService;
  clock: Clock;
  emit: (e: ContractEvent) => void;
}

type ChannelMethods = 'channels.list' | 'channels.save' | 'channels.remove' | 'channels.test';

/**
 * Alert channels (email, ntfy, webhook): list with health and the delivery log, save with an encrypted secret that is
 * never returned, remove, and the Test button (docs/architecture.md "Delivery"). Throws BadInputError for a webhook
 * without an address or a change of type, not_found for a deleted channel.
 */
export function channelHandlers(c: ChannelHandlerDeps): HandlerGroup<ChannelMethods> {
  return {
    'channels.list': () => c.channels.list(),
    'channels.save': async (i) => {
      const v = await c.channels.save(i);
      c.emit({ name: 'deliveries.changed', payload: { at: c.clock.now() } });
      return v;
    },
    'channels.remove': async (i) => {
      const r = await c.channels.remove(i.id);
      c.emit({ name: 'deliveries.changed', payload: { at: c.clock.now() } });
      return r;
    },
    'channels.test': (i) => c.channels.test(i.id),
  };
}
