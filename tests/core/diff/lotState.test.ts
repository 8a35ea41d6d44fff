import { describe, expect, it } from 'vitest';
import {
  ENDED_STATES,
  isEnded,
  mayBeRelisted,
  outcomeOf,
  parseAuctionAt,
  toLotState,
} from '../../../src/core/diff';
import { lot, NO_PRICES, T0, vehicle } from './fixtures';

describe('parseAuctionAt', () => {
  it('reads ISO 8601 with a numeric offset', () => {
    expect(parseAuctionAt('2025-05-15T10:00:00-04:00')).toBe(Date.UTC(2025, 4, 15, 14, 0, 0));
    expect(parseAuctionAt('2025-05-15T10:00:00+05:30')).toBe(Date.UTC(2025, 4, 15, 4, 30, 0));
    expect(parseAuctionAt('2025-05-15T10:00:00+0530')).toBe(Date.UTC(2025, 4, 15, 4, 30, 0));
    expect(parseAuctionAt('2025-05-15T10:00+02')).toBe(Date.UTC(2025, 4, 15, 8, 0, 0));
  });

  it('reads Z, fractions and a space separator', () => {
    expect(parseAuctionAt('2025-05-15T14:00:00Z')).toBe(Date.UTC(2025, 4, 15, 14));
    expect(parseAuctionAt('2025-05-15T14:00:00.250Z')).toBe(Date.UTC(2025, 4, 15, 14) + 250);
    expect(parseAuctionAt('2025-05-15T14:00:00.123456Z')).toBe(Date.UTC(2025, 4, 15, 14) + 123);
    expect(parseAuctionAt('2025-05-15 14:00:00Z')).toBe(Date.UTC(2025, 4, 15, 14));
  });

  it('gives null for absent, offset-less or impossible values (never the machine zone)', () => {
    for (const s of [
      null,
      '',
      'soon',
      '2025-05-15',
      '2025-05-15T14:00:00',
      '2025-02-30T10:00:00Z',
      '2025-13-01T10:00:00Z',
      '2025-05-15T24:00:00Z',
      '2025-05-15T10:60:00Z',
      '2025-05-15T10:00:00+25:00',
    ]) {
      expect(parseAuctionAt(s), String(s)).toBeNull();
    }
    expect(parseAuctionAt('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
  });
});

describe('toLotState', () => {
  it('projects the compared fields and parses auction_at', () => {
    expect(toLotState(vehicle(), T0)).toEqual({
      platform: 'copart',
      lot_number: '45416833',
      vin: 'WAUZZZF57JA000001',
      current_bid_usd: 3900,
      buy_now_usd: null,
      sale_price_usd: null,
      state: 'open',
      lot_status: 'Timed',
      lot_sub_status: 'Open',
      last_sold_status: null,
      auction_at: Date.UTC(2025, 4, 15, 14),
      observed_at: T0,
    });
  });

  it('is null without platform or lot number', () => {
    expect(toLotState(vehicle({ platform: null }), T0)).toBeNull();
    expect(toLotState(vehicle({ lot_number: null }), T0)).toBeNull();
    expect(toLotState(vehicle({ lot_number: '  ' }), T0)).toBeNull();
  });

  it('keeps auction_at null when unreadable, and non-finite amounts as null', () => {
    const v = vehicle({
      auction: {
        state: null,
        auction_at: 'tomorrow',
        lot_status: null,
        lot_sub_status: '',
        last_sold_status: null,
        last_sold_day: null,
        is_buy_now: null,
      },
      pricing: { ...NO_PRICES, current_bid_usd: Number.NaN, buy_now_usd: 9000 },
    });
    const s = toLotState(v, T0);
    expect(s?.auction_at).toBeNull();
    expect(s?.current_bid_usd).toBeNull();
    expect(s?.buy_now_usd).toBe(9000);
    expect(s?.lot_sub_status).toBeNull();
  });
});

describe('isEnded', () => {
  it('is false for an open lot', () => {
    expect(isEnded(lot())).toBe(false);
    expect(isEnded(lot({ state: 'live', lot_sub_status: 'Live' }))).toBe(false);
    expect(isEnded(lot({ state: null, lot_sub_status: null }))).toBe(false);
  });

  it('is true for lot_sub_status Ended in any case', () => {
    expect(isEnded(lot({ lot_sub_status: 'Ended' }))).toBe(true);
    expect(isEnded(lot({ lot_sub_status: 'ENDED' }))).toBe(true);
  });

  it('is true when a sale price is known; a price of 0 is no price', () => {
    expect(isEnded(lot({ sale_price_usd: 12_300 }))).toBe(true);
    expect(isEnded(lot({ sale_price_usd: 0 }))).toBe(false);
  });

  it('reads the real dialect: finished is over; last_sold_status ends an unknown state word, never an open one', () => {
    const real = { lot_status: null, lot_sub_status: null };
    expect(isEnded(lot({ ...real, state: 'finished' }))).toBe(true);
    expect(isEnded(lot({ ...real, state: 'open', last_sold_status: 'Sold' }))).toBe(false);
    expect(isEnded(lot({ ...real, state: 'paused', last_sold_status: 'Sold on Approval' }))).toBe(true);
    expect(isEnded(lot({ ...real, state: 'paused' }))).toBe(false);
  });

  it('is true for each final state word, in any case and with spaces', () => {
    for (const w of ['sold', 'ended', 'closed', 'not_sold', 'unsold', 'on_approval', 'sold_on_approval']) {
      expect(ENDED_STATES).toContain(w);
      expect(isEnded(lot({ state: w })), w).toBe(true);
      expect(isEnded(lot({ state: w.toUpperCase() })), w).toBe(true);
    }
    expect(isEnded(lot({ state: 'Not Sold' }))).toBe(true);
    expect(isEnded(lot({ state: 'on-approval' }))).toBe(true);
    expect(isEnded(lot({ state: 'upcoming' }))).toBe(false);
  });

  it('tells the outcome in both dialects, and which results may come back as a relist', () => {
    expect(outcomeOf(lot({ state: 'Sold' }))).toBe('sold');
    expect(outcomeOf(lot({ state: 'unsold' }))).toBe('ended_unsold');
    expect(outcomeOf(lot({ state: 'on_approval' }))).toBe('sold_on_approval');
    expect(outcomeOf(lot({ state: 'ended' }))).toBe('ended_unsold');
    expect(outcomeOf(lot({ lot_sub_status: 'Ended', sale_price_usd: 5000 }))).toBe('sold');
    expect(
      outcomeOf(
        lot({ state: 'finished', lot_sub_status: null, last_sold_status: 'Sold', sale_price_usd: 9250 }),
      ),
    ).toBe('sold');
    expect(
      outcomeOf(lot({ state: 'finished', lot_sub_status: null, last_sold_status: 'Sold on Approval' })),
    ).toBe('sold_on_approval');
    expect(outcomeOf(lot({ state: 'finished', lot_sub_status: null, last_sold_status: null }))).toBe(
      'ended_unsold',
    );
    expect(outcomeOf(lot())).toBe('open');
    expect(mayBeRelisted(lot({ state: 'not_sold' }))).toBe(true);
    expect(mayBeRelisted(lot({ lot_sub_status: 'Ended' }))).toBe(true);
    expect(mayBeRelisted(lot({ state: 'finished', last_sold_status: 'Sold on Approval' }))).toBe(true);
    expect(mayBeRelisted(lot({ state: 'sold' }))).toBe(false);
    expect(mayBeRelisted(lot({ sale_price_usd: 5000 }))).toBe(false);
    expect(mayBeRelisted(lot())).toBe(false);
  });
});
