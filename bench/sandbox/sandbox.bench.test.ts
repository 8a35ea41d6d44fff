import { Pool } from 'undici';
import { expect, it } from 'vitest';
import { DEMO_KEY, createSandbox } from '../../src/sandbox/index';

/**
 * Sandbox benchmark: start time and memory with 20,000 lots, and requests per second of GET /vehicles over real HTTP
 * on 127.0.0.1, bounded by time (BENCH_SECONDS, default 4 per scenario) and concurrency (BENCH_CONCURRENCY, default
 * 16). The sandbox answers in its default (real service's) shape.
 */
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 4);
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
const mb = (n: number): string => `${(n / 1048576).toFixed(1)} MB`;

it('sandbox: start, memory, /vehicles req/s', async () => {
  global.gc?.();
  const before = process.memoryUsage();
  const t0 = performance.now();
  const sb = createSandbox({
    seed: 42,
    lots: 20_000,
    speed: 60,
    ratePerSecond: 0,
    quota: { limit: 1e12, periodMs: 864e5 },
  });
  const built = performance.now() - t0;
  const url = await sb.start(0, '127.0.0.1');
  const started = performance.now() - t0;
  global.gc?.();
  const after = process.memoryUsage();
  const pool = new Pool(url, { connections: CONCURRENCY, pipelining: 1 });
  const rows: string[][] = [];
  const firstPage = (await (
    await pool.request({
      path: '/api/v1/vehicle-auction/vehicles',
      method: 'GET',
      headers: { 'x-api-key': DEMO_KEY },
    })
  ).body.json()) as { meta: { next_cursor: string } };
  const scenarios: [string, string][] = [
    ['default (Open, 20/page)', '/api/v1/vehicle-auction/vehicles'],
    ['make+model+year filters', '/api/v1/vehicle-auction/vehicles?make=TOYOTA&model=CAMRY&year_from=2015'],
    ['zip radius 200 mi', '/api/v1/vehicle-auction/vehicles?zip=60601&radius=200'],
    ['page 2 by cursor', `/api/v1/vehicle-auction/vehicles?cursor=${firstPage.meta.next_cursor}`],
    ['selective (rare colour+damage)', '/api/v1/vehicle-auction/vehicles?color=Beige&damage=Chemical'],
  ];
  for (const [name, path] of scenarios) {
    let done = 0;
    let errors = 0;
    const lat: number[] = [];
    const end = performance.now() + SECONDS * 1000;
    const worker = async (): Promise<void> => {
      while (performance.now() < end) {
        const s = performance.now();
        const res = await pool.request({ path, method: 'GET', headers: { 'x-api-key': DEMO_KEY } });
        await res.body.arrayBuffer();
        if (res.statusCode !== 200) errors++;
        lat.push(performance.now() - s);
        done++;
      }
    };
    const s = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const secs = (performance.now() - s) / 1000;
    lat.sort((a, b) => a - b);
    rows.push([
      name,
      String(Math.round(done / secs)),
      (lat[Math.floor(lat.length / 2)] ?? 0).toFixed(1),
      (lat[Math.floor(lat.length * 0.99)] ?? 0).toFixed(1),
      String(errors),
    ]);
  }
  await pool.close();
  await sb.dispose();
  const table = [
    `Sandbox benchmark (${sb.market.lots.length} lots at start, ${sb.shape} shape, ${CONCURRENCY} connections, ${SECONDS} s per scenario, Node ${process.version})`,
    `start: market built in ${built.toFixed(0)} ms, listening after ${started.toFixed(0)} ms`,
    `memory: heap ${mb(after.heapUsed)} (+${mb(after.heapUsed - before.heapUsed)}), rss ${mb(after.rss)} (+${mb(after.rss - before.rss)})`,
    '',
    ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors'].join(' | '),
    ...rows.map((r) => r.join(' | ')),
  ].join('\n');
  console.log(table);
  expect(rows.every((r) => r[4] === '0')).toBe(true);
});
