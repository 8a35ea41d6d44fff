import { memberIds } from '../members';
import type { KyselyExec } from './exec';

/**
 * The names of the members `ids` in `users` on either engine (see SqliteMemberNames in ../members.ts), by id; an id
 * with no row is left out. No query when `ids` is empty. Joins the open transaction. Throws the driver's errors.
 */
export async function memberNamesOf(exec: KyselyExec, ids: readonly number[]): Promise<Map<number, string>> {
  const wanted = memberIds(ids);
  if (wanted.length === 0) return new Map();
  const rows = await exec.db.selectFrom('users').select(['id', 'name']).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
