import type { QuotaSnapshot } from '../shared/vehicle';
import type { RequestLogEntry, RequestsRepo } from './db/requestsRepo';
import type { Async } from './db/store';
import type { Logger } from './log';

const DAY = 86_400_000;
/**
 * How far back the ledger keeps send times (ms): a plan's month. The request budget's pacing looks back two refills
 * of its bucket, more than two days on a small allowance (the free plan's 3 a day looks back a week).
 */
export const LEDGER_MEMORY_MS = 32 * DAY;
/** How far back each tick reads the log again (ms): what other processes wrote lately (RequestLedger.refresh). */
export const LEDGER_REFRESH_MS = 2 * DAY;

/** The request log's part the ledger reads and writes. */
export type LedgerRepo = Pick<
  Async<RequestsRepo>,
  'logRequest' | 'sentWithQuotaSince' | 'loadQuota' | 'saveQuota' | 'deleteQuota'
>;

/**
 * The request log and the quota snapshot as the planner reads them (docs/architecture.md "Two engines: one store"):
 * in memory, so the request budget's questions (how many requests this key sent in the last 24 h, when) are answered
 * synchronously while a tick plans, on either engine. Every request is counted in memory the moment its answer (or
 * failure) is known and written to the store's request log in order behind it. `load` reads the last
 * LEDGER_MEMORY_MS at start; `refresh` reads the last LEDGER_REFRESH_MS again before each tick, so what another
 * process wrote lately counts too (a team's other servers on the key). Throws nothing: a write that fails is logged,
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
   * Reads the send times of the last LEDGER_MEMORY_MS before `now` (ms) and the quota snapshot from the store, after
   * this process's pending writes (at start). @throws the store's error (the ledger keeps what it had).
   */
  async load(now: number): Promise<void> {
    await this.writes;
    const [rows, q] = await Promise.all([
      this.d.requests.sentWithQuotaSince(now - LEDGER_MEMORY_MS),
      this.d.requests.loadQuota(),
    ]);
    this.sent = rows;
    this.snapshot = q;
  }

  /**
   * Reads the last LEDGER_REFRESH_MS before `now` (ms) of the log again, and the quota snapshot, after this process's
   * pending writes; older send times stay as loaded. @throws the store's error (the ledger keeps what it had).
   */
  async refresh(now: number): Promise<void> {
    await this.writes;
    const from = now - LEDGER_REFRESH_MS;
    const [rows, q] = await Promise.all([
      this.d.requests.sentWithQuotaSince(from),
      this.d.requests.loadQuota(),
    ]);
    this.sent = [...this.sent.slice(0, this.firstAt(from)), ...rows];
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
    if (this.sent.length > 64 && this.sent[0]!.at < from) this.sent = this.sent.slice(this.firstAt(from));
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
    for (let i = this.firstAt(since); i < this.sent.length; i++) {
      const s = this.sent[i]!;
      if (s.quotaId === id) out.push(s.at);
    }
    return out;
  }

  /** The index of the first send time at or after `at` (the list is in send order). */
  private firstAt(at: number): number {
    let lo = 0;
    let hi = this.sent.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sent[mid]!.at < at) lo = mid + 1;
      else hi = mid;
    }
    return lo;
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
