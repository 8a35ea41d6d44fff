import { describe, expect, it } from 'vitest';
import { decide, dueReminders, type DecideInput } from '../../../src/core/alerts';
import { exportBlock } from '../../../src/shared/exportBlock';
import type { Change, ChangeKind } from '../../../src/shared/watch';
import { lot, QUIET_OFF, rules, T0 } from '../diff/fixtures';

// The "exportable title" rule and the export mark of alert texts (src/core/alerts/decide.ts), on title documents as
// real records carry them (docs/service-contract.md "Records").

const KEY = 'copart:45416833';
const DESTRUCTION = exportBlock({ name: 'CERTIFICATE OF DESTRUCTION', export: false, brand: null });
const NOT_EXPORTABLE = exportBlock({ name: 'SALVAGE - REPAIRABLE-COLLISION', export: false, brand: null });

function change(kind: ChangeKind, before: Change['before'] = null, after: Change['after'] = null): Change {
  return {
    kind,
    lot_key: KEY,
    vin: 'VIN',
    field: kind === 'bid_changed' ? 'current_bid_usd' : kind === 'buy_now_changed' ? 'buy_now_usd' : null,
    before,
    after,
    related_lot_key: null,
    outcome: null,
    observed_at: T0,
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

describe('exportable title only', () => {
  it('never alerts a blocked lot: a new match, a bid change, a threshold, a buy now under the limit', () => {
    const only = rules({
      exportable_only: true,
      kinds: ['new_match', 'bid_changed', 'buy_now_changed'],
      bid_above_usd: 5000,
      buy_now_under_usd: 8000,
    });
    for (const block of [DESTRUCTION, NOT_EXPORTABLE]) {
      expect(block).not.toBeNull();
      for (const c of [
        change('new_match'),
        change('bid_changed', 4000, 4250),
        change('bid_changed', 4900, 5100),
        change('buy_now_changed', null, 7000),
      ]) {
        expect(
          decide(input(c, { rules: only, exportBlock: block })),
          `${block?.reason} ${c.kind}`,
        ).toBeNull();
      }
    }
  });

  it('alerts a lot whose title blocks nothing, and one whose record is not stored, as before', () => {
    const only = rules({ exportable_only: true, kinds: ['new_match'] });
    const d = decide(input(change('new_match'), { rules: only, exportBlock: null }));
    expect(d?.title).toBe('2018 AUDI S5 · new match');
    expect(d?.body).not.toContain('Export blocked');
    expect(decide(input(change('new_match'), { rules: only }))).not.toBeNull();
  });

  it('without the rule, a blocked lot alerts and its body says why, before the lot', () => {
    const d = decide(
      input(change('bid_changed', 3900, 4250), {
        rules: rules({ kinds: ['bid_changed'] }),
        exportBlock: DESTRUCTION,
      }),
    );
    expect(d?.body).toBe(
      'Was $3,900 · Export blocked: Certificate of destruction · copart lot 45416833 · Saved search “Audi under 10k”',
    );
    const n = decide(
      input(change('new_match'), { rules: rules({ kinds: ['new_match'] }), exportBlock: NOT_EXPORTABLE }),
    );
    expect(n?.body).toContain('Export blocked: Not exportable · copart lot 45416833');
  });

  it('reminders: none for a blocked lot under the rule; the mark in the body without it', () => {
    const at = T0 + 30 * 60_000;
    const open = lot({ auction_at: at });
    const remind = (exportable_only: boolean) =>
      dueReminders(
        open,
        rules({ remind_minutes_before: [60], exportable_only }),
        T0 - 60 * 60_000,
        T0,
        'AUDI',
        {
          exportBlock: DESTRUCTION,
        },
      );
    expect(remind(true)).toEqual([]);
    const [r] = remind(false);
    expect(r?.body).toMatch(
      /^Starts .* UTC · Export blocked: Certificate of destruction · copart lot 45416833$/,
    );
  });
});
