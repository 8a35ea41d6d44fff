// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Costs } from '../../../src/renderer/src/features/lot/Desk';
import { PlanView, planGroup } from '../../../src/renderer/src/features/plan/PlanView';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { FEE_FILES, landedCost, maxBid } from '../../../src/shared/fees';
import type { MethodOutput, WatchView } from '../../../src/shared/ipc/contract';
import { okResult } from '../fakeBridge';
import { inputsOf, installFake, render } from './fakeApi';
import { feeTable, HOUR, lotSummary, NOW, watch } from './fixtures';

afterEach(cleanup);

const NO_STATS = { median_usd: null, p25_usd: null, p75_usd: null, min_usd: null, max_usd: null };

/** The title document of the lot these tests price: a Copart salvage certificate (the non-clean table). */
const SALVAGE = 'SALVAGE CERTIFICATE';

const data = (
  shipping: number | null,
  fee_table: MethodOutput<'desk.lot'>['fee_table'] = feeTable('copart', SALVAGE, 'standard_secured'),
): MethodOutput<'desk.lot'> => ({
  desk: {
    notes: '',
    tags: [],
    port: 'Savannah',
    shipping_usd: shipping,
    landed_cost_usd: null,
    landed_excludes: [],
    max_bid_usd: null,
    max_bid_excludes: [],
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
    title_group: null,
    other_titles_left_out: 0,
    refusal: 'No comparable with a price paid yet: Lotwatch gives no bid range without at least 2.',
  },
  estimates: {
    service_from_usd: null,
    service_to_usd: null,
    acv_usd: null,
    repair_usd: null,
    repair_to_value: null,
  },
  fee_table,
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
    const schedule = FEE_FILES.copart!.schedules['standard_non_clean_secured']!;
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
      'No shipping price for Savannah yet: Get prices under Shipping to port.',
    );
    expect(screen.getByRole('row', { name: /Landed cost/ }).textContent).toContain('excluding shipping');
    fireEvent.change(screen.getByRole('textbox', { name: 'Bid (USD)' }), { target: { value: 'lots' } });
    expect(screen.getByText('Enter a bid of 0 or more, in dollars.')).toBeTruthy();
    expect(screen.queryByRole('row', { name: /Landed cost/ })).toBeNull();
    expect(screen.getByText(/Watch this lot to keep the max bid/)).toBeTruthy();
  });
});

describe('a max bid without a shipping price', () => {
  const schedule = FEE_FILES.copart!.schedules['standard_non_clean_secured']!;

  it('says "excluding shipping" beside it and asks before saving: Save without shipping records what it left out', async () => {
    const w = watch();
    const fake = installFake({
      handlers: {
        'watchlist.setRules': async (i) =>
          okResult({ ...w, rules: { ...w.rules, ...(i!.rules as object) } } as WatchView),
      },
    });
    render(
      <Costs
        lot={lotSummary({ current_bid_usd: 2000 })}
        data={data(null)}
        watch={w}
        onWatchSaved={() => undefined}
      />,
    );
    fireEvent.change(await screen.findByRole('textbox', { name: 'Target landed cost (USD)' }), {
      target: { value: '4500' },
    });
    const max = maxBid({ target_usd: 4500, schedule, shipping_usd: null, lines: [] })!;
    const result = screen.getByRole('status');
    expect(result.textContent).toBe(`Max bid $${max.toLocaleString('en-US')} excluding shipping`);

    fireEvent.click(screen.getByRole('button', { name: 'Save as max bid' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Save a max bid that leaves costs out' });
    expect(ask.textContent).toContain('This max bid leaves out shipping: it is too high by that much.');
    expect(ask.textContent).toContain('No shipping price for Savannah yet');
    expect(within(ask).getByRole('button', { name: 'Get prices' })).toBeTruthy();
    // Nothing is saved until the buyer chooses.
    expect(inputsOf(fake, 'watchlist.setRules')).toHaveLength(0);

    fireEvent.click(within(ask).getByRole('button', { name: 'Save without shipping' }));
    await waitFor(() => expect(inputsOf(fake, 'watchlist.setRules')).toHaveLength(1));
    expect(inputsOf(fake, 'watchlist.setRules')[0]!.rules).toMatchObject({
      max_bid_usd: max,
      target_landed_usd: 4500,
      max_bid_excludes: ['shipping'],
    });
    expect(
      await screen.findByText(`Max bid $${max.toLocaleString('en-US')} excluding shipping saved.`),
    ).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('"Get prices" in the confirm step asks for every port in one request; a port without a price is named', async () => {
    const w = watch();
    const fake = installFake({
      handlers: {
        'shipping.get': () =>
          okResult({ prices: [{ port: 'LA', price: 720, currency: 'USD' }], unpriced: ['Savannah'] }),
      },
    });
    let reloaded = 0;
    const lot = lotSummary({ current_bid_usd: 2000 });
    const { rerender } = render(
      <Costs
        lot={lot}
        data={data(null)}
        watch={w}
        onWatchSaved={() => undefined}
        onPrices={() => (reloaded += 1)}
      />,
    );
    fireEvent.change(await screen.findByRole('textbox', { name: 'Target landed cost (USD)' }), {
      target: { value: '4500' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save as max bid' }));
    const ask = await screen.findByRole('alertdialog');
    fireEvent.click(within(ask).getByRole('button', { name: 'Get prices' }));
    await waitFor(() => expect(reloaded).toBe(1));
    const asked = inputsOf(fake, 'shipping.get');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ endpoint: 'vehicle', lot_key: lot.lot_key });
    expect(asked[0]!.ports).toEqual(expect.arrayContaining(['Savannah', 'LA', 'NY', 'Houston', 'Seattle']));
    // The desk read again keeps Savannah as asked and not priced: the confirm step names it, Get prices is gone.
    const kept = {
      ...data(null),
      shipping: [
        { port: 'LA', price_usd: 720, currency: 'USD', fetched_at: NOW },
        { port: 'Savannah', price_usd: null, currency: null, fetched_at: NOW },
      ],
    };
    rerender(
      <Costs lot={lot} data={kept} watch={w} onWatchSaved={() => undefined} onPrices={() => undefined} />,
    );
    const again = screen.getByRole('alertdialog');
    expect(again.textContent).toContain('No price for Savannah');
    expect(within(again).queryByRole('button', { name: 'Get prices' })).toBeNull();
    expect(within(again).getByRole('button', { name: 'Save without shipping' })).toBeTruthy();
    expect(screen.getByRole('row', { name: /Shipping to Savannah/ }).textContent).toContain(
      'No price for Savannah',
    );
  });

  it('with the cheapest port as the default, the landed cost ships from the cheapest priced port and saves without asking', async () => {
    const w = watch();
    const settings = {
      ...DEFAULT_SETTINGS,
      desk: { ...DEFAULT_SETTINGS.desk, port_choice: 'cheapest' as const },
    };
    const fake = installFake({
      handlers: {
        'settings.get': () => okResult(settings),
        'watchlist.setRules': async (i) =>
          okResult({ ...w, rules: { ...w.rules, ...(i!.rules as object) } } as WatchView),
      },
    });
    const kept = {
      ...data(null),
      shipping: [
        { port: 'LA', price_usd: 720, currency: 'USD', fetched_at: NOW },
        { port: 'Savannah', price_usd: 1570, currency: 'USD', fetched_at: NOW },
      ],
    };
    render(
      <Costs
        lot={lotSummary({ current_bid_usd: 2000 })}
        data={kept}
        watch={w}
        onWatchSaved={() => undefined}
      />,
    );
    expect(
      (await screen.findByRole('row', { name: /Shipping to Los Angeles \(cheapest\)/ })).textContent,
    ).toContain('$720');
    expect(screen.getByRole('row', { name: /Landed cost/ }).textContent).not.toContain('excluding');
    fireEvent.change(screen.getByRole('textbox', { name: 'Target landed cost (USD)' }), {
      target: { value: '4500' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save as max bid' }));
    await waitFor(() => expect(inputsOf(fake, 'watchlist.setRules')).toHaveLength(1));
    expect(inputsOf(fake, 'watchlist.setRules')[0]!.rules).toMatchObject({
      max_bid_usd: maxBid({ target_usd: 4500, schedule, shipping_usd: 720, lines: [] }),
      max_bid_excludes: [],
    });
  });
});

describe('the auction-day plan', () => {
  it('says "excluding shipping" under a max bid and a landed cost worked out without a shipping price', async () => {
    const gap = { part: 'shipping' as const, port: 'Savannah', reason: 'not_fetched' as const };
    const w = watch({
      lot: lotSummary({ current_bid_usd: 2000 }),
      desk: {
        notes: '',
        tags: [],
        port: 'Savannah',
        shipping_usd: null,
        landed_cost_usd: 2070,
        landed_excludes: [gap],
        max_bid_usd: 3555,
        max_bid_excludes: ['shipping'],
      },
    });
    installFake({ handlers: { 'watchlist.list': () => okResult([w]) } });
    render(<PlanView />);
    const row = (await screen.findByRole('link', { name: '2019 TESLA MODEL 3' })).closest('tr')!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells).toContain('$3,555excluding shipping');
    expect(cells).toContain('$2,070excluding shipping');
    expect(
      within(row).getByTitle('No shipping price for Savannah yet: Get prices on the lot page.'),
    ).toBeTruthy();
  });

  it('says a sale past its time as the watchlist does: under way for 20 minutes, then passed with no result yet', async () => {
    const w = (id: number, title: string, at: number) =>
      watch({
        id,
        lot_key: `copart:5000000${id}`,
        lot: lotSummary({ lot_key: `copart:5000000${id}`, title, auction_at: at }),
      });
    installFake({
      handlers: {
        'watchlist.list': () =>
          okResult([w(1, 'ON THE BLOCK', NOW - 5 * 60_000), w(2, 'LONG PAST', NOW - 50 * 60_000)]),
      },
    });
    // The screen's clock at NOW, as the lots' sale times are.
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    try {
      render(<PlanView />);
      const saleCell = async (title: string) =>
        within((await screen.findByRole('link', { name: title })).closest('tr')!).getAllByRole('cell')[0]!
          .textContent;
      expect(await saleCell('ON THE BLOCK')).toContain('Sale under way, result to follow');
      expect(await saleCell('LONG PAST')).toContain('Sale time passed, no result yet');
    } finally {
      vi.useRealTimers();
    }
  });

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

describe('the lot page names the fee table', () => {
  it('names the table and why in the breakdown, and prices it from that table', async () => {
    installFake();
    render(
      <Costs
        lot={lotSummary({ current_bid_usd: 2450 })}
        data={data(425, feeTable('copart', 'CLEAR (CA)', 'standard_secured'))}
        watch={null}
        onWatchSaved={() => undefined}
      />,
    );
    const caption = await screen.findByTestId('desk-fee-table');
    expect(caption.textContent).toBe(
      'Fees: Copart clean title table, because the title document is CLEAR (CA)',
    );
    // The clean secured table at $2,450: buyer fee 480, live bid fee 99, gate 79, environmental 15, title 20.
    expect(screen.getByRole('row', { name: /Buyer fee/ }).textContent).toContain('$480');
    expect(screen.getByRole('row', { name: /Gate fee/ }).textContent).toContain('$79');
    const total = screen.getByRole('row', { name: /Landed cost/ });
    expect(total.textContent).toContain('$3,568');
  });

  it('says the stricter table was used when the title document is not known', async () => {
    installFake();
    render(
      <Costs
        lot={lotSummary({ current_bid_usd: 2450 })}
        data={data(425, feeTable('copart', null, 'standard_secured'))}
        watch={null}
        onWatchSaved={() => undefined}
      />,
    );
    expect((await screen.findByTestId('desk-fee-table')).textContent).toBe(
      'Fees: stricter table (Copart non-clean title table): the title document is not known',
    );
    expect(screen.getByRole('row', { name: /Gate fee/ }).textContent).toContain('$95');
  });

  it('gives no number for an IAAI public membership and says its fees are not known', async () => {
    installFake();
    render(
      <Costs
        lot={lotSummary({ platform: 'iaai', current_bid_usd: 2450 })}
        data={data(425, feeTable('iaai', SALVAGE, 'public'))}
        watch={null}
        onWatchSaved={() => undefined}
      />,
    );
    const said = await screen.findByRole('alert');
    expect(said.textContent).toContain('IAAI fees for a non-licensed / public membership are not known');
    expect(screen.queryByRole('row', { name: /Landed cost/ })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Max bid' })).toBeNull();
  });
});
