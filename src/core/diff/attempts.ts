import type { EndedOutcome } from '../../shared/saleOutcome';

/**
 * A VIN's every auction attempt (docs/architecture.md "A VIN's attempts"): what the store, the service's sale history
 * and an Ended search by VIN each say about one vehicle, merged into one timeline. Pure and deterministic: no I/O,
 * no clock (`now` comes in), and the same sightings in any order give the same attempts.
 */

/** Where a sighting comes from: Lotwatch's store, GET /vehicles/{slugVin}/history, or an Ended search by VIN. */
export const ATTEMPT_SOURCES = ['store', 'history', 'ended_search'] as const;
export type AttemptSource = (typeof ATTEMPT_SOURCES)[number];

/**
 * How an attempt ended. The three results of an auction that is over (reported by the service), `open` (still for
 * sale), and two Lotwatch infers: `relisted` (the vehicle came back after it: not sold, or the sale fell through)
 * and `vanished` (its sale time passed and no result was seen: never "unsold", nobody said so).
 */
export const ATTEMPT_OUTCOMES = [
  'sold',
  'sold_on_approval',
  'ended_unsold',
  'open',
  'relisted',
  'vanished',
] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** One source's account of one auction attempt. Amounts in USD, times in ms since the epoch. */
export interface AttemptSighting {
  source: AttemptSource;
  /** The wire platform value (`copart`, `iaai`); compared without case. Null when the source does not say. */
  platform: string | null;
  /** Null when the source gives none (the real history's rows have no lot number). */
  lot_number: string | null;
  /** The auction day, YYYY-MM-DD (UTC): the sale day when the service reports one, else the auction time's day. */
  day: string | null;
  auction_at: number | null;
  /** The highest bid seen, USD; null when unknown. For an unsold attempt it is the bid the seller refused. */
  bid_usd: number | null;
  /** What the service reported as paid, USD (above 0); null when none was reported. */
  price_usd: number | null;
  /**
   * The service's result (`confirmed`: the history, or a finished record carrying its result), `open` when the
   * service last showed it for sale, or null when this source knows no result.
   */
  result: EndedOutcome | 'open' | null;
  /** When Lotwatch first and last saw the lot listed (store only), ms; null when unknown. */
  first_seen_at: number | null;
  last_seen_at: number | null;
}

/** One auction attempt of the vehicle, merged from every source that saw it. */
export interface Attempt {
  /** 1 for the first attempt known, in time order. */
  number: number;
  platform: string | null;
  lot_number: string | null;
  day: string | null;
  auction_at: number | null;
  bid_usd: number | null;
  price_usd: number | null;
  outcome: AttemptOutcome;
  /** `confirmed`: a source reported this outcome (or showed the lot open); `inferred`: Lotwatch concluded it. */
  basis: 'confirmed' | 'inferred';
  /** Which sources saw this attempt, in ATTEMPT_SOURCES order. */
  sources: AttemptSource[];
  first_seen_at: number | null;
  last_seen_at: number | null;
}

/** A sale time passed this long ago without a result seen: the attempt is `vanished` (ms; live sales run late). */
export const VANISHED_AFTER_MS = 24 * 3_600_000;

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})/;

/**
 * The UTC day (YYYY-MM-DD) of a date as a source gives it: a `YYYY-MM-DD` day as is, a date-time with an offset as
 * its UTC day, ms since the epoch as their UTC day. Null for anything else (never read in the machine's zone).
 */
export function dayOf(v: string | number | null | undefined): string | null {
  if (typeof v === 'number') return Number.isFinite(v) ? new Date(v).toISOString().slice(0, 10) : null;
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return s;
  if (!DAY_RE.test(s) || !/(Z|z|[+-]\d{2}(:?\d{2})?)$/.test(s)) return null;
  const t = Date.parse(s);
  return Number.isFinite(t) ? new Date(t).toISOString().slice(0, 10) : null;
}

const norm = (s: string | null): string => (s ?? '').trim().toLowerCase();
const dayMs = (d: string | null): number => (d === null ? NaN : Date.parse(`${d}T00:00:00Z`));

/** The results, most final first: a merged attempt takes the most final one any source reported. */
const RESULT_RANK: readonly (EndedOutcome | 'open')[] = ['sold', 'sold_on_approval', 'ended_unsold', 'open'];
const SOURCE_RANK: readonly AttemptSource[] = ['history', 'ended_search', 'store'];

const maxOf = (xs: (number | null)[]): number | null => {
  const k = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  return k.length ? Math.max(...k) : null;
};
const minOf = (xs: (number | null)[]): number | null => {
  const k = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  return k.length ? Math.min(...k) : null;
};

/** One attempt from its sightings (all of one platform, lot and day), before numbering and inference. */
function combine(group: AttemptSighting[]): Omit<Attempt, 'number'> {
  const best = [...group].sort(
    (a, b) =>
      rank(RESULT_RANK, a.result) - rank(RESULT_RANK, b.result) ||
      rank(SOURCE_RANK, a.source) - rank(SOURCE_RANK, b.source) ||
      (b.price_usd ?? -1) - (a.price_usd ?? -1),
  )[0]!;
  const numbered = group.map((g) => g.lot_number).filter((n): n is string => n !== null && n.trim() !== '');
  const outcome: AttemptOutcome = best.result ?? 'vanished';
  const paid = outcome === 'sold' || outcome === 'sold_on_approval';
  return {
    platform: group.map((g) => norm(g.platform)).find((p) => p !== '') ?? null,
    lot_number: numbered.length ? numbered.sort()[0]!.trim() : null,
    // A history row joined from the day before or after takes the numbered sightings' day.
    day:
      minDay(group.filter((g) => (g.lot_number ?? '').trim() !== '').map((g) => g.day)) ??
      minDay(group.map((g) => g.day)),
    auction_at: maxOf(group.map((g) => g.auction_at)),
    bid_usd: maxOf(group.map((g) => g.bid_usd)),
    price_usd: paid
      ? (best.price_usd ?? maxOf(group.filter((g) => g.result === outcome).map((g) => g.price_usd)))
      : null,
    outcome,
    basis: best.result === null ? 'inferred' : 'confirmed',
    sources: ATTEMPT_SOURCES.filter((s) => group.some((g) => g.source === s)),
    first_seen_at: minOf(group.map((g) => g.first_seen_at)),
    last_seen_at: maxOf(group.map((g) => g.last_seen_at)),
  };
}

function minDay(ds: (string | null)[]): string | null {
  const k = ds.filter((d): d is string => d !== null).sort();
  return k[0] ?? null;
}

function rank<T>(order: readonly T[], v: T | null): number {
  const i = v === null ? -1 : order.indexOf(v);
  return i < 0 ? order.length : i;
}

/** The most final result any sighting of a group reports, or null. */
const resultOf = (g: AttemptSighting[]): EndedOutcome | 'open' | null =>
  [...g].map((s) => s.result).sort((a, b) => rank(RESULT_RANK, a) - rank(RESULT_RANK, b))[0] ?? null;

/**
 * Merges sightings of one vehicle into its attempts, oldest first (day, then auction time; unknown days last), each
 * numbered from 1. Two sightings are one attempt when their platform (without case), lot number and day agree. A
 * sighting without a lot number (a real history row) joins the one numbered attempt of its platform on its day, or,
 * when there is none that day, the one on the day before or after (a live sale ending past midnight UTC); among
 * several candidates it joins the one with the same result, and stays its own attempt when that still leaves more
 * or fewer than one.
 *
 * Outcomes: the most final result a source reported (sold, then sold on approval, ended unsold, open), marked
 * `confirmed`. Without one, and for an attempt still `open` whose sale time is over: `relisted` (inferred) when a
 * later attempt exists, else `vanished` (inferred) once VANISHED_AFTER_MS have passed since its sale time (or day),
 * else it stays open. The bid is the highest any source saw; the price only for a sale.
 *
 * @param now ms since the epoch. @returns the attempts; every sighting is in exactly one of them. Throws nothing.
 */
export function mergeAttempts(sightings: readonly AttemptSighting[], now: number): Attempt[] {
  const numbered = new Map<string, AttemptSighting[]>();
  const loose = new Map<string, AttemptSighting[]>();
  for (const s of sightings) {
    const n = (s.lot_number ?? '').trim();
    const into = n === '' ? loose : numbered;
    const key = n === '' ? `${norm(s.platform)}|${s.day ?? ''}` : `${norm(s.platform)}|${n}|${s.day ?? ''}`;
    into.set(key, [...(into.get(key) ?? []), s]);
  }
  const fixed = [...numbered.values()];
  const groups = [...fixed];
  const attach: [AttemptSighting[], AttemptSighting[]][] = [];
  for (const g of loose.values()) {
    const platform = norm(g[0]!.platform);
    const day = g[0]!.day;
    const on = (d: number) =>
      fixed.filter(
        (n) =>
          norm(n[0]!.platform) === platform &&
          day !== null &&
          n[0]!.day !== null &&
          Math.abs(dayMs(n[0]!.day) - dayMs(day)) === d * 86_400_000,
      );
    const candidates = on(0).length ? on(0) : on(1);
    const same = candidates.filter((n) => resultOf(n) === resultOf(g));
    const target = candidates.length === 1 ? candidates[0] : same.length === 1 ? same[0] : undefined;
    if (target) attach.push([target, g]);
    else groups.push(g);
  }
  for (const [target, g] of attach) target.push(...g);
  const merged = groups.map(combine).sort(compareAttempts);
  return merged.map((a, i) => {
    const over = a.auction_at ?? (a.day === null ? null : dayMs(a.day));
    const due = over !== null && Number.isFinite(over) && now - over >= VANISHED_AFTER_MS;
    const later = i < merged.length - 1;
    let { outcome, basis } = a;
    if (basis === 'inferred' || (outcome === 'open' && due)) {
      // No result reported, or still shown open after its sale time: the vehicle came back, or it vanished.
      if (later) [outcome, basis] = ['relisted', 'inferred'];
      else if (due) [outcome, basis] = ['vanished', 'inferred'];
      else outcome = 'open';
    }
    return { ...a, outcome, basis, number: i + 1 };
  });
}

/** Attempts in time order: by day, then auction time, unknown last; then platform and lot number. */
function compareAttempts(a: Omit<Attempt, 'number'>, b: Omit<Attempt, 'number'>): number {
  const k = (x: Omit<Attempt, 'number'>) =>
    [x.day ?? '9999', x.auction_at ?? Number.MAX_SAFE_INTEGER] as const;
  const [ad, at] = k(a);
  const [bd, bt] = k(b);
  if (ad !== bd) return ad < bd ? -1 : 1;
  if (at !== bt) return at - bt;
  const ap = JSON.stringify(a);
  const bp = JSON.stringify(b);
  return ap < bp ? -1 : ap > bp ? 1 : 0;
}
