import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/core/api';
import { clientClockOf, FakeClock } from '../helpers/fakeClock';
import { goLive, makeCore } from '../helpers/core';
import { recordingLog } from '../helpers/log';
import { listen } from '../helpers/receivers';

// A service that sends absurd records, absurd waits, mislabelled bodies and raw database text, over real HTTP
// (node:http on loopback, the real undici client, a real SQLite file): one bad record costs only itself, a wait is
// never longer than the plan's period, the key never leaves core whatever the label, and a 500's text goes to the log,
// never to the buyer.

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

const KEY = 'sk_live_hostile_records_4711';
/** The fake clock's start (tests/helpers/fakeClock.ts) and the plan period around it. */
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const PERIOD_START = Date.UTC(2026, 10, 1);
const PERIOD_END = Date.UTC(2026, 11, 1);
const DAY = 86_400_000;

type Handler = (path: string, req: IncomingMessage, res: ServerResponse) => void;

async function serve(handler: Handler): Promise<string> {
  const server = await listen((req, res) => handler(new URL(req.url ?? '/', 'http://x').pathname, req, res));
  open.push(server.close);
  return `http://127.0.0.1:${server.port}/api/v1/vehicle-auction`;
}

/** The real service's quota headers: a Basic plan with most of its period's requests left. */
const QUOTA_HEADERS = {
  'X-Subscription-Limit': '30000',
  'X-Subscription-Used': '100',
  'X-Subscription-Remaining': '29900',
  'X-Subscription-Period-Start': new Date(PERIOD_START).toISOString(),
  'X-Subscription-Period-End': new Date(PERIOD_END).toISOString(),
  'X-RateLimit-Limit': '1000',
};

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...QUOTA_HEADERS, ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** A sane open Copart lot selling in two days. */
function lot(lotNumber: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    platform: 'copart',
    lot_number: lotNumber,
    vin: `1HGCM82633A${String(lotNumber).slice(-6).padStart(6, '0')}`,
    title: '2019 HONDA CIVIC',
    year: 2019,
    make: 'HONDA',
    model: 'CIVIC',
    odometer: { mi: 40123, km: 64572 },
    auction: { state: 'open', auction_at: new Date(NOW + 2 * DAY).toISOString() },
    pricing: { current_bid_usd: 1500, buy_now_usd: 0 },
    ...extra,
  };
}

const page = (records: unknown[]) => ({
  ok: true,
  data: records,
  meta: { next_cursor: null, prev_cursor: null, per_page: 20 },
});

/** A core on fake time over a real SQLite file, in live mode against `base` with KEY; its log lines are kept. */
async function liveCore(base: string) {
  const log = recordingLog();
  const t = makeCore({
    autoStart: false,
    demoExamples: false,
    clientClock: clientClockOf(new FakeClock(NOW)),
    log,
  });
  open.push(() => t.cleanup());
  await t.core.ready;
  await goLive(t, { baseUrl: base, key: KEY });
  const db = new Database(t.dbPath, { readonly: true });
  open.push(async () => void db.close());
  return { ...t, lines: log.lines, db };
}

describe('a record with numbers out of any range', () => {
  it('year 1e308 costs its year only: search, saved search run and watch check succeed and store the page', async () => {
    // The service writes 1e308 as a JSON number; the good records around it must be stored all the same.
    const bad = JSON.stringify(lot('20000002')).replace('"year":2019', '"year":1e308');
    const body = `{"ok":true,"data":[${JSON.stringify(lot('20000001'))},${bad},${JSON.stringify(lot('20000003'))}],"meta":{"next_cursor":null,"prev_cursor":null,"per_page":20}}`;
    const base = await serve((path, _req, res) => {
      if (path.endsWith('/vehicles')) return json(res, 200, body);
      if (path.endsWith('/vehicles/20000002')) return json(res, 200, `{"ok":true,"data":${bad}}`);
      json(res, 404, { message: 'Not found' });
    });
    const { core, db } = await liveCore(base);

    const search = await core.call('vehicles.search', { params: { make: 'HONDA' } });
    expect(search.lots.map((l) => l.lot_number)).toEqual(['20000001', '20000002', '20000003']);
    expect(search.lots[1]?.year).toBeNull();
    const years = db.prepare('SELECT lot_number, year FROM lots ORDER BY lot_number').all();
    expect(years).toEqual([
      { lot_number: '20000001', year: 2019 },
      { lot_number: '20000002', year: null },
      { lot_number: '20000003', year: 2019 },
    ]);

    const s = await core.call('searches.create', { name: 'Hondas', params: { make: 'HONDA' }, max_pages: 1 });
    const run = await core.invoke('searches.runNow', { id: s.id });
    expect(run).toMatchObject({ ok: true, value: { status: 'ok', requests: 1, error: null } });

    const w = await core.call('watchlist.add', { target: '20000002' });
    const check = await core.invoke('watchlist.checkNow', { id: w.id });
    expect(check).toMatchObject({ ok: true, value: { status: 'ok', error: null } });

    const runs = db.prepare('SELECT target, status, records FROM poll_runs ORDER BY id').all();
    expect(runs).toEqual([
      { target: `search:${s.id}`, status: 'ok', records: 3 },
      { target: `watch:${w.id}`, status: 'ok', records: 1 },
    ]);
  });

  it('odometer, prices and engine out of range, negative or Infinity are null; the lot is stored', async () => {
    const wild = JSON.stringify(
      lot('30000001', {
        odometer: { mi: 99_000_000 },
        pricing: { current_bid_usd: -5, buy_now_usd: 12_000_000_000, last_sold_price_usd: 'x' },
        vehicle_specs: { engine: { size_l: '1e999', hp: -300 } },
      }),
    ).replace('"current_bid_usd":-5', '"current_bid_usd":1e999');
    const base = await serve((path, _req, res) => {
      if (path.endsWith('/vehicles')) return json(res, 200, `{"ok":true,"data":[${wild}],"meta":null}`);
      json(res, 404, { message: 'Not found' });
    });
    const { core, db } = await liveCore(base);
    const search = await core.invoke('vehicles.search', { params: {} });
    expect(search).toMatchObject({ ok: true });
    const row = db.prepare('SELECT current_bid_usd, buy_now_usd, normalized FROM lots').get() as {
      current_bid_usd: number | null;
      buy_now_usd: number | null;
      normalized: string;
    };
    expect(row.current_bid_usd).toBeNull();
    expect(row.buy_now_usd).toBeNull();
    const n = JSON.parse(row.normalized) as { odometer: unknown; engine: { size_l: unknown; hp: unknown } };
    expect(n.odometer).toBeNull();
    expect(n.engine).toMatchObject({ size_l: null, hp: null });
  });
});

describe('a run that fails while storing', () => {
  it('ends its run row as failed with the reason, for a saved search run and a watch check alike', async () => {
    const base = await serve((path, _req, res) => {
      if (path.endsWith('/vehicles')) return json(res, 200, page([lot('70000001')]));
      if (path.endsWith('/vehicles/70000001')) return json(res, 200, { ok: true, data: lot('70000001') });
      json(res, 404, { message: 'Not found' });
    });
    const { core, dbPath, db } = await liveCore(base);
    const s = await core.call('searches.create', { name: 'Hondas', params: { make: 'HONDA' }, max_pages: 1 });
    const w = await core.call('watchlist.add', { target: '70000001' });
    // A real SQLite failure inside the run's one transaction, after its run row was written.
    const writer = new Database(dbPath);
    // Every run writes the lot it read (its record, or the time it was seen unchanged), so refusing that fails both.
    writer.exec(`
      CREATE TRIGGER refuse_new BEFORE INSERT ON lots BEGIN SELECT RAISE(ABORT, 'refused by test'); END;
      CREATE TRIGGER refuse_seen BEFORE UPDATE ON lots BEGIN SELECT RAISE(ABORT, 'refused by test'); END;
    `);
    writer.close();

    const run = await core.invoke('searches.runNow', { id: s.id });
    expect(run).toMatchObject({ ok: false });
    const check = await core.invoke('watchlist.checkNow', { id: w.id });
    expect(check).toMatchObject({ ok: false });
    const runs = db
      .prepare('SELECT target, status, finished_at, error_code, error_message FROM poll_runs ORDER BY id')
      .all();
    expect(runs).toEqual([
      {
        target: `search:${s.id}`,
        status: 'error',
        finished_at: NOW,
        error_code: 'internal',
        error_message: 'refused by test',
      },
      {
        target: `watch:${w.id}`,
        status: 'error',
        finished_at: NOW,
        error_code: 'internal',
        error_message: 'refused by test',
      },
    ]);
  });
});

describe('a record whose lot number is not a lot number', () => {
  it('lot_number 1e308 is skipped and counted, a numeric 12345678 is stored as its digits, the rest of the page stored', async () => {
    const body = `{"ok":true,"data":[${JSON.stringify(lot('40000001'))},${JSON.stringify(lot(1, { vin: '1HGCM82633A999999' })).replace('"lot_number":1', '"lot_number":1e308')},${JSON.stringify(lot(12345678))}],"meta":null}`;
    const base = await serve((path, _req, res) => {
      if (path.endsWith('/vehicles')) return json(res, 200, body);
      json(res, 404, { message: 'Not found' });
    });
    const { core, db, lines } = await liveCore(base);
    const search = await core.call('vehicles.search', { params: {} });
    expect(search.skipped).toBe(1);
    expect(search.lots.map((l) => l.lot_number)).toEqual(['40000001', '12345678']);
    expect(search.warnings).toContain('data[1].lot_number: 1e+308 is not a lot number (1 to 12 digits)');
    expect(search.warnings).toContain('data[1]: record skipped: no lot number Lotwatch can store');
    const stored = db.prepare('SELECT lot_key, lot_number FROM lots ORDER BY lot_key').all();
    expect(stored).toEqual([
      { lot_key: 'copart:12345678', lot_number: '12345678' },
      { lot_key: 'copart:40000001', lot_number: '40000001' },
    ]);
    const sv = await core.call('searches.create', { name: 'All', params: {}, max_pages: 1 });
    expect(await core.call('searches.runNow', { id: sv.id })).toMatchObject({ status: 'ok', skipped: 1 });
    expect(lines.find((l) => l.msg === 'api: records skipped')).toMatchObject({
      level: 'warn',
      data: {
        endpoint: '/vehicles',
        skipped: 1,
        records: expect.arrayContaining(['data[1]: record skipped: no lot number Lotwatch can store']),
      },
    });
  });

  it('a watch whose check answers lot_number 1e308 keeps its lot; the next sane answer is checked as usual', async () => {
    let hostile = false;
    const base = await serve((path, _req, res) => {
      if (!path.endsWith('/vehicles/50000001')) return json(res, 404, { message: 'Not found' });
      if (!hostile) return json(res, 200, { ok: true, data: lot('50000001') });
      json(
        res,
        200,
        `{"ok":true,"data":${JSON.stringify(lot(1)).replace('"lot_number":1', '"lot_number":1e308')}}`,
      );
    });
    const { core, db } = await liveCore(base);
    const w = await core.call('watchlist.add', { target: '50000001' });
    expect(w.lot_key).toBe('copart:50000001');

    hostile = true;
    const bad = await core.invoke('watchlist.checkNow', { id: w.id });
    expect(bad).toMatchObject({ ok: true, value: { status: 'error', error: { code: 'bad_response' } } });
    expect(db.prepare('SELECT lot_key FROM watches').all()).toEqual([{ lot_key: 'copart:50000001' }]);
    expect(db.prepare("SELECT count(*) AS n FROM lots WHERE lot_number NOT GLOB '[0-9]*'").get()).toEqual({
      n: 0,
    });

    hostile = false;
    const good = await core.invoke('watchlist.checkNow', { id: w.id });
    expect(good).toMatchObject({ ok: true, value: { status: 'ok', error: null } });
    expect(db.prepare("SELECT count(*) AS n FROM poll_runs WHERE status = 'running'").get()).toEqual({
      n: 0,
    });
  });
});

describe('a Retry-After of 9,999,999,999 seconds', () => {
  const tooMany = async (periodHeaders: boolean) =>
    serve((_path, _req, res) => {
      const headers: Record<string, string> = {
        'Content-Type': 'application/json',
        'Retry-After': '9999999999',
      };
      res.writeHead(429, periodHeaders ? { ...QUOTA_HEADERS, ...headers } : headers);
      res.end(JSON.stringify({ ok: false, message: 'Too Many Attempts.' }));
    });

  it('pauses polling until the plan period ends, and every sentence says the date with its year', async () => {
    const { core } = await liveCore(await tooMany(true));
    const s = await core.call('searches.create', { name: 'Hondas', params: { make: 'HONDA' }, max_pages: 1 });
    const run = await core.call('searches.runNow', { id: s.id });
    expect(run).toMatchObject({ status: 'error', error: { code: 'rate_limited' } });
    expect(run.error?.message).toContain('1 December 2026');
    const status = await core.call('status.get', undefined);
    expect(status.paused_until).toBe(PERIOD_END);
    expect(status.pause_reason).toContain('1 December 2026');
    expect(status.pause_reason).not.toMatch(/2343/);
  });

  it('without a known period end, pauses at most 35 days', async () => {
    const { core } = await liveCore(await tooMany(false));
    const s = await core.call('searches.create', { name: 'Hondas', params: { make: 'HONDA' }, max_pages: 1 });
    const run = await core.call('searches.runNow', { id: s.id });
    expect(run.error?.code).toBe('rate_limited');
    const status = await core.call('status.get', undefined);
    expect(status.paused_until).toBe(NOW + 35 * DAY);
    expect(status.pause_reason).toContain('27 December 2026');
  });
});

describe('a JSON body labelled image/png that echoes the key', () => {
  it('is redacted like any text: no key in the answers, the stored rows, the data files or the log', async () => {
    const base = await serve((path, req, res) => {
      const key = String(req.headers['x-api-key'] ?? '');
      res.writeHead(200, { ...QUOTA_HEADERS, 'Content-Type': 'image/png' });
      if (path.endsWith('/usage')) return res.end(JSON.stringify({ data: { plan: 'basic', your_key: key } }));
      res.end(JSON.stringify(page([lot('60000001', { title: `2019 HONDA CIVIC ${key}`, model: key })])));
    });
    const { core, dir, db, lines } = await liveCore(base);
    const answers = [
      await core.invoke('usage.fetch', undefined),
      await core.invoke('console.call', { name: 'GET /usage' }),
      await core.invoke('console.call', { name: 'GET /vehicles', query: { make: 'HONDA' } }),
      await core.invoke('vehicles.search', { params: { make: 'HONDA' } }),
      await core.invoke('lots.get', { lot_key: 'copart:60000001' }),
    ];
    expect(answers.map((a) => a.ok)).toEqual([true, true, true, true, true]);
    const text = JSON.stringify(answers);
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(KEY);
    expect(JSON.stringify(lines)).not.toContain(KEY);
    const stored = db.prepare('SELECT raw, normalized, title FROM lots').all();
    expect(JSON.stringify(stored)).toContain('[redacted]');
    expect(JSON.stringify(stored)).not.toContain(KEY);
    for (const f of readdirSync(dir)) {
      if (!/sqlite/.test(f)) continue;
      expect(readFileSync(join(dir, f)).includes(KEY), f).toBe(false);
    }
  });
});

describe('image bytes', () => {
  it('a real PNG reaches the caller byte for byte, even when it happens to hold the key; a JSON "image" does not', async () => {
    // A PNG signature, an IHDR chunk and a tEXt chunk that carries the key's bytes.
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0', 'latin1'),
      Buffer.from(`tEXtComment\0${KEY}`, 'latin1'),
    ]);
    const base = await serve((_path, req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end(req.url?.includes('fake') ? JSON.stringify({ echoed: KEY }) : png);
    });
    const c = createApiClient({ baseUrl: base, apiKey: () => KEY, clock: clientClockOf(new FakeClock(NOW)) });
    open.push(() => c.close());
    const real = await c.fetchImage('https://cs.copart.com/v1/AUTH_svc.pdoc00001/a/b_hrs.jpg');
    expect(Buffer.from(real.bytes).equals(png)).toBe(true);
    const fake = await c.fetchImage('https://cs.copart.com/v1/AUTH_svc.pdoc00001/fake/b_hrs.jpg');
    expect(Buffer.from(fake.bytes).toString('utf8')).toBe('{"echoed":"[redacted]"}');
  });
});

describe('a 500 whose body is raw database text', () => {
  it('tells the buyer the status in plain words; the text, without the key, goes to the log only', async () => {
    const sql =
      'SQLSTATE[HY000] [2002] Connection refused (Connection: mysql, SQL: select * from `vehicles` where `make` = HONDA and key = ' +
      `${KEY} limit 21)`;
    const base = await serve((_path, _req, res) => json(res, 500, { message: sql }));
    const { core, lines } = await liveCore(base);
    const r = await core.invoke('vehicles.search', { params: { make: 'HONDA' } });
    expect(r).toMatchObject({ ok: false, error: { code: 'server' } });
    if (!r.ok) {
      expect(r.error.message).toBe('The auction data service had an internal error (HTTP 500).');
      expect(r.error.message).not.toMatch(/SQL|select|Connection/);
    }
    const c = await core.invoke('console.call', { name: 'GET /vehicles', query: { make: 'HONDA' } });
    expect(JSON.stringify(c)).not.toMatch(/SQLSTATE|select \*/);
    const logged = lines.filter((l) => l.msg === 'api: service error');
    expect(logged.length).toBeGreaterThan(0);
    expect(logged[0]).toMatchObject({ level: 'warn', data: { endpoint: '/vehicles', status: 500 } });
    expect(JSON.stringify(logged[0]!.data)).toContain('SQLSTATE[HY000] [2002]');
    expect(JSON.stringify(lines)).not.toContain(KEY);
  });
});
