// @vitest-environment jsdom
import { inputsOf, installFake, render } from './fakeApi';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SaveSearchDialog } from '../../../src/renderer/src/features/search/SaveSearchDialog';
import { scheduleCostText } from '../../../src/renderer/src/features/search/ScheduleCost';
import type { MethodInput, MethodOutput } from '../../../src/shared/ipc/contract';
import { okResult } from '../fakeBridge';

afterEach(cleanup);

/** searches.estimate as core answers it for the common presets, with a daily allowance and what is planned. */
function estimator(allowed: number, planned = 0) {
  const perWeek: Record<string, number> = {
    '*/10 * * * *': 1008,
    '*/30 * * * *': 336,
    '0 * * * *': 168,
    '0 */6 * * *': 28,
    '0 8 * * *': 7,
    '0 8 * * 1-5': 5,
  };
  return (i: MethodInput<'searches.estimate'> | undefined) => {
    const w = perWeek[i!.schedule];
    const value: MethodOutput<'searches.estimate'> = {
      runs_per_week: w ?? 0,
      runs_per_day: (w ?? 0) / 7,
      requests_per_day: ((w ?? 0) / 7) * i!.max_pages,
      allowed_per_day: allowed,
      planned_per_day: planned,
      basis: 'quota',
      schedule_error: w === undefined ? 'Not a valid cron expression.' : null,
    };
    return okResult(value);
  };
}

describe('SaveSearchDialog · what the schedule costs', () => {
  it('shows requests a day (pages × runs) against the daily share, and follows the schedule and pages', async () => {
    const fake = installFake({ handlers: { 'searches.estimate': estimator(1000) } });
    render(<SaveSearchDialog params={{ make: 'TESLA' }} onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Save this search' });
    // The default: every 30 minutes, 5 pages.
    expect(
      await within(dialog).findByText(
        'About 240 requests a day (up to 5 pages × 48 runs) of your 1,000-a-day share.',
      ),
    ).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Pages per run' }), {
      target: { value: '1' },
    });
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Schedule' }), {
      target: { value: '0 * * * *' },
    });
    expect(
      await within(dialog).findByText(
        'About 24 requests a day (up to 1 page × 24 runs) of your 1,000-a-day share.',
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByRole('status')).toBeNull();
    expect(inputsOf(fake, 'searches.estimate').at(-1)).toEqual({ schedule: '0 * * * *', max_pages: 1 });
  });

  it('on a small share starts from the most frequent schedule that fits, and warns when the buyer asks for more', async () => {
    installFake({ handlers: { 'searches.estimate': estimator(3) } });
    render(<SaveSearchDialog params={{}} onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Save this search' });
    // Every 30 minutes (240 a day), every hour (120), every 6 hours (20) and daily at 5 pages (5) do not fit 3 a
    // day; daily at 2 pages does.
    expect(
      await within(dialog).findByText(
        'About 2 requests a day (up to 2 pages × 1 run) of your 3-a-day share.',
      ),
    ).toBeTruthy();
    expect((within(dialog).getByRole('combobox', { name: 'Schedule' }) as HTMLSelectElement).value).toBe(
      '0 8 * * *',
    );
    expect(
      (within(dialog).getByRole('spinbutton', { name: 'Pages per run' }) as HTMLInputElement).value,
    ).toBe('2');
    expect(
      within(dialog).getByText(/^Every day at 8:00, up to 2 pages a run: the most often it fits/),
    ).toBeTruthy();
    expect(within(dialog).queryByRole('status')).toBeNull();
    // The buyer asks for every 30 minutes: the note goes, the warning says what that means.
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Schedule' }), {
      target: { value: '*/30 * * * *' },
    });
    expect(
      await within(dialog).findByText(
        'About 96 requests a day (up to 2 pages × 48 runs) of your 3-a-day share.',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByRole('status').textContent).toBe(
      'That is more than your daily share: Lotwatch would skip runs to stay within it. Choose a less frequent schedule or fewer pages.',
    );
    expect(within(dialog).queryByText(/the most often it fits/)).toBeNull();
  });

  it('when nothing fits beside what is planned, starts from the cheapest and lets the warning say why', async () => {
    installFake({ handlers: { 'searches.estimate': estimator(3, 3) } });
    render(<SaveSearchDialog params={{}} onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Save this search' });
    expect(
      await within(dialog).findByText('About 1 request a day (up to 1 page × 1 run) of your 3-a-day share.'),
    ).toBeTruthy();
    expect(
      within(dialog).getByText('Every day at 8:00, up to 1 page a run: the least a saved search can cost.'),
    ).toBeTruthy();
    expect(within(dialog).getByRole('status').textContent).toMatch(
      /^With what your saved searches and watches already need \(about 3 a day\), that goes over your daily share/,
    );
  });

  it('keeps the default when it fits beside what is planned, and counts what is planned', async () => {
    // 1,000 a day with 800 planned: every 30 minutes at 5 pages (240) would not fit; every hour (120) does.
    installFake({ handlers: { 'searches.estimate': estimator(1000, 800) } });
    render(<SaveSearchDialog params={{}} onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Save this search' });
    expect(
      await within(dialog).findByText(/^About 120 requests a day \(up to 5 pages × 24 runs\)/),
    ).toBeTruthy();
    expect(within(dialog).getByText(/^Every hour, up to 5 pages a run: the most often it fits/)).toBeTruthy();
  });

  it('shows nothing for a schedule that is not a cron expression', async () => {
    const fake = installFake({ handlers: { 'searches.estimate': estimator(1000) } });
    render(<SaveSearchDialog params={{}} onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Save this search' });
    await within(dialog).findByText(/About 240 requests a day/);
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Schedule' }), {
      target: { value: 'custom' },
    });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Cron expression/ }), {
      target: { value: 'soon' },
    });
    await waitFor(() =>
      expect(inputsOf(fake, 'searches.estimate').at(-1)).toEqual({ schedule: 'soon', max_pages: 5 }),
    );
    expect(within(dialog).queryByText(/requests a (day|week)/)).toBeNull();
  });
});

describe('scheduleCostText', () => {
  const base = { allowed_per_day: 1000, planned_per_day: 0, basis: 'quota' as const, schedule_error: null };
  it('says a schedule that does not run every day per week', () => {
    expect(
      scheduleCostText({ ...base, runs_per_week: 5, runs_per_day: 5 / 7, requests_per_day: 10 / 7 }, 2).cost,
    ).toBe('About 10 requests a week (up to 2 pages × 5 runs), about 2 a day, of your 1,000-a-day share.');
  });
  it('warns when it fits alone but not with what is already scheduled', () => {
    const t = scheduleCostText(
      { ...base, planned_per_day: 900, runs_per_week: 336, runs_per_day: 48, requests_per_day: 240 },
      5,
    );
    expect(t.warning).toBe(
      'With what your saved searches and watches already need (about 900 a day), that goes over your daily share: Lotwatch would check less often and skip runs to stay within it.',
    );
  });
});
