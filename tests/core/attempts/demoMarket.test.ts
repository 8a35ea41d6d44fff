import { describe, expect, it } from 'vitest';
import type { Attempts } from '../../../src/shared/ipc/contract/lots';
import { coresPerTest } from '../../helpers/core';
import { sandboxPerFile, type Sandbox } from '../../helpers/sandbox';

// The Demo market's own VINs with earlier lots (src/sandbox/market.ts: earlier sales of a VIN, the vendor sample sold
// on approval and listed again), every lot of each stored, asked against the service over real HTTP. Relies on the
// sandbox's history listing the sales only (sold, sold on approval), dated by the sale's UTC day, and on an Ended
// search by VIN finding the VIN's finished lots.
const START = Date.UTC(2026, 5, 1, 12, 0, 0);
const RELISTED_SAMPLE = '2HKRM4H7XEH623608';
let sb: Sandbox;
sandboxPerFile({ seed: 7, lots: 3000, startTime: START, speed: 0, ratePerSecond: 0 }, (s) => (sb = s));
const startCore = coresPerTest();

interface SaleView {
  platform: string | null;
  date: string | null;
  price: number | null;
  outcome: string | null;
}

const OUTCOME = { sold: 'sold', approval: 'sold_on_approval', unsold: 'ended_unsold' } as const;

describe("the Demo market's VINs with earlier lots", () => {
  it('give one attempt per lot in time order, each history sale merged into its lot with the same result', async () => {
    const t = await startCore({ sandbox: sb });
    const vins = [...sb.market.byVin.entries()].filter(([, lots]) => lots.length >= 2);
    const picked = [
      ...vins.filter(([vin]) => vin === RELISTED_SAMPLE),
      ...vins.filter(([vin]) => vin !== RELISTED_SAMPLE).slice(0, 5),
    ];
    expect(picked[0]?.[0]).toBe(RELISTED_SAMPLE);
    let withHistory = 0;
    for (const [vin, lots] of picked) {
      for (const l of lots) await t.value('vehicles.get', { id: l.lotNumber });
      const history = await t.value<{ sales: SaleView[] }>('vehicles.history', { id: vin });
      const a = await t.value<Attempts>('vehicles.attempts', { id: vin, ask: true });
      const ordered = [...lots].sort((x, y) => x.auctionAt - y.auctionAt);
      expect(
        a.attempts.map((x) => [x.platform, x.lot_number, x.outcome, x.basis]),
        vin,
      ).toEqual(
        ordered.map((l) => [
          l.platform,
          l.lotNumber,
          l.subStatus === 'Ended' ? OUTCOME[l.outcome] : 'open',
          'confirmed',
        ]),
      );
      expect(a.requests).toBe(history.sales.length > 0 ? 1 : 2);
      for (const s of history.sales) {
        const same = a.attempts.filter((x) => x.sources.includes('history') && x.day === s.date);
        expect(same, `${vin} ${s.date}`).toHaveLength(1);
        expect(same[0]).toMatchObject({ platform: s.platform, price_usd: s.price, outcome: s.outcome });
        expect(same[0]!.sources).toContain('store');
      }
      if (history.sales.length) withHistory++;
    }
    expect(withHistory).toBeGreaterThan(0);
    const sample = await t.value<Attempts>('vehicles.attempts', { id: RELISTED_SAMPLE });
    expect(sample.signals.facts[0]).toMatch(/^2nd attempt; last one ended on approval at \$[\d,]+$/);
  });
});
