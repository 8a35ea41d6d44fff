import type { Facility } from './geo';
import type { Lot } from './market';
import { LotOrder } from './lotOrder';
import { Rng, hash32 } from './rng';
import { MinHeap } from './heap';

/**
 * The service's refresh lag. The real service does not show the auction houses' state as it is: it "refreshes
 * prices and states within about 15 minutes, live bids every 10 to 15 seconds" (docs/service-contract.md "Plans
 * and quota"). The sandbox models that as a scraper that revisits each lot on its own cycle:
 *
 * - every lot has a refresh period drawn uniformly from `periodMs` (default 5 to 15 min) and a phase uniform within
 *   it; at each tick of that cycle the service's record of the lot is rewritten from the market (all fields). So a
 *   change waits for the lot's next tick: a lag uniform in [0, period), never over 15 min by default.
 * - while a lot is live (on the block), a second, faster cycle (`liveBidMs`, default 10 to 15 s per lot) copies its
 *   current bid only; its state (live, then ended with the result) still waits for the regular cycle.
 * - a lot that appears (a new listing, a relist) is absent from the service's answers until its first tick.
 *
 * The cycles are drawn from the seed and the lot id, so the same seed gives the same lags. The period's shape
 * (uniform 5-15 min) is an ASSUMPTION; the 15 min bound and the 10-15 s live cycle are the
 * contract's.
 */
export interface RefreshOptions {
  /** [min, max] of a lot's refresh period, ms; each lot draws its own, uniformly. Default [5 min, 15 min]. */
  periodMs?: [number, number];
  /** [min, max] of a live lot's bid refresh period, ms; drawn per lot. Default [10 s, 15 s]. */
  liveBidMs?: [number, number];
}

/** 'real': the real-like lag (RefreshOptions defaults); 'instant': every change visible at once (lag 0). */
export type RefreshSetting = 'real' | 'instant' | RefreshOptions;

export interface RefreshModel {
  periodMs: [number, number];
  liveBidMs: [number, number];
}

/** The defaults of RefreshOptions: docs/service-contract.md "Plans and quota" (15 min; live bids 10 to 15 s). */
export const REAL_REFRESH: Readonly<RefreshModel> = Object.freeze<RefreshModel>({
  periodMs: [5 * 60_000, 15 * 60_000],
  liveBidMs: [10_000, 15_000],
});

/**
 * The refresh model of a setting: null for 'instant' (or a period of 0), else the periods with defaults filled.
 * @throws RangeError when a range is not [min, max] with 1 s <= min <= max (a period of [0, 0] means instant).
 */
export function resolveRefresh(s: RefreshSetting | undefined): RefreshModel | null {
  if (s === 'instant') return null;
  if (s === undefined || s === 'real')
    return { periodMs: [...REAL_REFRESH.periodMs], liveBidMs: [...REAL_REFRESH.liveBidMs] };
  if (typeof s !== 'object' || s === null)
    throw new RangeError(`refresh must be 'real', 'instant' or an object, not ${String(s)}`);
  const periodMs = s.periodMs ?? REAL_REFRESH.periodMs;
  if (periodMs[0] === 0 && periodMs[1] === 0) return null;
  const liveBidMs = s.liveBidMs ?? REAL_REFRESH.liveBidMs;
  for (const [name, [lo, hi]] of [
    ['periodMs', periodMs],
    ['liveBidMs', liveBidMs],
  ] as const) {
    if (!(lo >= 1000 && lo <= hi))
      throw new RangeError(`refresh.${name} must be [min, max] with 1000 <= min <= max`);
  }
  return { periodMs: [periodMs[0], periodMs[1]], liveBidMs: [liveBidMs[0], liveBidMs[1]] };
}

/** What the API handlers read: the market itself (no lag) or the service's lagged copy of it (ServiceView). */
export interface MarketReader {
  /** Market time of the answer, ms since epoch. */
  readonly now: number;
  readonly facilities: Facility[];
  /** Every lot the service knows, in creation order. */
  readonly lots: Lot[];
  /** The same lots in list order (auction date, update time, id). */
  readonly sorted: Lot[];
  readonly byNumber: Map<string, Lot>;
  readonly byItemId: Map<string, Lot>;
  readonly byVin: Map<string, Lot[]>;
  /** Bumped on every change (cache key of derived bodies). */
  readonly version: number;
  /** The lots of one make and model (both lower-case) in list order: `sorted` less the other vehicles. */
  sortedOf(make: string, model: string): readonly Lot[];
  /**
   * Index in `list` (default `sorted`; or a sortedOf list) before which no lot is Open (a search for open lots may
   * start there).
   */
  firstUpcoming(list?: readonly Lot[]): number;
  findLot(id: string): Lot | undefined;
  latestForVin(vin: string): Lot | undefined;
}

/** The market side a ServiceView reads: its clock, facilities and the longest wait from sale time to going live. */
export interface ViewSource {
  readonly seed: number;
  readonly now: number;
  readonly facilities: Facility[];
  readonly maxStartDelayMs: number;
}

const enum Kind {
  Full,
  Bid,
}

interface Pending {
  t: number;
  id: number;
  kind: Kind;
  lot: Lot;
}

const cmpLots = (a: Lot, b: Lot): number =>
  a.auctionAt - b.auctionAt || a.updatedAt - b.updatedAt || a.id - b.id;

/**
 * The service's records: a copy of each lot as of its last refresh (see RefreshOptions), kept in the same indexes
 * the market keeps, so the API answers from it unchanged. The market (the ground truth) tells the view of each
 * change (`changed`) and applies the refreshes due in time order with its own steps (`nextDue`, `applyDue`).
 */
export class ServiceView implements MarketReader {
  readonly lots: Lot[] = [];
  /** The records in list order, brought up to date when read (lotOrder.ts). */
  private readonly order = new LotOrder(cmpLots);
  readonly byNumber = new Map<string, Lot>();
  readonly byItemId = new Map<string, Lot>();
  readonly byVin = new Map<string, Lot[]>();
  version = 0;
  private readonly copies: (Lot | undefined)[] = [];
  /** Per lot id: the time of its scheduled regular and live-bid refresh (absent: none scheduled). */
  private readonly fullAt = new Map<number, number>();
  private readonly bidAt = new Map<number, number>();
  private heap = new MinHeap<Pending>(
    (a, b) => a.t < b.t || (a.t === b.t && (a.id < b.id || (a.id === b.id && a.kind < b.kind))),
  );

  constructor(
    private readonly src: ViewSource,
    readonly model: RefreshModel,
  ) {}

  get now(): number {
    return this.src.now;
  }

  get facilities(): Facility[] {
    return this.src.facilities;
  }

  /** The records in list order (auction date, update time, id), every refresh so far applied. */
  get sorted(): Lot[] {
    return this.order.list();
  }

  /** Publishes `lots` as they are (the service's records at the market's start), in list order. */
  init(lots: Lot[]): void {
    for (const l of lots) this.publish(l, l.updatedAt);
  }

  /**
   * A change of `lot` at market time `t`. `liveBid`: a bid during the live phase (the fast cycle). Schedules the
   * refresh that will show it and returns that refresh's time, ms since epoch.
   */
  changed(lot: Lot, t: number, liveBid: boolean): number {
    const kind = liveBid ? Kind.Bid : Kind.Full;
    const map = liveBid ? this.bidAt : this.fullAt;
    const had = map.get(lot.id);
    if (had !== undefined && had >= t) return had;
    const [lo, hi] = liveBid ? this.model.liveBidMs : this.model.periodMs;
    const rng = new Rng(hash32(this.src.seed, liveBid ? 0x11b : 0x2ef, lot.id));
    const period = Math.round((lo + rng.next() * (hi - lo)) / 1000) * 1000;
    const phase = Math.floor((rng.next() * period) / 1000) * 1000;
    const at = phase + Math.ceil((t - phase) / period) * period;
    map.set(lot.id, at);
    this.heap.push({ t: at, id: lot.id, kind, lot });
    return at;
  }

  /** Rewrites the record of `lot` now (test control: a change made on demand shows at once). */
  refreshNow(lot: Lot, t: number): void {
    this.publish(lot, t);
  }

  /** Time of the next refresh due, ms since epoch; Infinity when none. */
  nextDue(): number {
    return this.heap.peek()?.t ?? Infinity;
  }

  /** Applies the next refresh due (the caller has applied every market step up to its time). */
  applyDue(): void {
    const p = this.heap.pop();
    if (!p) return;
    if (p.kind === Kind.Full) {
      if (this.fullAt.get(p.id) === p.t) this.fullAt.delete(p.id);
      this.publish(p.lot, p.t);
      return;
    }
    if (this.bidAt.get(p.id) === p.t) this.bidAt.delete(p.id);
    const v = this.copies[p.id];
    // A lot not yet published shows its bid with its first regular refresh.
    if (!v || v.currentBid === p.lot.currentBid) return;
    this.order.touch(v);
    v.currentBid = p.lot.currentBid;
    v.updatedAt = p.t;
    this.version++;
  }

  /** The records of one make and model (both lower-case) in list order. */
  sortedOf(make: string, model: string): readonly Lot[] {
    return this.order.listOf(make, model);
  }

  firstUpcoming(list: readonly Lot[] = this.sorted): number {
    // An Open record's sale time is later than now - (longest wait to go live + longest refresh period): the
    // market's lot went live by its sale time plus that wait, and the next regular refresh shows it.
    const bound = this.src.now - this.src.maxStartDelayMs - this.model.periodMs[1];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((list[mid] as Lot).auctionAt <= bound) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  findLot(id: string): Lot | undefined {
    return this.byNumber.get(id) ?? this.byItemId.get(id);
  }

  latestForVin(vin: string): Lot | undefined {
    const list = this.byVin.get(vin.toUpperCase());
    return list?.[list.length - 1];
  }

  /** The service's record of the market lot with `id`, or undefined before its first refresh. */
  recordOf(id: number): Lot | undefined {
    return this.copies[id];
  }

  private publish(lot: Lot, t: number): void {
    const v = this.copies[lot.id];
    if (v) {
      this.order.touch(v);
      Object.assign(v, lot);
      v.updatedAt = Math.max(t, lot.updatedAt);
    } else {
      const c: Lot = { ...lot, updatedAt: Math.max(t, lot.updatedAt) };
      this.copies[lot.id] = c;
      this.lots.push(c);
      this.byNumber.set(c.lotNumber, c);
      if (c.itemId) this.byItemId.set(c.itemId, c);
      const list = this.byVin.get(c.v.vin);
      if (!list) this.byVin.set(c.v.vin, [c]);
      else {
        // Keep a VIN's listings in creation order (latestForVin reads the last).
        let i = list.length;
        while (i > 0 && (list[i - 1] as Lot).id > c.id) i--;
        list.splice(i, 0, c);
      }
      this.order.touch(c);
    }
    this.version++;
  }
}
