import type { Notifier } from '../core/alerts/notifier';
import type { Core } from '../core/appTypes';
import type { Logger } from '../core/log';
import { isMethodName } from '../shared/ipc/channels';
import type { ContractEvent } from '../shared/ipc/contract';
import type { Result } from '../shared/ipc/errors';
import type { TeamLink } from './teamLink';

/*
 * Where the desktop app's calls and events come from while it has joined a team server (docs/team.md): the window
 * works on the team's data exactly as the browser page of a team server does, and this computer's own data waits,
 * untouched and not watched, until the app leaves the team.
 */

/** The routing the shell uses in place of core for the window's calls and events. */
export interface TeamRouting {
  /**
   * One contract call from the window: `teamLink.*` always to core (which answers through the link); every other
   * method to the team server while joined, else to core. A join or a leave that changed whether the app is joined
   * stops or starts this computer's watcher, and every join or leave loads the window again. Never throws.
   */
  invoke(method: unknown, input: unknown): Promise<Result<unknown>>;
  /** Stops forwarding events and closes the team server's stream (the app quits). Throws nothing. */
  dispose(): void;
}

/** What the routing needs from the shell. */
export interface TeamRoutingDeps {
  core: Pick<Core, 'invoke' | 'on' | 'startWatching' | 'stopWatching'>;
  link: TeamLink;
  /** Sends an event to the window (the shell drops it when there is no window). */
  send: (e: ContractEvent) => void;
  /** The native notifications (electronNotifier): a team's `notification.posted` for this member shows there. */
  notifier: Notifier;
  /** Loads the window again (after a join or a leave, so every view reads its data afresh). */
  reload: () => void;
  log: Logger;
}

/**
 * Routes the window's calls and events between this computer's core and the joined team server. While joined the
 * window hears the team server's events only (its `notification.posted`, which the team server sends only when the
 * member's notifications are on, becomes a native notification), and this computer's watcher is stopped so its own
 * API key is not spent where no one sees the result. Leaving starts the watcher again. Neither touches local data.
 */
export function teamRouting(d: TeamRoutingDeps): TeamRouting {
  const { core, link, log } = d;
  const unsubscribeCore = core.on((e) => {
    if (!link.joined()) d.send(e);
  });
  const unsubscribeTeam = link.on((e) => {
    if (!link.joined()) return;
    if (e.name === 'notification.posted') {
      const lotKey = e.payload.lot_key;
      d.notifier.notify({ title: e.payload.title, body: e.payload.body, ...(lotKey ? { lotKey } : {}) });
      return;
    }
    d.send(e);
  });
  const watcher = (joined: boolean) =>
    (joined ? core.stopWatching() : core.startWatching()).catch((e: unknown) =>
      log.warn('the watcher could not follow the team link', { error: (e as Error).message }),
    );
  return {
    async invoke(method, input) {
      const toTeam = isMethodName(method) && !method.startsWith('teamLink.') && link.joined();
      if (toTeam) return link.invoke(method, input);
      const before = link.joined();
      const r = await core.invoke(method, input);
      if (r.ok && (method === 'teamLink.join' || method === 'teamLink.leave')) {
        const after = link.joined();
        if (after !== before) await watcher(after);
        d.reload();
      }
      return r;
    },
    dispose() {
      unsubscribeCore();
      unsubscribeTeam();
      link.close();
    },
  };
}
