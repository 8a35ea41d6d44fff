import { Rng, hash32 } from './rng';

/**
 * Faults on demand for tests of the client's error handling, all off by default. A fault replaces one API response;
 * `queue` applies faults to the next requests in order (the way tests ask for "the next call fails"), `rates` draws
 * them at random with a per-request probability from the seed, so a faulty run is reproducible too.
 */
export type FaultKind =
  /** 500 with Laravel's bare `{ "message": "Server Error" }`. */
  | 'error_500'
  /** 503 with the service's error envelope. */
  | 'error_503'
  /** 429 with Retry-After, as in a burst of rate limiting. */
  | 'burst_429'
  /** Headers promise the full JSON body; half of it arrives, then the connection closes. */
  | 'truncated'
  /** 200 with a JSON content type and a body that is not JSON. */
  | 'non_json'
  /** 502 with an HTML page from the web server in front of the service. */
  | 'html'
  /** The connection is closed without any response. */
  | 'drop'
  /** 502 with the real service's JSON `{ "ok": false, "message": "Vehicle API request failed." }` (an upstream failure). */
  | 'error_502'
  /** 200 with an HTML page (a consent page in front of the service) instead of JSON: an answer that is not JSON. */
  | 'html_200'
  /**
   * 200 with the JSON envelope `{ ok: true, data: { renderer, message }, meta: null }` and none of the endpoint's
   * fields or lists (no `data.items`): an answer whose shape changed.
   */
  | 'reshaped'
  /**
   * 400 with the spec's error envelope (`{ ok: false, status: 400, message }`; the spec does not show a 400's body):
   * the service refused a parameter as invalid, e.g. a cursor it no longer takes.
   */
  | 'error_400';

/** Every fault kind. New kinds go last: `rates` draws walk this order, so a seed keeps its earlier faults. */
export const FAULT_KINDS: readonly FaultKind[] = [
  'error_500',
  'error_503',
  'burst_429',
  'truncated',
  'non_json',
  'html',
  'drop',
  'error_502',
  'html_200',
  'reshaped',
  'error_400',
];

export interface FaultSettings {
  /** Extra delay before every API response, ms (real time). */
  latencyMs?: number;
  /** Up to this much more delay, drawn per request, ms. */
  latencyJitterMs?: number;
  /** Probability 0..1 per request of each fault kind. */
  rates?: Partial<Record<FaultKind, number>>;
  /** Faults for the next requests, one each, in order. */
  queue?: FaultKind[];
  /**
   * Forces the real service's shapes (docs/service-contract.md "Records") on the covered paths. The real shape is
   * now the sandbox's default, so this only matters for a sandbox started with shape 'spec'; kept so older tests
   * keep working.
   */
  drift?: boolean;
  /** Only requests whose path contains this text are faulted (latency and drift included). */
  pathContains?: string;
}

/** Holds the current fault settings and picks the fault (if any) of each request. */
export class Faults {
  settings: FaultSettings = {};
  private n = 0;
  constructor(
    private readonly seed: number,
    initial: FaultSettings = {},
  ) {
    this.set(initial);
  }

  /** Replaces the settings, after checking them. @throws Error naming the bad field. */
  set(s: FaultSettings): void {
    for (const k of s.queue ?? [])
      if (!FAULT_KINDS.includes(k)) throw new Error(`unknown fault kind in queue: ${String(k)}`);
    for (const [k, p] of Object.entries(s.rates ?? {})) {
      if (!FAULT_KINDS.includes(k as FaultKind)) throw new Error(`unknown fault kind in rates: ${k}`);
      if (typeof p !== 'number' || p < 0 || p > 1)
        throw new Error(`rate of ${k} must be a number from 0 to 1`);
    }
    if (s.latencyMs !== undefined && !(s.latencyMs >= 0)) throw new Error('latencyMs must be >= 0');
    this.settings = { ...s, queue: [...(s.queue ?? [])] };
  }

  applies(path: string): boolean {
    return !this.settings.pathContains || path.includes(this.settings.pathContains);
  }

  /** Whether the drift setting forces the real shape on `path`. */
  drift(path: string): boolean {
    return this.settings.drift === true && this.applies(path);
  }

  /** Delay for this request, ms. */
  latency(path: string): number {
    const s = this.settings;
    if (!this.applies(path) || (!s.latencyMs && !s.latencyJitterMs)) return 0;
    const jitter = s.latencyJitterMs
      ? new Rng(hash32(this.seed, 0x1a7, this.n)).next() * s.latencyJitterMs
      : 0;
    return (s.latencyMs ?? 0) + jitter;
  }

  /** The fault of the next request on `path`, or null; consumes the queue. */
  next(path: string): FaultKind | null {
    const n = this.n++;
    if (!this.applies(path)) return null;
    const queued = this.settings.queue?.shift();
    if (queued) return queued;
    const rates = this.settings.rates;
    if (!rates) return null;
    const r = new Rng(hash32(this.seed, 0xfa17, n)).next();
    let acc = 0;
    for (const k of FAULT_KINDS) {
      acc += rates[k] ?? 0;
      if (r < acc) return k;
    }
    return null;
  }
}
