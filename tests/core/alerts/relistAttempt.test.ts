import { describe, expect, it } from 'vitest';
import { decide, type DecideInput } from '../../../src/core/alerts';
import { AlertRulesSchema, type Change } from '../../../src/shared/watch';
import { lot, QUIET_OFF, rules, T0 } from '../diff/fixtures';

// The "comes back for the Nth time" rule: a relist whose attempt number reaches relist_attempt alerts with its own
// text, whatever `kinds` says; below it the relist follows `kinds` as before.
const KEY = 'copart:45416833';
const AUCTION = Date.UTC(2025, 4, 20, 16);

function relisted(over: Partial<Change> = {}): Change {
  return {
    kind: 'relisted',
    lot_key: KEY,
    vin: 'WAUZZZF57JA000001',
    field: 'auction_at',
    before: null,
    after: AUCTION,
    related_lot_key: 'iaai:111',
    outcome: null,
    observed_at: T0,
    ...over,
  };
}

function input(over: Partial<DecideInput> = {}): DecideInput {
  return {
    change: relisted(),
    changeId: 7,
    prev: null,
    lot: lot(),
    rules: rules(),
    quiet: QUIET_OFF,
    now: T0,
    tzOffsetMinutes: -240,
    alertsForLotLastHour: 0,
    title: '2018 AUDI S5',
    source: { kind: 'watch', name: 'My S5' },
    ...over,
  };
}

describe('decide: relist_attempt', () => {
  it('alerts the Nth attempt with its exact text even when relisted is not among the kinds', () => {
    const d = decide(input({ rules: rules({ kinds: [], relist_attempt: 3 }), attempt: 3 }));
    expect(d).toEqual({
      kind: 'relisted',
      delivery: 'now',
      reason: null,
      title: '2018 AUDI S5 · back for its 3rd attempt',
      body: 'Your rule: from the 3rd attempt · auction Tue May 20, 12:00 PM · earlier iaai lot 111 · copart lot 45416833 · Watch “My S5”',
      dedup_key: 'change:7',
      lot_key: KEY,
    });
  });

  it('alerts every later attempt too, and a relist under the same lot names no earlier lot', () => {
    const d = decide(
      input({
        change: relisted({ related_lot_key: KEY }),
        rules: rules({ kinds: [], relist_attempt: 3 }),
        attempt: 4,
      }),
    );
    expect(d?.title).toBe('2018 AUDI S5 · back for its 4th attempt');
    expect(d?.body).toBe(
      'Your rule: from the 3rd attempt · auction Tue May 20, 12:00 PM · copart lot 45416833 · Watch “My S5”',
    );
  });

  it('below N, or with the attempt unknown, the relist follows the kinds as without the rule', () => {
    expect(decide(input({ rules: rules({ kinds: [], relist_attempt: 3 }), attempt: 2 }))).toBeNull();
    expect(decide(input({ rules: rules({ kinds: [], relist_attempt: 3 }), attempt: null }))).toBeNull();
    const plain = decide(input({ rules: rules({ relist_attempt: 3 }), attempt: 2 }));
    expect(plain?.title).toBe('2018 AUDI S5 · relisted as copart lot 45416833');
  });

  it('is delivered like any alert: muted, snoozed and quiet hours still apply', () => {
    const d = decide(input({ rules: rules({ kinds: [], relist_attempt: 2, muted: true }), attempt: 2 }));
    expect(d).toMatchObject({ kind: 'relisted', delivery: 'suppressed', reason: 'muted' });
  });

  it('leaves every other kind of change alone', () => {
    const bid: Change = { ...relisted(), kind: 'bid_changed', field: 'current_bid_usd', before: 1, after: 2 };
    expect(
      decide(input({ change: bid, rules: rules({ kinds: [], relist_attempt: 2 }), attempt: 5 })),
    ).toBeNull();
  });

  it('takes 2 to 20 whole attempts, with a sentence for anything else', () => {
    for (const bad of [1, 21, 2.5]) {
      const r = AlertRulesSchema.safeParse({ relist_attempt: bad });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toMatch(/^Enter (2 to 20|a whole number of) attempts\.$/);
    }
    expect(AlertRulesSchema.parse({}).relist_attempt).toBeNull();
  });
});
