// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Costs } from '../../../src/renderer/src/features/lot/Desk';
import { planGroup } from '../../../src/renderer/src/features/plan/PlanView';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { FEE_FILES, landedCost, maxBid } from '../../../src/shared/fees';
import type { MethodOutput, WatchView } from '../../../src/shared/ipc/contract';
import { okResult } from '../fakeBridge';
import { inputsOf, installFake, render } from './fakeApi';
import { HOUR, lotSummary, NOW, watch } from './fixtures';

afterEach(cleanup);

const NO_STATS = { median_usd: null, p25_usd: null, p75_usd: null, min_usd: null, max_usd: null };

const data = (shipping: number | null): MethodOutput<'desk.lot'> => ({
  desk: {
    notes: '',
    tags: [],
    port: 'Savannah',
    shipping_usd: shipping,
    landed_cost_usd: null,
    max_bid_usd: null,
  },
  tags_in_use: [],
  shipping:
    shipping === null ? [] : [{ port: 'Savannah', price_usd: shipping, currency: 'USD', fetched_at: NOW }],
  comps: {
    comps: [],
    stats: {
      count: 0,
      priced: 0,
      ...NO_STATS,
      sold: { count: 0, ...NO_STATS },
      sold_on_approval: { count: 0, ...NO_STATS },
    },
    skipped: 0,
  },
  market: null,
  bid_range: {
    low_usd: null,
    high_usd: null,
    landed_low_usd: null,
    landed_high_usd: null,
    shipping_included: shipping !== null,
    target_usd: null,
    capped: false,
    rests_on: [],
    priced: 0,
    refusal: 'No comparable with a price paid yet: Lotwatch gives no bid range without at least 2.',
  },
  estimates: {
    service_from_usd: null,
    service_to_usd: null,
    acv_usd: null,
    repair_usd: null,
    repair_to_value: null,
  },
});

describe('the lot page costs', () => {
  it('shows the landed cost at the current bid and the max bid for a target, and saves it on the watch', async () => {
    const w = watch();
    const fake = installFake({
      handlers: {
        'watchlist.setRules': async (i) =>
          okResult({ ...w, rules: { ...w.rules, ...(i!.rules as object) } } as WatchView),
      },
    });
    const lot = lotSummary({ current_bid_usd: 2450 });
    render(<Costs lot={lot} data={data(425)} watch={w} onWatchSaved={() => undefined} />);
    const schedule = FEE_FILES.copart.schedules[DEFAULT_SETTINGS.desk.membership.copart]!;
    const landed = landedCost({ bid_usd: 2450, schedule, shipping_usd: 425, lines: [] });
    const total = await screen.findByRole('row', { name: /Landed cost/ });
    expect(total.textContent).toContain(
      landed.total_usd.toLocaleString('en-US', {
        minimumFractionDigits: Number.isInteger(landed.total_usd) ? 0 : 2,
      }),
    );
    expect(screen.getByRole('row', { name: /Shipping to Savannah/ }).textContent).toContain('$425');
    fireEvent.change(screen.getByRole('textbox', { name: 'Target landed cost (USD)' }), {
      target: { value: '9,500' },
    });
    const max = maxBid({ target_usd: 9500, schedule, shipping_usd: 425, lines: [] })!;
    expect(screen.getByText(`$${max.toLocaleString('en-US')}`)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save as max bid' }));
    await waitFor(() => expect(inputsOf(fake, 'watchlist.setRules')).toHaveLength(1));
    expect(inputsOf(fake, 'watchlist.setRules')[0]!.rules).toMatchObject({
      max_bid_usd: max,
      target_landed_usd: 9500,
      max_bid_near_percent: 90,
    });
    expect(await screen.findByText(`Max bid $${max.toLocaleString('en-US')} saved.`)).toBeTruthy();
  });

  it('says when the shipping price is not kept yet, and refuses a bid that is not an amount', async () => {
    installFake();
    render(
      <Costs
        lot={lotSummary({ current_bid_usd: 1000 })}
        data={data(null)}
        watch={null}
        onWatchSaved={() => undefined}
      />,
    );
    expect((await screen.findByRole('row', { name: /Shipping to Savannah/ })).textContent).toContain(
      'not fetched',
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Bid (USD)' }), { target: { value: 'lots' } });
    expect(screen.getByText('Enter a bid of 0 or more, in dollars.')).toBeTruthy();
    expect(screen.queryByRole('row', { name: /Landed cost/ })).toBeNull();
    expect(screen.getByText(/Watch this lot to keep the max bid/)).toBeTruthy();
  });
});

describe('the auction-day plan', () => {
  it('groups watched lots by local day of the sale, unscheduled and finished apart', () => {
    const at = (t: number | null, over = {}) => watch({ lot: lotSummary({ auction_at: t, ...over }) });
    const now = new Date(2025, 0, 15, 9, 0).getTime();
    const midnight = new Date(2025, 0, 16, 0, 0).getTime();
    expect(planGroup(at(midnight - 1), now)).toBe('today');
    expect(planGroup(at(midnight), now)).toBe('tomorrow');
    expect(planGroup(at(midnight + 24 * HOUR), now)).toBe('week');
    expect(planGroup(at(midnight + 7 * 24 * HOUR), now)).toBe('later');
    expect(planGroup(at(null), now)).toBe('unscheduled');
    expect(
      planGroup(at(now - HOUR, { state: 'finished', last_sold_status: 'Sold', sale_price_usd: 5000 }), now),
    ).toBe('over');
  });
});
