import { describe, expect, it } from 'vitest';
import { dueReminders } from '../../../src/core/alerts';
import { HOUR, lot, MIN, NIGHT, rules, T0 } from '../diff/fixtures';

const AT = T0 + 2 * HOUR; // 2025-05-14T16:00Z
const L = lot({ auction_at: AT });
const R = rules({ remind_minutes_before: [30, 120] });

describe('dueReminders', () => {
  it('raises a reminder when its time falls in (since, until]', () => {
    const due = dueReminders(L, R, AT - 31 * MIN, AT - 30 * MIN, '2018 AUDI S5', { tzOffsetMinutes: -240 });
    expect(due).toEqual([
      {
        kind: 'reminder',
        delivery: 'now',
        reason: null,
        title: '2018 AUDI S5 · auction in 30 min',
        body: 'Starts Wed May 14, 12:00 PM · copart lot 45416833',
        dedup_key: `reminder:copart:45416833:${AT}:30`,
        lot_key: 'copart:45416833',
      },
    ]);
  });

  it('stops reminding once the bid is past the max bid: the lot is out of range', () => {
    const window = [AT - 31 * MIN, AT - 30 * MIN] as const;
    const capped = rules({ remind_minutes_before: [30], max_bid_usd: 5000 });
    expect(dueReminders(lot({ auction_at: AT, current_bid_usd: 5000 }), capped, ...window, 'x')).toHaveLength(
      1,
    );
    expect(dueReminders(lot({ auction_at: AT, current_bid_usd: 5001 }), capped, ...window, 'x')).toEqual([]);
  });

  it('excludes the window start and includes its end', () => {
    expect(dueReminders(L, R, AT - 30 * MIN, AT, 'x')).toEqual([]);
    expect(dueReminders(L, R, AT - 30 * MIN - 1, AT - 30 * MIN, 'x')).toHaveLength(1);
    expect(dueReminders(L, R, AT - 40 * MIN, AT - 30 * MIN - 1, 'x')).toEqual([]);
  });

  it('never repeats a reminder across adjacent windows', () => {
    const seen: string[] = [];
    const step = 7 * MIN + 13;
    for (let t = AT - 3 * HOUR; t < AT + HOUR; t += step) {
      for (const r of dueReminders(L, R, t, t + step, 'x')) seen.push(r.dedup_key);
    }
    expect(seen).toEqual([`reminder:copart:45416833:${AT}:120`, `reminder:copart:45416833:${AT}:30`]);
  });

  it('lists several due reminders in time order and ignores repeated minutes', () => {
    const due = dueReminders(L, rules({ remind_minutes_before: [30, 120, 30] }), AT - 3 * HOUR, AT, 'x');
    expect(due.map((d) => d.dedup_key.split(':').at(-1))).toEqual(['120', '30']);
    expect(due[0]?.title).toBe('x · auction in 2 h');
  });

  it('raises nothing for an ended lot, an unknown date, or no reminders', () => {
    const w = [AT - 3 * HOUR, AT] as const;
    expect(dueReminders({ ...L, lot_sub_status: 'Ended' }, R, ...w, 'x')).toEqual([]);
    expect(dueReminders({ ...L, sale_price_usd: 1 }, R, ...w, 'x')).toEqual([]);
    expect(dueReminders({ ...L, auction_at: null }, R, ...w, 'x')).toEqual([]);
    expect(dueReminders(L, rules(), ...w, 'x')).toEqual([]);
  });

  it('gives a rescheduled auction fresh reminders', () => {
    const moved = { ...L, auction_at: AT + HOUR };
    const [a] = dueReminders(L, R, AT - 31 * MIN, AT - 30 * MIN, 'x');
    const [b] = dueReminders(moved, R, AT + 29 * MIN, AT + 30 * MIN, 'x');
    expect(a?.dedup_key).not.toBe(b?.dedup_key);
  });

  it('follows mute, both snooze forms and quiet hours', () => {
    const w = [AT - 31 * MIN, AT - 30 * MIN] as const;
    const one = (r: Parameters<typeof rules>[0], opts = {}) =>
      dueReminders(L, rules({ remind_minutes_before: [30], ...r }), ...w, 'x', opts)[0];
    expect(one({ muted: true })).toMatchObject({ delivery: 'suppressed', reason: 'muted' });
    expect(one({ snooze_until: AT })).toMatchObject({ delivery: 'suppressed', reason: 'snoozed' });
    expect(one({ snooze_until: AT - 30 * MIN })).toMatchObject({ delivery: 'now' });
    expect(one({ snooze_until_event: 'sale_result' })).toMatchObject({
      delivery: 'suppressed',
      reason: 'snoozed',
    });
    // 11:30 PM at -240 is 03:30Z; put the auction at 04:00Z.
    const night = lot({ auction_at: Date.UTC(2025, 4, 15, 4, 0) });
    const [q] = dueReminders(
      night,
      rules({ remind_minutes_before: [30] }),
      night.auction_at! - 31 * MIN,
      night.auction_at! - 30 * MIN,
      'x',
      {
        quiet: NIGHT,
        tzOffsetMinutes: -240,
      },
    );
    expect(q).toMatchObject({ delivery: 'digest', reason: 'quiet_hours' });
  });

  it('says UTC when no offset is given, and words long lead times', () => {
    const [d] = dueReminders(
      L,
      rules({ remind_minutes_before: [1500] }),
      AT - 1500 * MIN - 1,
      AT - 1500 * MIN,
      '',
    );
    expect(d?.title).toBe('copart lot 45416833 · auction in 1 day 1 h');
    expect(d?.body).toBe('Starts Wed May 14, 4:00 PM UTC · copart lot 45416833');
  });
});
