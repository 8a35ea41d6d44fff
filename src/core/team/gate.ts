import { isMethodName } from '../../shared/ipc/channels';
import type { ErrorPayload } from '../../shared/ipc/errors';
import { METHOD_ROLES, roleAllows, teamSettingsIn, type Role } from '../../shared/team';
import type { Actor } from '../actor';

/*
 * The role gate of a team server (docs/architecture.md "A team on one server"): what a member may call. The headless
 * shell asks it before calling core (a refused call answers HTTP 403 and core is never called); core asks it again
 * for every call, so a route that forgot would still be refused. The desktop's one user (LOCAL_OWNER) is an admin
 * and passes everything.
 */

const ROLE_WORDS: Record<Role, string> = { viewer: 'a viewer', buyer: 'a buyer', admin: 'an admin' };

/**
 * Why `actor` may not call `method` with `input`, as the typed envelope's error (`forbidden`), or null when they may:
 * the method needs a role above theirs (METHOD_ROLES), or a `settings.update` by a member who is not an admin names a
 * team setting (TEAM_SETTING_KEYS). An unknown method passes here (the dispatcher refuses it).
 */
export function teamRefusal(actor: Actor, method: unknown, input: unknown): ErrorPayload | null {
  if (!isMethodName(method)) return null;
  const need = METHOD_ROLES[method];
  if (!roleAllows(actor.role, need))
    return {
      code: 'forbidden',
      message: `Only ${ROLE_WORDS[need]} or above on your team can do this; you are ${ROLE_WORDS[actor.role]}. Ask an admin of your team.`,
      retryable: false,
    };
  if (method === 'settings.update' && actor.role !== 'admin' && teamSettingsIn(input).length > 0)
    return {
      code: 'forbidden',
      message:
        "Only an admin can change the team's settings; you can change your theme, notifications and quiet hours. Ask an admin of your team.",
      retryable: false,
    };
  return null;
}
