/*
 * Alert channels' logic that is not SQL, shared by the SQLite repository (channelsRepo.ts) and the Kysely one
 * (kysely/channelsRepo.ts).
 */

/**
 * A channel's failure streak after a failed attempt at `now` (ms), from its row as the failure left it: how many
 * attempts failed in a row, and since when (ms; `now` when the row names no start). Pure.
 */
export function streakOf(
  r: { failures: number; failing_since: number | null },
  now: number,
): { failures: number; since: number } {
  return { failures: r.failures, since: r.failing_since ?? now };
}
