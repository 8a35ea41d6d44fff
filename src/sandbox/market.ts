import {
  COLORS,
  DAMAGES,
  RUN_CONDITIONS,
  SALE_DOCS,
  SELLER_NAMES,
  SELLER_TYPES,
  WEIGHTED_MODELS,
  makeVin,
  type ModelSpec,
} from './catalog';
import { buildFacilities, type Facility, type Platform } from './geo';
import { Rng, hash32 } from './rng';

/**
 * The simulated market (issue 4, items 3-5). Its state is a pure function of (seed, lot count, start time, market
 * time): every lot carries a plan of timed steps drawn from the seed when the lot is created, and `advanceTo`
 * applies the steps due, in (time, lot id) order, recording each as a market event. Nothing runs in the
 * background: the server advances the market to "now" on each request, so the same seed and the same market
 * times give the same answers however the requests are spaced.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** auction.state on the wire: lowercase words (spec "States and transitions" leaves the full set open). */
export type AuctionState = 'open' | 'live' | 'sold' | 'approval' | 'unsold';
export type SubStatus = 'Open' | 'Live' | 'Ended';
export type LotStatus = 'Timed' | 'Buy Now';
type Outcome = 'sold' | 'approval' | 'unsold';

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
  lc: { make: string; model: string; type: string; color: string; fuel: string; transmission: string; drive: string };
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
  outcome: Outcome;
  steps: PlanStep[];
  next: number;
  relistOf: Lot | null;
  relistedAs: Lot | null;
}

/** A ground-truth market event (issue 4 item 5), in market time. */
export interface MarketEvent {
  seq: number;
  /** Market time, ms since epoch. */
  t: number;
  kind: 'new_lot' | 'bid' | 'buy_now' | 'reschedule' | 'state' | 'sale' | 'relist';
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
}

const round25 = (n: number): number => Math.max(25, Math.round(n / 25) * 25);
const toSec = (t: number): number => Math.floor(t / 1000) * 1000;
const toMin = (t: number): number => Math.ceil(t / MIN) * MIN;

/** Compares two lots in list order: auction date, then update time, then id (spec cursor, REAL-SERVICE.md). */
export function compareLots(a: Lot, b: Lot): number {
  return a.auctionAt - b.auctionAt || a.updatedAt - b.updatedAt || a.id - b.id;
}

export class Market {
  readonly seed: number;
  readonly startTime: number;
  readonly facilities: Facility[];
  readonly lots: Lot[] = [];
  /** Lots in list order (compareLots), kept sorted incrementally as lots change. */
  readonly sorted: Lot[] = [];
  readonly byNumber = new Map<string, Lot>();
  readonly byItemId = new Map<string, Lot>();
  readonly byVin = new Map<string, Lot[]>();
  readonly events: MarketEvent[] = [];
  /** Bumped on every change, so derived caches (filters metadata) know when to rebuild. */
  version = 0;
  private eventSeq = 0;
  private readonly maxEvents: number;
  private nowT: number;
  private heap: Lot[] = [];
  private counters = { copart: 0, iaai: 0, item: 0, vins: new Set<string>() };
  private arrivalIndex = 0;
  private nextArrival: number;
  private readonly arrivalMean: number;
  private readonly baseYear: number;

  constructor(opts: MarketOptions) {
    this.seed = opts.seed >>> 0;
    this.startTime = toSec(opts.startTime);
    this.nowT = this.startTime;
    this.maxEvents = opts.maxEvents ?? 2_000_000;
    this.baseYear = new Date(this.startTime).getUTCFullYear();
    this.facilities = buildFacilities(this.seed);
    const rng = new Rng(hash32(this.seed, 0x10));
    this.counters.copart = 50_000_000 + rng.int(0, 999_999);
    this.counters.iaai = 38_000_000 + rng.int(0, 999_999);
    this.counters.item = 41_000_000 + rng.int(0, 999_999);
    this.populate(opts.lots);
    // Arrivals keep the open stock steady: as many new lots per day as the initial stock sells per day.
    const current = this.lots.filter((l) => l.subStatus !== 'Ended').length;
    this.arrivalMean = (14 * DAY) / Math.max(1, current);
    this.nextArrival = this.arrivalTime(this.startTime);
    this.sorted.push(...this.lots);
    this.sorted.sort(compareLots);
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
      const top = this.heap[0];
      const tLot = top ? (top.steps[top.next]?.t ?? Infinity) : Infinity;
      if (this.nextArrival <= t && this.nextArrival <= tLot) {
        const at = this.nextArrival;
        this.nowT = Math.max(this.nowT, at);
        this.arrive(at);
        this.nextArrival = this.arrivalTime(at);
        continue;
      }
      if (!top || tLot > t) break;
      this.nowT = Math.max(this.nowT, tLot);
      this.heapPop();
      this.applyStep(top, true);
      if (top.next < top.steps.length) this.heapPush(top);
    }
    this.nowT = t;
  }

  /**
   * Test control (issue 4 item 6: events on demand): reschedules an open lot at the current market time to
   * `auctionAt` (ms since epoch, later than the lot's present date). Its live phase, end and relist move by the same
   * amount, any reschedule it still had planned is dropped, and the event is recorded like any other reschedule.
   *
   * @returns the lot after the change.
   * @throws Error when no lot has `id`, the lot is live or ended, or `auctionAt` is not after its present date.
   */
  forceReschedule(id: string, auctionAt: number): Lot {
    const lot = this.findLot(id);
    if (!lot) throw new Error(`No lot ${id}.`);
    if (lot.subStatus !== 'Open') throw new Error(`Lot ${id} is ${lot.subStatus.toLowerCase()}; only an open lot can be rescheduled.`);
    const to = toSec(auctionAt);
    if (to <= lot.auctionAt) throw new Error('The new auction date must be later than the present one.');
    const delta = to - lot.auctionAt;
    const done = lot.steps.slice(0, lot.next);
    const rest = lot.steps
      .slice(lot.next)
      .filter((st) => st.k !== Step.Reschedule)
      .map((st) => (st.t >= lot.auctionAt ? { ...st, t: st.t + delta } : st));
    lot.steps = [...done, { t: toSec(this.nowT), k: Step.Reschedule, v: to }, ...rest.sort((x, y) => x.t - y.t || x.k - y.k)];
    this.applyStep(lot, true);
    // The lot's next step time moved: rebuild the heap rather than patch one entry.
    const all = this.heap.filter((l) => l !== lot);
    if (lot.next < lot.steps.length) all.push(lot);
    this.heap = [];
    for (const l of all) this.heapPush(l);
    return lot;
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
      // Earlier sales of the same VIN give /history something to show (issue 4 item 4).
      const earlier = rng.chance(0.14) ? rng.int(1, 2) : 0;
      let pastEnd = this.startTime - rng.int(10, 120) * DAY;
      for (let i = 0; i < earlier && this.lots.length < count - 1; i++) {
        const a = toMin(Math.min(pastEnd + rng.int(1, 20) * DAY, this.startTime - 2 * DAY));
        pastEnd = a;
        this.addPastLot(rng, v, rng.chance(0.7) ? facility : this.pickFacility(rng), a);
      }
      if (rng.chance(0.06)) {
        this.addPastLot(rng, v, facility, toMin(this.startTime - rng.int(1, 9) * DAY));
        continue;
      }
      const created = toSec(this.startTime - rng.int(0, 10 * DAY));
      const auction = rng.chance(0.025)
        ? toMin(this.startTime + rng.int(2 * MIN, 6 * HOUR))
        : toMin(this.startTime + rng.int(20 * MIN, 14 * DAY));
      const lot = this.newLot(rng, v, facility, created, auction, null);
      // Steps before the start are history, applied silently.
      while (lot.next < lot.steps.length && (lot.steps[lot.next] as PlanStep).t <= this.startTime) {
        this.applyStep(lot, false);
      }
      if (lot.next < lot.steps.length) this.heapPush(lot);
    }
  }

  private makeVehicle(rng: Rng): Vehicle {
    const spec = rng.weighted(WEIGHTED_MODELS);
    const oldest = Math.max(spec.yearFrom, this.baseYear - 18);
    const newest = this.baseYear;
    // Skewed toward recent years, as at real salvage auctions.
    const year = Math.max(oldest, newest - Math.floor((newest - oldest + 1) * rng.next() ** 1.6));
    const [engineL, cylinders, hp, fuel] = rng.pick(spec.engines);
    const age = Math.max(0, this.baseYear - year);
    const perYear = spec.type === 'MOTORCYCLE' ? 3000 : 12_500;
    const odometer = Math.round(age * perYear * (0.5 + rng.next()) + rng.int(5, 9000));
    const value = spec.msrp * 0.86 ** age * Math.max(0.3, 1 - odometer / 350_000);
    let vin = makeVin(rng, spec.make, year);
    while (this.counters.vins.has(vin)) vin = makeVin(rng, spec.make, year);
    this.counters.vins.add(vin);
    const color = rng.weighted(COLORS);
    const transmission = fuel === 'Electric' ? 'Automatic' : rng.weighted([['Automatic', 90], ['Manual', 7], ['Unknown', 3]] as const);
    const drive = rng.pick(spec.drives);
    const trim = rng.pick(spec.trims);
    return {
      vin,
      spec,
      year,
      trim,
      color,
      fuel,
      transmission,
      drive,
      cylinders,
      engineL,
      hp,
      odometer,
      value,
      lc: {
        make: spec.make.toLowerCase(),
        model: spec.model.toLowerCase(),
        type: spec.type.toLowerCase(),
        color: color.toLowerCase(),
        fuel: fuel.toLowerCase(),
        transmission: transmission.toLowerCase(),
        drive: drive.toLowerCase(),
      },
    };
  }

  private pickFacility(rng: Rng): Facility {
    return rng.pick(this.facilities);
  }

  private nextNumber(platform: Platform, rng: Rng): { lotNumber: string; itemId: string | null } {
    if (platform === 'copart') {
      this.counters.copart += rng.int(1, 40);
      return { lotNumber: String(this.counters.copart), itemId: null };
    }
    this.counters.iaai += rng.int(1, 40);
    this.counters.item += rng.int(1, 40);
    return { lotNumber: String(this.counters.iaai), itemId: String(this.counters.item) };
  }

  /** A lot with its terms and plan drawn from `rng`; registered in the indexes (not in `sorted`). */
  private newLot(
    rng: Rng,
    v: Vehicle,
    facility: Facility,
    createdAt: number,
    auctionAt: number,
    relistOf: Lot | null,
    past = false,
  ): Lot {
    const platform = facility.platform;
    const { lotNumber, itemId } = this.nextNumber(platform, rng);
    const damage = rng.weighted(DAMAGES);
    const [runCond, runLabel] = (() => {
      const r = rng.weighted(RUN_CONDITIONS.map((x) => [x, x[2]] as const));
      return [r[0], r[1]] as const;
    })();
    const sellerType = rng.weighted(SELLER_TYPES);
    const doc = rng.weighted(SALE_DOCS.map((x) => [x, x[2]] as const));
    const severe = ['Fire', 'Rollover', 'Water', 'All Over', 'Chemical'].includes(damage);
    const minor = ['Minor Dent/Scratches', 'Normal Wear', 'Repossession', 'Hail', 'Theft'].includes(damage);
    let factor = severe ? 0.12 + rng.next() * 0.2 : minor ? 0.45 + rng.next() * 0.3 : 0.25 + rng.next() * 0.3;
    if (runCond === 'STATIONARY') factor *= 0.75;
    if (relistOf) factor *= 0.9;
    const finalBid = round25(v.value * factor);
    const buyNow = rng.chance(0.12) ? Math.round((finalBid * (1.25 + rng.next() * 0.3)) / 50) * 50 : null;
    const outcome: Outcome = rng.weighted([['sold', 65], ['approval', 15], ['unsold', 20]] as const);
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
      secondaryDamage: rng.chance(0.4) ? rng.weighted(DAMAGES) : null,
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
      outcome,
      steps: [],
      next: 0,
      relistOf,
      relistedAs: null,
    };
    lot.steps = this.plan(rng, lot, finalBid, relistOf === null ? rng.chance(0.6) : rng.chance(0.3), past);
    this.lots.push(lot);
    this.byNumber.set(lotNumber, lot);
    if (itemId) this.byItemId.set(itemId, lot);
    const list = this.byVin.get(v.vin);
    if (list) list.push(lot);
    else this.byVin.set(v.vin, [lot]);
    return lot;
  }

  /** An earlier, already ended listing of a vehicle: no plan, final state only. */
  private addPastLot(rng: Rng, v: Vehicle, facility: Facility, auctionAt: number): void {
    const lot = this.newLot(rng, v, facility, toSec(auctionAt - rng.int(3, 20) * DAY), auctionAt, null, true);
    // Earlier listings of a VIN that is listed again mostly did not sell.
    if (rng.chance(0.6)) lot.outcome = 'unsold';
    const end = lot.steps.find((s) => s.k === Step.End);
    for (const s of lot.steps) if (s.k !== Step.Relist) this.applyStepValue(lot, s);
    lot.next = lot.steps.length;
    lot.updatedAt = end ? end.t : lot.updatedAt;
  }

  /**
   * Draws a lot's timeline: pre-sale bids that rise as the sale nears, sometimes a reschedule or a Buy Now price
   * cut, the live phase with its bids, the end with the outcome, and for some unsold lots a relist.
   */
  private plan(rng: Rng, lot: Lot, finalBid: number, relist: boolean, past: boolean): PlanStep[] {
    const steps: PlanStep[] = [];
    const c = lot.createdAt;
    let a = lot.auctionAt;
    // A past lot keeps its date: a reschedule could move it past the start.
    if (!past && rng.chance(0.06) && a - c > 2 * HOUR) {
      const r = toSec(c + (a - c) * (0.2 + rng.next() * 0.6));
      a = toMin(a + rng.int(1, 7) * DAY + rng.int(0, 8) * HOUR);
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
      steps.push({ t: toSec(c + (a - c) * (0.3 + rng.next() * 0.6)), k: Step.BuyNow, v: Math.round((lot.buyNow * 0.9) / 50) * 50 });
    }
    steps.push({ t: a, k: Step.Live, v: 0 });
    const live = rng.int(60, 240) * 1000;
    const m = rng.int(2, 6);
    for (let j = 1; j <= m; j++) {
      bid = j === m ? Math.max(bid + 25, finalBid) : Math.max(bid + 25, round25(bid + ((finalBid - bid) * j) / m));
      steps.push({ t: toSec(a + (live * j) / (m + 1)), k: Step.Bid, v: bid });
    }
    const end = a + live;
    steps.push({ t: end, k: Step.End, v: bid });
    if (lot.outcome === 'unsold' && relist) steps.push({ t: toSec(end + rng.int(1, 12) * HOUR), k: Step.Relist, v: 0 });
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
    const auction = rng.chance(0.1) ? toMin(t + rng.int(10 * MIN, 12 * HOUR)) : toMin(t + rng.int(1 * DAY, 14 * DAY));
    const lot = this.newLot(rng, v, this.pickFacility(rng), t, auction, null);
    this.insertSorted(lot);
    this.heapPush(lot);
    this.record(t, 'new_lot', lot, {
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
    this.removeSorted(lot);
    this.applyStepValue(lot, s);
    this.insertSorted(lot);
    this.version++;
    switch (s.k) {
      case Step.Bid:
        this.record(s.t, 'bid', lot, { from: before.bid, to: lot.currentBid });
        break;
      case Step.BuyNow:
        this.record(s.t, 'buy_now', lot, { from: before.buyNow, to: lot.buyNow });
        break;
      case Step.Reschedule:
        this.record(s.t, 'reschedule', lot, {
          from: new Date(before.auctionAt).toISOString(),
          to: new Date(lot.auctionAt).toISOString(),
        });
        break;
      case Step.Live:
        this.record(s.t, 'state', lot, { from: before.state, to: lot.state, lot_sub_status: lot.subStatus });
        break;
      case Step.End:
        this.record(s.t, 'state', lot, { from: before.state, to: lot.state, lot_sub_status: lot.subStatus });
        if (lot.outcome !== 'unsold') {
          this.record(s.t, 'sale', lot, {
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

  private relist(old: Lot, t: number): void {
    const rng = new Rng(hash32(this.seed, 0x4e, old.id));
    const facility = rng.chance(0.7) ? old.facility : this.pickFacility(rng);
    const lot = this.newLot(rng, old.v, facility, t, toMin(t + rng.int(2, 10) * DAY), old);
    old.relistedAs = lot;
    this.insertSorted(lot);
    this.heapPush(lot);
    this.record(t, 'relist', lot, {
      previous_lot_number: old.lotNumber,
      previous_platform: old.platform,
      auction_at: new Date(lot.auctionAt).toISOString(),
    });
  }

  private record(t: number, kind: MarketEvent['kind'], lot: Lot, data: Record<string, unknown>): void {
    this.version++;
    this.events.push({ seq: ++this.eventSeq, t, kind, platform: lot.platform, lot_number: lot.lotNumber, vin: lot.v.vin, data });
    if (this.events.length > this.maxEvents) this.events.splice(0, this.events.length - this.maxEvents);
  }

  // ---- ordered index and heap ---------------------------------------------------------------------------------

  private lowerBound(lot: Lot): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareLots(this.sorted[mid] as Lot, lot) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insertSorted(lot: Lot): void {
    this.sorted.splice(this.lowerBound(lot), 0, lot);
  }

  private removeSorted(lot: Lot): void {
    const i = this.lowerBound(lot);
    if (this.sorted[i] === lot) this.sorted.splice(i, 1);
  }

  private key(l: Lot): number {
    return (l.steps[l.next] as PlanStep).t;
  }

  private less(a: Lot, b: Lot): boolean {
    const ka = this.key(a);
    const kb = this.key(b);
    return ka < kb || (ka === kb && a.id < b.id);
  }

  private heapPush(lot: Lot): void {
    const h = this.heap;
    h.push(lot);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(h[i] as Lot, h[p] as Lot)) break;
      [h[i], h[p]] = [h[p] as Lot, h[i] as Lot];
      i = p;
    }
  }

  private heapPop(): void {
    const h = this.heap;
    const last = h.pop() as Lot;
    if (h.length === 0) return;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.less(h[l] as Lot, h[m] as Lot)) m = l;
      if (r < h.length && this.less(h[r] as Lot, h[m] as Lot)) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m] as Lot, h[i] as Lot];
      i = m;
    }
  }
}
