import type { MemberRef } from '../../../shared/ipc/contract/members';
import type { TeamMe } from './me';
import { useMe } from './me';

/**
 * Who made a saved search, a watch or a watched call, as its row says it: "by you" for the signed-in member,
 * "by Dana Lee" for a colleague; null (nothing shown) when nobody is named: the desktop's own items, and a team's
 * items made before the team existed.
 */
export function ownerText(createdBy: MemberRef | null | undefined, me: TeamMe): string | null {
  if (!createdBy) return null;
  if (me.team && me.user && createdBy.id === me.user.id) return 'by you';
  return `by ${createdBy.name}`;
}

/**
 * The "by <name>" of a row, small and muted beside its other marks; nothing when ownerText says nothing. The whole
 * sentence ("Added by Dana Lee") is its title, for a name the row's width cuts.
 */
export function Owner({
  createdBy,
  verb = 'Added',
}: {
  createdBy: MemberRef | null | undefined;
  verb?: string;
}) {
  const me = useMe();
  const text = ownerText(createdBy, me);
  if (!text) return null;
  return (
    <span className="lw-owner" title={`${verb} ${text}`}>
      {text}
    </span>
  );
}
