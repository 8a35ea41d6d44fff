import type { HandlerContext, HandlerGroup } from './context';

type ChannelMethods = 'channels.list' | 'channels.save' | 'channels.remove' | 'channels.test';

/**
 * Alert channels (email, ntfy, webhook): list with health and the delivery log, save with an encrypted secret that is
 * never returned, remove, and the Test button (docs/architecture.md "Delivery"). Throws BadInputError for a webhook
 * without an address or a change of type, not_found for a deleted channel.
 */
export function channelHandlers(c: HandlerContext): HandlerGroup<ChannelMethods> {
  return {
    'channels.list': () => c.channels.list(),
    'channels.save': (i) => {
      const v = c.channels.save(i);
      c.emit({ name: 'deliveries.changed', payload: { at: c.clock.now() } });
      return v;
    },
    'channels.remove': (i) => {
      const r = c.channels.remove(i.id);
      c.emit({ name: 'deliveries.changed', payload: { at: c.clock.now() } });
      return r;
    },
    'channels.test': (i) => c.channels.test(i.id),
  };
}
