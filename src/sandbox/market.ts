import {
  COLORS,
  DAMAGES,
  MODELS,
  RUN_CONDITIONS,
  SALE_DOCS,
  SELLER_NAMES,
  SECONDARY_DAMAGES,
  SELLER_TYPES,
  WEIGHTED_MODELS,
  type ModelSpec,
} from './catalog';
import { buildFacilities, type Facility, type Platform } from './geo';
import { LotOrder } from './lotOrder';
import { ServiceView, resolveRefresh, type MarketReader, type RefreshSetting } from './refresh';
import { Rng, hash32 } from './rng';
import { drawDuration, resolveTiming, type MarketTiming } from './timing';
import { MinHeap } from './heap';
import { backfillComparables, comparablesReserve } from './comparables';
import { saleFactor } from './pricing';
import { drawVehicle, lowerCased, vehicleValue } from './vehicles';

/**
 * The simulated market. Its state is a pure function of (seed, lot count, start time, market time): every lot
 * carries a plan of timed steps drawn from the seed when the lot is created, and `advanceTo` applies the steps due,
 * in (time, lot id) order, recording each as a market event. Nothing runs in the background: the server advances the
 * market to "now" on each request, so the same seed and the same market times give the same answers however the
 * requests are spaced.
 *
 * Two views of one market: the lots themselves and `events` are the ground truth (what happened and when); `service`
 * is what the service answers, which with a refresh lag (refresh.ts) shows each lot as of its last refresh. The API
 * handlers read `service`; tests and benchmarks score against the truth.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** auction.state on the wire: lowercase words (spec "States and transitions" leaves the full set open). */
export type AuctionState = 'open' | 'live' | 'sold' | 'approval' | 'unsold';
export type SubStatus = 'Open' | 'Live' | 'Ended';
export type LotStatus = 'Timed' | 'Buy Now';
/** How a lot's auction ends: sold, sold on approval (the seller may still refuse), or not sold. */
export type Outcome = 'sold' | 'approval' | 'unsold';

/**
 * The vendor's documented sample identifiers (docs/service-contract.md "The vendor's own examples"): its public
 * example clients call these VINs and Copart lot numbers, so the market always holds them (markets of at least
 * VENDOR_SAMPLE_MIN_LOTS lots) and the examples run unchanged. Each VIN is one vehicle with a deterministic story:
 * `past` listings already ended before the market's start (days before it, with their outcome), and `open`, when
 * given, a listing still to be sold (days after the start). `lotNumber` pins a listing's number; the others draw
 * theirs like any lot. The catalog's nearest model stands in where it lacks the real one (an X1 and a Tundra).
 */
export const VENDOR_SAMPLES: readonly {
  vin: string;
  make: string;
  model: string;
  year: number;
  trim: string;
  past: readonly { daysAgo: number; outcome: Outcome; lotNumber?: string }[];
  open?: { inDays: number; lotNumber: string };
}[] = [
  // Two sales ten days apart, the second final: a sales history, and a finished lot that carries "Sold".
  {
    vin: 'WBAVL1C58FVY28848',
    make: 'BMW',
    model: 'X5',
    year: 2015,
    trim: 'XDRIVE40I',
    past: [
      { daysAgo: 13, outcome: 'approval' },
      { daysAgo: 3, outcome: 'sold', lotNumber: '51015256' },
    ],
  },
  // The OpenAPI's example record (2014 HONDA CR-V EX-L, lot 45416833): sold on approval, now listed again.
  {
    vin: '2HKRM4H7XEH623608',
    make: 'HONDA',
    model: 'CR-V',
    year: 2014,
    trim: 'EX-L',
    past: [{ daysAgo: 12, outcome: 'approval' }],
    open: { inDays: 2, lotNumber: '45416833' },
  },
  // A current model year on its first listing: no history yet.
  {
    vin: '5TFLA5DBXTX349827',
    make: 'TOYOTA',
    model: 'TACOMA',
    year: 2026,
    trim: 'SR5',
    past: [],
    open: { inDays: 4, lotNumber: '78691915' },
  },
];
/** Smaller markets (unit tests of a few lots) leave the vendor samples out, so `lots` stays exact and small. */
export const VENDOR_SAMPLE_MIN_LOTS = 100;
const VENDOR_LOTS = VENDOR_SAMPLES.reduce((n, s) => n + s.past.length + (s.open ? 1 : 0), 0);

/** One physical vehicle; a VIN keeps its vehicle across relists. */
export interface Vehicle {
  vin: string;
  spec: ModelSpec;
  year: number;
  trim: string;
  color: string;
  fuel: string;
  transmission: string;
  drive: string;
  cylinders: number;
  engineL: number;
  hp: number;
  /** Miles. */
  odometer: number;
  /** Rough pre-damage market value in USD. */
  value: number;
  /** Lower-case copies of the text fields filters compare, made once so a search does not allocate per lot. */
  lc: {
    make: string;
    model: string;
    type: string;
    color: string;
    fuel: string;
    transmission: string;
    drive: string;
  };
}

const enum Step {
  Bid,
  Reschedule,
  Live,
  End,
  Relist,
  BuyNow,
}

interface PlanStep {
  /** Market time, ms since epoch, whole seconds. */
  t: number;
  k: Step;
  v: number;
}

/** One auction listing, keyed by lot number (spec "Vehicle"); mutable fields change only through plan steps. */
export interface Lot {
  id: number;
  platform: Platform;
  lotNumber: string;
  /** IAAI's item id of the VehicleDetail page URL; null on Copart. */
  itemId: string | null;
  v: Vehicle;
  facility: Facility;
  damage: string;
  damageLc: string;
  secondaryDamage: string | null;
  runCond: string;
  runLabel: string;
  hasKey: boolean;
  sellerType: string;
  sellerName: string;
  docName: string;
  docType: string;
  docPending: boolean;
  lotStatus: LotStatus;
  photos: number;
  has360: boolean;
  title: string;
  titleLower: string;
  /** Market times, ms since epoch. auctionAt is on a whole minute, updatedAt on a whole second. */
  createdAt: number;
  auctionAt: number;
  updatedAt: number;
  state: AuctionState;
  subStatus: SubStatus;
  /** USD. */
  currentBid: number;
  buyNow: number | null;
  salePrice: number | null;
  /** Market time the lot ended, ms since epoch; null until then. The real shape's last_sold_day and history date. */
  endedAt: number | null;
  outcome: Outcome;
  steps: PlanStep[];
  next: number;
  relistOf: Lot | null;
  relistedAs: Lot | null;
}

/** A ground-truth market event, in market time: what a watcher should have seen. */
export interface MarketEvent {
  seq: number;
  /** Market time, ms since epoch. */
  t: number;
  kind: 'new_lot' | 'bid' | 'buy_now' | 'reschedule' | 'state' | 'sale' | 'relist';
  /**
   * Market time from which the service's answers reflect this change (or a later one of the same lot that replaced
   * it before the refresh), ms since epoch: `t` without a refresh lag, up to the lot's refresh period after it with
   * one (refresh.ts). A watcher cannot see a change before this time; a change replaced before it (a live phase
   * shorter than the lag) may never be seen as such.
   */
  visible_t: number;
  platform: Platform;
  lot_number: string;
  vin: string;
  data: Record<string, unknown>;
}

export interface MarketOptions {
  seed: number;
  /** Lots at start, ended history included. */
  lots: number;
  /** Market start time, ms since epoch. */
  startTime: number;
  /** Oldest events are dropped beyond this many (the log is for tests and benchmarks). */
  maxEvents?: number;
  /** The time distributions (timing.ts); fields given replace the defaults (DEFAULT_TIMING). */
  timing?: Partial<MarketTiming>;
  /**
   * The service's refresh lag (refresh.ts): 'real' (states and prices within 15 min, live bids within 15 s) or
   * 'instant' (what the service answers is the market as it is). Default 'instant' for a bare Market; createSandbox
   * defaults to 'real'.
   */
  refresh?: RefreshSetting;
}

const round25 = (n: number): number => Math.max(25, Math.round(n / 25) * 25);
const toSec = (t: number): number => Math.floor(t / 1000) * 1000;
const toMin = (t: number): number => Math.ceil(t / MIN) * MIN;

/** Compares two lots in list order: auction date, then update time, then id (docs/service-contract.md "Cursor"). */
export function compareLots(a: Lot, b: Lot): number {
  return a.auctionAt - b.auctionAt || a.updatedAt - b.updatedAt || a.id - b.id;
}

export class Market implements MarketReader {
  readonly seed: number;
  readonly timing: MarketTiming;
  /** The longest wait from a lot's sale time to its live phase, ms (timing.startDelay.maxMs). */
  readonly maxStartDelayMs: number;
  /** What the service answers: this market itself without a refresh lag, else its lagged copy. */
  readonly service: MarketReader;
  private readonly view: ServiceView | null;
  readonly startTime: number;
  readonly facilities: Facility[];
  readonly lots: Lot[] = [];
  /** Lots in list order (compareLots), brought up to date when read (lotOrder.ts). */
  private readonly order = new LotOrder(compareLots);
  readonly byNumber = new Map<string, Lot>();
  readonly byItemId = new Map<string, Lot>();
  readonly byVin = new Map<string, Lot[]>();
  readonly events: MarketEvent[] = [];
  /** Bumped on every change, so derived caches (filters metadata) know when to rebuild. */
  version = 0;
  private eventSeq = 0;
  private readonly maxEvents: number;
  private nowT: number;
  private heap = new MinHeap<Lot>((a, b) => {
    const ka = (a.steps[a.next] as PlanStep).t;
    const kb = (b.steps[b.next] as PlanStep).t;
    return ka < kb || (ka === kb && a.id < b.id);
  });
  private counters = { copart: 0, iaai: 0, item: 0, vins: new Set<string>() };
  private arrivalIndex = 0;
  /** Lot numbers the vendor samples pin; the generated numbers step over them. */
  private readonly reserved = new Set(
    VENDOR_SAMPLES.flatMap((s) => [...s.past.map((p) => p.lotNumber), s.open?.lotNumber]).filter(
      (n) => n !== undefined,
    ),
  );
  private nextArrival: number;
  private readonly arrivalMean: number;
  /** The market's current year (of its start time, UTC): the newest model year. */
  readonly baseYear: number;

  constructor(opts: MarketOptions) {
    this.seed = opts.seed >>> 0;
    this.startTime = toSec(opts.startTime);
    this.nowT = this.startTime;
    this.maxEvents = opts.maxEvents ?? 2_000_000;
    this.timing = resolveTiming(opts.timing);
    this.maxStartDelayMs = this.timing.startDelay.maxMs;
    const refresh = resolveRefresh(opts.refresh ?? 'instant');
    this.view = refresh ? new ServiceView(this, refresh) : null;
    this.service = this.view ?? this;
    this.baseYear = new Date(this.startTime).getUTCFullYear();
    this.facilities = buildFacilities(this.seed);
    const rng = new Rng(hash32(this.seed, 0x10));
    this.counters.copart = 50_000_000 + rng.int(0, 999_999);
    this.counters.iaai = 38_000_000 + rng.int(0, 999_999);
    this.counters.item = 41_000_000 + rng.int(0, 999_999);
    const samples = opts.lots >= VENDOR_SAMPLE_MIN_LOTS;
    if (samples) for (const s of VENDOR_SAMPLES) this.counters.vins.add(s.vin);
    const reserve = comparablesReserve(opts.lots);
    this.populate((samples ? opts.lots - VENDOR_LOTS : opts.lots) - reserve);
    if (reserve > 0) this.populatePast(reserve - this.addComparables(reserve));
    if (samples) this.addVendorSamples();
    // Arrivals keep the open stock steady: as many new lots per day as the initial stock sells per day.
    const current = this.lots.filter((l) => l.subStatus !== 'Ended').length;
    this.arrivalMean = (14 * DAY) / Math.max(1, current);
    this.nextArrival = this.arrivalTime(this.startTime);
    for (const l of this.lots) this.order.touch(l);
    this.view?.init(this.lots);
  }

  /** Every lot in list order (compareLots): auction date, update time, id. */
  get sorted(): Lot[] {
    return this.order.list();
  }

  /** The lots of one make and model (both lower-case, as GET /vehicles compares them) in list order. */
  sortedOf(make: string, model: string): readonly Lot[] {
    return this.order.listOf(make, model);
  }

  /** Market time up to which the state is applied, ms since epoch. */
  get now(): number {
    return this.nowT;
  }

  /**
   * Applies every plan step and arrival due up to market time `t` (ms since epoch), recording events. Time never
   * goes back: an earlier `t` is ignored.
   */
  advanceTo(t: number): void {
    if (t <= this.nowT) return;
    for (;;) {
      const top = this.heap.peek();
      const tLot = top ? (top.steps[top.next]?.t ?? Infinity) : Infinity;
      // The service's refreshes interleave with the market's steps; at one time the market moves first.
      const tView = this.view ? this.view.nextDue() : Infinity;
      if (tView <= t && tView < this.nextArrival && tView < tLot) {
        this.nowT = Math.max(this.nowT, tView);
        (this.view as ServiceView).applyDue();
        continue;
      }
      if (this.nextArrival <= t && this.nextArrival <= tLot) {
        const at = this.nextArrival;
        this.nowT = Math.max(this.nowT, at);
        this.arrive(at);
        this.nextArrival = this.arrivalTime(at);
        continue;
      }
      if (!top || tLot > t) break;
      this.nowT = Math.max(this.nowT, tLot);
      this.heap.pop();
      this.applyStep(top, true);
      if (top.next < top.steps.length) this.heap.push(top);
    }
    this.nowT = t;
  }

  /**
   * Test control (events on demand, so a test need not wait for one): reschedules an open lot at the current market
   * time to `auctionAt` (ms since epoch, later than the lot's present date). Its live phase, end and relist move by
   * the same amount, any reschedule it still had planned is dropped, and the event is recorded like any other
   * reschedule. The service's record shows it at once (no refresh lag: a test need not wait for a refresh).
   *
   * @returns the lot after the change.
   * @throws Error when no lot has `id`, the lot is live or ended, or `auctionAt` is not after its present date.
   */
  forceReschedule(id: string, auctionAt: number): Lot {
    const lot = this.findLot(id);
    if (!lot) throw new Error(`No lot ${id}.`);
    if (lot.subStatus !== 'Open')
      throw new Error(`Lot ${id} is ${lot.subStatus.toLowerCase()}; only an open lot can be rescheduled.`);
    const to = toSec(auctionAt);
    if (to <= lot.auctionAt) throw new Error('The new auction date must be later than the present one.');
    const delta = to - lot.auctionAt;
    const done = lot.steps.slice(0, lot.next);
    const rest = lot.steps
      .slice(lot.next)
      .filter((st) => st.k !== Step.Reschedule)
      .map((st) => (st.t >= lot.auctionAt ? { ...st, t: st.t + delta } : st));
    lot.steps = [
      ...done,
      { t: toSec(this.nowT), k: Step.Reschedule, v: to },
      ...rest.sort((x, y) => x.t - y.t || x.k - y.k),
    ];
    this.applyStep(lot, true);
    if (this.view) {
      this.view.refreshNow(lot, this.nowT);
      const ev = this.events[this.events.length - 1];
      if (ev && ev.kind === 'reschedule' && ev.lot_number === lot.lotNumber) ev.visible_t = this.nowT;
    }
    // The lot's next step time moved: rebuild the heap rather than patch one entry.
    this.heap.rebuild((l) => l !== lot, lot.next < lot.steps.length ? [lot] : []);
    return lot;
  }

  /**
   * Test control (a sale on demand): the open or live lot `id` ends at the current market time with `outcome`
   * ('sold' by default) at `price` USD, whatever its date: it goes live if it was open, its bid rises to `price` when
   * that is above its current bid, and it ends; any step it still had planned (bids, a reschedule, a relist) is
   * dropped. The events are recorded like any other, and the service's record shows the result at once (no refresh
   * lag: a test need not wait for a refresh). An unsold end keeps `price` as its highest bid (null: the bid as it is).
   *
   * @returns the lot after the change.
   * @throws Error when no lot has `id`, the lot has ended, a sale has no price, or `price` is below the current bid.
   */
  forceSale(id: string, price: number | null, outcome: Outcome = 'sold'): Lot {
    const lot = this.findLot(id);
    if (!lot) throw new Error(`No lot ${id}.`);
    if (lot.subStatus === 'Ended')
      throw new Error(`Lot ${id} has ended; only an open or live lot can be sold.`);
    if (price === null && outcome !== 'unsold') throw new Error('A sale needs a price.');
    if (price !== null && price < lot.currentBid)
      throw new Error(`The price must be at least the current bid of ${lot.currentBid} USD.`);
    const t = toSec(this.nowT);
    const now: PlanStep[] = [];
    if (lot.subStatus === 'Open') now.push({ t, k: Step.Live, v: 0 });
    if (price !== null && price > lot.currentBid) now.push({ t, k: Step.Bid, v: price });
    now.push({ t, k: Step.End, v: price ?? lot.currentBid });
    // Out of the heap before its plan changes (the heap orders lots by their next step).
    this.heap.rebuild((l) => l !== lot);
    lot.outcome = outcome;
    lot.steps = [...lot.steps.slice(0, lot.next), ...now];
    const from = this.eventSeq;
    while (lot.next < lot.steps.length) this.applyStep(lot, true);
    this.showNow(lot, from);
    return lot;
  }

  /**
   * Test control (a relist on demand): lists the vehicle of the ended lot `id` again now, as a new lot whose sale is
   * at `auctionAt` (ms since epoch, on a whole minute; default drawn as the market's own relists are), and records
   * the relist event. A relist the lot still had planned is dropped. The service shows the new lot at once.
   *
   * @returns the new lot.
   * @throws Error when no lot has `id`, it has not ended, it sold outright or was already relisted, or `auctionAt`
   *   is not after the current market time.
   */
  forceRelist(id: string, auctionAt?: number): Lot {
    const old = this.findLot(id);
    if (!old) throw new Error(`No lot ${id}.`);
    if (old.subStatus !== 'Ended')
      throw new Error(`Lot ${id} is ${old.subStatus.toLowerCase()}; only an ended lot can be relisted.`);
    if (old.outcome === 'sold')
      throw new Error(`Lot ${id} sold; only an unsold or sold-on-approval lot is relisted.`);
    if (old.relistedAs) throw new Error(`Lot ${id} was already relisted as ${old.relistedAs.lotNumber}.`);
    if (auctionAt !== undefined && toMin(auctionAt) <= this.nowT)
      throw new Error('The new auction date must be later than the market time.');
    if (old.next < old.steps.length) this.heap.rebuild((l) => l !== old);
    old.steps = old.steps.slice(0, old.next);
    const from = this.eventSeq;
    const lot = this.relist(old, toSec(this.nowT), auctionAt === undefined ? undefined : toMin(auctionAt));
    this.showNow(lot, from);
    return lot;
  }

  /** The service's record of `lot` rewritten now, and its events since seq `from` marked visible now (test control). */
  private showNow(lot: Lot, from: number): void {
    if (!this.view) return;
    this.view.refreshNow(lot, this.nowT);
    for (let i = this.events.length - 1; i >= 0; i--) {
      const ev = this.events[i] as MarketEvent;
      if (ev.seq <= from) break;
      if (ev.lot_number === lot.lotNumber) ev.visible_t = this.nowT;
    }
  }

  /**
   * The index in `sorted` of the first lot whose auction date is after market time less the longest start delay.
   * No lot before it is Open: a lot goes live at most maxStartDelayMs after its auction date (a step applied as
   * soon as market time reaches it), reschedules only move an open lot later, and every lot is created with its
   * auction ahead. So a search for open lots may start here. `list`: a sortedOf list instead of `sorted` (the same
   * holds for it, a subsequence of `sorted`).
   */
  firstUpcoming(list: readonly Lot[] = this.sorted): number {
    const bound = this.nowT - this.maxStartDelayMs;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((list[mid] as Lot).auctionAt <= bound) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Ground truth for tests and benchmarks: when the lot with lot number (or IAAI item id) `id` goes (or went) live
   * and when it ends, market ms since epoch, as planned now (a later reschedule moves both); null when no lot has
   * `id`. The sale time the service shows (auctionAt) is earlier than liveAt by the lot's start delay.
   */
  timeline(id: string): { liveAt: number; endAt: number } | null {
    const lot = this.findLot(id);
    if (!lot) return null;
    const live = lot.steps.find((s) => s.k === Step.Live);
    const end = lot.steps.find((s) => s.k === Step.End);
    return live && end ? { liveAt: live.t, endAt: end.t } : null;
  }

  /**
   * Ground truth for Demo mode's examples (demo.ts): open lots whose next bid on the block comes `fromMs` to `toMs`
   * (market ms since epoch) and before their end, soonest first, at most `count`: the lot number, the vehicle title,
   * the listed sale time, that bid's time (ms) and amount (USD), and the end (ms). The service shows such a bid
   * 10 to 15 s after it (refresh.ts). Throws nothing.
   */
  upcomingLiveBids(
    fromMs: number,
    toMs: number,
    count: number,
  ): { lotNumber: string; title: string; auctionAt: number; bidAt: number; bidUsd: number; endAt: number }[] {
    const out: ReturnType<Market['upcomingLiveBids']> = [];
    for (const lot of this.lots) {
      if (lot.endedAt !== null || lot.next >= lot.steps.length) continue;
      const live = lot.steps.find((s) => s.k === Step.Live);
      const end = lot.steps.find((s) => s.k === Step.End);
      if (!live || !end || live.t > toMs) continue;
      const bid = lot.steps.find((s) => s.k === Step.Bid && s.t > live.t && s.t >= fromMs && s.t <= toMs);
      if (!bid || bid.t >= end.t) continue;
      out.push({
        lotNumber: lot.lotNumber,
        title: lot.title,
        auctionAt: lot.auctionAt,
        bidAt: bid.t,
        bidUsd: bid.v,
        endAt: end.t,
      });
    }
    return out.sort((a, b) => a.bidAt - b.bidAt).slice(0, Math.max(0, count));
  }

  /** The lot by lot number (either platform) or IAAI item id. */
  findLot(id: string): Lot | undefined {
    return this.byNumber.get(id) ?? this.byItemId.get(id);
  }

  /** The most recent lot of a VIN (the current listing when there is one). */
  latestForVin(vin: string): Lot | undefined {
    const list = this.byVin.get(vin.toUpperCase());
    return list?.[list.length - 1];
  }

  /** Events with seq greater than `since`, oldest first, at most `limit`. */
  eventsSince(since: number, limit: number): MarketEvent[] {
    const first = this.events[0];
    if (!first) return [];
    const start = Math.max(0, since + 1 - first.seq);
    return this.events.slice(start, start + limit);
  }

  // ---- generation -------------------------------------------------------------------------------------------

  private populate(count: number): void {
    let vehicleNo = 0;
    while (this.lots.length < count) {
      const rng = new Rng(hash32(this.seed, 0x5e, vehicleNo++));
      const v = this.makeVehicle(rng);
      const facility = this.pickFacility(rng);
      // Earlier sales of the same VIN give /history something to show. Each attempt is listed after the one
      // before it ended (at least a day later, as a relist is), so a VIN's attempts form one timeline.
      const earlier = rng.chance(0.14) ? rng.int(1, 2) : 0;
      let pastEnd = this.startTime - rng.int(10, 120) * DAY;
      let prev: Lot | null = null;
      for (let i = 0; i < earlier && this.lots.length < count - 1; i++) {
        const a = toMin(Math.min(pastEnd + rng.int(1, 20) * DAY, this.startTime - 2 * DAY));
        pastEnd = a;
        const f = rng.chance(0.7) ? facility : this.pickFacility(rng);
        const at = this.after(prev, a, DAY);
        if (at > this.startTime - DAY) break;
        prev = this.addPastLot(rng, v, f, at, undefined, undefined, prev);
      }
      if (rng.chance(0.06)) {
        const at = this.after(prev, toMin(this.startTime - rng.int(1, 9) * DAY), DAY);
        if (at <= this.startTime - DAY) this.addPastLot(rng, v, facility, at, undefined, undefined, prev);
        continue;
      }
      const created = this.after(prev, toSec(this.startTime - rng.int(0, 10 * DAY)), HOUR);
      const auction = rng.chance(0.025)
        ? toMin(this.startTime + rng.int(2 * MIN, 6 * HOUR))
        : toMin(this.startTime + rng.int(20 * MIN, 14 * DAY));
      this.schedule(this.newLot(rng, v, facility, created, auction, this.relistable(prev)));
    }
  }

  /**
   * `t` (ms), or the time `gap` ms after `prev` ended when that is later (on a whole minute): when the next
   * attempt of prev's VIN may begin, so no two attempts of a VIN overlap. Without `prev`, `t`.
   */
  private after(prev: Lot | null, t: number, gap: number): number {
    return prev?.endedAt ? Math.max(t, toMin(prev.endedAt + gap)) : t;
  }

  /** The earlier attempt a new listing of its VIN is a relist of: `prev` unless it sold outright (then a resale). */
  private relistable(prev: Lot | null): Lot | null {
    return prev && prev.outcome !== 'sold' ? prev : null;
  }

  /** Sold comparables for the first open lots (comparables.ts); at most `budget` lots. Returns how many were added. */
  private addComparables(budget: number): number {
    return backfillComparables(
      {
        seed: this.seed,
        startTime: this.startTime,
        baseYear: this.baseYear,
        lots: this.lots,
        facilities: this.facilities,
        vehicle: (rng, spec, year) => drawVehicle(rng, spec, year, this.baseYear, this.counters.vins),
        addPast: (rng, v, facility, at, outcome) => this.addPastLot(rng, v, facility, at, outcome),
      },
      budget,
    );
  }

  /** `count` more ended lots of new vehicles, 1 to 120 days before the start, with the usual mix of outcomes. */
  private populatePast(count: number): void {
    for (let i = 0; i < count; i++) {
      const rng = new Rng(hash32(this.seed, 0xf111, i));
      const v = this.makeVehicle(rng);
      const at = toMin(this.startTime - rng.int(1, 120) * DAY - rng.int(0, 600) * MIN);
      const outcome = rng.weighted([
        ['sold', 65],
        ['approval', 15],
        ['unsold', 20],
      ] as const);
      this.addPastLot(rng, v, this.pickFacility(rng), at, outcome);
    }
  }

  /** Applies a start-time lot's steps up to the start silently (they are history) and queues the rest. */
  private schedule(lot: Lot): void {
    while (lot.next < lot.steps.length && (lot.steps[lot.next] as PlanStep).t <= this.startTime) {
      this.applyStep(lot, false);
    }
    if (lot.next < lot.steps.length) this.heap.push(lot);
  }

  /** Adds the VENDOR_SAMPLES vehicles and their listings at Copart yards with shipping quotes; see there. */
  private addVendorSamples(): void {
    const yards = this.facilities.filter((f) => f.platform === 'copart' && f.hasShipping);
    VENDOR_SAMPLES.forEach((s, i) => {
      const rng = new Rng(hash32(this.seed, 0x7e5d, i));
      const spec = MODELS.find((m) => m.make === s.make && m.model === s.model) as ModelSpec;
      const [engineL, cylinders, hp, fuel] = spec.engines[0] as readonly [number, number, number, string];
      const age = Math.max(0, this.baseYear - s.year);
      const odometer = Math.round(age * 12_500 * (0.6 + rng.next() * 0.6) + rng.int(5, 9000));
      const color = rng.weighted(COLORS);
      const drive = spec.drives[0] as string;
      const v: Vehicle = {
        vin: s.vin,
        spec,
        year: s.year,
        trim: s.trim,
        color,
        fuel,
        transmission: 'Automatic',
        drive,
        cylinders,
        engineL,
        hp,
        odometer,
        value: vehicleValue(spec.msrp, age, odometer),
        lc: lowerCased(spec, color, fuel, 'Automatic', drive),
      };
      const facility = rng.pick(yards);
      let prev: Lot | null = null;
      for (const p of s.past) {
        const at = toMin(this.startTime - p.daysAgo * DAY);
        prev = this.addPastLot(rng, v, facility, at, p.outcome, p.lotNumber, prev);
      }
      if (s.open) {
        const auction = toMin(this.startTime + s.open.inDays * DAY + rng.int(0, 8) * HOUR);
        const created = this.after(prev, toSec(this.startTime - rng.int(1, 3) * DAY), HOUR);
        this.schedule(
          this.newLot(rng, v, facility, created, auction, this.relistable(prev), false, s.open.lotNumber),
        );
      }
    });
  }

  private makeVehicle(rng: Rng): Vehicle {
    const spec = rng.weighted(WEIGHTED_MODELS);
    const oldest = Math.max(spec.yearFrom, this.baseYear - 18);
    const newest = this.baseYear;
    // Skewed toward recent years, as at real salvage auctions.
    const year = Math.max(oldest, newest - Math.floor((newest - oldest + 1) * rng.next() ** 1.6));
    return drawVehicle(rng, spec, year, this.baseYear, this.counters.vins);
  }

  private pickFacility(rng: Rng): Facility {
    return rng.pick(this.facilities);
  }

  private nextNumber(platform: Platform, rng: Rng): { lotNumber: string; itemId: string | null } {
    // A number a vendor sample pins is stepped over (this draws nothing, so other lots keep their numbers).
    const step = (n: number): number => {
      let x = n + rng.int(1, 40);
      while (this.reserved.has(String(x))) x++;
      return x;
    };
    if (platform === 'copart') {
      this.counters.copart = step(this.counters.copart);
      return { lotNumber: String(this.counters.copart), itemId: null };
    }
    this.counters.iaai = step(this.counters.iaai);
    this.counters.item = step(this.counters.item);
    return { lotNumber: String(this.counters.iaai), itemId: String(this.counters.item) };
  }

  /**
   * A lot with its terms and plan drawn from `rng`; registered in the indexes (not in `sorted`). `fixedNumber`
   * pins the lot number of a vendor sample (Copart; no IAAI item id).
   */
  private newLot(
    rng: Rng,
    v: Vehicle,
    facility: Facility,
    createdAt: number,
    auctionAt: number,
    relistOf: Lot | null,
    past = false,
    fixedNumber?: string,
  ): Lot {
    const platform = facility.platform;
    const { lotNumber, itemId } =
      fixedNumber !== undefined ? { lotNumber: fixedNumber, itemId: null } : this.nextNumber(platform, rng);
    const damage = rng.weighted(DAMAGES);
    const [runCond, runLabel] = (() => {
      const r = rng.weighted(RUN_CONDITIONS.map((x) => [x, x[2]] as const));
      return [r[0], r[1]] as const;
    })();
    const sellerType = rng.weighted(SELLER_TYPES);
    const doc = rng.weighted(SALE_DOCS.map((x) => [x, x[2]] as const));
    // Value x damage, run condition, title document and relist, with noise (pricing.ts).
    const finalBid = round25(v.value * saleFactor(damage, runCond, doc[0], relistOf !== null, rng.next()));
    const buyNow = rng.chance(0.12) ? Math.round((finalBid * (1.25 + rng.next() * 0.3)) / 50) * 50 : null;
    const outcome: Outcome = rng.weighted([
      ['sold', 65],
      ['approval', 15],
      ['unsold', 20],
    ] as const);
    const title = `${v.year} ${v.spec.make} ${v.spec.model} ${v.trim}`;
    const lot: Lot = {
      id: this.lots.length,
      platform,
      lotNumber,
      itemId,
      v,
      facility,
      damage,
      damageLc: damage.toLowerCase(),
      secondaryDamage: rng.chance(0.4) ? rng.weighted(SECONDARY_DAMAGES) : null,
      runCond,
      runLabel,
      hasKey: rng.chance(0.72),
      sellerType,
      sellerName: rng.pick(SELLER_NAMES[sellerType] ?? ['Private Seller']),
      docName: doc[0],
      docType: doc[1],
      docPending: rng.chance(0.08),
      lotStatus: buyNow !== null ? 'Buy Now' : 'Timed',
      photos: rng.chance(0.04) ? 0 : platform === 'copart' ? rng.int(8, 20) : rng.int(6, 14),
      has360: rng.chance(platform === 'iaai' ? 0.3 : 0.1),
      title,
      titleLower: title.toLowerCase(),
      createdAt,
      auctionAt,
      updatedAt: createdAt,
      state: 'open',
      subStatus: 'Open',
      currentBid: 0,
      buyNow,
      salePrice: null,
      endedAt: null,
      outcome,
      steps: [],
      next: 0,
      relistOf,
      relistedAs: null,
    };
    if (relistOf) relistOf.relistedAs = lot;
    const tm = this.timing;
    const relist =
      outcome === 'approval'
        ? rng.chance(tm.relistApproval)
        : rng.chance(relistOf === null ? tm.relistUnsold : tm.relistUnsoldAgain);
    lot.steps = this.plan(rng, lot, finalBid, relist, past);
    this.lots.push(lot);
    this.byNumber.set(lotNumber, lot);
    if (itemId) this.byItemId.set(itemId, lot);
    const list = this.byVin.get(v.vin);
    if (list) list.push(lot);
    else this.byVin.set(v.vin, [lot]);
    return lot;
  }

  /**
   * An earlier, already ended listing of a vehicle: no plan, final state only. A vendor sample gives its outcome
   * and may pin its lot number. `prev`: the VIN's attempt before this one (it had ended by `auctionAt`): this
   * listing is created after it ended, and is its relist unless it sold outright.
   */
  private addPastLot(
    rng: Rng,
    v: Vehicle,
    facility: Facility,
    auctionAt: number,
    outcome?: Outcome,
    fixedNumber?: string,
    prev: Lot | null = null,
  ): Lot {
    const created = this.after(prev, toSec(auctionAt - rng.int(3, 20) * DAY), HOUR);
    const lot = this.newLot(
      rng,
      v,
      facility,
      Math.min(created, auctionAt - HOUR),
      auctionAt,
      this.relistable(prev),
      true,
      fixedNumber,
    );
    if (outcome) lot.outcome = outcome;
    // Earlier listings of a VIN that is listed again mostly did not sell.
    else if (rng.chance(0.6)) lot.outcome = 'unsold';
    const end = lot.steps.find((s) => s.k === Step.End);
    for (const s of lot.steps) if (s.k !== Step.Relist) this.applyStepValue(lot, s);
    lot.next = lot.steps.length;
    lot.updatedAt = end ? end.t : lot.updatedAt;
    return lot;
  }

  /**
   * Draws a lot's timeline: pre-sale bids that rise as the sale nears, sometimes a reschedule or a Buy Now price
   * cut, the live phase (some minutes after the sale time) with its bids, the end with the outcome, and for some
   * unsold or sold-on-approval lots a relist. The durations come from `timing` (timing.ts).
   */
  private plan(rng: Rng, lot: Lot, finalBid: number, relist: boolean, past: boolean): PlanStep[] {
    const tm = this.timing;
    const steps: PlanStep[] = [];
    const c = lot.createdAt;
    let a = lot.auctionAt;
    // A past lot keeps its date: a reschedule could move it past the start.
    if (!past && rng.chance(tm.rescheduleChance) && a - c > 2 * HOUR) {
      const r = toSec(c + (a - c) * (0.2 + rng.next() * 0.6));
      a = toMin(a + drawDuration(rng, tm.rescheduleShift));
      steps.push({ t: r, k: Step.Reschedule, v: a });
    }
    const pre = rng.int(1, 6);
    const ws = Math.max(c + 1000, a - 5 * DAY);
    let bid = 0;
    for (let k = 1; k <= pre; k++) {
      const x = k / (pre + 1);
      const t = toSec(ws + (a - 60_000 - ws) * (1 - (1 - x) ** 1.8));
      bid = Math.max(bid + 25, round25(finalBid * (0.05 + 0.5 * (k / pre) ** 1.3)));
      if (t > c) steps.push({ t, k: Step.Bid, v: bid });
    }
    if (lot.buyNow !== null && rng.chance(0.3)) {
      steps.push({
        t: toSec(c + (a - c) * (0.3 + rng.next() * 0.6)),
        k: Step.BuyNow,
        v: Math.round((lot.buyNow * 0.9) / 50) * 50,
      });
    }
    const go = toSec(a + drawDuration(rng, tm.startDelay));
    steps.push({ t: go, k: Step.Live, v: 0 });
    const live = drawDuration(rng, tm.live);
    const m = rng.int(2, 6);
    for (let j = 1; j <= m; j++) {
      bid =
        j === m
          ? Math.max(bid + 25, finalBid)
          : Math.max(bid + 25, round25(bid + ((finalBid - bid) * j) / m));
      steps.push({ t: toSec(go + (live * j) / (m + 1)), k: Step.Bid, v: bid });
    }
    const end = go + live;
    steps.push({ t: end, k: Step.End, v: bid });
    if (lot.outcome !== 'sold' && relist)
      steps.push({ t: toSec(end + drawDuration(rng, tm.relistDelay)), k: Step.Relist, v: 0 });
    steps.sort((x, y) => x.t - y.t || x.k - y.k);
    return steps;
  }

  private arrivalTime(after: number): number {
    const rng = new Rng(hash32(this.seed, 0xa7, this.arrivalIndex));
    return toSec(after + 1000 + -Math.log(1 - rng.next()) * this.arrivalMean);
  }

  private arrive(t: number): void {
    const rng = new Rng(hash32(this.seed, 0xa8, this.arrivalIndex++));
    const v = this.makeVehicle(rng);
    const auction = rng.chance(0.1)
      ? toMin(t + rng.int(10 * MIN, 12 * HOUR))
      : toMin(t + rng.int(1 * DAY, 14 * DAY));
    const lot = this.newLot(rng, v, this.pickFacility(rng), t, auction, null);
    this.order.touch(lot);
    this.heap.push(lot);
    this.record(t, this.seenAt(lot, t, false), 'new_lot', lot, {
      auction_at: new Date(lot.auctionAt).toISOString(),
      facility_id: lot.facility.facility_id,
      title: lot.title,
    });
  }

  // ---- steps --------------------------------------------------------------------------------------------------

  /** Changes a lot's fields for one step, without events or re-sorting (used for history and at build time). */
  private applyStepValue(lot: Lot, s: PlanStep): void {
    switch (s.k) {
      case Step.Bid:
        lot.currentBid = s.v;
        break;
      case Step.BuyNow:
        if (lot.subStatus === 'Open') lot.buyNow = s.v;
        break;
      case Step.Reschedule:
        lot.auctionAt = s.v;
        break;
      case Step.Live:
        lot.state = 'live';
        lot.subStatus = 'Live';
        lot.buyNow = null;
        break;
      case Step.End:
        lot.state = lot.outcome;
        lot.subStatus = 'Ended';
        lot.salePrice = lot.outcome === 'unsold' ? null : lot.currentBid;
        lot.endedAt = s.t;
        break;
      case Step.Relist:
        // The old lot itself does not change when its vehicle is listed again.
        return;
    }
    lot.updatedAt = s.t;
  }

  private applyStep(lot: Lot, live: boolean): void {
    const s = lot.steps[lot.next++] as PlanStep;
    if (!live) {
      if (s.k !== Step.Relist) this.applyStepValue(lot, s);
      return;
    }
    const before = { state: lot.state, auctionAt: lot.auctionAt, bid: lot.currentBid, buyNow: lot.buyNow };
    this.order.touch(lot);
    this.applyStepValue(lot, s);
    this.version++;
    // A relist leaves the old lot as it is (the new lot is published on its own cycle).
    const seen =
      s.k === Step.Relist ? s.t : this.seenAt(lot, s.t, s.k === Step.Bid && lot.subStatus === 'Live');
    switch (s.k) {
      case Step.Bid:
        this.record(s.t, seen, 'bid', lot, { from: before.bid, to: lot.currentBid });
        break;
      case Step.BuyNow:
        this.record(s.t, seen, 'buy_now', lot, { from: before.buyNow, to: lot.buyNow });
        break;
      case Step.Reschedule:
        this.record(s.t, seen, 'reschedule', lot, {
          from: new Date(before.auctionAt).toISOString(),
          to: new Date(lot.auctionAt).toISOString(),
        });
        break;
      // In the real shape a live lot still reads auction.state "open" (docs/service-contract.md "Sale results"):
      // going live is invisible on that wire, the end is not. A scorer of watchers reads this flag.
      case Step.Live:
        this.record(s.t, seen, 'state', lot, {
          from: before.state,
          to: lot.state,
          lot_sub_status: lot.subStatus,
          visible_in_real_shape: false,
        });
        break;
      case Step.End:
        this.record(s.t, seen, 'state', lot, {
          from: before.state,
          to: lot.state,
          lot_sub_status: lot.subStatus,
          visible_in_real_shape: true,
        });
        if (lot.outcome !== 'unsold') {
          this.record(s.t, seen, 'sale', lot, {
            price: lot.salePrice,
            status: lot.outcome === 'sold' ? 'Sold' : 'Sold on Approval',
          });
        }
        break;
      case Step.Relist:
        this.relist(lot, s.t);
        break;
    }
  }

  /** Lists the vehicle of `old` again at `t` (sale at `auctionAt`, default drawn); returns the new lot. */
  private relist(old: Lot, t: number, auctionAt?: number): Lot {
    const rng = new Rng(hash32(this.seed, 0x4e, old.id));
    const facility = rng.chance(0.7) ? old.facility : this.pickFacility(rng);
    const [lo, hi] = this.timing.relistAuctionDays;
    const drawn = toMin(t + rng.int(lo, hi) * DAY + rng.int(0, 8) * HOUR);
    const lot = this.newLot(rng, old.v, facility, t, auctionAt ?? drawn, old);
    old.relistedAs = lot;
    this.order.touch(lot);
    this.heap.push(lot);
    this.record(t, this.seenAt(lot, t, false), 'relist', lot, {
      previous_lot_number: old.lotNumber,
      previous_platform: old.platform,
      auction_at: new Date(lot.auctionAt).toISOString(),
    });
    return lot;
  }

  /** When the service will show a change of `lot` at `t` (ms since epoch): at once without a refresh lag. */
  private seenAt(lot: Lot, t: number, liveBid: boolean): number {
    return this.view ? this.view.changed(lot, t, liveBid) : t;
  }

  private record(
    t: number,
    seen: number,
    kind: MarketEvent['kind'],
    lot: Lot,
    data: Record<string, unknown>,
  ): void {
    this.version++;
    this.events.push({
      seq: ++this.eventSeq,
      t,
      kind,
      visible_t: seen,
      platform: lot.platform,
      lot_number: lot.lotNumber,
      vin: lot.v.vin,
      data,
    });
    if (this.events.length > this.maxEvents) this.events.splice(0, this.events.length - this.maxEvents);
  }
}
