// @vitest-environment jsdom
import { frozenAtNow, inputsOf, installFake, render, testStore } from './views/fakeApi';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SavedSearchesView } from '../../src/renderer/src/features/saved/SavedSearchesView';
import { WatchlistView } from '../../src/renderer/src/features/watchlist/WatchlistView';
import { errResult, okResult } from './fakeBridge';
import { NOW, savedSearch, watch } from './views/fixtures';

frozenAtNow();

const CHANGED = 'Changed by Sam Ortiz at 2:41 PM. Reload it and make your change again.';

describe('two members editing the same thing', () => {
  it('saves a search against the copy it was opened on; a later change elsewhere is refused, then Reload', async () => {
    let copy = savedSearch({ id: 7, name: 'Tesla Model 3', updated_at: NOW - 60_000 });
    const fake = installFake({
      handlers: {
        'searches.list': () => okResult([copy]),
        'searches.update': () => errResult('conflict', CHANGED),
      },
    });
    render(<SavedSearchesView store={testStore()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Tesla Model 3' }));
    const panel = screen.getByRole('form', { name: 'Edit Tesla Model 3' });
    fireEvent.change(within(panel).getByLabelText('Name'), { target: { value: 'Tesla Model 3, mine' } });
    // Sam changes it meanwhile: this panel still holds the copy it was opened on.
    copy = savedSearch({ id: 7, name: 'Tesla Model 3', schedule: '0 * * * *', updated_at: NOW - 1_000 });
    fireEvent.submit(panel);
    expect(await within(panel).findByText(CHANGED)).toBeTruthy();
    expect(inputsOf(fake, 'searches.update')[0]).toMatchObject({
      id: 7,
      name: 'Tesla Model 3, mine',
      expected_updated_at: NOW - 60_000,
    });
    // Nothing was written; Reload starts the panel again from the latest copy.
    fireEvent.click(within(panel).getByRole('button', { name: 'Reload' }));
    await waitFor(() =>
      expect(
        (
          screen
            .getByRole('form', { name: 'Edit Tesla Model 3' })
            .querySelector('[name="schedule"]') as HTMLInputElement
        ).value,
      ).toBe('0 * * * *'),
    );
    const fresh = screen.getByRole('form', { name: 'Edit Tesla Model 3' });
    expect((within(fresh).getByLabelText('Name') as HTMLInputElement).value).toBe('Tesla Model 3');
    expect(within(fresh).getByRole('button', { name: 'Save search' })).toBeTruthy();
  });

  it("sends a watch's rules against the copy they were opened on", async () => {
    const fake = installFake({
      handlers: {
        'watchlist.list': () => okResult([watch({ id: 3, updated_at: NOW - 5_000 })]),
        'watchlist.setRules': () => errResult('conflict', CHANGED),
      },
    });
    render(<WatchlistView />);
    fireEvent.click(await screen.findByRole('button', { name: /^Actions for / }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Rules' }));
    const panel = await screen.findByRole('form', { name: /^Alert rules for / });
    fireEvent.submit(panel);
    expect(await within(panel).findByText(CHANGED)).toBeTruthy();
    expect(inputsOf(fake, 'watchlist.setRules')[0]).toMatchObject({
      id: 3,
      expected_updated_at: NOW - 5_000,
    });
    expect(within(panel).getByRole('button', { name: 'Reload' })).toBeTruthy();
  });
});
