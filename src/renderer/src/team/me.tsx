import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { Bridge } from '../../../shared/ipc/bridge';
import type { MethodOutput } from '../../../shared/ipc/contract';
import type { TeamUser } from '../../../shared/ipc/contract/team';
import { METHOD_ROLES, roleAllows } from '../../../shared/team';

/** `team.me`: whether this is a team server and who is signed in. */
export type TeamMe = MethodOutput<'team.me'>;

/** The desktop app's answer, and what a view reads when nothing says otherwise: no team, no member. */
export const NO_TEAM: TeamMe = { team: false, user: null };

const MeContext = createContext<TeamMe>(NO_TEAM);

/** Hands the signed-in member (`team.me`) to every view below: who made a watch ("by you"), who may manage members. */
export function MeProvider({ me, children }: { me: TeamMe; children: ReactNode }) {
  return <MeContext.Provider value={me}>{children}</MeContext.Provider>;
}

/** The signed-in member and whether this is a team; `{ team: false, user: null }` in the desktop app. */
export function useMe(): TeamMe {
  return useContext(MeContext);
}

/**
 * Asks core who is signed in (`team.me`), once per bridge. Until it answers, and when it cannot (a core without
 * teams answers `unknown_method`), `seed` stands: the member the team sign-in gave, or no team at all.
 */
export function useTeamMe(api: Bridge, seed: TeamUser | null): TeamMe {
  const [answer, setAnswer] = useState<TeamMe | null>(null);
  useEffect(() => {
    let live = true;
    void api.invoke('team.me').then((r) => {
      if (live && r.ok) setAnswer(r.value);
    });
    return () => {
      live = false;
    };
  }, [api]);
  return answer ?? (seed ? { team: true, user: seed } : NO_TEAM);
}

/** A contract method a team member may or may not call. */
export type TeamGated = keyof typeof METHOD_ROLES;

/**
 * Whether the signed-in member may call `method` (its role in METHOD_ROLES, src/shared/team.ts). Outside a team
 * (the desktop's one user, the single-user browser page) everything is allowed: the local owner can do all.
 */
export function mayCall(me: TeamMe, method: TeamGated): boolean {
  if (!me.team) return true;
  return !!me.user && roleAllows(me.user.role, METHOD_ROLES[method]);
}

/** "Only an admin can add members." for a member whose role is short of what `method` needs (METHOD_ROLES). */
export function onlyRoleCan(method: TeamGated, what: string): string {
  const need = METHOD_ROLES[method];
  return need === 'admin' ? `Only an admin can ${what}.` : `Only a ${need} or an admin can ${what}.`;
}
