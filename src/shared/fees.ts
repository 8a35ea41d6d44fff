import { z } from 'zod';
import copartFees from '../../data/fees/copart.json';
import iaaiFees from '../../data/fees/iaai.json';
import { PLATFORMS, type Platform } from './vehicle';

/**
 * Buyer fees, landed cost and the highest affordable bid. The fee figures are data, not code: each platform's
 * published buyer fee schedule lives in data/fees/<platform>.json (who read it, from where, on which day, and what is
 * unverified), validated by `FeeScheduleFile`. Everything here is pure arithmetic in USD: amounts are numbers that may
 * carry cents, and every sum is taken in whole cents so that $0.10 + $0.20 is $0.30.
 */

// ---------------------------------------------------------------------------------------------------------------
// The data files
// ---------------------------------------------------------------------------------------------------------------

const ID = /^[a-z][a-z0-9_]*$/;
const usd = z.number().nonnegative();

/**
 * One sale-price range of a fee table: from `from_usd` (a whole dollar) to `to_usd` inclusive (null: no upper end).
 * Exactly one of `fee_usd` (a fixed fee) and `percent` (of the sale price) is set.
 */
export const FeeTier = z
  .object({
    from_usd: z.number().int().nonnegative(),
    to_usd: z.number().nonnegative().nullable(),
    fee_usd: usd.optional(),
    percent: z.number().nonnegative().max(100).optional(),
  })
  .strict()
  .refine(
    (t) => (t.fee_usd === undefined) !== (t.percent === undefined),
    'a tier has either fee_usd or percent',
  )
  .refine((t) => t.to_usd === null || t.to_usd >= t.from_usd, 'to_usd is below from_usd');
export type FeeTier = z.infer<typeof FeeTier>;

/** A fee table: tiers in ascending order that never overlap in whole dollars; only the last may be open-ended. */
const FeeTable = z
  .array(FeeTier)
  .min(1)
  .superRefine((tiers, ctx) => {
    tiers.forEach((t, i) => {
      const next = tiers[i + 1];
      if (!next) return;
      if (t.to_usd === null) {
        ctx.addIssue({ code: 'custom', path: [i, 'to_usd'], message: 'only the last tier is open' });
      } else if (next.from_usd <= Math.floor(t.to_usd)) {
        ctx.addIssue({
          code: 'custom',
          path: [i + 1, 'from_usd'],
          message: 'tiers overlap or are out of order',
        });
      }
    });
  });

/** A named fee charged on every purchase whatever the price (gate fee, environmental fee, title fee ...). */
export const FixedFee = z.object({ id: z.string().regex(ID), label: z.string().min(1), usd }).strict();
export type FixedFee = z.infer<typeof FixedFee>;

/** Line ids buyerFees gives the two table-driven fees; a fixed fee may not reuse them. */
export const BUYER_FEE_ID = 'buyer_fee';
export const BID_FEE_ID = 'bid_fee';

/** One membership kind's schedule: the buyer fee table, the internet / virtual bid fee table and the fixed fees. */
export const FeeSchedule = z
  .object({
    label: z.string().min(1),
    buyer_fee_label: z.string().min(1).optional(),
    bid_fee_label: z.string().min(1).optional(),
    tiers: FeeTable,
    bid_fee_tiers: FeeTable,
    fixed: z.array(FixedFee),
  })
  .strict()
  .superRefine((s, ctx) => {
    const seen = new Set<string>([BUYER_FEE_ID, BID_FEE_ID]);
    s.fixed.forEach((f, i) => {
      if (seen.has(f.id))
        ctx.addIssue({ code: 'custom', path: ['fixed', i, 'id'], message: `duplicate id ${f.id}` });
      seen.add(f.id);
    });
  });
export type FeeSchedule = z.infer<typeof FeeSchedule>;

/**
 * Which tables one membership kind pays (a key of `schedules` each): `clean` for a clean title document, `non_clean`
 * for any other, and `stricter` (which of the two) for a lot whose title document is not known. A platform whose
 * fees do not depend on the title names the same table twice.
 */
export const MembershipTables = z
  .object({
    clean: z.string().regex(ID),
    non_clean: z.string().regex(ID),
    stricter: z.enum(['clean', 'non_clean']),
  })
  .strict();
export type MembershipTables = z.infer<typeof MembershipTables>;

/**
 * A platform's published buyer fee schedule as stored in data/fees/<platform>.json: `version` (YYYY-MM) names the
 * schedule, `source` the page(s) the figures were read from, `read_on` (YYYY-MM-DD) the day they were read, `notes`
 * what is approximate or unverified, `memberships` the tables each membership kind pays by title (a kind missing
 * here has no known fees), and `schedules` the tables (e.g. `standard_non_clean_secured`).
 */
export const FeeScheduleFile = z
  .object({
    platform: z.enum(PLATFORMS),
    version: z.string().regex(/^\d{4}-\d{2}$/),
    source: z.array(z.url()).min(1),
    read_on: z.iso.date(),
    notes: z.string().min(1),
    memberships: z.record(z.string().regex(ID), MembershipTables),
    schedules: z.record(z.string().regex(ID), FeeSchedule),
  })
  .strict()
  .refine((f) => Object.keys(f.schedules).length > 0, 'no schedules')
  .superRefine((f, ctx) => {
    for (const [kind, m] of Object.entries(f.memberships)) {
      for (const t of ['clean', 'non_clean'] as const) {
        if (!(m[t] in f.schedules))
          ctx.addIssue({
            code: 'custom',
            path: ['memberships', kind, t],
            message: `names the table "${m[t]}", which is not in schedules`,
          });
      }
    }
  });
export type FeeScheduleFile = z.infer<typeof FeeScheduleFile>;

/** A fee file as loaded: parsed, or refused with the file's path and what is wrong in one sentence. */
export type FeeFileLoad =
  { ok: true; path: string; file: FeeScheduleFile } | { ok: false; path: string; problem: string };

/**
 * Parses one platform's fee file (`json`, read from `path`, e.g. data/fees/iaai.json) against `FeeScheduleFile` and
 * checks it names `platform`. Never throws: a file that fails its schema comes back refused with the path and its
 * first problems ("schedules.licensed_standard_volume.tiers.3.from_usd: tiers overlap or are out of order"), so the
 * desk can say which file is broken and give no fee number rather than a wrong one.
 */
export function loadFeeFile(platform: Platform, path: string, json: unknown): FeeFileLoad {
  const r = FeeScheduleFile.safeParse(json);
  if (!r.success) {
    const first = r.error.issues
      .slice(0, 3)
      .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
      .join('; ');
    return { ok: false, path, problem: `${path} does not match the fee file schema (${first})` };
  }
  if (r.data.platform !== platform)
    return {
      ok: false,
      path,
      problem: `${path} names the platform "${r.data.platform}", not "${platform}"`,
    };
  return { ok: true, path, file: r.data };
}

/**
 * Both platforms' fee files as loaded (source: data/fees/copart.json and data/fees/iaai.json, the published buyer
 * fee schedules). A broken file is refused here, never thrown at import: the app starts and the desk names it.
 */
export const FEE_LOADS: Readonly<Record<Platform, FeeFileLoad>> = {
  copart: loadFeeFile('copart', 'data/fees/copart.json', copartFees),
  iaai: loadFeeFile('iaai', 'data/fees/iaai.json', iaaiFees),
};

/** Each platform's parsed fee file, or null when it failed its schema (FEE_LOADS says why). */
export const FEE_FILES: Readonly<Record<Platform, FeeScheduleFile | null>> = {
  copart: FEE_LOADS.copart.ok ? FEE_LOADS.copart.file : null,
  iaai: FEE_LOADS.iaai.ok ? FEE_LOADS.iaai.file : null,
};

// ---------------------------------------------------------------------------------------------------------------
// Errors and lines
// ---------------------------------------------------------------------------------------------------------------

/**
 * Why a fee computation refused: `bad_price` (a price or bid that is negative or not finite), `no_tier` (no tier of
 * the schedule covers the price), `bad_amount` (a target, shipping price or step that is not a usable number),
 * `bad_line` (a user line whose amount or percent is not a usable number).
 */
export type FeeErrorCode = 'bad_price' | 'no_tier' | 'bad_amount' | 'bad_line';

/** The error every function of this module throws for bad input; `code` says which kind. */
export class FeeScheduleError extends Error {
  readonly code: FeeErrorCode;

  constructor(code: FeeErrorCode, message: string) {
    super(message);
    this.name = 'FeeScheduleError';
    this.code = code;
  }
}

/** One line of a breakdown; `usd` in USD (may carry cents). */
export interface FeeLine {
  id: string;
  label: string;
  usd: number;
}

/**
 * A user's own cost line after the auction: a fixed amount in USD (ocean freight, repairs), or a percentage of the
 * bid (duty 2.5 % of the bid, say). Kept in the settings (src/shared/desk.ts) and validated there with this schema.
 */
const lineId = z.string().min(1).max(40);
const lineLabel = z.string().trim().min(1, 'Name the line.').max(60);
export const OwnLineSchema = z.union([
  z
    .object({
      id: lineId,
      label: lineLabel,
      usd: z.number().finite().nonnegative('Enter 0 or more (USD).').max(10_000_000),
    })
    .strict(),
  z
    .object({
      id: lineId,
      label: lineLabel,
      percent: z.number().finite().min(0, 'Enter 0 or more (%).').max(1000),
    })
    .strict(),
]);
export type OwnLine = z.infer<typeof OwnLineSchema>;

/** Options of buyerFees: extra user lines (`custom`) and line ids to leave out (`omit`, e.g. `bid_fee`). */
export interface BuyerFeeOptions {
  custom?: readonly FeeLine[];
  omit?: readonly string[];
}

const toCents = (x: number): number => Math.round(x * 100);
const fromCents = (c: number): number => c / 100;

/** The tier covering `price` looked up by whole dollars (the price's floor), or undefined. */
function tierFor(tiers: readonly FeeTier[], price: number): FeeTier | undefined {
  const dollars = Math.floor(price);
  return tiers.find((t) => t.from_usd <= dollars && (t.to_usd === null || dollars <= t.to_usd));
}

/** A tier's fee on `price`, in cents: the fixed fee, or price × percent / 100 rounded to the cent. */
function tierCents(t: FeeTier, price: number): number {
  return t.percent !== undefined ? Math.round(price * t.percent) : toCents(t.fee_usd ?? 0);
}

function checkPrice(price: number, what: string): void {
  if (!Number.isFinite(price) || price < 0) {
    throw new FeeScheduleError('bad_price', `${what} must be a finite amount of USD >= 0, got ${price}`);
  }
}

interface CentLine {
  id: string;
  label: string;
  cents: number;
}

function feeCents(price: number, s: FeeSchedule, opts: BuyerFeeOptions | undefined): CentLine[] {
  checkPrice(price, 'price');
  const omit = new Set(opts?.omit ?? []);
  const lines: CentLine[] = [];
  const table = (id: string, label: string, tiers: readonly FeeTier[], name: string): void => {
    if (omit.has(id)) return;
    const t = tierFor(tiers, price);
    if (!t) throw new FeeScheduleError('no_tier', `no ${name} tier covers a sale price of $${price}`);
    lines.push({ id, label, cents: tierCents(t, price) });
  };
  table(BUYER_FEE_ID, s.buyer_fee_label ?? 'Buyer fee', s.tiers, 'buyer fee');
  table(BID_FEE_ID, s.bid_fee_label ?? 'Internet bid fee', s.bid_fee_tiers, 'bid fee');
  for (const f of s.fixed)
    if (!omit.has(f.id)) lines.push({ id: f.id, label: f.label, cents: toCents(f.usd) });
  for (const c of opts?.custom ?? []) {
    if (omit.has(c.id)) continue;
    if (!Number.isFinite(c.usd))
      throw new FeeScheduleError('bad_line', `custom line ${c.id} has no finite amount`);
    lines.push({ id: c.id, label: c.label, cents: toCents(c.usd) });
  }
  return lines;
}

const sum = (lines: readonly CentLine[]): number => lines.reduce((a, l) => a + l.cents, 0);
const asFeeLines = (lines: readonly CentLine[]): FeeLine[] =>
  lines.map((l) => ({ id: l.id, label: l.label, usd: fromCents(l.cents) }));

/**
 * The buyer fees of a purchase at `price_usd` (USD, the sale price) under one membership kind's `schedule` (from
 * `FEE_FILES[platform].schedules[kind]`; source: data/fees/<platform>.json, the published buyer fee schedule).
 *
 * Lines, in order: `buyer_fee` (the tier of `schedule.tiers` covering the price), `bid_fee` (the tier of
 * `schedule.bid_fee_tiers`), every `schedule.fixed` fee, then `opts.custom`. Ids in `opts.omit` are left out (a buyer
 * who bids in person omits `bid_fee`); an omitted table is not looked up. Tiers are looked up by the price in whole
 * dollars (its floor), so $2,399.50 falls in a $2,000.00 - $2,399.99 tier; a percentage tier charges
 * price × percent / 100 rounded to the cent.
 *
 * @returns `{ lines: { id, label, usd }[], total_usd }`, amounts in USD.
 * @throws FeeScheduleError `bad_price` when the price is negative or not finite, `no_tier` when no tier covers it,
 *   `bad_line` when a custom line's amount is not finite.
 */
export function buyerFees(
  price_usd: number,
  schedule: FeeSchedule,
  opts?: BuyerFeeOptions,
): { lines: FeeLine[]; total_usd: number } {
  const lines = feeCents(price_usd, schedule, opts);
  return { lines: asFeeLines(lines), total_usd: fromCents(sum(lines)) };
}

// ---------------------------------------------------------------------------------------------------------------
// Landed cost
// ---------------------------------------------------------------------------------------------------------------

/** Input of landedCost and maxBid (maxBid takes `target_usd` instead of `bid_usd`). */
export interface LandedInput {
  bid_usd: number;
  schedule: FeeSchedule;
  /** Transport from the yard to the chosen port, USD; null when not known yet (then it counts as 0). */
  shipping_usd: number | null;
  /** The user's own lines: ocean freight, duty, repairs, margin ... Percent lines are a percentage of the bid. */
  lines: readonly OwnLine[];
  opts?: BuyerFeeOptions;
}

/** A landed-cost breakdown, every amount in USD. */
export interface LandedCost {
  bid_usd: number;
  fees: FeeLine[];
  fees_usd: number;
  /** As given: null means the transport price was not known and is not in the total. */
  shipping_usd: number | null;
  own: FeeLine[];
  own_usd: number;
  total_usd: number;
}

function checkShipping(shipping: number | null): void {
  if (shipping !== null && (!Number.isFinite(shipping) || shipping < 0)) {
    throw new FeeScheduleError(
      'bad_amount',
      `shipping_usd must be null or a finite amount >= 0, got ${shipping}`,
    );
  }
}

function ownCents(bid: number, lines: readonly OwnLine[]): CentLine[] {
  return lines.map((l) => {
    if ('percent' in l) {
      if (!Number.isFinite(l.percent) || l.percent < 0) {
        throw new FeeScheduleError('bad_line', `line ${l.id}: percent must be a finite number >= 0`);
      }
      return { id: l.id, label: l.label, cents: Math.round(bid * l.percent) };
    }
    if (!Number.isFinite(l.usd)) throw new FeeScheduleError('bad_line', `line ${l.id} has no finite amount`);
    return { id: l.id, label: l.label, cents: toCents(l.usd) };
  });
}

function landedCents(input: LandedInput): { fees: CentLine[]; own: CentLine[]; total: number } {
  checkShipping(input.shipping_usd);
  const fees = feeCents(input.bid_usd, input.schedule, input.opts);
  const own = ownCents(input.bid_usd, input.lines);
  const total = toCents(input.bid_usd) + sum(fees) + toCents(input.shipping_usd ?? 0) + sum(own);
  return { fees, own, total };
}

/**
 * What a lot costs landed at `bid_usd` (USD): the bid, the buyer fees of `schedule` at that bid (see buyerFees;
 * source: data/fees/<platform>.json, the published buyer fee schedule), transport to the port (`shipping_usd`, null
 * when unknown: shown as null and counted as 0) and the user's own `lines`, each a fixed `usd` or a `percent` of the
 * bid (rounded to the cent).
 *
 * @returns `{ bid_usd, fees, fees_usd, shipping_usd, own, own_usd, total_usd }`, amounts in USD, where
 *   total_usd = bid_usd + fees_usd + (shipping_usd ?? 0) + own_usd.
 * @throws FeeScheduleError `bad_price` (bid negative or not finite), `no_tier` (no tier covers the bid),
 *   `bad_amount` (shipping negative or not finite), `bad_line` (a line's amount or percent not usable; percent must
 *   be >= 0).
 */
export function landedCost(input: LandedInput): LandedCost {
  const { fees, own, total } = landedCents(input);
  return {
    bid_usd: input.bid_usd,
    fees: asFeeLines(fees),
    fees_usd: fromCents(sum(fees)),
    shipping_usd: input.shipping_usd,
    own: asFeeLines(own),
    own_usd: fromCents(sum(own)),
    total_usd: fromCents(total),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Max bid
// ---------------------------------------------------------------------------------------------------------------

/** Input of maxBid: LandedInput without the bid, plus the most the lot may cost landed and the bid step. */
export interface MaxBidInput extends Omit<LandedInput, 'bid_usd'> {
  /** The most the lot may cost landed, USD. */
  target_usd: number;
  /** Bids are whole multiples of this, USD (default 1; at most two decimals are used). */
  step_usd?: number;
}

/** A price range, in cents [start, end), over which both fee tables stay on one tier each. */
interface Segment {
  start: number;
  end: number;
  buyer: FeeTier | null;
  bid: FeeTier | null;
}

/** The ranges a table's tiers cover, in cents [start, end); a tier to $X.99 covers up to but excluding $X+1. */
function cover(tiers: readonly FeeTier[]): { start: number; end: number; tier: FeeTier }[] {
  return tiers.map((t) => ({
    start: t.from_usd * 100,
    end: t.to_usd === null ? Infinity : (Math.floor(t.to_usd) + 1) * 100,
    tier: t,
  }));
}

/** The intersection of the buyer-fee and bid-fee ranges (an omitted table covers everything), ascending. */
function segments(s: FeeSchedule, omit: ReadonlySet<string>): Segment[] {
  const all = [{ start: 0, end: Infinity, tier: null }];
  const a: { start: number; end: number; tier: FeeTier | null }[] = omit.has(BUYER_FEE_ID)
    ? all
    : cover(s.tiers);
  const b: { start: number; end: number; tier: FeeTier | null }[] = omit.has(BID_FEE_ID)
    ? all
    : cover(s.bid_fee_tiers);
  const out: Segment[] = [];
  for (const x of a) {
    for (const y of b) {
      const start = Math.max(x.start, y.start);
      const end = Math.min(x.end, y.end);
      if (start < end) out.push({ start, end, buyer: x.tier, bid: y.tier });
    }
  }
  return out.sort((p, q) => p.start - q.start);
}

/**
 * The highest bid (USD, a whole multiple of `step_usd`, >= 0) whose `landedCost(...).total_usd` is at most
 * `target_usd`, or null when even a bid of 0 costs more (source of the fees: data/fees/<platform>.json, the
 * published buyer fee schedule; the other inputs as in landedCost).
 *
 * Why range by range: inside one range where the buyer-fee tier and the bid-fee tier both stay put, the landed
 * total is linear in the bid (slope 1 + the percentages of a percentage tier and of the user's percent lines, before
 * rounding to cents), but at a tier boundary it jumps: at $2,400 a fee can rise by $35, so $2,399 fits a target that
 * $2,400 to $2,434 miss, and the answer is often the last step below a boundary. A higher bid never lands cheaper
 * with the published tables (every table here is non-decreasing), so a bisection on "fits" would happen to work on
 * them; but the schema does not promise non-decreasing tables (a percentage tier may start below the fixed fee before
 * it), and this solve needs no such assumption. It walks the ranges (the intersection of the two tables' tiers) from
 * the highest down; in each it solves the linear equation for the largest bid that fits, then checks that bid and
 * its neighbours with the same cent arithmetic as landedCost and moves one step at a time until the bid fits and one
 * step more does not (rounding to cents keeps the total non-decreasing inside a range, as percentages are >= 0).
 * The first range holding a fitting bid holds the answer. Bids that no tier covers (a gap in a table) are never
 * returned.
 *
 * @throws FeeScheduleError `bad_amount` (target not finite, step not > 0, shipping negative or not finite),
 *   `bad_line` (a line's amount or percent not usable).
 */
export function maxBid(input: MaxBidInput): number | null {
  const { target_usd, schedule, lines, opts } = input;
  if (!Number.isFinite(target_usd)) throw new FeeScheduleError('bad_amount', `target_usd must be finite`);
  const step = input.step_usd ?? 1;
  const stepC = toCents(step);
  if (!Number.isFinite(step) || stepC <= 0) {
    throw new FeeScheduleError('bad_amount', `step_usd must be at least $0.01, got ${step}`);
  }
  checkShipping(input.shipping_usd);
  ownCents(0, lines); // validates the lines once, so the search below cannot throw on them
  const targetC = toCents(target_usd);
  const ownPercent = lines.reduce((a, l) => a + ('percent' in l ? l.percent : 0), 0);
  const totalAt = (k: number): number => landedCents({ ...input, bid_usd: fromCents(k * stepC) }).total;

  const segs = segments(schedule, new Set(opts?.omit ?? []));
  for (let i = segs.length - 1; i >= 0; i--) {
    const seg = segs[i]!;
    const kMin = Math.ceil(seg.start / stepC);
    const kMax = seg.end === Infinity ? Infinity : Math.ceil(seg.end / stepC) - 1;
    if (kMax < kMin) continue;
    const t0 = totalAt(kMin);
    if (t0 > targetC) continue; // the total only grows inside a range: nothing here fits
    // Cents of total per cent of bid inside this range.
    const slope = 1 + ((seg.buyer?.percent ?? 0) + (seg.bid?.percent ?? 0) + ownPercent) / 100;
    let k = Math.min(kMax, kMin + Math.floor((targetC - t0) / (slope * stepC)));
    while (k > kMin && totalAt(k) > targetC) k--;
    while (k < kMax && totalAt(k + 1) <= targetC) k++;
    return fromCents(k * stepC);
  }
  return null;
}
