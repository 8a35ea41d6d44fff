import type { CallTarget } from '../shared/callWatch';
import { createHash } from 'node:crypto';
import type { DemoLiveBid } from '../shared/demoShowcase';
import type { Dispatcher } from 'undici';
import type { ContractEvent } from '../shared/ipc/contract';
import type { QuotaSnapshot } from '../shared/vehicle';
import { createApiClient, type ApiClient } from './api';
import { clientOrThrow, type ClientAccess } from './api/clientOrThrow';
import type { ApiKeyStore } from './apiKey';
import type { Clock } from './clock';
import type { SettingsSource } from './db/settingsRepo';
import type { Logger } from './log';
import type { RequestLedger } from './requestLedger';

/**
 * What the service client's life needs: where the key and mode are read, the request ledger (the request log and
 * quota snapshot, counted in memory and stored behind), the clocks, the port.
 */
export interface ServiceClientDeps {
  settings: SettingsSource;
  apiKey: Pick<ApiKeyStore, 'keyFor'>;
  ledger: Pick<RequestLedger, 'record' | 'quota' | 'saveQuota' | 'deleteQuota'>;
  /** The market clock (quota snapshot times, whether the clock is accelerated). */
  clock: Clock;
  /** The clock of the client's own waits (timeouts, backoff, rate spacing): the network is never accelerated. */
  clientClock: Clock;
  log: Logger;
  /** Whether the database is still open (an answer arriving after dispose is not logged). */
  dbOpen: () => boolean;
  emit: (e: ContractEvent) => void;
  dispatcher?: Dispatcher;
  /** Starts (once) and describes the built-in sandbox for Demo mode (CoreDeps.demoService). */
  demoService?: () => Promise<DemoEndpoint>;
}

/** The built-in sandbox of Demo mode as a shell starts it: its address and key, and its market's next live bids. */
export interface DemoEndpoint {
  baseUrl: string;
  apiKey: string;
  ratePerSecond?: number;
  /** The Demo market's next bids on the block, for the first start's example watches (DemoService.seed). */
  liveBids?: () => DemoLiveBid[];
  /**
   * The example call watch of Demo mode (a video-platform call whose answer moves in the Demo service), made with
   * the other examples on the first start; absent: none.
   */
  callExample?: { name: string; target: CallTarget };
}

/**
 * Whose quota a request spends, as the request log stores it: `demo` for Demo mode's simulated service, else
 * `key:` and the first 16 hex digits of a SHA-256 of the service URL and the key, so two keys (or one key on two
 * services) are told apart without the key ever being stored in the log. Null without a key. Throws nothing.
 */
export function quotaIdOf(
  demoMode: boolean,
  serviceUrl: string,
  key: string | null | undefined,
): string | null {
  if (demoMode) return 'demo';
  if (!key) return null;
  const h = createHash('sha256').update(`lotwatch-quota\0${serviceUrl}\0${key}`).digest('hex');
  return `key:${h.slice(0, 16)}`;
}

/**
 * The service client for the current mode and key (the sandbox in Demo mode, else the service URL with the key
 * bound to its origin), rebuilt when they change. Every answer is logged, says whether the service is reachable
 * (`reachability.changed`) and feeds its quota headers to the budget (`quota.changed`); what is built after this
 * (the watch engine) follows through `onQuota` and `onRebuilt`, so nothing here reaches forward.
 */
export class ServiceClient implements ClientAccess {
  private current: ApiClient | null = null;
  private reach: boolean | null = null;
  private rejected = false;
  private readonly answerListeners = new Set<() => void>();
  private readonly quotaListeners = new Set<(q: QuotaSnapshot) => void>();
  private readonly rebuiltListeners = new Set<() => void>();

  constructor(private readonly d: ServiceClientDeps) {}

  /** The client for the current key and mode, or null (no key for the service URL's origin, Demo mode off). */
  client(): ApiClient | null {
    return this.current;
  }

  /** The client, or the one "no key" error. @throws LotwatchError `unauthorized`. */
  clientOrThrow(): ApiClient {
    return clientOrThrow(this.current);
  }

  /** Whether the service answered the last request (null before the first): the header's "Offline". */
  reachable(): boolean | null {
    return this.reach;
  }

  /** Whether the service answered the last answered request 401 (the key was refused); a later success clears it. */
  keyRejected(): boolean {
    return this.rejected;
  }

  /**
   * Calls `l` after every request, answered or not, and after every rebuild (the state of watching follows).
   * Returns the unsubscribe.
   */
  onAnswer(l: () => void): () => void {
    this.answerListeners.add(l);
    return () => this.answerListeners.delete(l);
  }

  /** Calls `l` with every merged quota snapshot, after it is stored. Returns the unsubscribe function. */
  onQuota(l: (q: QuotaSnapshot) => void): () => void {
    this.quotaListeners.add(l);
    return () => this.quotaListeners.delete(l);
  }

  /** Calls `l` when a client was replaced (another key, service or mode: another quota). Returns the unsubscribe. */
  onRebuilt(l: () => void): () => void {
    this.rebuiltListeners.add(l);
    return () => this.rebuiltListeners.delete(l);
  }

  /**
   * Whose quota the current client's requests spend (quotaIdOf): `demo`, `key:<fingerprint>`, or null when no
   * client is built. Usage counts the request log by it.
   */
  quotaId(): string | null {
    if (!this.current) return null;
    const s = this.d.settings.get();
    return quotaIdOf(s.demoMode, s.serviceUrl, s.demoMode ? null : this.d.apiKey.keyFor(s.serviceUrl));
  }

  private readonly options = (quotaId: () => string | null) => ({
    clock: this.d.clientClock,
    log: this.d.log,
    ...(this.d.dispatcher ? { dispatcher: this.d.dispatcher } : {}),
    sink: (r: Parameters<NonNullable<Parameters<typeof createApiClient>[0]['sink']>>[0]) => {
      if (this.d.dbOpen()) this.d.ledger.record({ ...r, quotaId: quotaId() });
      const now = r.status !== null;
      if (now !== this.reach) {
        this.reach = now;
        this.d.emit({ name: 'reachability.changed', payload: { reachable: now, at: r.at } });
      }
      if (r.status === 401) this.rejected = true;
      else if (r.status !== null && r.status < 400) this.rejected = false;
      for (const l of this.answerListeners) l();
    },
    // Every answer's quota headers, whoever asked (a poll, a search in the UI, the console), feed the budget.
    onQuota: (q: QuotaSnapshot) => {
      if (!this.d.dbOpen()) return;
      // An answer without the period headers (some 429s) keeps the period of the last full snapshot, so a spent
      // quota is still said as "until 12 December".
      const prev = this.d.ledger.quota();
      const keep = q.periodEnd === null && prev?.periodEnd != null && prev.periodEnd > q.at;
      const merged = keep ? { ...q, periodStart: prev.periodStart, periodEnd: prev.periodEnd } : q;
      this.d.ledger.saveQuota(merged, this.d.clock.now());
      for (const l of this.quotaListeners) l(merged);
      this.d.emit({ name: 'quota.changed', payload: merged });
    },
  });

  /**
   * Builds the client for the current mode: the sandbox in Demo mode, else the service URL with the user's key;
   * none on an accelerated clock outside Demo mode. Rejects with what starting the sandbox or closing the old
   * client throws.
   */
  async rebuild(): Promise<void> {
    try {
      await this.replace();
    } finally {
      // The state of watching follows the new client (or its absence) at once.
      for (const l of this.answerListeners) l();
    }
  }

  /** rebuild's work: closes the old client and builds the one the settings call for. */
  private async replace(): Promise<void> {
    const old = this.current;
    this.current = null;
    this.rejected = false;
    await old?.close();
    // Another key, service or mode has its own quota: the old one's numbers and pause no longer apply.
    if (old) {
      this.d.ledger.deleteQuota();
      for (const l of this.rebuiltListeners) l();
    }
    const s = this.d.settings.get();
    if (s.demoMode) {
      if (!this.d.demoService) return;
      const demo = await this.d.demoService();
      this.current = createApiClient({
        ...this.options(() => 'demo'),
        baseUrl: demo.baseUrl,
        apiKey: () => demo.apiKey,
        ratePerSecond: demo.ratePerSecond ?? 10,
      });
    } else if ((this.d.clock.speed ?? 1) > 1) {
      // An accelerated clock drives the Demo market only: the real service is never asked at that pace.
      this.d.log.warn('Demo mode is off on an accelerated clock: the real service is not called');
    } else if (this.d.apiKey.keyFor(s.serviceUrl)) {
      // The key is looked up per request for this client's URL, so a key set later for another origin never
      // reaches this one (a retry in flight, say).
      const baseUrl = s.serviceUrl;
      this.current = createApiClient({
        ...this.options(() => quotaIdOf(false, baseUrl, this.d.apiKey.keyFor(baseUrl))),
        baseUrl,
        apiKey: () => this.d.apiKey.keyFor(baseUrl),
      });
    }
  }

  /** Closes the client's connections (at dispose). Resolves when they are closed. */
  async close(): Promise<void> {
    await this.current?.close();
  }
}
