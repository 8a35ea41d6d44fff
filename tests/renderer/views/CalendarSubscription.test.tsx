// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CalendarSubscription } from '../../../src/renderer/src/features/plan/CalendarSubscription';
import { okResult } from '../fakeBridge';
import { inputsOf, installFake, render } from './fakeApi';

// Auction day's calendar subscription in the browser shell: its own address (never the page's token), whether it
// survives a restart and how to keep it, and a new address on request.

afterEach(() => cleanup());

const calendar = (address: string | null, port_fixed: boolean) => () =>
  okResult({ ics: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', events: 0, skipped: 0, address, port_fixed });

describe('CalendarSubscription', () => {
  it('says the address changes at the next start on a port picked at random, and how to keep it', async () => {
    installFake({
      handlers: { 'plan.calendar': calendar('http://127.0.0.1:41234/calendar.ics?feed=s1', false) },
    });
    render(<CalendarSubscription />);
    expect(await screen.findByText('http://127.0.0.1:41234/calendar.ics?feed=s1')).toBeTruthy();
    expect(
      screen.getByText(/changes when Lotwatch starts again.*npm run serve -- --port 41234/),
    ).toBeTruthy();
  });

  it('says the address stays on a chosen port, and makes a new one on request', async () => {
    const fake = installFake({
      handlers: {
        'plan.calendar': calendar('http://127.0.0.1:5190/calendar.ics?feed=s1', true),
        'plan.renewCalendar': () =>
          okResult({ address: 'http://127.0.0.1:5190/calendar.ics?feed=s2', port_fixed: true }),
      },
    });
    render(<CalendarSubscription />);
    expect(
      await screen.findByText(/stays the same when you start Lotwatch again with --port 5190/),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Make a new address' }));
    expect(await screen.findByText('http://127.0.0.1:5190/calendar.ics?feed=s2')).toBeTruthy();
    expect(screen.queryByText('http://127.0.0.1:5190/calendar.ics?feed=s1')).toBeNull();
    expect(screen.getByRole('status').textContent).toMatch(/subscribe them again with this one/);
    expect(inputsOf(fake, 'plan.renewCalendar')).toHaveLength(1);
  });

  it('shows nothing in the desktop app (no address: it exports a file)', async () => {
    const fake = installFake({ handlers: { 'plan.calendar': calendar(null, false) } });
    const { container } = render(<CalendarSubscription />);
    await expect.poll(() => inputsOf(fake, 'plan.calendar').length).toBe(1);
    expect(container.textContent).toBe('');
  });
});
