import type { TeamLinkState } from '../shared/ipc/contract/teamLink';
import { LotwatchError } from './errors';
import type { HandlerGroup } from './handlerGroups';

/*
 * The desktop app's link to a team server (docs/team.md): core answers `teamLink.*` through a port the Electron shell
 * gives it (src/main/teamLink.ts); core itself never talks to the team server. A shell without the port (the
 * headless shell, a team server) has no link.
 */

/** What the desktop shell's team link does for core; every method is about the link, none touches the local store. */
export interface TeamLinkPort {
  /** The link now (available is always true: a shell that gives the port can join). */
  state(): TeamLinkState;
  /**
   * Signs in on `server` (an http(s) origin) as `login` and keeps the session; joining the server already joined
   * signs in again.
   * @throws LotwatchError `unauthorized` (a wrong login or password: the server's one message), `rate_limited` (too
   *   many failed sign-ins: the message says how long to wait), `network` (the server is not reachable),
   *   `bad_response` (the address answers but is not a team server).
   */
  join(server: string, login: string, password: string): Promise<TeamLinkState>;
  /** Signs out of the team server (best effort) and forgets the link. Throws nothing. */
  leave(): Promise<TeamLinkState>;
}

/** What `teamLink.get` answers where there is no link. */
const UNAVAILABLE: TeamLinkState = {
  available: false,
  joined: false,
  server: null,
  login: null,
  user: null,
  signed_in: false,
};

/** The error of join or leave where there is no link. */
function onlyDesktop(): LotwatchError {
  return new LotwatchError('not_implemented', 'Only the desktop app joins a team server.');
}

/**
 * The `teamLink.*` methods over the shell's port. Without one (`null`: the headless shell, a team server)
 * `teamLink.get` answers `available: false` and join and leave throw `not_implemented`. Throws what the port throws.
 */
export function teamLinkHandlers(
  link: TeamLinkPort | null,
): HandlerGroup<'teamLink.get' | 'teamLink.join' | 'teamLink.leave'> {
  return {
    'teamLink.get': () => Promise.resolve(link ? link.state() : UNAVAILABLE),
    'teamLink.join': (i) => {
      if (!link) throw onlyDesktop();
      return link.join(i.server, i.login, i.password);
    },
    'teamLink.leave': () => {
      if (!link) throw onlyDesktop();
      return link.leave();
    },
  };
}
