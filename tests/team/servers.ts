import { teamCall, type TeamSession } from '../../src/shared/teamClient';

/* Team servers as processes: src/headless/teamProcess.ts (the team demo starts them the same way). */
export { LEADS_LINE, startTeamServer, type TeamServerProcess } from '../../src/headless/teamProcess';

/** As `teamCall`, returning the value. @throws Error with the method and the envelope's message when it fails. */
export async function value<T = unknown>(s: TeamSession, method: string, input?: unknown): Promise<T> {
  const r = await teamCall(s, method, input);
  if (!r.ok) throw new Error(`${method}: ${r.error.code} ${r.error.message} (HTTP ${r.status})`);
  return r.value as T;
}
