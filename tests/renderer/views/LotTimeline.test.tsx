// @vitest-environment jsdom
import { frozenAtNow, render } from './fakeApi';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Timeline } from '../../../src/renderer/src/features/lot/Timeline';
import { dateTime } from '../../../src/renderer/src/lib/format';
import { change, HOUR, NOW } from './fixtures';

frozenAtNow();

const DAY = 24 * HOUR;
const SALE = NOW + 2 * DAY;
const MOVED = NOW + 4 * DAY;

/** The rows of the change list, newest first, as the buyer reads them. */
function rows(): string[] {
  const list = screen.getByRole('list');
  return within(list)
    .getAllByRole('listitem')
    .map((li) => li.querySelector('span')?.textContent ?? '');
}

describe('Timeline rows', () => {
  it('says every kind of change in words: no field names, an arrow, money as $4,250, dates as dates', () => {
    // One change of each kind, each observed a minute apart so the list order is fixed (newest first).
    const changes = [
      change({ kind: 'new_match', field: null, before: null, after: null, search_id: 7 }),
      change({ kind: 'bid_changed', field: 'current_bid_usd', before: null, after: 4250 }),
      change({ kind: 'bid_changed', field: 'current_bid_usd', before: 4250, after: 4500 }),
      change({ kind: 'buy_now_changed', field: 'buy_now_usd', before: 6000, after: 5500 }),
      change({ kind: 'buy_now_changed', field: 'buy_now_usd', before: null, after: 7000 }),
      change({ kind: 'status_changed', field: 'auction.lot_sub_status', before: 'Open', after: 'Live' }),
      change({ kind: 'status_changed', field: 'auction.state', before: 'upcoming', after: 'open' }),
      change({ kind: 'status_changed', field: 'auction.lot_status', before: 'Timed', after: 'Buy Now' }),
      change({ kind: 'rescheduled', field: 'auction_at', before: SALE, after: MOVED }),
      change({ kind: 'sale_result', field: 'sale_price_usd', before: null, after: 9250, outcome: 'sold' }),
      change({
        kind: 'sale_result',
        field: 'sale_price_usd',
        before: null,
        after: 6600,
        outcome: 'sold_on_approval',
      }),
      change({
        kind: 'sale_result',
        field: 'sale_price_usd',
        before: null,
        after: null,
        outcome: 'ended_unsold',
      }),
      change({
        kind: 'relisted',
        field: 'auction_at',
        before: SALE,
        after: MOVED,
        related_lot_key: 'copart:40000001',
      }),
      change({ kind: 'dropped_out', field: null, before: null, after: null, search_id: 7 }),
    ].map((c, i) => ({ ...c, id: i + 1, observed_at: NOW - (100 - i) * 60_000 }));
    render(<Timeline timeline={changes} bids={[]} />);

    expect(rows()).toEqual(
      [
        'New match in a saved search',
        'First bid: $4,250',
        'Bid: $4,250 → $4,500',
        'Buy now: $6,000 → $5,500',
        'Buy now offered: $7,000',
        'Status: Open → Live',
        'Status: Upcoming → Open',
        'Sale type: Timed → Buy Now',
        `Rescheduled: ${dateTime(SALE)} → ${dateTime(MOVED)}`,
        'Sold for $9,250',
        'Sold on approval at $6,600',
        'Ended unsold',
        `Relisted: earlier Copart lot 40000001 (sale ${dateTime(SALE)}); new sale ${dateTime(MOVED)}`,
        "Dropped out of a saved search's results",
      ].reverse(),
    );
    const text = rows().join('\n');
    // No field or code names, no ASCII arrow, no raw timestamps or ISO dates, no "$0".
    expect(text).not.toMatch(/lot_sub_status|auction\.|_usd|auction_at|\(state\)|->|copart:/);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}|\d{10,}/);
    expect(text).not.toContain('$0');
    expect(dateTime(MOVED)).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} [AP]M$/);
  });

  it('a bid that goes back to nothing reads "No bids yet", never "$0"', () => {
    render(<Timeline timeline={[change({ before: 1200, after: 0 })]} bids={[[NOW - HOUR, 0]]} />);
    expect(rows()).toEqual(['Bid: $1,200 → No bids yet']);
    expect(screen.getByText(/One observation so far/).textContent).toContain('(no bids yet)');
    expect(document.body.textContent).not.toContain('$0');
  });
});
