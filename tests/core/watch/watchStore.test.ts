import { describe, expect, it } from 'vitest';

import { AlertRulesSchema } from '../../../src/shared/watch';
import { storesPerTest } from '../../helpers/store';
import { vehicle } from './storeFixtures';

const store = storesPerTest();

describe('Store', () => {
  it('stores observations, a new one only when the record changed, and returns the state before and after', () => {
    const { db, s } = store();
    const first = s.sync.lots.observe(vehicle(), 1000, 'test');
    expect(first?.prev).toBeNull();
    expect(first?.next).toMatchObject({
      lot_number: '50000001',
      current_bid_usd: 500,
      auction_at: Date.parse('2026-11-23T15:00:00Z'),
    });
    const same = s.sync.lots.observe(vehicle(), 2000, 'test');
    expect(same?.prev?.observed_at).toBe(1000);
    const changed = s.sync.lots.observe(vehicle({ bid: 750 }), 3000, 'test');
    expect(changed?.prev?.current_bid_usd).toBe(500);
    expect(changed?.next.current_bid_usd).toBe(750);
    // The same record again adds no row: the first observation is marked seen at 2000. Each record is stored once:
    // the replaced one in its observation, the newest in the lot's row.
    const obs = db
      .prepare(
        'SELECT observed_at, last_seen_at, seen, (raw IS NOT NULL OR raw_z IS NOT NULL) AS copy FROM observations ORDER BY id',
      )
      .all();
    expect(obs).toEqual([
      { observed_at: 1000, last_seen_at: 2000, seen: 2, copy: 1 },
      { observed_at: 3000, last_seen_at: null, seen: 1, copy: 0 },
    ]);
    expect(s.sync.lots.getLotRecord('copart:50000001')?.raw).toMatchObject({
      extra_field_the_spec_does_not_list: 1,
    });
    expect(s.sync.lots.getLotState('copart:50000001')?.observed_at).toBe(3000);
  });

  it('refuses to key a record without platform or lot number (the caller counts it)', () => {
    const { s } = store();
    expect(s.sync.lots.observe(vehicle({ lot_number: null }), 1, 't')).toBeNull();
  });

  it('finds other lots of a VIN for relist detection', () => {
    const { s } = store();
    s.sync.lots.observe(vehicle(), 1, 't');
    s.sync.lots.observe(vehicle({ lot_number: '50000002' }), 2, 't');
    expect(
      s.sync.lots.otherLotsOfVin('1HGCM82633A004352', 'copart:50000002').map((l) => l.lot_number),
    ).toEqual(['50000001']);
  });

  it('stores an alert once per dedup key and hands it out once through claim', () => {
    const { s } = store();
    const a = {
      dedup_key: 'change:1',
      kind: 'bid_changed' as const,
      lot_key: 'copart:1',
      change_id: 1,
      source: 'watch:1',
      title: 't',
      body: 'b',
      reason: null,
      delivery: 'now' as const,
      deliver_after: null,
    };
    const id = s.sync.alerts.insertAlert(a, 10);
    expect(id).not.toBeNull();
    expect(s.sync.alerts.insertAlert(a, 11)).toBeNull();
    expect(s.sync.alerts.dueAlerts(20).map((r) => r.id)).toEqual([id]);
    expect(s.sync.alerts.claimAlert(id!)).toBe(true);
    expect(s.sync.alerts.claimAlert(id!)).toBe(false);
    expect(s.sync.alerts.dueAlerts(20)).toEqual([]);
    s.sync.alerts.markDelivered(id!, 30);
    const digest = s.sync.alerts.insertAlert(
      { ...a, dedup_key: 'change:2', delivery: 'digest', deliver_after: 100 },
      40,
    );
    expect(s.sync.alerts.dueAlerts(99)).toEqual([]);
    expect(s.sync.alerts.dueAlerts(100).map((r) => r.id)).toEqual([digest]);
    s.sync.alerts.insertAlert({ ...a, dedup_key: 'change:3', delivery: 'suppressed' }, 50);
    expect(s.sync.alerts.dueAlerts(1000).map((r) => r.id)).toEqual([digest]);
    expect(s.sync.alerts.alertsForLotSince('copart:1', 0)).toBe(2);
  });

  it('indexes lots for offline full-text search and follows updates', () => {
    const { db, s } = store();
    s.sync.lots.observe(vehicle(), 1, 't');
    s.sync.lots.observe(
      vehicle({
        lot_number: '50000009',
        vin: '5YJ3E1EA7KF317000',
        title: '2019 TESLA MODEL 3',
        make: 'TESLA',
        model: 'MODEL 3',
      }),
      1,
      't',
    );
    const q = (m: string) =>
      (
        db.prepare('SELECT lot_number FROM lots_fts WHERE lots_fts MATCH ?').all(m) as {
          lot_number: string;
        }[]
      ).map((r) => r.lot_number);
    expect(q('tesla')).toEqual(['50000009']);
    expect(q('"5YJ3E1"*')).toEqual(['50000009']);
    expect(q('dallas')).toHaveLength(2);
    s.sync.lots.observe(vehicle({ title: '2003 HONDA ACCORD LX' }), 2, 't');
    expect(q('LX')).toEqual(['50000001']);
    expect(q('EX')).toEqual([]);
  });

  it('keeps saved searches, members, watches and runs', () => {
    const { s } = store();
    const rules = AlertRulesSchema.parse({});
    const id = s.sync.searches.insertSearch(
      {
        name: 'Accords',
        params: { make: 'HONDA' },
        schedule: '*/30 * * * *',
        rules,
        max_pages: 3,
        paused: false,
        is_example: false,
      },
      5,
    );
    expect(s.sync.searches.getSearch(id)).toMatchObject({
      name: 'Accords',
      params: { make: 'HONDA' },
      baseline_done: false,
    });
    s.sync.searches.updateMembers(id, ['copart:1', 'copart:2'], [], 6);
    s.sync.searches.updateMembers(id, ['copart:3'], ['copart:1'], 7);
    expect([...s.sync.searches.memberKeys(id)].sort()).toEqual(['copart:2', 'copart:3']);
    s.sync.searches.searchRunOk(id, 8, 2, true);
    expect(s.sync.searches.getSearch(id)).toMatchObject({
      baseline_done: false,
      last_result_count: 2,
      last_complete: true,
    });
    s.sync.searches.setCoverage(id, { baseline_done: true, covered_until: null, sweep_from: 1_000 });
    expect(s.sync.searches.getSearch(id)).toMatchObject({
      baseline_done: true,
      covered_until: null,
      sweep_from: 1_000,
    });
    // Same params: the coverage stays; new params: it starts again.
    s.sync.searches.updateSearch(
      id,
      {
        name: 'Hondas',
        params: { make: 'HONDA' },
        schedule: '0 * * * *',
        rules,
        max_pages: 3,
        paused: false,
      },
      9,
    );
    expect(s.sync.searches.getSearch(id)).toMatchObject({ baseline_done: true, sweep_from: 1_000 });
    s.sync.searches.updateSearch(
      id,
      {
        name: 'Accords',
        params: { make: 'HONDA', model: 'ACCORD' },
        schedule: '0 * * * *',
        rules,
        max_pages: 3,
        paused: false,
      },
      9,
    );
    expect(s.sync.searches.getSearch(id)).toMatchObject({
      baseline_done: false,
      covered_until: null,
      sweep_from: null,
    });
    const run = s.sync.searches.startRun({ kind: 'search', id }, 10);
    expect(s.sync.searches.interruptRuns(11)).toBe(1);
    s.sync.searches.finishRun(run, 12, { status: 'ok', requests: 1, records: 2, changes: 0, complete: true });
    const w = s.sync.watches.insertWatch(
      { kind: 'vin', vin: '1HGCM82633A004352', lot_key: null, label: '', rules, is_example: false },
      1,
    );
    s.sync.watches.watchChecked(w, 2, 'copart:1', '1HGCM82633A004352');
    expect(s.sync.watches.getWatch(w)).toMatchObject({ lot_key: 'copart:1', last_checked_at: 2 });
    expect(() =>
      s.sync.watches.insertWatch(
        { kind: 'vin', vin: '1HGCM82633A004352', lot_key: null, label: '', rules, is_example: false },
        1,
      ),
    ).toThrow();
  });
});
