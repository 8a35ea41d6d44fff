import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Lot } from '../../../src/sandbox/index';
import type { MethodOutput } from '../../../src/shared/ipc/contract';
import { coresPerTest, type TestCore } from '../../helpers/core';
import { startSandbox, type Sandbox } from '../../helpers/sandbox';

// Market comparables over real HTTP against the sandbox: one Ended search per band (platform, make, model, year +-1)
// stores sold lots as comparables, a second lot of the band costs nothing for a day, a failed search keeps the
// stored answer, and a make the service does not know is "no comparables", not an error. The band is chosen from
// the sandbox's own market (the make and model with the most lots sold in one band that fits one page), so the test
// holds whatever prices the sandbox gives.

const START = Date.parse('2026-06-01T12:00:00Z');
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ seed: 42, lots: 6000, startTime: START, speed: 0, ratePerSecond: 0 });
});
afterAll(async () => sb.dispose());
afterEach(() => sb.faults.set({}));
const startCore = coresPerTest();

interface Band {
  platform: string;
  make: string;
  model: string;
  year: number;
  /** Two lots of the band's middle year: the first lot opened and a second one of the same model. */
  lots: [Lot, Lot];
  /** Ended lots in the band (what the search returns), and the VINs among them with a price paid. */
  ended: number;
  sold: number;
}

/**
 * The band with the most cars sold (a relisted VIN once) among those whose Ended lots fit one page of 20 (so the
 * first search is exactly 1 request), with at least 5 and two lots of its middle year. Reads the sandbox's market,
 * not the service.
 */
function pickBand(): Band {
  const lots = sb.market.lots;
  let best: Band | null = null;
  const key = (l: Lot, y: number) => `${l.platform}|${l.v.spec.make}|${l.v.spec.model}|${y}`;
  const byYear = new Map<string, Lot[]>();
  for (const l of lots) byYear.set(key(l, l.v.year), [...(byYear.get(key(l, l.v.year)) ?? []), l]);
  for (const [k, same] of byYear) {
    if (same.length < 2) continue;
    const [platform, make, model, y] = k.split('|') as [string, string, string, string];
    const year = Number(y);
    const inBand = [year - 1, year, year + 1].flatMap(
      (yy) => byYear.get(`${platform}|${make}|${model}|${yy}`) ?? [],
    );
    const ended = inBand.filter((l) => l.subStatus === 'Ended');
    const sold = new Set(ended.filter((l) => l.salePrice !== null && l.salePrice > 0).map((l) => l.v.vin))
      .size;
    if (ended.length >= 20 || sold < 5) continue;
    if (!best || sold > best.sold)
      best = { platform, make, model, year, lots: [same[0]!, same[1]!], ended: ended.length, sold };
  }
  if (!best) throw new Error('the sandbox market has no band of 5 to 19 ended lots');
  return best;
}

type DeskLot = MethodOutput<'desk.lot'>;
type Fetched = MethodOutput<'desk.marketComps'>;

/** How many requests core has logged (the request log, as the Requests view reads it). */
async function logged(made: TestCore): Promise<number> {
  return (await made.value<{ rows: unknown[] }>('requests.list', { limit: 1000 })).rows.length;
}

/** Opens a lot as the lot page does (one request), returning its stored key. */
async function open(made: TestCore, lot: Lot): Promise<string> {
  const r = await made.value<{ summary: { lot_key: string } }>('vehicles.get', {
    id: `${lot.platform}:${lot.lotNumber}`,
    refresh: true,
  });
  return r.summary.lot_key;
}

describe('market comparables against the sandbox', () => {
  it('the first lot has ranked comparables with a median after 1 request; a second lot of the band costs 0', async () => {
    const band = pickBand();
    const made = await startCore({ sandbox: sb });
    const first = await open(made, band.lots[0]);
    const second = await open(made, band.lots[1]);

    const before = await logged(made);
    const fetched = await made.value<Fetched>('desk.marketComps', { lot_key: first });
    expect(await logged(made)).toBe(before + 1);
    expect(fetched).toMatchObject({ requests: 1, cached: false, pages: 1, found: band.ended, warning: null });

    const desk = await made.value<DeskLot>('desk.lot', { lot_key: first });
    expect(desk.market).toMatchObject({
      platform: band.platform,
      make: band.make.toUpperCase(),
      model: band.model.toUpperCase(),
      year_from: band.year - 1,
      year_to: band.year + 1,
      found: band.ended,
      requests: 1,
      fresh: true,
      error: null,
    });
    const { comps, stats } = desk.comps;
    // At least 5 comparables with a price paid (the band was chosen for 5 cars sold), a median over them.
    expect(comps.length).toBeGreaterThanOrEqual(5);
    expect(stats.priced).toBeGreaterThanOrEqual(5);
    expect(stats.median_usd).not.toBeNull();
    expect(stats.sold.count + stats.sold_on_approval.count).toBe(stats.priced);
    // Every comparable says why it is one (at least its model year), and the list is ranked by its matches.
    for (const c of comps) expect(c.reasons.length).toBeGreaterThan(0);
    const score = (c: (typeof comps)[number]) =>
      (c.same_damage ? 32 : 0) +
      (c.same_title_group ? 16 : 0) +
      (c.same_run_condition ? 8 : 0) +
      (c.same_keys ? 4 : 0) +
      (c.same_odometer_band ? 2 : 0) +
      (c.year_delta === 0 ? 1 : 0);
    const scores = comps.map(score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // The bid range rests on the priced comparables of the lot's own title group (all of them when it is unknown),
    // between the lowest and highest of their prices.
    const r = desk.bid_range;
    const paid = (c: (typeof comps)[number]) =>
      (c.outcome === 'sold' || c.outcome === 'sold_on_approval') && (c.sale_price_usd ?? 0) > 0;
    const basis = comps.filter((c) => paid(c) && (r.title_group === null || c.same_title_group));
    expect([...r.rests_on].sort()).toEqual(basis.map((c) => c.lot_key).sort());
    expect(r.other_titles_left_out).toBe(comps.filter(paid).length - basis.length);
    if (basis.length >= 2) {
      const prices = basis.map((c) => c.sale_price_usd!);
      expect(r.refusal).toBeNull();
      expect(r.low_usd!).toBeGreaterThanOrEqual(Math.min(...prices));
      expect(r.high_usd!).toBeGreaterThanOrEqual(r.low_usd!);
      expect(r.high_usd!).toBeLessThanOrEqual(Math.max(...prices));
    } else expect(r.refusal).toMatch(/no bid range/);

    // A second lot of the same model and year: served by the same answer, no request.
    const again = await made.value<Fetched>('desk.marketComps', { lot_key: second });
    expect(again).toMatchObject({ requests: 0, cached: true, fetched_at: fetched.fetched_at });
    expect(await logged(made)).toBe(before + 1);
    expect((await made.value<DeskLot>('desk.lot', { lot_key: second })).market?.fresh).toBe(true);
  });

  it('a failed Ended search (502) says so and keeps the stored answer and its comparables', async () => {
    const band = pickBand();
    const made = await startCore({ sandbox: sb });
    const key = await open(made, band.lots[0]);
    const fetched = await made.value<Fetched>('desk.marketComps', { lot_key: key });
    const kept = await made.value<DeskLot>('desk.lot', { lot_key: key });

    made.clock.advance(25 * 3_600_000); // a day later the answer is stale: the next visit asks again
    expect((await made.value<DeskLot>('desk.lot', { lot_key: key })).market?.fresh).toBe(false);
    sb.faults.set({ rates: { error_502: 1 }, pathContains: '/vehicles' });
    const failed = await made.call('desk.marketComps', { lot_key: key });
    expect(failed.ok).toBe(false);
    if (!failed.ok) expect(failed.error.message).toMatch(/502/);

    const after = await made.value<DeskLot>('desk.lot', { lot_key: key });
    expect(after.market).toMatchObject({
      fetched_at: fetched.fetched_at,
      found: fetched.found,
      fresh: false,
    });
    expect(after.market?.error).toMatch(/502/);
    expect(after.comps.stats).toEqual(kept.comps.stats);

    sb.faults.set({});
    const retried = await made.value<Fetched>('desk.marketComps', { lot_key: key });
    expect(retried).toMatchObject({ requests: 1, cached: false });
    expect((await made.value<DeskLot>('desk.lot', { lot_key: key })).market?.error).toBeNull();
  });

  it('a make the service does not know is no comparables for 1 request, not an error', async () => {
    const band = pickBand();
    const made = await startCore({ sandbox: sb });
    const key = await open(made, band.lots[0]);
    made.db.prepare("UPDATE lots SET make = 'NOSUCHMAKE' WHERE lot_key = ?").run(key);
    const before = await logged(made);
    const fetched = await made.value<Fetched>('desk.marketComps', { lot_key: key });
    expect(fetched).toMatchObject({ requests: 1, found: 0, cached: false });
    expect(await logged(made)).toBe(before + 1);
    const desk = await made.value<DeskLot>('desk.lot', { lot_key: key });
    expect(desk.market).toMatchObject({ make: 'NOSUCHMAKE', found: 0, fresh: true, error: null });
    expect(desk.comps.comps).toEqual([]);
    expect(desk.bid_range).toMatchObject({ low_usd: null, high_usd: null, priced: 0 });
    expect(desk.bid_range.refusal).toMatch(/no bid range/);
  });
});
