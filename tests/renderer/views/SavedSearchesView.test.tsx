// @vitest-environment jsdom
import { frozenAtNow, inputsOf, installFake, render, testStore } from './fakeApi';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SavedSearchView } from '../../../src/shared/ipc/contract';
import { SavedSearchesView } from '../../../src/renderer/src/features/saved/SavedSearchesView';
import { okResult } from '../fakeBridge';
import { HOUR, MINUTE, NOW, savedSearch } from './fixtures';

frozenAtNow('#/saved');

const tesla = savedSearch();
const trucks = savedSearch({
  id: 8,
  name: 'Ford trucks daily',
  params: { make: 'FORD', type: 'Pickup' },
  schedule: '0 8 * * *',
  last_run_at: NOW - 3 * HOUR,
  last_ok_at: NOW - 27 * HOUR,
  next_run_at: NOW + 20 * HOUR,
  consecutive_failures: 2,
  last_error: 'The service refused the filters: type "Pickup" is not a known vehicle type.',
  new_matches_24h: 0,
});
const fresh = savedSearch({
  id: 9,
  name: 'BMW X5 hourly',
  params: { make: 'BMW', model: 'X5' },
  schedule: '0 * * * *',
  last_run_at: null,
  last_ok_at: null,
  next_run_at: NOW + 40 * MINUTE,
  last_result_count: null,
  last_complete: null,
  new_matches_24h: 0,
});

function cells(name: string): string[] {
  return within(screen.getByRole('row', { name }))
    .getAllByRole('cell')
    .map((c) => c.textContent ?? '');
}

describe('SavedSearchesView', () => {
  it('shows each schedule in words, the last run and the last error', async () => {
    installFake({ handlers: { 'searches.list': () => okResult([tesla, trucks, fresh]) } });
    render(<SavedSearchesView store={testStore()} />);
    await screen.findByRole('table', { name: 'Saved searches' });
    // Columns: Search, Schedule, Last run, Next run, Results, New (24 h), Health, Actions.
    const [, schedule, lastRun, nextRun, results, , health] = cells('Tesla Model 3 2019–2022');
    expect(schedule).toBe('every 30 minutes');
    expect(lastRun).toBe('5 minutes ago');
    expect(nextRun).toBe('in 25 minutes');
    expect(results).toBe('42');
    expect(health).toBe('OK');

    const failing = cells('Ford trucks daily');
    expect(failing[1]).toBe('daily at 8:00 AM');
    expect(failing[2]).toBe('3 hours ago');
    expect(failing[6]).toContain('2 failures');
    expect(failing[6]).toContain(
      'The service refused the filters: type "Pickup" is not a known vehicle type.',
    );

    const never = cells('BMW X5 hourly');
    expect(never[1]).toBe('hourly');
    expect(never[2]).toBe('Never');
    expect(never[6]).toBe('Not run yet');
  });

  it('gives the focus back to the Edit button when the edit panel closes with Escape', async () => {
    installFake({ handlers: { 'searches.list': () => okResult([tesla, trucks]) } });
    render(<SavedSearchesView store={testStore()} />);
    const edit = await screen.findByRole('button', { name: 'Edit Ford trucks daily' });
    edit.focus();
    fireEvent.click(edit);
    const panel = await screen.findByRole('form', { name: 'Edit Ford trucks daily' });
    fireEvent.keyDown(within(panel).getByRole('textbox', { name: 'Name' }), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Ford trucks daily' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(edit));
  });

  it('"Run <name> now" calls searches.runNow with the id and reports the outcome', async () => {
    const fake = installFake({
      handlers: {
        'searches.list': () => okResult([tesla, trucks]),
        'searches.runNow': () => okResult({ status: 'ok', requests: 3, changes: 2, alerts: 1, error: null }),
      },
    });
    render(<SavedSearchesView store={testStore()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Run Ford trucks daily now' }));
    expect(await screen.findByText('Ford trucks daily: done · 3 requests, 2 changes, 1 alert.')).toBeTruthy();
    expect(inputsOf(fake, 'searches.runNow')).toEqual([{ id: 8 }]);
  });

  it('Pause calls searches.setPaused with paused true, and the row then offers Resume', async () => {
    let list: SavedSearchView[] = [tesla, trucks];
    const fake = installFake({
      handlers: {
        'searches.list': () => okResult(list),
        'searches.setPaused': (input) => {
          const next = { ...tesla, paused: input?.paused ?? false };
          list = [next, trucks];
          return okResult(next);
        },
      },
    });
    render(<SavedSearchesView store={testStore()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pause Tesla Model 3 2019–2022' }));
    expect(await screen.findByRole('button', { name: 'Resume Tesla Model 3 2019–2022' })).toBeTruthy();
    expect(inputsOf(fake, 'searches.setPaused')).toEqual([{ id: 7, paused: true }]);
    // The paused row says so, and shows no next run.
    await waitFor(() => expect(cells('Tesla Model 3 2019–2022')[3]).toBe('Paused'));
    // Only the paused search changed.
    expect(screen.getByRole('button', { name: 'Pause Ford trucks daily' })).toBeTruthy();
  });
});
