/** How many alert titles a digest lists before "and N more": a notification shows a few lines at most. */
export const DIGEST_TITLES = 3;

/**
 * One notification summarising the alerts held during quiet hours (QuietHoursSchema: "delivered as one digest
 * when it ends"). Title `7 alerts while you were away`; body the first DIGEST_TITLES titles, one a line, then
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
    n === 0 ? 'No alerts while you were away' : `${n} alert${n === 1 ? '' : 's'} while you were away`;
  const lines = alerts.slice(0, DIGEST_TITLES).map((a) => a.title);
  if (n > DIGEST_TITLES) lines.push(`and ${n - DIGEST_TITLES} more`);
  return { title, body: lines.join('\n'), dedup_key: `digest:${now}` };
}
