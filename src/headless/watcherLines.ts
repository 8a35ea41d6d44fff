import type { LeadershipState } from '../core/team/leader';

/* On its own, with no import but a type: the team demo and the tests read these lines without loading core. */

/** What a team server prints when its standing changes: the operator's (and the takeover test's) view of it. */
export const WATCHER_LINES: Readonly<Record<LeadershipState, string>> = {
  leading: 'Watcher: this server now runs the watcher.',
  following: 'Watcher: another server of the team runs the watcher; this one takes over if that one stops.',
  disconnected: 'Watcher: the team database does not answer; watching is paused until it does.',
  stopped: 'Watcher: this server stopped watching.',
};
