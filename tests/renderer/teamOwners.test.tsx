// @vitest-environment jsdom
import { frozenAtNow, installFake, render, testStore } from './views/fakeApi';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { WatchlistView } from '../../src/renderer/src/features/watchlist/WatchlistView';
import { SavedSearchesView } from '../../src/renderer/src/features/saved/SavedSearchesView';
import { MeProvider, NO_TEAM, type TeamMe } from '../../src/renderer/src/team/me';
import { ownerText } from '../../src/renderer/src/team/Owner';
import { CallWatchViewSchema } from '../../src/shared/ipc/contract/callWatches';
import { okResult } from './fakeBridge';
import { lotSummary, MINUTE, NOW, savedSearch, watch } from './views/fixtures';

frozenAtNow('#/watchlist');

const DANA = { id: 2, login: 'dana', name: 'Dana Lee', role: 'buyer' as const };
const ON_TEAM: TeamMe = { team: true, user: DANA };
const SAM = { id: 3, name: 'Sam Ortiz' };

describe('ownerText', () => {
  it('says "by you" for the signed-in member, the name for a colleague, nothing for nobody', () => {
    expect(ownerText({ id: 2, name: 'Dana Lee' }, ON_TEAM)).toBe('by you');
    expect(ownerText(SAM, ON_TEAM)).toBe('by Sam Ortiz');
    expect(ownerText(null, ON_TEAM)).toBeNull();
    expect(ownerText(undefined, ON_TEAM)).toBeNull();
    // The desktop has no members: its own items name nobody.
    expect(ownerText(null, NO_TEAM)).toBeNull();
  });
});

/** Ten watches (the list draws every row below 30; a long one is virtualised): every fifth Sam's, the rest Dana's. */
function tenWatches() {
  return Array.from({ length: 10 }, (_, i) =>
    watch({
      id: i + 1,
      lot_key: `copart:${45416833 + i}`,
      lot: lotSummary({ lot_key: `copart:${45416833 + i}`, lot_number: String(45416833 + i) }),
      created_by: i % 5 === 0 ? SAM : { id: 2, name: 'Dana Lee' },
    }),
  );
}

describe('owners in the lists', () => {
  it('shows "by you" and "by <name>" on the watchlist rows, whole lot numbers beside them', async () => {
    installFake({ handlers: { 'watchlist.list': () => okResult(tenWatches()) } });
    render(
      <MeProvider me={ON_TEAM}>
        <WatchlistView />
      </MeProvider>,
    );
    const first = await screen.findByRole('row', { name: /45416833/ });
    expect(within(first).getByText('by Sam Ortiz').getAttribute('title')).toBe('Added by Sam Ortiz');
    expect(within(first).getByText('#45416833')).toBeTruthy();
    const second = screen.getByRole('row', { name: /45416834/ });
    expect(within(second).getByText('by you')).toBeTruthy();
    expect(within(second).queryByText(/Dana/)).toBeNull();
    expect(screen.getAllByText('by Sam Ortiz')).toHaveLength(2);
    expect(screen.getAllByText('by you')).toHaveLength(8);
  });

  it('names nobody on the desktop', async () => {
    installFake({ handlers: { 'watchlist.list': () => okResult([watch({ created_by: null })]) } });
    render(<WatchlistView />);
    await screen.findByText('#45416833');
    expect(screen.queryByText(/^by /)).toBeNull();
  });

  it('shows who saved each search and who watches each call', async () => {
    const call = CallWatchViewSchema.parse({
      id: 4,
      name: 'Channel videos',
      target: { endpoint: 'GET /api/v1/vp/vp/channel/videos', path: {}, query: { channel_id: 'UC1' } },
      config: {},
      schedule: '*/30 * * * *',
      rules: {},
      paused: false,
      paused_reason: null,
      is_example: false,
      created_at: NOW - 600 * MINUTE,
      last_run_at: null,
      last_ok_at: null,
      next_run_at: null,
      last_status: null,
      consecutive_failures: 0,
      last_error: null,
      list_path: ['data', 'items'],
      item_key: 'videoId',
      items: 0,
      requests_per_day: 48,
      alerts_24h: 0,
      created_by: SAM,
    });
    installFake({
      handlers: {
        'searches.list': () =>
          okResult([
            savedSearch({ id: 7, name: 'Tesla Model 3', created_by: { id: 2, name: 'Dana Lee' } }),
            savedSearch({ id: 8, name: 'Camry export', created_by: SAM }),
            savedSearch({ id: 9, name: 'Older search', created_by: null }),
          ]),
        'callWatches.list': () => okResult([call]),
      },
    });
    render(
      <MeProvider me={ON_TEAM}>
        <SavedSearchesView store={testStore()} />
      </MeProvider>,
    );
    const mine = await screen.findByRole('row', { name: 'Tesla Model 3' });
    expect(within(mine).getByText('by you').getAttribute('title')).toBe('Saved by you');
    expect(within(screen.getByRole('row', { name: 'Camry export' })).getByText('by Sam Ortiz')).toBeTruthy();
    expect(within(screen.getByRole('row', { name: 'Older search' })).queryByText(/^by /)).toBeNull();
    const watched = await screen.findByRole('row', { name: 'Channel videos' });
    expect(within(watched).getByText('by Sam Ortiz').getAttribute('title')).toBe('Watched by Sam Ortiz');
  });
});
