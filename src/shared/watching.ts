import { z } from 'zod';

/**
 * The one state of watching (docs/architecture.md "The watching state"): what the header, Usage's top card and the
 * watchlist banner say, computed once in core and sent as `status.get`'s `watching` and the `watching.changed`
 * event, so no view works it out from its own pieces and no two views disagree. Times are ms since the epoch.
 *
 * - `running`: saved searches and watched lots are checked on their schedules.
 * - `paused_by_buyer`: the buyer paused watching (tray, Usage or Settings) until `until`.
 * - `quota_spent`: the plan's requests are used up until the period ends (`until`, null when the service did not
 *   say); nothing is sent before then (docs/service-contract.md "Plans and quota").
 * - `rate_limited`: the service said "too many requests a second"; a short wait until `until`.
 * - `offline`: the last request got no answer (refused connection, DNS failure, timeout).
 * - `key_rejected`: the service answered 401 to the key; nothing works until the buyer enters another.
 * - `no_key`: no key for the service's address and Demo mode off: nothing is watched.
 */
export const WatchingStateSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('running') }),
  z.object({ kind: z.literal('paused_by_buyer'), until: z.number() }),
  z.object({ kind: z.literal('quota_spent'), until: z.number().nullable() }),
  z.object({ kind: z.literal('rate_limited'), until: z.number() }),
  z.object({ kind: z.literal('offline') }),
  z.object({ kind: z.literal('key_rejected') }),
  z.object({ kind: z.literal('no_key') }),
]);

export type WatchingState = z.infer<typeof WatchingStateSchema>;

/** Whether two states say the same thing (same kind, same end): an unchanged state is not sent again. */
export function sameWatchingState(a: WatchingState, b: WatchingState): boolean {
  return a.kind === b.kind && ('until' in a ? a.until : null) === ('until' in b ? b.until : null);
}
