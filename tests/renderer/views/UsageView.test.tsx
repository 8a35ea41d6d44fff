// @vitest-environment jsdom
import { inputsOf, installFake, render } from './fakeApi';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { format, isSameDay } from 'date-fns';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageView } from '../../../src/renderer/src/features/usage/UsageView';
import { StatusSchema } from '../../../src/shared/ipc/contract';
import { okResult } from '../fakeBridge';
import { HOUR, NOW } from './fixtures';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

// Noon UTC on 12 February 2025: the 12th in every time zone a test machine may have.
const END = Date.UTC(2025, 1, 12, 12, 0, 0);

describe('UsageView · a spent monthly quota', () => {
  it('says until which date, once, and never as seconds to wait', async () => {
    installFake({
      settings: { demoMode: false },
      handlers: {
        'status.get': () =>
          okResult(
            StatusSchema.parse({
              mode: 'live',
              key: { set: true, storage: 'the system keychain' },
              quota: { at: NOW, limit: 100, baseLimit: 100, extraLimit: 0, used: 100, remaining: 0, periodStart: null, periodEnd: END, perPageLimit: 20, rateLimit: 3, rateRemaining: 0 },
              budget: { allowedPerDay: 0, spentLast24h: 4, projectedNext24h: 12, basis: 'quota', periodRemaining: 0, periodEnd: END },
              scale: 1,
              running: true,
              paused_until: END,
              pause_reason: "Your plan's monthly requests are used up until 12 February.",
              pause_kind: 'quota_spent',
            }),
          ),
        'requests.list': () => okResult({ rows: [], last24h: 0 }),
      },
    });
    render(<UsageView />);
    const said = await screen.findByText(/^Your plan's monthly requests are used up until 12 February\./);
    expect(said.textContent).toContain('wait until then and start again by themselves');
    expect(screen.getAllByText(/used up until/)).toHaveLength(1);
    expect(document.body.textContent).not.toMatch(/\d{5,} s|seconds/);
    expect(document.querySelector('#usage-quota + .usage-headline')?.textContent).toBe('0 of 100 left until 12 February');
  });
});

describe('UsageView · pausing watching', () => {
  /** Status as core reports it: paused by the buyer while the settings say so. */
  function mount() {
    const fake = installFake({
      handlers: {
        'status.get': () => {
          const until = fake.settings.watchPausedUntil;
          return okResult(
            StatusSchema.parse({
              mode: 'demo',
              key: { set: false, storage: 'the system keychain' },
              quota: null,
              budget: {
                allowedPerDay: 1000,
                spentLast24h: 4,
                projectedNext24h: 40,
                basis: 'default',
                periodRemaining: null,
                periodEnd: null,
              },
              scale: 1,
              running: true,
              paused_until: until,
              pause_reason: until === null ? null : 'You paused watching.',
              pause_kind: until === null ? null : 'user',
            }),
          );
        },
        'requests.list': () => okResult({ rows: [], last24h: 0 }),
      },
    });
    render(<UsageView />);
    return fake;
  }

  it('pauses for an hour from now, then says until when and resumes', async () => {
    const fake = mount();
    fireEvent.click(await screen.findByRole('button', { name: 'Pause for 1 hour' }));
    await waitFor(() =>
      expect(inputsOf(fake, 'settings.update')).toEqual([{ watchPausedUntil: NOW + HOUR }]),
    );
    const said = await screen.findByText(/^You paused watching until/);
    expect(said.textContent).toBe(`You paused watching until ${format(NOW + HOUR, 'MMM d, h:mm a')}.`);
    // Said once: not again as "Polling is paused" in the budget.
    expect(screen.queryByText(/Polling is paused/)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Resume watching' }));
    await waitFor(() => expect(inputsOf(fake, 'settings.update')).toHaveLength(2));
    expect(inputsOf(fake, 'settings.update')[1]).toEqual({ watchPausedUntil: null });
    expect(await screen.findByRole('button', { name: 'Pause for 1 hour' })).toBeTruthy();
    expect(screen.queryByText(/You paused watching/)).toBeNull();
  });

  it('pauses until the next 8:00 AM, local time', async () => {
    const fake = mount();
    const morning = new Date(NOW);
    morning.setHours(8, 0, 0, 0);
    if (morning.getTime() <= NOW) morning.setDate(morning.getDate() + 1);
    const label = isSameDay(morning, NOW) ? 'Pause until 8:00 AM' : 'Pause until tomorrow 8:00 AM';
    fireEvent.click(await screen.findByRole('button', { name: label }));
    await waitFor(() =>
      expect(inputsOf(fake, 'settings.update')).toEqual([{ watchPausedUntil: morning.getTime() }]),
    );
    expect(fake.settings.watchPausedUntil).toBe(morning.getTime());
  });
});
