/** How many alert titles a digest lists before "and N more": a notification shows a few lines at most. */
export const DIGEST_TITLES = 3;

/**
 * One notification summarising the alerts held during quiet hours (QuietHoursSchema: "delivered as one digest
 * when it ends"). Title `7 alerts during quiet hours`; body the first DIGEST_TITLES titles, one a line, then
 * `and N more`. dedup_key `digest:<now>`.
 *
 * @param alerts the held alerts, in the order to list them.
 * @param now ms since the epoch.
 * @returns the digest texts and key. Throws nothing.
 */
export function buildDigest(
  alerts: readonly { title: string; body: string }[],
  now: number,
): { title: string; body: string; dedup_key: string } {
  const n = alerts.length;
  const title =
    n === 0 ? 'No alerts during quiet hours' : `${n} alert${n === 1 ? '' : 's'} during quiet hours`;
  const lines = alerts.slice(0, DIGEST_TITLES).map((a) => a.title);
  if (n > DIGEST_TITLES) lines.push(`and ${n - DIGEST_TITLES} more`);
  return { title, body: lines.join('\n'), dedup_key: `digest:${now}` };
}

/**
 * The notice for alerts a stopped run had claimed but not marked shown (a crash, kill -9 or power cut in the
 * moment between the claim and the mark): Lotwatch cannot know whether the notification appeared, so rather than
 * show each one again (twice, if it did appear) it names them once. Title `Lotwatch stopped while showing 2 alerts`;
 * body the first DIGEST_TITLES titles, one a line, then `and N more`. dedup_key `recovered:<now>`.
 *
 * @param alerts the left-claimed alerts, in id order; at least one.
 * @param now ms since the epoch.
 * @returns the notice's texts and key. Throws nothing.
 */
export function buildRecoveryNotice(
  alerts: readonly { title: string }[],
  now: number,
): { title: string; body: string; dedup_key: string } {
  const n = alerts.length;
  const title = `Lotwatch stopped while showing ${n === 1 ? 'an alert' : `${n} alerts`}`;
  const lines = alerts.slice(0, DIGEST_TITLES).map((a) => a.title);
  if (n > DIGEST_TITLES) lines.push(`and ${n - DIGEST_TITLES} more`);
  return { title, body: lines.join('\n'), dedup_key: `recovered:${now}` };
}
