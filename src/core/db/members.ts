import type { Database, Statement } from 'better-sqlite3';
import { currentActor } from '../actor';

/*
 * Who did what in a team's store (docs/architecture.md "A team on one server"): the id written beside a search, a
 * watch, a call watch or a logged request, and the members' names read back for the views. Said once here for both
 * engines' repositories; the SQLite statement is here, the Kysely one in kysely/members.ts.
 */

/**
 * The member the current call acts for (currentActor), as stored in a `created_by`, `updated_by` or `user_id`
 * column: the `users` id, or null for the local owner (the desktop's one user, or the watcher's own scheduled work).
 */
export function actingUserId(): number | null {
  return currentActor().userId;
}

/** The distinct member ids among `ids` (nulls, the local owner, left out), ascending. */
export function memberIds(ids: Iterable<number | null | undefined>): number[] {
  const out = new Set<number>();
  for (const id of ids) if (typeof id === 'number') out.add(id);
  return [...out].sort((a, b) => a - b);
}

/**
 * The names of the members `ids` in `users` on the desktop's SQLite file (empty there: the desktop has no members),
 * by id; an id with no row is left out. No query when `ids` is empty, which it always is on the desktop. The
 * statement is prepared at the first lookup. Throws the driver's errors.
 */
export class SqliteMemberNames {
  private stmt: Statement<[string], { id: number; name: string }> | null = null;

  constructor(private readonly db: Database) {}

  /** The names of `ids` by id (see the class). */
  of(ids: readonly number[]): Map<number, string> {
    const wanted = memberIds(ids);
    if (wanted.length === 0) return new Map();
    this.stmt ??= this.db.prepare('SELECT id, name FROM users WHERE id IN (SELECT value FROM json_each(?))');
    return new Map(this.stmt.all(JSON.stringify(wanted)).map((r) => [r.id, r.name]));
  }
}
