// @vitest-environment jsdom
import { frozenAtNow, installFake, render } from './fakeApi';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LotView } from '../../../src/renderer/src/features/lot/LotView';
import { parseVehicleDetail } from '../../../src/core/api/parse';
import { okResult, type FakeHandlers } from '../fakeBridge';
import { lotDetail, lotSummary } from './fixtures';
import { realFinishedRecord } from '../../core/api/fixtures/realRecords';

frozenAtNow('');

// The lot page's estimate facts, each saying whose estimate it is: the service's price estimate (never a repair
// cost), the platform's ACV and estimated repair cost, and repair to value as a percentage, or why it is unknown.

const quiet: FakeHandlers = {
  'vehicles.attempts': () =>
    okResult({
      vin: null,
      attempts: [],
      signals: {
        attempts: 0,
        relists: 0,
        approval_returns: 0,
        bid_trend: null,
        days_on_market: null,
        facts: [],
      },
      asked: { history: false, ended_search: false },
      requests: 0,
      notice: null,
    }),
  'vehicles.related': () => okResult({ lots: [] }),
};

/** Opens the lot page on a real-shaped record as the client normalises it; returns the Vehicle facts' reader. */
async function open(rec: Record<string, unknown>, platform: 'iaai' | 'copart', lot: string) {
  const r = parseVehicleDetail({ ok: true, data: rec });
  if (!r.ok) throw new Error(r.reason);
  const { raw: _raw, ...normalized } = r.value.data;
  const key = `${platform}:${lot}`;
  installFake({
    handlers: {
      ...quiet,
      'vehicles.get': () =>
        okResult(
          lotDetail({
            offline: false,
            summary: lotSummary({ lot_key: key, platform, lot_number: lot, title: '2018 AUDI S5' }),
            record: normalized as Record<string, unknown>,
            raw: r.value.raw,
          }),
        ),
    },
  });
  render(<LotView lotKey={key} />);
  await screen.findByRole('heading', { name: '2018 AUDI S5' });
  const vehicle = screen.getByRole('region', { name: 'Vehicle' });
  return (label: string) =>
    within(vehicle).getByText(label).closest('.fact')?.querySelector('dd')?.textContent;
}

describe('LotView · estimates', () => {
  it('an IAAI lot: the service’s price estimate, IAAI’s ACV and repair cost, and repair to value', async () => {
    const fact = await open(realFinishedRecord(), 'iaai', '45139005');
    expect(fact("The service's price estimate (not a repair cost)")).toBe('$1,450 – $15,000');
    expect(fact("IAAI's ACV (value before the damage)")).toBe('$18,349');
    expect(fact("IAAI's estimated repair cost")).toBe('$20,821');
    expect(fact("Repair to value (IAAI's repair ÷ ACV)")).toBe('113% of ACV');
  });

  it('a Copart lot says Copart gives no ACV or repair cost, and why repair to value is unknown', async () => {
    const rec: Record<string, unknown> = {
      ...realFinishedRecord(),
      platform: 'copart',
      platform_id: 1,
      lot_number: '50314744',
      pricing: { current_bid_usd: 2000, estimated_cost: { from: 1450, to: null } },
    };
    delete rec['details'];
    const fact = await open(rec, 'copart', '50314744');
    expect(fact("The service's price estimate (not a repair cost)")).toBe('from $1,450 (upper end unknown)');
    expect(fact("Copart's ACV (value before the damage)")).toBe('Not given by Copart');
    expect(fact("Copart's estimated repair cost")).toBe('Not given by Copart');
    expect(fact("Repair to value (Copart's repair ÷ ACV)")).toBe('Unknown: no ACV or estimated repair cost');
  });

  it('an IAAI lot without an ACV says which figure is missing', async () => {
    const fact = await open(
      { ...realFinishedRecord(), details: { sale_information: { EstimatedRepairCost: '$20,821 USD' } } },
      'iaai',
      '45139005',
    );
    expect(fact("IAAI's ACV (value before the damage)")).toBe('Not in this record');
    expect(fact("IAAI's estimated repair cost")).toBe('$20,821');
    expect(fact("Repair to value (IAAI's repair ÷ ACV)")).toBe('Unknown: no ACV');
  });
});
