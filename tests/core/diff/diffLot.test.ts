import { describe, expect, it } from 'vitest';
import { diffLot } from '../../../src/core/diff';
import type { Change } from '../../../src/shared/watch';
import { DAY, HOUR, lot, T0 } from './fixtures';

const kinds = (cs: Change[]) => cs.map((c) => `${c.kind}:${c.field}`);

describe('diffLot: first observation', () => {
  it('reports nothing for a new lot', () => {
    expect(diffLot(null, lot())).toEqual([]);
    expect(diffLot(null, lot(), { otherLotsOfVin: [] })).toEqual([]);
  });

  it('reports relisted when an earlier lot of the VIN ended unsold', () => {
    const old = lot({ platform: 'iaai', lot_number: '111', state: 'not_sold', auction_at: T0 - 7 * DAY });
    const next = lot({ lot_number: '222', observed_at: T0 + 5 });
    expect(diffLot(null, next, { otherLotsOfVin: [old] })).toEqual([
      {
        kind: 'relisted',
        lot_key: 'copart:222',
        vin: next.vin,
        field: 'auction_at',
        before: T0 - 7 * DAY,
        after: next.auction_at,
        related_lot_key: 'iaai:111',
        outcome: null,
        observed_at: T0 + 5,
      },
    ]);
  });

  it('is not a relist when the earlier lot sold, is still open, is later, or has another VIN', () => {
    const next = lot({ lot_number: '222' });
    const base = { lot_number: '111', auction_at: T0 - DAY };
    for (const other of [
      lot({ ...base, state: 'sold' }),
      lot({ ...base, sale_price_usd: 8000 }),
      lot({ ...base }),
      lot({ ...base, state: 'not_sold', auction_at: T0 + 2 * DAY }),
      lot({ ...base, state: 'not_sold', vin: 'OTHERVIN' }),
      lot({ lot_number: '222', state: 'not_sold', auction_at: T0 - DAY }),
    ]) {
      expect(diffLot(null, next, { otherLotsOfVin: [other] })).toEqual([]);
    }
    expect(
      diffLot(null, lot({ lot_number: '222', vin: null }), {
        otherLotsOfVin: [lot({ ...base, state: 'unsold' })],
      }),
    ).toEqual([]);
  });

  it('picks the most recent of several unsold lots, whatever their order', () => {
    const a = lot({ lot_number: '1', state: 'not_sold', auction_at: T0 - 30 * DAY });
    const b = lot({ lot_number: '2', lot_sub_status: 'Ended', state: null, auction_at: T0 - 3 * DAY });
    const c = lot({ lot_number: '3', state: 'unsold', auction_at: T0 - 10 * DAY });
    const next = lot({ lot_number: '9' });
    for (const others of [
      [a, b, c],
      [c, b, a],
      [b, a, c],
    ]) {
      const [ch] = diffLot(null, next, { otherLotsOfVin: others });
      expect(ch?.related_lot_key).toBe('copart:2');
      expect(ch?.before).toBe(T0 - 3 * DAY);
    }
  });

  it('takes an ended lot with an unknown date as earlier, but needs some date to show', () => {
    const old = lot({ lot_number: '1', state: 'not_sold', auction_at: null });
    expect(diffLot(null, lot({ lot_number: '9' }), { otherLotsOfVin: [old] })[0]?.before).toBeNull();
    expect(diffLot(null, lot({ lot_number: '9', auction_at: null }), { otherLotsOfVin: [old] })).toEqual([]);
  });
});

describe('diffLot: fields', () => {
  it('reports nothing for identical states, even observed later', () => {
    expect(diffLot(lot(), lot({ observed_at: T0 + HOUR }))).toEqual([]);
  });

  it('reports a bid change with before and after', () => {
    const [c] = diffLot(lot(), lot({ current_bid_usd: 4250, observed_at: T0 + 1 }));
    expect(c).toEqual({
      kind: 'bid_changed',
      lot_key: 'copart:45416833',
      vin: 'WAUZZZF57JA000001',
      field: 'current_bid_usd',
      before: 3900,
      after: 4250,
      related_lot_key: null,
      outcome: null,
      observed_at: T0 + 1,
    });
  });

  it('counts null -> value and value -> null as changes', () => {
    expect(kinds(diffLot(lot({ current_bid_usd: null }), lot({ current_bid_usd: 100 })))).toEqual([
      'bid_changed:current_bid_usd',
    ]);
    expect(kinds(diffLot(lot(), lot({ current_bid_usd: null })))).toEqual(['bid_changed:current_bid_usd']);
    expect(kinds(diffLot(lot(), lot({ buy_now_usd: 9000 })))).toEqual(['buy_now_changed:buy_now_usd']);
    expect(kinds(diffLot(lot({ buy_now_usd: 9000 }), lot()))).toEqual(['buy_now_changed:buy_now_usd']);
  });

  it('compares numbers exactly', () => {
    expect(diffLot(lot({ current_bid_usd: 100 }), lot({ current_bid_usd: 100.01 }))).toHaveLength(1);
    expect(diffLot(lot({ current_bid_usd: 0 }), lot({ current_bid_usd: 0 }))).toEqual([]);
  });

  it('reports one status_changed per observation, on the most telling field that moved', () => {
    const cs = diffLot(lot(), lot({ state: 'live', lot_status: 'Pure Sale', lot_sub_status: 'Live' }));
    expect(cs.map((c) => [c.kind, c.field, c.before, c.after])).toEqual([
      ['status_changed', 'auction.lot_sub_status', 'Open', 'Live'],
    ]);
    expect(kinds(diffLot(lot(), lot({ state: 'live', lot_status: 'Pure Sale' })))).toEqual([
      'status_changed:auction.state',
    ]);
    expect(kinds(diffLot(lot(), lot({ lot_status: null })))).toEqual(['status_changed:auction.lot_status']);
  });

  it('reports rescheduled while the lot has not ended', () => {
    const cs = diffLot(lot(), lot({ auction_at: T0 + 2 * DAY }));
    expect(cs).toHaveLength(1);
    expect(cs[0]).toMatchObject({
      kind: 'rescheduled',
      field: 'auction_at',
      before: T0 + DAY,
      after: T0 + 2 * DAY,
    });
    expect(kinds(diffLot(lot(), lot({ auction_at: T0 })))).toEqual(['rescheduled:auction_at']);
    expect(kinds(diffLot(lot(), lot({ auction_at: null })))).toEqual(['rescheduled:auction_at']);
  });

  it('reports relisted (same key) when the date moves later after the lot ended unsold, and no rescheduled', () => {
    const ended = lot({ state: 'not_sold', lot_sub_status: 'Ended' });
    const cs = diffLot(ended, lot({ auction_at: T0 + 8 * DAY }));
    expect(cs.map((c) => c.kind)).toEqual(['status_changed', 'relisted']);
    expect(cs[1]).toMatchObject({
      field: 'auction_at',
      before: T0 + DAY,
      after: T0 + 8 * DAY,
      related_lot_key: 'copart:45416833',
    });
  });

  it('reports no date change after a sale, nor an earlier date after an unsold ending', () => {
    const sold = lot({ state: 'sold', sale_price_usd: 12_300 });
    expect(diffLot(sold, { ...sold, auction_at: T0 + 9 * DAY })).toEqual([]);
    const unsold = lot({ state: 'not_sold' });
    expect(diffLot(unsold, { ...unsold, auction_at: T0 })).toEqual([]);
    expect(diffLot(unsold, { ...unsold, auction_at: null })).toEqual([]);
  });

  it('reports a sale result, sold, with the price when a sale price appears', () => {
    const cs = diffLot(lot(), lot({ sale_price_usd: 12_300 }));
    expect(cs).toEqual([
      expect.objectContaining({
        kind: 'sale_result',
        outcome: 'sold',
        field: 'sale_price_usd',
        before: null,
        after: 12_300,
      }),
    ]);
  });

  it('reports ONE change when the lot ends: the sale result, not also the status fields that moved with it', () => {
    const cs = diffLot(lot(), lot({ lot_sub_status: 'Ended' }));
    expect(cs.map((c) => c.kind)).toEqual(['sale_result']);
    expect(cs[0]).toMatchObject({
      before: null,
      after: null,
      field: 'sale_price_usd',
      outcome: 'ended_unsold',
    });
  });

  it('reads the real dialect: finished + last_sold_status, open stays open whatever last_sold_status says', () => {
    const open = lot({ state: 'open', lot_status: null, lot_sub_status: null });
    const result = (last: string | null, price: number | null) =>
      diffLot(open, { ...open, state: 'finished', last_sold_status: last, sale_price_usd: price });
    expect(result('Sold', 9250)).toEqual([
      expect.objectContaining({ kind: 'sale_result', outcome: 'sold', after: 9250 }),
    ]);
    expect(result('Sold on Approval', 6600)).toEqual([
      expect.objectContaining({ kind: 'sale_result', outcome: 'sold_on_approval', after: 6600 }),
    ]);
    expect(result(null, null)).toEqual([
      expect.objectContaining({ kind: 'sale_result', outcome: 'ended_unsold', after: null }),
    ]);
    expect(diffLot(open, { ...open, last_sold_status: 'Sold' })).toEqual([]);
  });

  it('reports the sale result only once: not again when the price arrives after a sold ending', () => {
    const ended = lot({ state: 'sold' });
    expect(diffLot(lot(), ended).filter((c) => c.kind === 'sale_result')).toHaveLength(1);
    const priced = lot({ state: 'sold', sale_price_usd: 9000 });
    expect(diffLot(ended, priced)).toEqual([]);
    const unsoldThenPrice = lot({ lot_sub_status: 'Ended' });
    expect(
      diffLot(unsoldThenPrice, lot({ lot_sub_status: 'Ended', sale_price_usd: 9000 })).map((c) => c.kind),
    ).toEqual([]);
  });

  it('reports a second sale result when the seller accepts a bid that was on approval', () => {
    const approval = lot({ state: 'finished', last_sold_status: 'Sold on Approval', sale_price_usd: 6600 });
    const accepted = { ...approval, last_sold_status: 'Sold' };
    expect(diffLot(approval, accepted)).toEqual([
      expect.objectContaining({ kind: 'sale_result', outcome: 'sold', after: 6600 }),
    ]);
  });

  it('orders changes bid, buy now, date, sale result', () => {
    const cs = diffLot(
      lot(),
      lot({ current_bid_usd: 5000, buy_now_usd: 7000, state: 'sold', auction_at: T0, sale_price_usd: 5000 }),
    );
    expect(cs.map((c) => c.kind)).toEqual(['bid_changed', 'buy_now_changed', 'rescheduled', 'sale_result']);
  });

  it('takes vin from next, else from prev, and observed_at from next', () => {
    const cs = diffLot(lot({ vin: 'PREVVIN' }), lot({ vin: null, current_bid_usd: 1, observed_at: T0 + 7 }));
    expect(cs[0]?.vin).toBe('PREVVIN');
    expect(cs[0]?.observed_at).toBe(T0 + 7);
    expect(diffLot(lot({ vin: 'PREVVIN' }), lot({ vin: 'NEXTVIN', current_bid_usd: 1 }))[0]?.vin).toBe(
      'NEXTVIN',
    );
  });

  it('treats a prev of another lot as no prev', () => {
    expect(diffLot(lot({ lot_number: '1', current_bid_usd: 1 }), lot())).toEqual([]);
  });
});
