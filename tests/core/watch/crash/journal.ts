import { existsSync, readFileSync } from 'node:fs';
import type { AuditAlert, CrashFacts } from './facts';

// The child's journal (see child.ts) checked against the database after a kill -9: what the child acknowledged
// must be stored, what the user saw must match the rows, and no alert may be shown twice. Pure over (the database's
// facts, lines), on either engine (facts.ts), so the test can also feed it doctored journals and prove that each
// check can fail.

/** One line of the child's journal. */
export type JournalEntry =
  | { t: 'shown'; title: string; body: string; lotKey: string | null }
  | { t: 'raised'; id: number; kind: string; title: string; body: string; lot_key: string | null }
  | {
      t: 'poll';
      target: string;
      at: number;
      status: string;
      requests: number;
      changes: number;
      alerts: number;
    }
  | { t: 'read'; id: number };

/** What the audit found. `problems` is empty when every check holds. */
export interface Audit {
  problems: string[];
  /** The alert id of every notification shown, in order (one per `shown` line that could be tied to a row). */
  shownIds: number[];
  /** `shown` lines not followed by their `raised` line: the kill landed between the two (tied by text). */
  unpaired: number;
  /** Alerts claimed by the outbox but never shown: a kill between the claim and the notification. */
  claimedUnshown: number[];
  /**
   * Alerts a stopped run left claimed, named at the next start in a recovery notice (kind digest, dedup_key
   * `recovered:<delivered_at>`), with whether that notice has been shown.
   */
  recovered: { id: number; noticeId: number | null; noticeShown: boolean }[];
  alerts: AuditAlert[];
  polls: number;
  reads: number;
  /** Poll runs a stopped process left unfinished, marked `interrupted` at the next start. */
  interrupted: number;
}

/** Reads the journal; a missing file is an empty journal. A line that is not JSON throws (a torn write). */
export function readJournal(path: string): JournalEntry[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as JournalEntry);
}

const sameText = (a: { title: string; body: string }, lotKey: string | null, b: AuditAlert) =>
  a.title === b.title && a.body === b.body && lotKey === b.lot_key;

/**
 * Checks the database (the child dead; SQLite's file or PostgreSQL's database, see facts.ts) against the journal:
 * - the engine's soundness check passes (SQLite's `integrity_check` and `foreign_key_check`, PostgreSQL's amcheck);
 * - every acknowledged write is stored: each `poll` has its finished poll_runs row (same target, time, status,
 *   requests and changes) and at least its count of alerts created then; each `raised` alert exists with the same
 *   kind and text and is claimed or delivered; each `read` alert is read;
 * - every notification shown is tied to its alert row (by the `raised` line that follows it, or, when the kill
 *   came between the two, that is the journal's last line before a kill listed in `killedAt`, by its text among
 *   the claimed rows), was due now (never a suppressed or held alert), and no alert id is shown twice;
 * - every alert the outbox marked delivered for notification now was shown (the mark comes after the show).
 * `killedAt` holds the journal's length at each kill. Reads the alerts and poll runs once and checks in memory.
 * @throws the driver's error when the database does not answer.
 */
export async function audit(
  facts: CrashFacts,
  entries: JournalEntry[],
  killedAt: ReadonlySet<number>,
): Promise<Audit> {
  const problems = await facts.soundness();
  const alerts = await facts.alerts();
  const runs = await facts.pollRuns();
  const byId = new Map(alerts.map((a) => [a.id, a]));
  const runsLike = (e: Extract<JournalEntry, { t: 'poll' }>) =>
    runs.filter(
      (r) =>
        r.target === e.target &&
        r.finished_at === e.at &&
        r.status === e.status &&
        r.requests === e.requests &&
        r.changes === e.changes,
    ).length;
  const createdAt = new Map<number, number>();
  for (const a of alerts) createdAt.set(a.created_at, (createdAt.get(a.created_at) ?? 0) + 1);

  const shownIds: number[] = [];
  let unpaired = 0;
  let polls = 0;
  let reads = 0;
  entries.forEach((e, i) => {
    if (e.t === 'poll') {
      polls++;
      const n = runsLike(e);
      if (n !== 1)
        problems.push(
          `poll ack #${i} missing: ${e.target} at ${e.at} (${e.status}, ${e.requests} requests, ${e.changes} changes)`,
        );
      const stored = createdAt.get(e.at) ?? 0;
      if (stored < e.alerts)
        problems.push(`poll ack #${i} said ${e.alerts} alerts at ${e.at}; ${stored} stored`);
    } else if (e.t === 'raised') {
      const a = byId.get(e.id);
      if (!a) problems.push(`raised alert ${e.id} (#${i}) is not in the database`);
      else if (a.kind !== e.kind || a.title !== e.title || a.body !== e.body || a.lot_key !== e.lot_key) {
        problems.push(`raised alert ${e.id} (#${i}) differs from its row`);
      } else if (a.status !== 'claimed' && a.status !== 'delivered' && a.status !== 'recovered') {
        problems.push(`raised alert ${e.id} (#${i}) is ${a.status}, not claimed, delivered or recovered`);
      }
    } else if (e.t === 'read') {
      reads++;
      const a = byId.get(e.id);
      if (!a || a.read_at === null)
        problems.push(`alert ${e.id} was acknowledged read (#${i}) but is ${a ? 'unread' : 'missing'}`);
    } else {
      const next = entries[i + 1];
      if (
        next?.t === 'raised' &&
        next.title === e.title &&
        next.body === e.body &&
        next.lot_key === e.lotKey
      ) {
        shownIds.push(next.id);
        return;
      }
      // The kill came after the notification and before its event: legitimate only as the last line before a kill.
      if (!killedAt.has(i + 1)) {
        problems.push(`notification #${i} "${e.title}" is not followed by its alert.raised`);
        return;
      }
      unpaired++;
      // Between the notification and the mark the row must be claimed: pending means it was shown before the claim
      // (the next start shows it again), delivered that it was marked before the user saw it.
      const unseen = alerts.filter((a) => sameText(e, e.lotKey, a) && !shownIds.includes(a.id));
      // (A claimed row becomes recovered at the next start: named in its recovery notice.)
      const claimed = unseen.filter((a) => a.status === 'claimed' || a.status === 'recovered');
      if (claimed.length === 0) {
        problems.push(
          `notification #${i} "${e.title}" matches no claimed alert (${unseen.map((a) => `${a.id} ${a.status}`).join(', ') || 'none'})`,
        );
      }
      const tied = claimed[0] ?? unseen[0];
      if (tied) shownIds.push(tied.id);
    }
  });

  const times = new Map<number, number>();
  for (const id of shownIds) times.set(id, (times.get(id) ?? 0) + 1);
  for (const [id, n] of times) if (n > 1) problems.push(`alert ${id} was shown ${n} times`);
  const shown = new Set(shownIds);
  for (const id of shown) {
    const a = byId.get(id);
    if (a && a.delivery !== 'now') problems.push(`alert ${id} was shown but its delivery is ${a.delivery}`);
  }
  for (const a of alerts) {
    if (a.status === 'delivered' && a.delivery === 'now' && !shown.has(a.id)) {
      problems.push(`alert ${a.id} (${a.kind} "${a.title}") is marked delivered but was never shown`);
    }
  }
  const claimedUnshown = alerts.filter((a) => a.status === 'claimed' && !shown.has(a.id)).map((a) => a.id);
  const byKey = new Map(alerts.map((a) => [a.dedup_key, a]));
  const recovered = alerts
    .filter((a) => a.status === 'recovered')
    .map((a) => {
      const notice = byKey.get(`recovered:${a.delivered_at}`);
      if (!notice || notice.kind !== 'digest')
        problems.push(`alert ${a.id} is recovered but no recovery notice names it`);
      else if (!notice.body.split('\n').includes(a.title) && !/^and \d+ more$/m.test(notice.body))
        problems.push(`the recovery notice ${notice.id} does not list alert ${a.id} "${a.title}"`);
      // A notice a later kill left claimed is itself named in the next notice: follow the chain to one shown.
      let n = notice;
      for (let hops = 0; n && !shown.has(n.id) && n.status === 'recovered' && hops < 1000; hops++) {
        n = byKey.get(`recovered:${n.delivered_at}`);
      }
      return { id: a.id, noticeId: notice?.id ?? null, noticeShown: n ? shown.has(n.id) : false };
    });
  const interrupted = runs.filter((r) => r.status === 'interrupted').length;
  return { problems, shownIds, unpaired, claimedUnshown, recovered, alerts, polls, reads, interrupted };
}
