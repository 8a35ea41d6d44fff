import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSeeds } from '../../src/sandbox/index';
import { Market, type Lot } from '../../src/sandbox/market';
import { ENDED_MAX_RANGE_DAYS } from '../../src/sandbox/vehicleApi';
import { START, startHarness, type Harness, type Rec } from './harness';

// The sandbox's Ended answers, like the real service's: finished lots with their results, prices that follow what
// buyers price by, relisted VINs whose attempts agree with their history, and the real 502 for a date range too wide.

const DAY = 86_400_000;
let real: Harness;
let spec: Harness;
beforeAll(async () => {
  // Twenty days on: lots ended, came back and sold again while the market ran, besides the history it starts with.
  [real, spec] = await Promise.all([startHarness(), startHarness({ shape: 'spec' })]);
  for (const h of [real, spec]) h.sb.advance(20 * DAY);
});
afterAll(() => Promise.all([real.close(), spec.close()]));

/** Every record of GET /vehicles with `query`, page after page (20 a page). @throws on any status but 200. */
async function all(h: Harness, query: string): Promise<Rec[]> {
  const out: Rec[] = [];
  let cursor: string | null = null;
  do {
    const { status, body } = await h.json(
      `/vehicles?${query}&per_page=20${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(status, query).toBe(200);
    out.push(...(body['data'] as Rec[]));
    cursor = (body['meta'] as Rec)['next_cursor'];
  } while (cursor);
  return out;
}

describe('GET /vehicles with lot_sub_status=Ended', () => {
  it('answers finished lots with Sold, Sold on Approval and unsold results; Open answers none of them', async () => {
    const ended = await all(real, 'make=TOYOTA&lot_sub_status=Ended');
    expect(ended.length).toBeGreaterThan(20);
    const results = new Set<string>();
    for (const r of ended) {
      expect(r['auction']['state']).toBe('finished');
      const status = r['auction']['last_sold_status'] as string | null;
      results.add(String(status));
      if (status === null) expect(r['pricing']['last_sold_price_usd']).toBe(0);
      else {
        expect(r['pricing']['last_sold_price_usd']).toBeGreaterThan(0);
        expect(r['auction']['last_sold_day']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
    }
    expect([...results].sort()).toEqual(['Sold', 'Sold on Approval', 'null']);
    const open = await all(real, 'make=TOYOTA');
    expect(open.length).toBeGreaterThan(20);
    for (const r of open) expect(r['auction']['state']).toBe('open');
    const endedLots = new Set(ended.map((r) => r['lot_number']));
    expect(open.some((r) => endedLots.has(r['lot_number']))).toBe(false);
  });

  it(`a date range over ${ENDED_MAX_RANGE_DAYS} days answers the real 502; a narrower one, or an Open search, does not`, async () => {
    const wide = await real.json(
      '/vehicles?lot_sub_status=Ended&auction_date_from=2026-01-01&auction_date_to=2026-06-01',
    );
    expect(wide.status).toBe(502);
    expect(wide.body).toEqual({ ok: false, message: 'Vehicle API request failed.' });
    const edge = await real.json(
      '/vehicles?lot_sub_status=Ended&auction_date_from=2026-03-03&auction_date_to=2026-06-01',
    );
    expect(edge.status).toBe(200);
    expect((edge.body['data'] as Rec[]).length).toBeGreaterThan(0);
    const open = await real.json('/vehicles?auction_date_from=2026-01-01&auction_date_to=2026-12-31');
    expect(open.status).toBe(200);
    const specWide = await spec.json(
      '/vehicles?lot_sub_status=Ended&auction_date_from=2025-06-01&auction_date_to=2026-06-01',
    );
    expect(specWide.status).toBe(502);
  });

  it("each record's estimated_cost band holds its sale price, and IAAI's ACV sits beside it", async () => {
    const ended = await all(real, 'make=HONDA&lot_sub_status=Ended');
    const sold = ended.filter((r) => r['pricing']['last_sold_price_usd'] > 0);
    expect(sold.length).toBeGreaterThan(20);
    for (const r of sold) {
      const { from, to, text } = r['pricing']['estimated_cost'];
      expect(from).toBeLessThan(to);
      expect(text).toBe(`$${from.toLocaleString('en-US')} - $${to.toLocaleString('en-US')}`);
      expect(r['pricing']['last_sold_price_usd']).toBeGreaterThanOrEqual(from);
      expect(r['pricing']['last_sold_price_usd']).toBeLessThanOrEqual(to);
      if (r['platform'] !== 'iaai') continue;
      const acv = Number(r['details']['sale_information']['ActualCashValue'].replace(/[$, USD]/g, ''));
      expect(acv).toBeGreaterThan(0);
    }
  });
});

describe("a relisted VIN's attempts agree with its history", () => {
  /** VINs listed more than once with an earlier attempt ended: six relisted while the market ran, six before. */
  const relisted = (h: Harness): string[] => {
    const vins = [...h.sb.market.byVin].filter(([, ls]) => ls.length >= 2 && ls[0]!.subStatus === 'Ended');
    const ran = vins.filter(([, ls]) => ls.some((l) => l.relistOf !== null && l.createdAt > START));
    const before = vins.filter(([, ls]) => ls.every((l) => l.createdAt <= START));
    expect(ran.length).toBeGreaterThanOrEqual(6);
    expect(before.length).toBeGreaterThanOrEqual(6);
    return [...ran.slice(0, 6), ...before.slice(0, 6)].map(([vin]) => vin);
  };

  it('real shape: every sale of an Ended search by VIN is a history row (platform, day, price, status), and nothing else', async () => {
    for (const vin of relisted(real)) {
      const lots = real.sb.market.byVin.get(vin)!;
      const ended = await all(real, `s=${vin}&lot_sub_status=Ended`);
      // Every earlier attempt is a finished lot of the search, under its own lot number.
      expect(ended.map((r) => r['lot_number']).sort()).toEqual(
        lots
          .filter((l) => l.subStatus === 'Ended')
          .map((l) => l.lotNumber)
          .sort(),
      );
      const { status, body } = await real.json(`/vehicles/${vin}/history`);
      expect(status).toBe(200);
      const rows = (body['data'] as Rec)['history'] as Rec[];
      const sales = ended
        .filter((r) => r['auction']['last_sold_status'] !== null)
        .map((r) => ({
          platform: r['platform'],
          date: r['auction']['last_sold_day'],
          price: r['pricing']['last_sold_price_usd'],
          status: r['auction']['last_sold_status'],
        }));
      const key = (x: Rec): string => `${x['date']}|${x['platform']}|${x['price']}|${x['status']}`;
      expect(rows.map(key).sort(), vin).toEqual(sales.map(key).sort());
      // Newest first.
      expect(rows.map((x) => x['date'])).toEqual(
        rows
          .map((x) => x['date'])
          .sort()
          .reverse(),
      );
    }
  });

  it('spec shape: the history holds the same lots as the Ended search, with the same lot number, bid, price and state', async () => {
    for (const vin of relisted(spec)) {
      const ended = await all(spec, `s=${vin}&lot_sub_status=Ended`);
      const { body } = await spec.json(`/vehicles/${vin}/history`);
      const pick = (r: Rec): string =>
        [
          r['lot_number'],
          r['auction']['auction_at'],
          r['auction']['state'],
          r['pricing']['current_bid_usd'],
          r['pricing']['sale_price_usd'],
        ].join('|');
      expect((body['data'] as Rec[]).map(pick).sort(), vin).toEqual(ended.map(pick).sort());
    }
  });

  it("each attempt begins after the VIN's previous one ended, as its relist unless that one sold", async () => {
    for (const [vin, lots] of real.sb.market.byVin) {
      const byDate = [...lots].sort((a, b) => a.auctionAt - b.auctionAt);
      for (let i = 1; i < byDate.length; i++) {
        const [prev, next] = [byDate[i - 1]!, byDate[i]!];
        expect(prev.subStatus, vin).toBe('Ended');
        expect(next.createdAt, vin).toBeGreaterThanOrEqual(prev.endedAt!);
        expect(next.relistOf, vin).toBe(prev.outcome === 'sold' ? null : prev);
      }
    }
    // The spec's detail names the attempt a lot relists.
    const [, lots] = [...spec.sb.market.byVin].find(([, ls]) =>
      ls.some((l) => l.relistOf && l.createdAt <= START),
    )!;
    const lot = lots.find((l) => l.relistOf)!;
    const { body } = await spec.json(`/vehicles/${lot.lotNumber}`);
    expect((body['data'] as Rec)['relisted_from']).toBe(lot.relistOf!.lotNumber);
  });
});

/** Spearman's rank correlation of two equally long lists (ties share their mean rank). */
function spearman(a: readonly number[], b: readonly number[]): number {
  const ranks = (xs: readonly number[]): number[] => {
    const order = xs.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0]);
    const r = new Array<number>(xs.length).fill(0);
    for (let i = 0; i < order.length;) {
      let j = i;
      while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
      for (let k = i; k <= j; k++) r[order[k]![1]] = (i + j) / 2;
      i = j + 1;
    }
    return r;
  };
  const [ra, rb] = [ranks(a), ranks(b)];
  const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  const [ma, mb] = [mean(ra), mean(rb)];
  let num = 0;
  let da = 0;
  let db = 0;
  ra.forEach((x, i) => {
    num += (x - ma) * (rb[i]! - mb);
    da += (x - ma) ** 2;
    db += (rb[i]! - mb) ** 2;
  });
  return num / Math.sqrt(da * db);
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

describe('sale prices follow year, odometer, damage and title document', () => {
  it('over several seeds: newer, lower-mileage, lighter-damaged and clean-title lots sell higher', () => {
    for (const seed of sandboxSeeds(3)) {
      const m = new Market({ seed, lots: 12_000, startTime: START });
      const priced = m.lots.filter((l) => l.subStatus === 'Ended' && (l.salePrice ?? 0) > 0);
      const byModel = new Map<string, Lot[]>();
      for (const l of priced) {
        const k = `${l.v.spec.make} ${l.v.spec.model}`;
        byModel.set(k, [...(byModel.get(k) ?? []), l]);
      }
      // Rank correlations within a model (models differ in price far more than years do), weighted by lots.
      let year = 0;
      let odometer = 0;
      let n = 0;
      let cleanHigher = 0;
      let pairs = 0;
      for (const lots of byModel.values()) {
        const price = lots.map((l) => l.salePrice!);
        if (lots.length >= 15) {
          year +=
            spearman(
              lots.map((l) => l.v.year),
              price,
            ) * lots.length;
          odometer +=
            spearman(
              lots.map((l) => l.v.odometer),
              price,
            ) * lots.length;
          n += lots.length;
        }
        const clean = lots.filter((l) => l.docName === 'CLEAR').map((l) => l.salePrice!);
        const salvage = lots.filter((l) => l.docName === 'SALVAGE').map((l) => l.salePrice!);
        if (clean.length >= 5 && salvage.length >= 5) {
          pairs++;
          if (median(clean) > median(salvage)) cleanHigher++;
        }
      }
      expect(n, `seed ${seed}`).toBeGreaterThan(300);
      expect(year / n, `seed ${seed}: price ~ year`).toBeGreaterThan(0.5);
      expect(odometer / n, `seed ${seed}: price ~ odometer`).toBeLessThan(-0.5);
      expect(pairs).toBeGreaterThanOrEqual(10);
      expect(cleanHigher / pairs, `seed ${seed}: clean over salvage`).toBeGreaterThan(0.6);
      // As a share of the car's value (IAAI's ACV), the title and the damage show without the year in the way.
      const share = (pick: (l: Lot) => boolean): number =>
        median(priced.filter(pick).map((l) => l.salePrice! / l.v.value));
      expect(share((l) => l.docName === 'CLEAR')).toBeGreaterThan(share((l) => l.docName === 'SALVAGE'));
      expect(share((l) => l.docName === 'SALVAGE')).toBeGreaterThan(
        share((l) => l.docName === 'NON-REPAIRABLE'),
      );
      expect(share((l) => l.damage === 'Minor dent/scratches')).toBeGreaterThan(
        share((l) => l.damage === 'Front end'),
      );
      expect(share((l) => l.damage === 'Front end')).toBeGreaterThan(
        share((l) => ['Fire', 'Water', 'Rollover', 'All over'].includes(l.damage)),
      );
    }
  });

  it('the same seed draws the same prices', () => {
    const prices = (): (number | null)[] =>
      new Market({ seed: 77, lots: 2500, startTime: START }).lots.map((l) => l.salePrice);
    expect(prices()).toEqual(prices());
  });
});
