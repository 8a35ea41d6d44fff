import { currentActor } from '../actor';
import { LotwatchError } from '../errors';
import type { HandlerGroup } from '../handlerGroups';
import type { TeamAccounts } from './accounts';

type TeamMethods =
  | 'team.me'
  | 'team.users.list'
  | 'team.users.create'
  | 'team.users.update'
  | 'team.users.resetPassword'
  | 'team.password.change';

/** What the team handlers need: the team's accounts on a team server, or null (the desktop app: one user). */
export interface TeamHandlerDeps {
  team: TeamAccounts | null;
}

/** The error of a team method called where there is no team. */
function noTeam(): LotwatchError {
  return new LotwatchError(
    'not_implemented',
    'Members and their passwords exist on a team server only; this Lotwatch has a single user. To work as a team, start Lotwatch as a team server.',
  );
}

/** The error of a member's own method called by no member (the watcher's own work, a shell's internal call). */
function noMember(): LotwatchError {
  return new LotwatchError('unauthorized', 'Sign in to the team server first.');
}

/**
 * The team methods (docs/architecture.md "A team on one server"). Who calls is `currentActor()` (the headless shell
 * runs each member's call inside `runAs`); the role each method needs is checked before (gate.ts). In the desktop app
 * `team.me` answers `{ team: false, user: null }` and the others throw `not_implemented`. Throws what TeamAccounts
 * throws (a login taken, the last admin, an unknown member, a wrong current password, a waiting login).
 */
export function teamHandlers(d: TeamHandlerDeps): HandlerGroup<TeamMethods> {
  const team = (): TeamAccounts => {
    if (!d.team) throw noTeam();
    return d.team;
  };
  return {
    'team.me': async () => {
      if (!d.team) return { team: false, user: null };
      const id = currentActor().userId;
      return { team: true, user: id === null ? null : await d.team.user(id) };
    },
    'team.users.list': async () => ({ users: await team().list() }),
    'team.users.create': async (i) => ({ user: await team().create(i) }),
    'team.users.update': async (i) => ({ user: await team().update(i) }),
    'team.users.resetPassword': async (i) => {
      await team().resetPassword(i.id, i.password);
      return { ok: true as const };
    },
    'team.password.change': async (i) => {
      const t = team();
      const id = currentActor().userId;
      if (id === null) throw noMember();
      await t.changePassword(id, i.current, i.next);
      return { ok: true as const };
    },
  };
}
