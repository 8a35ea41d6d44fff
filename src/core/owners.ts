import type { MemberRef } from '../shared/ipc/contract/members';
import { currentActor } from './actor';
import { when } from './alerts/format';
import { LotwatchError } from './errors';

/*
 * Who made and who changed the team's things, as the views and the refusals say it (docs/architecture.md "A team on
 * one server"): the ids stored beside searches, watches and call watches (src/core/db/members.ts) turned into names,
 * and the refusal of a save made on an older copy.
 */

/**
 * The member `id` as a view shows it ({ id, name }), or null for the local owner (id null) and for an id whose
 * member `names` does not have (the name is not known, so nobody is named).
 */
export function memberRef(id: number | null, names: ReadonlyMap<number, string>): MemberRef | null {
  if (id === null) return null;
  const name = names.get(id);
  return name === undefined ? null : { id, name };
}

/**
 * Who changed a thing last, in the words of the member now reading: "you" when it was the current actor (the same
 * member, or the local owner on the desktop), the member's name when `names` has it, else "someone" (the watcher,
 * the local owner seen by a member, or a member no longer known).
 */
export function changedByName(updatedBy: number | null, names: ReadonlyMap<number, string>): string {
  if (updatedBy === currentActor().userId) return 'you';
  return (updatedBy !== null ? names.get(updatedBy) : undefined) ?? 'someone';
}

/**
 * A save refused because what it edits changed after the copy it was made on was read (optimistic concurrency):
 * nothing was written. Code `conflict`; the message names who changed it and when (`at` ms, at the member's UTC
 * offset `tzOffsetMinutes`), then what to do: "Changed by Dana at Tue May 14, 10:00 AM. Reload it and make your
 * change again."
 */
export class ConflictError extends LotwatchError {
  constructor(by: string, at: number, tzOffsetMinutes: number) {
    super(
      'conflict',
      `Changed by ${by} at ${when(at, tzOffsetMinutes)}. Reload it and make your change again.`,
    );
  }
}

/** The machine's UTC offset at `t` (minutes east), the default where core is given none. */
export const machineOffset = (t: number): number => -new Date(t).getTimezoneOffset();
