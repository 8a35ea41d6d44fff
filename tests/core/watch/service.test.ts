import { afterEach, describe, expect, it } from 'vitest';
import type { Result } from '../../../src/shared/ipc/errors';
import { coresPerTest } from '../../helpers/core';
import { FakeClock } from '../../helpers/fakeClock';
import { lotPageUrl } from '../../../src/shared/vehicle';
import { DEMO_KEY, sandboxPerFile, type Sandbox } from '../../helpers/sandbox';

// The contract methods of the watch engine through core.invoke, against the sandbox over HTTP.
const START = Date.UTC(2026, 5, 1, 12, 0, 0);
let sb: Sandbox;
// Every market change visible at once: these tests check what a watch sees right after the sale.
sandboxPerFile(
  { seed: 5, lots: 3000, startTime: START, speed: 0, ratePerSecond: 0, refresh: 'instant' },
  (started) => (sb = started),
);
const startCore = coresPerTest();
afterEach(() => sb.faults.set({}));
/** A core in Demo mode on this sandbox at START, with Demo mode's examples as a first start creates them. */
const makeCore = () => startCore({ sandbox: sb, clock: new FakeClock(START), demoExamples: true });

const value = <T>(r: Result<T>): T => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
};

describe('saved searches', () => {
  it('refuses a bad schedule, bad parameters or bad rules with field errors, and saves nothing', async () => {
    const { call } = await makeCore();
    const cron = await call('searches.create', {
      name: 'x',
      params: { make: 'HONDA' },
      schedule: 'every minute',
    });
    expect(cron).toMatchObject({
      ok: false,
      error: { code: 'bad_input', fields: { schedule: expect.any(Array) } },
    });
    const params = await call('searches.create', {
      name: 'x',
      params: { year_from: 'new', lot_sub_status: 'Soon' },
    });
    expect(params.ok).toBe(false);
    if (!params.ok)
      expect(Object.keys(params.error.fields ?? {})).toEqual(
        expect.arrayContaining(['params.year_from', 'params.lot_sub_status']),
      );
    const rules = await call('searches.create', { name: 'x', params: {}, rules: { bid_above_usd: -5 } });
    expect(rules).toMatchObject({
      ok: false,
      error: { fields: { 'rules.bid_above_usd': expect.any(Array) } },
    });
    const both = await call('searches.create', {
      name: 'x',
      params: { platform: 'copart', auction_type: 2 },
    });
    expect(both.ok).toBe(false);
    expect(value(await call<unknown[]>('searches.list'))).toEqual([]);
  });

  it('creates, runs now (a baseline without new-match alerts), edits, pauses and removes', async () => {
    const { call } = await makeCore();
    const s = value(
      await call('searches.create', {
        name: 'Hondas',
        params: { make: 'HONDA', platform: 'copart' },
        schedule: '*/15 * * * *',
      }),
    );
    expect(s).toMatchObject({
      name: 'Hondas',
      schedule: '*/15 * * * *',
      paused: false,
      next_run_at: START + 15 * 60_000,
    });
    const run = value(await call('searches.runNow', { id: s['id'] }));
    expect(run).toMatchObject({ status: 'ok' });
    expect(run['requests']).toBeGreaterThanOrEqual(1);
    const after = value(await call<Record<string, unknown>[]>('searches.list'))[0]!;
    expect(after['last_result_count']).toBeGreaterThan(0);
    expect(value(await call<{ alerts: unknown[] }>('alerts.list')).alerts).toEqual([]);
    const edited = value(
      await call('searches.update', {
        id: s['id'],
        name: 'Honda Civics',
        params: { make: 'HONDA', model: 'CIVIC' },
        schedule: '0 * * * *',
      }),
    );
    expect(edited).toMatchObject({ name: 'Honda Civics', schedule: '0 * * * *' });
    expect(value(await call('searches.setPaused', { id: s['id'], paused: true }))).toMatchObject({
      paused: true,
      next_run_at: null,
    });
    expect(value(await call('searches.remove', { id: s['id'] }))).toEqual({ ok: true });
    expect(await call('searches.remove', { id: s['id'] })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('records service errors on the run and the search, and alerts after three failures in a row', async () => {
    const { call, core } = await makeCore();
    const s = value(await call('searches.create', { name: 'Broken', params: { make: 'HONDA' } }));
    sb.faults.set({ rates: { error_500: 1 } });
    for (let i = 0; i < 3; i++)
      expect(value(await call('searches.runNow', { id: s['id'] }))).toMatchObject({ status: 'error' });
    const row = value(await call<Record<string, unknown>[]>('searches.list'))[0]!;
    expect(row).toMatchObject({ consecutive_failures: 3, last_error: expect.stringMatching(/service/i) });
    const alerts = value(await call<{ alerts: { kind: string; title: string }[] }>('alerts.list')).alerts;
    expect(alerts.filter((a) => a.kind === 'search_failing')).toHaveLength(1);
    sb.faults.set({});
    expect(value(await call('searches.runNow', { id: s['id'] }))).toMatchObject({ status: 'ok' });
    expect(value(await call<Record<string, unknown>[]>('searches.list'))[0]).toMatchObject({
      consecutive_failures: 0,
      last_error: null,
    });
    void core;
  });
});

describe('watchlist', () => {
  it('adds by lot number, VIN and lot-page URL, refuses junk and duplicates', async () => {
    const { call } = await makeCore();
    const lots = sb.market.sorted.filter((l) => l.subStatus === 'Open');
    const copart = lots.find((l) => l.platform === 'copart')!;
    const iaai = lots.find((l) => l.platform === 'iaai')!;
    const other = lots.find((l) => l !== copart && l !== iaai)!;
    const byLot = value(await call('watchlist.add', { target: copart.lotNumber }));
    expect(byLot).toMatchObject({ kind: 'lot', lot_key: `copart:${copart.lotNumber}`, vin: copart.v.vin });
    expect((byLot['lot'] as Record<string, unknown>)['title']).toBe(copart.title);
    const byUrl = value(
      await call('watchlist.add', { target: `https://www.iaai.com/VehicleDetail/${iaai.itemId}~US` }),
    );
    expect(byUrl).toMatchObject({ kind: 'lot', lot_key: `iaai:${iaai.lotNumber}` });
    const byVin = value(await call('watchlist.add', { target: other.v.vin, label: 'My truck' }));
    expect(byVin).toMatchObject({ kind: 'vin', vin: other.v.vin, label: 'My truck' });
    expect(await call('watchlist.add', { target: copart.lotNumber })).toMatchObject({
      ok: false,
      error: { code: 'bad_input', fields: { target: expect.any(Array) } },
    });
    expect(await call('watchlist.add', { target: 'hello there' })).toMatchObject({
      ok: false,
      error: { fields: { target: expect.any(Array) } },
    });
    expect(await call('watchlist.add', { target: 'https://example.com/lot/1' })).toMatchObject({
      ok: false,
      error: { fields: { target: expect.any(Array) } },
    });
    expect(await call('watchlist.add', { target: '99999999999' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(value(await call<unknown[]>('watchlist.list'))).toHaveLength(3);
    const rules = await call('watchlist.setRules', {
      id: byLot['id'],
      rules: { remind_minutes_before: [0] },
    });
    expect(rules).toMatchObject({
      ok: false,
      error: { fields: { 'rules.remind_minutes_before.0': expect.any(Array) } },
    });
    expect(
      value(await call('watchlist.setRules', { id: byLot['id'], rules: { bid_above_usd: 5000 } })),
    ).toMatchObject({ rules: { bid_above_usd: 5000 } });
    expect(value(await call('alerts.mute', { lot_key: byLot['lot_key'], muted: true }))).toMatchObject({
      rules: { muted: true },
    });
    expect(
      value(await call('alerts.snooze', { lot_key: byLot['lot_key'], until: START + 3_600_000 })),
    ).toMatchObject({ rules: { snooze_until: START + 3_600_000 } });
    expect(value(await call('watchlist.remove', { id: byLot['id'] }))).toEqual({ ok: true });
  });
});

describe('watching a lot from a link Lotwatch gave out', () => {
  it('adds by the IAAI link of a lot view or calendar event and by a Copart URL without https://', async () => {
    const { call } = await makeCore();
    const lots = sb.market.sorted.filter((l) => l.subStatus === 'Open');
    const copart = lots.find((l) => l.platform === 'copart')!;
    const iaai = lots.find((l) => l.platform === 'iaai')!;
    const byIaai = value(
      await call('watchlist.add', { target: lotPageUrl('iaai', iaai.lotNumber) as string }),
    );
    expect(byIaai).toMatchObject({ kind: 'lot', lot_key: `iaai:${iaai.lotNumber}` });
    const byCopart = value(await call('watchlist.add', { target: `www.copart.com/lot/${copart.lotNumber}` }));
    expect(byCopart).toMatchObject({ kind: 'lot', lot_key: `copart:${copart.lotNumber}` });
    // The same lot by its bare number is already there; a Copart link to an IAAI lot number is not that lot.
    expect(await call('watchlist.add', { target: iaai.lotNumber })).toMatchObject({
      ok: false,
      error: { code: 'bad_input' },
    });
    expect(await call('watchlist.add', { target: `copart.com/lot/${iaai.lotNumber}` })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});

describe('watching the lot the buyer has just opened', () => {
  it('spends no request on a copy read in the last five minutes, and reads an older one again', async () => {
    const { call, clock } = await makeCore();
    const open = sb.market.sorted.filter((l) => l.subStatus === 'Open' && l.platform === 'copart');
    const [a, b] = [open[0]!, open[1]!];
    const sent = async () => value(await call<{ last24h: number }>('requests.list', { limit: 1 })).last24h;

    // The lot page reads the lot; Watch on it a minute later costs nothing and starts from that read.
    value(await call('vehicles.get', { id: a.lotNumber }));
    const readAt = clock.now();
    clock.advanceTo(readAt + 60_000);
    const before = await sent();
    const wa = value(await call('watchlist.add', { target: a.lotNumber, platform: 'copart' }));
    expect(await sent()).toBe(before);
    expect(wa).toMatchObject({
      kind: 'lot',
      lot_key: `copart:${a.lotNumber}`,
      vin: a.v.vin,
      last_checked_at: readAt,
    });
    expect((wa['lot'] as Record<string, unknown>)['title']).toBe(a.title);

    // A copy six minutes old is read again: one request, and the watch starts from the new read.
    value(await call('vehicles.get', { id: b.lotNumber }));
    clock.advanceTo(clock.now() + 6 * 60_000);
    const mid = await sent();
    const wb = value(await call('watchlist.add', { target: b.lotNumber, platform: 'copart' }));
    expect(await sent()).toBe(mid + 1);
    expect(wb).toMatchObject({ lot_key: `copart:${b.lotNumber}`, last_checked_at: clock.now() });

    // The platform is part of what was asked: that number on the other platform is not this lot.
    expect(await call('watchlist.add', { target: open[2]!.lotNumber, platform: 'iaai' })).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: `There is no IAAI lot ${open[2]!.lotNumber}.` },
    });
  });
});

describe('a watch added by lot number', () => {
  it('is named in its alerts by that lot number, not by the VIN it learned', async () => {
    const { call, clock } = await makeCore();
    const lot = sb.market.sorted.find(
      (l) => l.subStatus === 'Open' && l.auctionAt > START + 3_600_000 && l.v.vin,
    )!;
    const w = value(
      await call('watchlist.add', {
        target: lot.lotNumber,
        rules: { kinds: ['status_changed', 'sale_result'] },
      }),
    );
    expect(w).toMatchObject({ kind: 'lot', vin: lot.v.vin });
    const checkAt = sb.market.timeline(lot.lotNumber)!.endAt + 10 * 60_000;
    clock.advanceTo(checkAt);
    sb.advance(checkAt - sb.marketNow());
    value(await call('watchlist.checkNow', { id: w['id'] }));
    const inbox = value(await call<{ alerts: { kind: string; body: string }[] }>('alerts.list'));
    const own = inbox.alerts.filter((a) => a.kind === 'sale_result' || a.kind === 'status_changed');
    expect(own.length).toBeGreaterThan(0);
    for (const a of own) {
      expect(a.body).toContain(`Watch “lot ${lot.lotNumber}”`);
      expect(a.body).not.toContain(lot.v.vin);
    }
  });
});

describe('library, lot detail, alerts inbox', () => {
  it('finds stored lots offline and shows a lot with its timeline', async () => {
    const { call, clock, core } = await makeCore();
    const lot = sb.market.sorted.find((l) => l.subStatus === 'Open' && l.auctionAt > START + 3_600_000)!;
    const w = value(
      await call('watchlist.add', {
        target: lot.lotNumber,
        rules: { kinds: ['status_changed', 'sale_result', 'bid_changed'] },
      }),
    );
    // The sale happens; the watch checks after it.
    const checkAt = sb.market.timeline(lot.lotNumber)!.endAt + 10 * 60_000;
    clock.advanceTo(checkAt);
    sb.advance(checkAt - sb.marketNow());
    value(await call('watchlist.checkNow', { id: w['id'] }));
    const found = value(
      await call<{ lots: { lot_key: string }[]; total: number }>('library.search', {
        q: lot.v.spec.make.toLowerCase(),
      }),
    );
    expect(found.lots.map((l) => l.lot_key)).toContain(`${lot.platform}:${lot.lotNumber}`);
    const byVin = value(
      await call<{ lots: { lot_key: string }[] }>('library.search', { q: lot.v.vin.slice(0, 8) }),
    );
    expect(byVin.lots[0]?.lot_key).toBe(`${lot.platform}:${lot.lotNumber}`);
    // The buyer's search syntax reaches the index: a left-out word drops the lot, OR finds it by either word.
    const make = lot.v.spec.make.toLowerCase();
    const without = value(
      await call<{ lots: { lot_key: string }[] }>('library.search', { q: `${make} -${make}` }),
    );
    expect(without.lots.map((l) => l.lot_key)).not.toContain(`${lot.platform}:${lot.lotNumber}`);
    const either = value(
      await call<{ lots: { lot_key: string }[] }>('library.search', { q: `zzznothing OR ${make}` }),
    );
    expect(either.lots.map((l) => l.lot_key)).toContain(`${lot.platform}:${lot.lotNumber}`);
    const d = value(
      await call<{ timeline: { kind: string }[]; observations: number; watch_id: number }>('lots.get', {
        lot_key: `${lot.platform}:${lot.lotNumber}`,
      }),
    );
    expect(d.timeline.map((c) => c.kind)).toEqual(expect.arrayContaining(['sale_result']));
    expect(d.observations).toBe(2);
    expect(d.watch_id).toBe(w['id']);
    const inbox = value(
      await call<{ alerts: { id: number; kind: string; read: boolean }[]; unread: number }>('alerts.list'),
    );
    expect(inbox.alerts.map((a) => a.kind)).toEqual(expect.arrayContaining(['sale_result']));
    expect(inbox.unread).toBe(inbox.alerts.length);
    const after = value(await call<{ unread: number }>('alerts.markRead', { ids: [inbox.alerts[0]!.id] }));
    expect(after.unread).toBe(inbox.unread - 1);
    expect(
      value(await call<{ alerts: unknown[] }>('alerts.list', { unread_only: true })).alerts,
    ).toHaveLength(inbox.unread - 1);
    expect(await call('lots.get', { lot_key: 'copart:1' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    void core;
  });
});

describe('API key and status', () => {
  it('stores the key encrypted, never returns it, tests it, and explains a rejected key', async () => {
    const { call, core } = await makeCore();
    const KEY = 'sk_live_never_show_me_1234';
    value(await call('settings.update', { demoMode: false, serviceUrl: sb.baseUrl }));
    expect(value(await call('status.get'))).toMatchObject({
      mode: 'live',
      key: { set: false },
      running: false,
    });
    expect(await call('searches.create', { name: 'x', params: {} })).toMatchObject({ ok: true });
    const noKey = await call('searches.runNow', { id: 1 });
    expect(noKey).toMatchObject({
      ok: false,
      error: { code: 'unauthorized', message: expect.stringMatching(/Settings|Demo mode/) },
    });
    value(await call('key.set', { key: KEY }));
    const test = await call('key.test');
    expect(test).toMatchObject({
      ok: false,
      error: { code: 'unauthorized', message: expect.stringMatching(/key/i) },
    });
    expect(value(await call('searches.runNow', { id: 1 }))).toMatchObject({ status: 'error' });
    const inbox = value(await call<{ alerts: { kind: string }[] }>('alerts.list'));
    expect(inbox.alerts.map((a) => a.kind)).toContain('key_rejected');
    value(await call('key.set', { key: DEMO_KEY }));
    expect(value(await call('key.test'))).toMatchObject({ ok: true, usage: expect.any(Object) });
    const status = value(await call('status.get'));
    expect(status).toMatchObject({
      mode: 'live',
      key: { set: true },
      running: true,
      quota: { limit: expect.any(Number) },
    });
    const everything = JSON.stringify([status, await call('settings.get'), await call('app.info'), inbox]);
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(DEMO_KEY);
    value(await call('key.clear'));
    expect(value(await call('status.get'))).toMatchObject({ key: { set: false }, running: false });
    void core;
  });
});

describe('usage of the current key', () => {
  it('counts only the requests sent with the current key, not Demo mode’s from before it, and never stores the key', async () => {
    const { call, core } = await makeCore();
    const lot = sb.market.sorted.find((l) => l.subStatus === 'Open')!;
    value(await call('watchlist.add', { target: lot.lotNumber }));
    const demo = value(await call<{ rows: unknown[]; last24h: number }>('requests.list', { limit: 100 }));
    expect(demo.last24h).toBeGreaterThan(0);
    value(await call('settings.update', { demoMode: false, serviceUrl: sb.baseUrl }));
    value(await call('key.set', { key: DEMO_KEY }));
    value(await call('key.test'));
    const live = value(await call<{ rows: unknown[]; last24h: number }>('requests.list', { limit: 100 }));
    // The log still lists every request; the count is the key's one GET /usage.
    expect(live.rows).toHaveLength(demo.rows.length + 1);
    expect(live.last24h).toBe(1);
    expect(value(await call<{ budget: { spentLast24h: number } }>('status.get')).budget.spentLast24h).toBe(1);
    // Back in Demo mode, Demo's own requests count again, the key's do not.
    value(await call('settings.update', { demoMode: true }));
    expect(value(await call<{ last24h: number }>('requests.list', { limit: 1 })).last24h).toBe(demo.last24h);
    void core;
  });
});

describe('photo cache', () => {
  it('fetches a photo once through the image proxy, then serves it from disk, also offline', async () => {
    const { call } = await makeCore();
    const lot = sb.market.sorted.find((l) => l.subStatus === 'Open')!;
    const w = value(await call<{ lot: { photo: string } }>('watchlist.add', { target: lot.lotNumber }));
    const url = w.lot.photo;
    const first = value(
      await call<{ data_url: string; cached: boolean; content_type: string }>('photos.get', {
        url,
        lot_key: `${lot.platform}:${lot.lotNumber}`,
      }),
    );
    expect(first.cached).toBe(false);
    expect(first.data_url).toMatch(/^data:image\/(jpeg|png|webp);base64,/);
    expect(first.data_url.length).toBeGreaterThan(2000);
    value(await call('settings.update', { demoMode: false })); // no key: the service is out of reach
    const again = value(await call<{ data_url: string; cached: boolean }>('photos.get', { url }));
    expect(again).toMatchObject({ cached: true, data_url: first.data_url });
    const other = await call('photos.get', {
      url: 'https://cs.copart.com/v1/AUTH_svc.pdoc00001/none_hrs.jpg',
    });
    expect(other).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: expect.stringMatching(/not cached/) },
    });
  });
});
