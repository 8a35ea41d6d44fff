import { AsyncLocalStorage } from 'node:async_hooks';
import type { Role } from '../shared/team';

/**
 * Who a call into core acts for. On a team server each request runs as its signed-in member (the headless shell's
 * team mode wraps the call in `runAs`); the desktop app and the watcher's own work run as the local owner.
 * `userId` null is the local owner (the desktop's one user) or the watcher itself, never a team member.
 */
export interface Actor {
  /** The member's id in the team's `users` table; null: the local owner, or the watcher's own scheduled work. */
  readonly userId: number | null;
  /** The member's display name, as shown beside what they made ("by Dana"). */
  readonly name: string;
  readonly role: Role;
}

/** The desktop app's one user and the watcher's own work: every role, no team account. */
export const LOCAL_OWNER: Actor = Object.freeze({ userId: null, name: 'You', role: 'admin' as const });

const current = new AsyncLocalStorage<Actor>();

/**
 * Runs `fn` as `actor`: every store call and handler it makes, and work it starts without awaiting, reads
 * `currentActor()` as that member. Returns what `fn` returns; throws what it throws.
 */
export function runAs<T>(actor: Actor, fn: () => T): T {
  return current.run(actor, fn);
}

/** The member the current call acts for, or LOCAL_OWNER outside any `runAs` (the desktop app, the watcher). */
export function currentActor(): Actor {
  return current.getStore() ?? LOCAL_OWNER;
}
