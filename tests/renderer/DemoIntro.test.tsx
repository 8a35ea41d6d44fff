// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../src/renderer/src/app/App';
import { createAppStore } from '../../src/renderer/src/app/appStore';
import { firstAlertWords } from '../../src/renderer/src/app/DemoIntro';
import { AlertRulesSchema } from '../../src/shared/watch';
import { createFakeBridge, okResult } from './fakeBridge';
import { lotSummary, watch } from './views/fixtures';

const MIN = 60_000;

beforeEach(() => {
  window.location.hash = '';
});
afterEach(cleanup);

describe('firstAlertWords', () => {
  const now = Date.UTC(2026, 10, 26, 22, 0);
  it('rounds up to whole minutes, at least one', () => {
    expect(firstAlertWords(now + 65_000, now)).toBe('within about 2 minutes');
    expect(firstAlertWords(now + 10_000, now)).toBe('within about 1 minute');
    expect(firstAlertWords(now + 3 * MIN, now)).toBe('within about 3 minutes');
  });
  it('says nothing once the time has passed or when it is unknown', () => {
    expect(firstAlertWords(now, now)).toBeNull();
    expect(firstAlertWords(now - MIN, now)).toBeNull();
    expect(firstAlertWords(null, now)).toBeNull();
  });
});

describe("Demo mode's first-run panel", () => {
  const examples = ['50249535', '39002142', '38987207'].map((n, i) =>
    watch({
      id: i + 1,
      lot_key: `copart:${n}`,
      label: 'Example',
      is_example: true,
      rules: AlertRulesSchema.parse({ bid_above_usd: 2825 + i * 100 }),
      lot: lotSummary({ lot_key: `copart:${n}`, lot_number: n, title: `2021 TESLA MODEL 3 #${i + 1}` }),
    }),
  );

  function setup(demoMode: boolean, dismissed = false) {
    const fake = createFakeBridge({
      settings: { demoMode },
      handlers: {
        'examples.intro': () => okResult({ first_alert_expected_at: Date.now() + 2 * MIN - 1000, dismissed }),
        'examples.dismissIntro': () => okResult({ ok: true as const }),
        'watchlist.list': () => okResult(examples),
      },
    });
    const store = createAppStore(fake.bridge);
    render(<App store={store} api={fake.bridge} />);
    return fake;
  }

  it('names every example lot by number and vehicle, says when the first alert comes, and hides for good', async () => {
    const fake = setup(true);
    const panel = await screen.findByRole('region', { name: /watching 3 example lots/ });
    for (const [i, n] of ['50249535', '39002142', '38987207'].entries())
      expect(within(panel).getByText(`Copart lot ${n}`).closest('li')?.textContent).toContain(
        `2021 TESLA MODEL 3 #${i + 1}`,
      );
    expect(panel.textContent).toContain('First alert expected within about 2 minutes.');
    expect(within(panel).getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('#/settings');
    fireEvent.click(within(panel).getByRole('button', { name: 'Got it, hide this' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /example lots/ })).toBeNull());
    expect(fake.calls.some((c) => c.method === 'examples.dismissIntro')).toBe(true);
  });

  it('stops promising the first alert once one is in, and points to Alerts', async () => {
    const fake = setup(true);
    const panel = await screen.findByRole('region', { name: /watching 3 example lots/ });
    expect(panel.textContent).toContain('First alert expected within about 2 minutes.');
    act(() => fake.setUnread(1));
    await waitFor(() => expect(panel.textContent).toContain('Your first alerts are in Alerts.'));
    expect(panel.textContent).not.toContain('First alert expected');
    expect(within(panel).getByRole('link', { name: 'Alerts' }).getAttribute('href')).toBe('#/alerts');
  });

  it('is not shown with a real key, nor once dismissed', async () => {
    const live = setup(false);
    await waitFor(() => expect(live.calls.some((c) => c.method === 'app.info')).toBe(true));
    await screen.findByText('Live service');
    expect(screen.queryByRole('region', { name: /example lots/ })).toBeNull();
    cleanup();
    const gone = setup(true, true);
    await waitFor(() => expect(gone.calls.some((c) => c.method === 'examples.intro')).toBe(true));
    expect(screen.queryByRole('region', { name: /example lots/ })).toBeNull();
  });
});
