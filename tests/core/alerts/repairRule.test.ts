import { describe, expect, it } from 'vitest';
import { decide, type DecideInput } from '../../../src/core/alerts';
import { repairVerdict } from '../../../src/core/alerts/repairRule';
import { AlertRulesSchema, type Change, type ChangeKind } from '../../../src/shared/watch';
import { lot, QUIET_OFF, rules, T0 } from '../diff/fixtures';

// "Repair cost under N % of ACV" (src/shared/watch.ts repair_under_acv_percent): a new match passes only on known
// figures under the share; every alert under such rules says where the lot stands, or that the figure is unknown.

const KEY = 'iaai:45139005';

function change(kind: ChangeKind, before: Change['before'] = null, after: Change['after'] = null): Change {
  return {
    kind,
    lot_key: KEY,
    vin: 'WAUB4CF56JA126812',
    field: kind === 'bid_changed' ? 'current_bid_usd' : kind === 'sale_result' ? 'sale_price_usd' : null,
    before,
    after,
    related_lot_key: null,
    outcome: kind === 'sale_result' ? 'sold' : null,
    observed_at: T0,
  };
}

function input(c: Change, over: Partial<DecideInput> = {}): DecideInput {
  return {
    change: c,
    changeId: 7,
    prev: null,
    lot: lot({ platform: 'iaai', lot_number: '45139005', current_bid_usd: 2550, auction_at: null }),
    rules: rules({ repair_under_acv_percent: 40 }),
    quiet: QUIET_OFF,
    now: T0,
    tzOffsetMinutes: 0,
    alertsForLotLastHour: 0,
    title: '2018 AUDI S5',
    source: { kind: 'search', name: 'Cheap repairs' },
    ...over,
  };
}

const match = (estimates: DecideInput['estimates']) =>
  decide(input(change('new_match'), estimates === undefined ? {} : { estimates }));

describe('repairVerdict', () => {
  it('passes only strictly under the share, and says so', () => {
    expect(repairVerdict(40, { acv_usd: 10_000, est_repair_usd: 2_500 })).toEqual({
      passes: true,
      text: 'Repair 25% of ACV, under your 40%',
    });
    expect(repairVerdict(40, { acv_usd: 5_000, est_repair_usd: 2_000 })).toEqual({
      passes: false,
      text: 'Repair 40.00% of ACV, not under your 40%',
    });
    expect(repairVerdict(40, { acv_usd: 10_000, est_repair_usd: 3_999 })).toEqual({
      passes: true,
      text: 'Repair 39.99% of ACV, under your 40%',
    });
    expect(repairVerdict(100, { acv_usd: 18_349, est_repair_usd: 20_821 })).toEqual({
      passes: false,
      text: 'Repair 113% of ACV, not under your 100%',
    });
  });

  it('never passes on unknown figures, and names the missing one', () => {
    expect(repairVerdict(40, { acv_usd: null, est_repair_usd: 2_500 })).toEqual({
      passes: false,
      text: 'Repair to ACV unknown (no ACV), so not under your 40%',
    });
    expect(repairVerdict(40, { acv_usd: 10_000, est_repair_usd: null }).text).toBe(
      'Repair to ACV unknown (no estimated repair cost), so not under your 40%',
    );
    expect(repairVerdict(40, null).text).toBe(
      'Repair to ACV unknown (no ACV or estimated repair cost), so not under your 40%',
    );
    expect(repairVerdict(40, { acv_usd: 0, est_repair_usd: 2_500 }).text).toBe(
      'Repair to ACV unknown (ACV of $0), so not under your 40%',
    );
  });
});

describe('decide with repair_under_acv_percent', () => {
  it('alerts a new match whose repair is under the share, with the verdict in the body', () => {
    expect(match({ acv_usd: 10_000, est_repair_usd: 2_500 })).toEqual({
      kind: 'new_match',
      delivery: 'now',
      reason: null,
      title: '2018 AUDI S5 · new match',
      body: 'Bid $2,550 · Repair 25% of ACV, under your 40% · iaai lot 45139005 · Saved search “Cheap repairs”',
      dedup_key: 'change:7',
      lot_key: KEY,
    });
  });

  it('records only (null) a new match at or over the share, or with a figure unknown', () => {
    expect(match({ acv_usd: 18_349, est_repair_usd: 20_821 })).toBeNull();
    expect(match({ acv_usd: 5_000, est_repair_usd: 2_000 })).toBeNull();
    // A Copart record: no ACV, no repair cost.
    expect(match({ acv_usd: null, est_repair_usd: null })).toBeNull();
    expect(match({ acv_usd: 0, est_repair_usd: 100 })).toBeNull();
    // The lot's record is not stored, or the caller did not ask.
    expect(match(null)).toBeNull();
    expect(match(undefined)).toBeNull();
  });

  it('never silences a watch: a sale result alerts and says the figure is unknown', () => {
    const d = decide(
      input(change('sale_result', null, 9_250), {
        source: { kind: 'watch', name: 'Gray S5' },
        estimates: { acv_usd: null, est_repair_usd: 20_821 },
      }),
    );
    expect(d).toMatchObject({
      kind: 'sale_result',
      title: '2018 AUDI S5 · Sold for $9,250',
      body: 'Repair to ACV unknown (no ACV), so not under your 40% · iaai lot 45139005 · Watch “Gray S5”',
    });
  });

  it('a threshold still alerts over the share and says where the lot stands', () => {
    const d = decide(
      input(change('bid_changed', 4_000, 6_000), {
        rules: rules({ kinds: [], repair_under_acv_percent: 40, max_bid_usd: 5_000 }),
        estimates: { acv_usd: 18_349, est_repair_usd: 20_821 },
      }),
    );
    expect(d).toMatchObject({
      kind: 'threshold',
      title: '2018 AUDI S5 · bid $6,000 is past your max bid',
      body:
        'Your max bid $5,000 · out of range: no more reminders for this lot · was $4,000 · Repair 113% of ACV, not ' +
        'under your 40% · iaai lot 45139005 · Saved search “Cheap repairs”',
    });
  });

  it('without the rule, the body says nothing about repair cost', () => {
    const d = decide(
      input(change('new_match'), { rules: rules(), estimates: { acv_usd: 1, est_repair_usd: 5 } }),
    );
    expect(d?.body).toBe('Bid $2,550 · iaai lot 45139005 · Saved search “Cheap repairs”');
  });
});

describe('the rule field', () => {
  it('takes 1 to 200 whole percent, else a field error', () => {
    expect(AlertRulesSchema.parse({ repair_under_acv_percent: 150 }).repair_under_acv_percent).toBe(150);
    expect(AlertRulesSchema.parse({}).repair_under_acv_percent).toBeNull();
    for (const bad of [0, 201, 40.5, -1]) {
      const r = AlertRulesSchema.safeParse({ repair_under_acv_percent: bad });
      expect(r.success).toBe(false);
      if (!r.success) expect(r.error.issues[0]?.path).toEqual(['repair_under_acv_percent']);
    }
  });
});
