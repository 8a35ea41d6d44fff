import type { QuotaSnapshot } from '../shared/vehicle';
import type { RequestLogEntry, RequestsRepo } from './db/requestsRepo';
import type { Async } from './db/store';
import type { Logger } from './log';

/** How far back the ledger keeps send times (ms): the request budget's token bucket looks back at most two days. */
export const LEDGER_MEMORY_MS = 2 * 86_400_000;

/** The request log's part the ledger reads and writes. */
export type LedgerRepo = Pick<
  Async<RequestsRepo>,
  'logRequest' | 'sentWithQuotaSince' | 'loadQuota' | 'saveQuota' | 'deleteQuota'
>;

/**
 * The request log and the quota snapshot as the planner reads them (docs/architecture.md "Two engines: one store"):
 * in memory, so the request budget's questions (how many requests this key sent in the last 24 h, when) are answered
 * synchronously while a tick plans, on either engine. Every request is counted in memory the moment its answer (or
 * failure) is known and written to the store's request log in order behind it; `refresh` reloads both from the store
 * (at start, and at each tick when other servers share the key's log). Throws nothing: a write that fails is logged,
 * the request stays counted.
 */
export class RequestLedger {
  private sent: { at: number; quotaId: string | null }[] = [];
  private snapshot: QuotaSnapshot | null = null;
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly d: {
      requests: LedgerRepo;
      /** Whose quota spends count (ServiceClient.quotaId), read at each question: the key can change. */
      quotaId: () => string | null;
      log: Logger;
    },
  ) {}

  /**
   * Reloads the send times of the last two days (LEDGER_MEMORY_MS before `now`, ms) and the quota snapshot from the
   * store, after this process's pending writes. @throws the store's error (the ledger keeps what it had).
   */
  async refresh(now: number): Promise<void> {
    await this.writes;
    const [rows, q] = await Promise.all([
      this.d.requests.sentWithQuotaSince(now - LEDGER_MEMORY_MS),
      this.d.requests.loadQuota(),
    ]);
    this.sent = rows;
    this.snapshot = q;
  }

  /** Counts one request sent (or tried) at once and logs it to the store behind the writes before it. */
  record(r: RequestLogEntry): void {
    const quotaId = r.quotaId ?? null;
    // Answers can arrive out of send order: the list stays ordered by send time.
    let i = this.sent.length;
    while (i > 0 && this.sent[i - 1]!.at > r.at) i--;
    this.sent.splice(i, 0, { at: r.at, quotaId });
    const from = r.at - LEDGER_MEMORY_MS;
    if (this.sent.length > 64 && this.sent[0]!.at < from) this.sent = this.sent.filter((s) => s.at >= from);
    this.queue('request log', () => this.d.requests.logRequest(r));
  }

  /** Requests of the current quota sent at or after `since` (ms); 0 without a quota id. */
  spentSince(since: number): number {
    return this.sentSince(since).length;
  }

  /** When each request of the current quota at or after `since` (ms) was sent, oldest first; [] without one. */
  sentSince(since: number): number[] {
    const id = this.d.quotaId();
    if (id === null) return [];
    const out: number[] = [];
    for (const s of this.sent) if (s.quotaId === id && s.at >= since) out.push(s.at);
    return out;
  }

  /** The last quota snapshot (from the service's headers), or null before the first answer. */
  quota(): QuotaSnapshot | null {
    return this.snapshot;
  }

  /** Keeps `q` as the quota snapshot at once and stores it (`now`, ms). */
  saveQuota(q: QuotaSnapshot, now: number): void {
    this.snapshot = q;
    this.queue('quota', () => this.d.requests.saveQuota(q, now));
  }

  /** Forgets the quota snapshot (another key, service or mode reports its own) at once and in the store. */
  deleteQuota(): void {
    this.snapshot = null;
    this.queue('quota', () => this.d.requests.deleteQuota());
  }

  /** Resolves when every write queued so far has been tried (at dispose, before the file closes). */
  flush(): Promise<void> {
    return this.writes;
  }

  private queue(what: string, write: () => Promise<void>): void {
    this.writes = this.writes.then(write).catch((e: unknown) => {
      this.d.log.warn(`could not store the ${what}`, { error: e instanceof Error ? e.message : String(e) });
    });
  }
}
