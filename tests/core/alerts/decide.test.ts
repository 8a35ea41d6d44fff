import { describe, expect, it } from 'vitest';
import { decide, type DecideInput } from '../../../src/core/alerts';
import type { Change, ChangeKind } from '../../../src/shared/watch';
import { DAY, HOUR, lot, NIGHT, QUIET_OFF, rules, T0 } from '../diff/fixtures';

const KEY = 'copart:45416833';

function change(
  kind: ChangeKind,
  before: Change['before'] = null,
  after: Change['after'] = null,
  over: Partial<Change> = {},
): Change {
  const field =
    kind === 'bid_changed'
      ? 'current_bid_usd'
      : kind === 'buy_now_changed'
        ? 'buy_now_usd'
        : kind === 'sale_result'
          ? 'sale_price_usd'
          : kind === 'rescheduled' || kind === 'relisted'
            ? 'auction_at'
            : null;
  return {
    kind,
    lot_key: KEY,
    vin: 'VIN',
    field,
    before,
    after,
    related_lot_key: null,
    outcome: kind === 'sale_result' ? 'sold' : null,
    observed_at: T0,
    ...over,
  };
}

function input(c: Change, over: Partial<DecideInput> = {}): DecideInput {
  return {
    change: c,
    changeId: 42,
    prev: lot(),
    lot: lot(),
    rules: rules(),
    quiet: QUIET_OFF,
    now: T0,
    tzOffsetMinutes: -240,
    alertsForLotLastHour: 0,
    title: '2018 AUDI S5',
    source: { kind: 'search', name: 'Audi under 10k' },
    ...over,
  };
}

const bid = (before: number | null, after: number | null, r: Parameters<typeof rules>[0] = {}) =>
  decide(input(change('bid_changed', before, after), { rules: rules({ kinds: [], ...r }) }));

describe('decide: kinds and texts', () => {
  it('alerts a bid change when asked, with a glanceable title and body', () => {
    const d = decide(input(change('bid_changed', 3900, 4250), { rules: rules({ kinds: ['bid_changed'] }) }));
    expect(d).toEqual({
      kind: 'bid_changed',
      delivery: 'now',
      reason: null,
      title: '2018 AUDI S5 · bid $4,250',
      body: 'Was $3,900 · copart lot 45416833 · Saved search “Audi under 10k”',
      dedup_key: 'change:42',
      lot_key: KEY,
    });
  });

  it('records only (null) a change whose kind is not in the rules', () => {
    expect(decide(input(change('bid_changed', 3900, 4250)))).toBeNull(); // default kinds omit bid_changed
    expect(decide(input(change('dropped_out')))).toBeNull();
    expect(
      decide(input(change('sale_result', null, 100), { rules: rules({ kinds: ['new_match'] }) })),
    ).toBeNull();
  });

  it('alerts the default kinds', () => {
    for (const k of [
      'new_match',
      'status_changed',
      'rescheduled',
      'sale_result',
      'relisted',
      'buy_now_changed',
    ] as const) {
      expect(decide(input(change(k, null, k === 'status_changed' ? 'live' : T0 + DAY)))?.kind, k).toBe(k);
    }
  });

  it('words each sale result as ONE alert with the outcome and the price, never "Sold" for an unsold end', () => {
    const result = (after: number | null, outcome: Change['outcome']) => {
      const d = decide(input(change('sale_result', null, after, { outcome })));
      return `${d?.title} | ${d?.body}`;
    };
    expect(result(12_300, 'sold')).toBe(
      '2018 AUDI S5 · Sold for $12,300 | copart lot 45416833 · Saved search “Audi under 10k”',
    );
    expect(result(null, 'sold')).toBe(
      '2018 AUDI S5 · Sold (price not published yet) | copart lot 45416833 · Saved search “Audi under 10k”',
    );
    expect(result(6600, 'sold_on_approval')).toBe(
      '2018 AUDI S5 · Sold on approval at $6,600 | The seller may still refuse; a relist is possible · copart lot 45416833 · Saved search “Audi under 10k”',
    );
    expect(result(null, 'ended_unsold')).toBe(
      '2018 AUDI S5 · Auction ended, not sold | A relist may follow · copart lot 45416833 · Saved search “Audi under 10k”',
    );
    for (const outcome of ['ended_unsold', 'sold_on_approval'] as const) {
      expect(result(5000, outcome)).not.toMatch(/· Sold for/);
    }
    expect(result(5000, 'ended_unsold')).not.toContain('$');
  });

  it('words status, date, relist, new match and watch sources', () => {
    const st = decide(input(change('status_changed', 'Open', 'Live', { field: 'auction.lot_sub_status' })));
    expect(st?.title).toBe('2018 AUDI S5 · Sale status: Live');
    expect(st?.body).toBe('Was Open · copart lot 45416833 · Saved search “Audi under 10k”');
    const rs = decide(input(change('rescheduled', Date.UTC(2025, 4, 15, 14), Date.UTC(2025, 4, 16, 18, 30))));
    expect(rs?.title).toBe('2018 AUDI S5 · auction moved to Fri May 16, 2:30 PM');
    expect(rs?.body).toContain('Was Thu May 15, 10:00 AM');
    const rl = decide(
      input(change('relisted', null, Date.UTC(2025, 4, 20, 16), { related_lot_key: 'iaai:111' }), {
        source: { kind: 'watch', name: 'My S5' },
      }),
    );
    expect(rl?.title).toBe('2018 AUDI S5 · relisted as copart lot 45416833');
    expect(rl?.body).toBe(
      'Earlier iaai lot 111 did not sell · auction Tue May 20, 12:00 PM · copart lot 45416833 · Watch “My S5”',
    );
    const nm = decide(
      input(change('new_match'), {
        lot: lot({ current_bid_usd: 3900, buy_now_usd: 8000, auction_at: null }),
      }),
    );
    expect(nm?.title).toBe('2018 AUDI S5 · new match');
    expect(nm?.body).toBe(
      'Bid $3,900 · Buy now $8,000 · copart lot 45416833 · Saved search “Audi under 10k”',
    );
  });

  it('falls back to the lot for an empty vehicle title', () => {
    expect(decide(input(change('sale_result', null, 5000), { title: ' ' }))?.title).toBe(
      'copart lot 45416833 · Sold for $5,000',
    );
  });
});

describe('decide: thresholds', () => {
  it('a bid rule first crossed in the observation that brings the sale result says it was seen only with it', () => {
    const sold = lot({ state: 'sold', lot_sub_status: 'Ended', sale_price_usd: 8000, current_bid_usd: 8000 });
    const late = decide(
      input(change('bid_changed', 4400, 8000), {
        lot: sold,
        rules: rules({ kinds: [], bid_above_usd: 4600 }),
      }),
    );
    expect(late?.kind).toBe('threshold');
    expect(late?.title).toBe('2018 AUDI S5 · bid reached $8,000 · seen only with the result');
    // The same crossing while the lot is open is a warning, worded as one.
    expect(bid(4400, 4700, { bid_above_usd: 4600 })?.title).toBe('2018 AUDI S5 · bid reached $4,700');
  });

  it('bid_above: alerts on the upward crossing, as threshold, even when bid_changed is not in kinds', () => {
    const d = bid(9800, 10_000, { bid_above_usd: 10_000 });
    expect(d?.kind).toBe('threshold');
    expect(d?.title).toBe('2018 AUDI S5 · bid reached $10,000');
    expect(d?.body).toBe(
      'At or above your $10,000 · was $9,800 · copart lot 45416833 · Saved search “Audi under 10k”',
    );
    expect(bid(9800, 12_000, { bid_above_usd: 10_000 })?.kind).toBe('threshold');
    expect(bid(null, 10_500, { bid_above_usd: 10_000 })?.kind).toBe('threshold');
  });

  it('max bid: one alert when the bid reaches the chosen share of it, one when it passes it, exact texts', () => {
    const r = { max_bid_usd: 5000, max_bid_near_percent: 90 };
    const near = bid(4400, 4500, r);
    expect(near?.kind).toBe('threshold');
    expect(near?.title).toBe('2018 AUDI S5 · bid reached 90% of your max bid');
    expect(near?.body).toBe(
      'Bid $4,500 · your max bid $5,000 · was $4,400 · copart lot 45416833 · Saved search “Audi under 10k”',
    );
    // At the max bid the lot is still in range; one dollar past it is not.
    expect(bid(4500, 5000, r)).toBeNull();
    const past = bid(5000, 5001, r);
    expect(past?.title).toBe('2018 AUDI S5 · bid $5,001 is past your max bid');
    expect(past?.body).toBe(
      'Your max bid $5,000 · out of range: no more reminders for this lot · was $5,000 · copart lot 45416833 · Saved search “Audi under 10k”',
    );
    // A jump over both gives one alert, the one that matters; staying past it gives none.
    expect(bid(4000, 6000, r)?.title).toBe('2018 AUDI S5 · bid $6,000 is past your max bid');
    expect(bid(6000, 6500, r)).toBeNull();
    expect(bid(4500, 4700, r)).toBeNull();
    // Without a share, only passing the max bid alerts.
    expect(bid(4400, 4600, { max_bid_usd: 5000 })).toBeNull();
    expect(bid(4600, 5100, { max_bid_usd: 5000 })?.kind).toBe('threshold');
  });

  it('max bid solved without a shipping price: both alerts say "excluding shipping" beside it, exact texts', () => {
    const r = {
      max_bid_usd: 3555,
      target_landed_usd: 4500,
      max_bid_excludes: ['shipping' as const],
      max_bid_near_percent: 90,
    };
    expect(bid(3000, 3200, r)?.body).toBe(
      'Bid $3,200 · your max bid $3,555 excluding shipping · was $3,000 · copart lot 45416833 · Saved search “Audi under 10k”',
    );
    expect(bid(3500, 3600, r)?.body).toBe(
      'Your max bid $3,555 excluding shipping · out of range: no more reminders for this lot · was $3,500 · copart lot 45416833 · Saved search “Audi under 10k”',
    );
    // Solved with shipping in: no qualifier. Saved from a target before this was recorded: the cautious reading.
    expect(bid(3500, 3600, { ...r, max_bid_excludes: [] })?.body).toMatch(
      /^Your max bid \$3,555 · out of range/,
    );
    expect(bid(3500, 3600, { ...r, max_bid_excludes: null })?.body).toMatch(
      /^Your max bid \$3,555 excluding shipping · /,
    );
  });

  it('bid_above: no alert while staying above, below, or moving down across it', () => {
    expect(bid(10_000, 10_500, { bid_above_usd: 10_000 })).toBeNull();
    expect(bid(10_500, 11_000, { bid_above_usd: 10_000 })).toBeNull();
    expect(bid(9000, 9999, { bid_above_usd: 10_000 })).toBeNull();
    expect(bid(null, 9999, { bid_above_usd: 10_000 })).toBeNull();
    expect(bid(11_000, 9000, { bid_above_usd: 10_000 })).toBeNull();
    expect(bid(11_000, null, { bid_above_usd: 10_000 })).toBeNull();
  });

  it('bid_above: a staying-above change is still a plain bid_changed when that kind is asked for', () => {
    expect(bid(10_500, 11_000, { bid_above_usd: 10_000, kinds: ['bid_changed'] })?.kind).toBe('bid_changed');
  });

  it('bid_below: alerts on the downward crossing only', () => {
    const d = bid(3900, 3500, { bid_below_usd: 3500 });
    expect(d?.kind).toBe('threshold');
    expect(d?.title).toBe('2018 AUDI S5 · bid down to $3,500');
    expect(bid(null, 3000, { bid_below_usd: 3500 })?.kind).toBe('threshold');
    expect(bid(3500, 3000, { bid_below_usd: 3500 })).toBeNull();
    expect(bid(3000, 2000, { bid_below_usd: 3500 })).toBeNull();
    expect(bid(3000, 4000, { bid_below_usd: 3500 })).toBeNull();
    expect(bid(4000, 3600, { bid_below_usd: 3500 })).toBeNull();
  });

  it('buy_now_under: alerts when buy now appears or drops to the limit or under', () => {
    const bn = (before: number | null, after: number | null) =>
      decide(
        input(change('buy_now_changed', before, after), {
          rules: rules({ kinds: [], buy_now_under_usd: 9000 }),
        }),
      );
    expect(bn(null, 8000)?.kind).toBe('threshold');
    expect(bn(null, 8000)?.body).toContain('At or under your $9,000 · newly offered');
    expect(bn(9500, 9000)?.kind).toBe('threshold');
    expect(bn(8500, 8000)).toBeNull();
    expect(bn(8000, 9500)).toBeNull();
    expect(bn(9500, null)).toBeNull();
    expect(bn(null, 9001)).toBeNull();
  });

  it('a threshold alert is still subject to mute', () => {
    expect(bid(9800, 10_000, { bid_above_usd: 10_000, muted: true })?.delivery).toBe('suppressed');
  });
});

describe('decide: budget of new matches', () => {
  const nm = (current_bid_usd: number | null, buy_now_usd: number | null) =>
    decide(
      input(change('new_match'), {
        prev: null,
        lot: lot({ current_bid_usd, buy_now_usd }),
        rules: rules({ max_price_usd: 10_000 }),
      }),
    );

  it('says "No bids yet" for a new match without a bid, never "Bid $0"', () => {
    const a = nm(0, null);
    expect(a?.body).toContain('No bids yet');
    expect(a?.body).not.toContain('$0');
    expect(nm(9000, null)?.body).toContain('Bid $9,000');
  });

  it('notifies when the bid or the buy now is within budget', () => {
    expect(nm(9000, null)?.kind).toBe('new_match');
    expect(nm(10_000, null)?.kind).toBe('new_match');
    expect(nm(null, 9500)?.kind).toBe('new_match');
    expect(nm(12_000, 9500)?.kind).toBe('new_match');
    expect(nm(9000, 15_000)?.kind).toBe('new_match');
  });

  it('drops a match over budget, and notifies when both prices are unknown', () => {
    expect(nm(10_001, null)).toBeNull();
    expect(nm(11_000, 12_000)).toBeNull();
    expect(nm(null, 10_500)).toBeNull();
    expect(nm(null, null)?.kind).toBe('new_match');
    expect(decide(input(change('new_match'), { lot: null, rules: rules({ max_price_usd: 1 }) }))?.kind).toBe(
      'new_match',
    );
  });

  it('under comps: notifies a match whose bid is under the share of the comps median, and names the median', () => {
    const r = rules({ comps_below_percent: 70 });
    const at = (bid: number, median: number | null) =>
      decide(
        input(change('new_match'), {
          rules: r,
          lot: lot({ current_bid_usd: bid, buy_now_usd: null, auction_at: null }),
          compsMedianUsd: median,
        }),
      );
    // 70 % of a $10,000 median is $7,000: $6,999 is under it, $7,000 is not.
    expect(at(6999, 10_000)?.body).toBe(
      'Bid $6,999 · Comps median $10,000 · copart lot 45416833 · Saved search “Audi under 10k”',
    );
    expect(at(7000, 10_000)).toBeNull();
    // No comparable sale priced: nothing to judge by, so it notifies.
    expect(at(7000, null)?.kind).toBe('new_match');
  });
});

describe('decide: delivery policy', () => {
  const sold = (over: Partial<DecideInput> = {}) => decide(input(change('sale_result', null, 12_300), over));

  it('mutes', () => {
    expect(sold({ rules: rules({ muted: true }) })).toMatchObject({
      delivery: 'suppressed',
      reason: 'muted',
    });
  });

  it('snoozes until a time, and not after it', () => {
    expect(sold({ rules: rules({ snooze_until: T0 + 1 }) })).toMatchObject({
      delivery: 'suppressed',
      reason: 'snoozed',
    });
    expect(sold({ rules: rules({ snooze_until: T0 }) })).toMatchObject({ delivery: 'now', reason: null });
  });

  it('snoozes until an event: other kinds stay silent, the event lifts the snooze', () => {
    const r = rules({ snooze_until_event: 'sale_result', kinds: ['sale_result', 'rescheduled'] });
    const other = decide(input(change('rescheduled', T0, T0 + DAY), { rules: r }));
    expect(other).toMatchObject({ delivery: 'suppressed', reason: 'snoozed' });
    expect(other?.lifts_snooze).toBeUndefined();
    const lifted = sold({ rules: r });
    expect(lifted).toMatchObject({ delivery: 'now', lifts_snooze: true });
  });

  it('the awaited event lifts a time snooze too, and notifies even when its kind is not in the rules', () => {
    const r = rules({ snooze_until: T0 + DAY, snooze_until_event: 'relisted', kinds: [] });
    const d = decide(input(change('relisted', T0, T0 + DAY, { related_lot_key: KEY }), { rules: r }));
    expect(d).toMatchObject({ kind: 'relisted', delivery: 'now', lifts_snooze: true });
    expect(decide(input(change('sale_result', null, 1), { rules: r }))).toBeNull();
  });

  it('mute wins over a lifted snooze, but the lift is still reported', () => {
    const d = sold({ rules: rules({ muted: true, snooze_until_event: 'sale_result' }) });
    expect(d).toMatchObject({ delivery: 'suppressed', reason: 'muted', lifts_snooze: true });
  });

  it('caps alerts per lot per hour', () => {
    expect(sold({ alertsForLotLastHour: 5 })?.delivery).toBe('now');
    expect(sold({ alertsForLotLastHour: 6 })).toMatchObject({ delivery: 'suppressed', reason: 'cap' });
    expect(sold({ alertsForLotLastHour: 1, rules: rules({ cap_per_lot_per_hour: 1 }) })?.reason).toBe('cap');
  });

  it('holds alerts for the digest inside quiet hours', () => {
    // T0 is 10:00 at -240; 23:00 local is 13 h later.
    expect(sold({ quiet: NIGHT, now: T0 + 13 * HOUR })).toMatchObject({
      delivery: 'digest',
      reason: 'quiet_hours',
    });
    expect(sold({ quiet: NIGHT, now: T0 })).toMatchObject({ delivery: 'now' });
  });

  it('applies the policy in order: muted, snoozed, cap, quiet', () => {
    const all = { quiet: NIGHT, now: T0 + 13 * HOUR, alertsForLotLastHour: 99 };
    expect(sold({ ...all, rules: rules({ muted: true, snooze_until: T0 + 2 * DAY }) })?.reason).toBe('muted');
    expect(sold({ ...all, rules: rules({ snooze_until: T0 + 2 * DAY }) })?.reason).toBe('snoozed');
    expect(sold({ ...all })?.reason).toBe('cap');
  });

  it('gives one decision per change: the dedup key is the change id', () => {
    expect(sold({ changeId: 7 })?.dedup_key).toBe('change:7');
    expect(bid(9800, 10_000, { bid_above_usd: 10_000, kinds: ['bid_changed'] })?.dedup_key).toBe('change:42');
  });
});
