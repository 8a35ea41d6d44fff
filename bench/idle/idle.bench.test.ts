import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createCore } from '../../src/core/app';
import type { Clock } from '../../src/core/clock';
import { openDatabase } from '../../src/core/db/connection';
import { silentLogger } from '../../src/core/log';
import { FileSecretBox } from '../../src/core/secrets';
import { createSandbox, DEMO_KEY } from '../../src/sandbox/index';
import { tempDir } from '../../tests/helpers/tmp';

/**
 * Idle benchmark: the process's CPU (process.cpuUsage, user + system) over BENCH_IDLE_SECONDS real seconds (default
 * 20) while the watcher has BENCH_IDLE_WATCHES watched lots (default 100) and its daily allowance spent: adding the
 * lots took one request each, over the 20 a day the benchmark allows. The lots sell within the hour and Demo mode's
 * market runs at SPEED x real time (the engine's clock too), so their checks come due during the measurement and
 * wait for the budget. The engine should sleep until a request fits (target under 1 % of a core). Writes
 * bench/results/idle.json.
 */
const SECONDS = Number(process.env['BENCH_IDLE_SECONDS'] ?? 20);
const WATCHES = Number(process.env['BENCH_IDLE_WATCHES'] ?? 100);
const SPEED = 60;

it(`idle: ${WATCHES} watches, spent budget, ${SECONDS} s of CPU`, async () => {
  const t0 = Date.now();
  const m0 = Math.floor(t0 / 60_000) * 60_000;
  const sb = createSandbox({
    seed: 14,
    lots: 3000,
    speed: SPEED,
    startTime: m0,
    marketNow: () => clock.now(),
    ratePerSecond: 0,
  });
  // One market clock for the sandbox and the engine, SPEED x real time (as Demo mode's --demo-speed).
  const clock: Clock = {
    now: () => Math.floor(m0 + (Date.now() - t0) * SPEED),
    setTimeout: (fn, ms) => {
      const h = setTimeout(fn, Math.max(0, ms / SPEED));
      return () => clearTimeout(h);
    },
    speed: SPEED,
  };
  await sb.start(0, '127.0.0.1');
  const t = tempDir();
  const dbPath = join(t.dir, 'lotwatch.sqlite');
  const core = createCore({
    db: openDatabase(dbPath),
    dbPath,
    dataDir: t.dir,
    clock,
    secrets: new FileSecretBox(join(t.dir, 'secret.key')),
    notifier: { notify() {} },
    log: silentLogger,
    shell: 'headless',
    version: 'bench',
    demoService: async () => ({ baseUrl: sb.baseUrl!, apiKey: DEMO_KEY, ratePerSecond: 1e9 }),
    demoExamples: false,
  });
  try {
    await core.ready;
    await core.call('settings.update', { requestsPerDay: 20 });
    const now = clock.now();
    const lots = sb.market.sorted
      .filter((l) => l.subStatus === 'Open' && l.auctionAt > now + 12 * 60_000)
      .slice(0, WATCHES);
    for (const l of lots) await core.call('watchlist.add', { target: l.lotNumber });
    await core.engine.idle();
    const spent = (await core.call('status.get', undefined)).budget;
    // Let the adds' own work settle and the first checks come due (10 market minutes), then measure.
    await new Promise((r) => setTimeout(r, 10_000));
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    const cpu = process.cpuUsage(cpu0);
    const wallUs = Number(process.hrtime.bigint() - t0) / 1000;
    const percent = ((cpu.user + cpu.system) / wallUs) * 100;
    const requestsDuring =
      (await core.call('status.get', undefined)).budget.spentLast24h - spent.spentLast24h;
    console.log(
      `idle benchmark: ${lots.length} watches (sales in ${((lots.at(-1)!.auctionAt - now) / 60_000).toFixed(0)} market min), budget ${spent.spentLast24h}/${spent.allowedPerDay} spent, ${SECONDS} s: ` +
        `CPU ${percent.toFixed(2)} % of a core (user ${(cpu.user / 1000).toFixed(0)} ms, system ${(cpu.system / 1000).toFixed(0)} ms), ` +
        `${requestsDuring} requests sent`,
    );
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(
      'bench/results/idle.json',
      JSON.stringify(
        {
          watches: lots.length,
          seconds: SECONDS,
          cpu_percent: percent,
          user_ms: cpu.user / 1000,
          system_ms: cpu.system / 1000,
          requests_during: requestsDuring,
        },
        null,
        2,
      ),
    );
    expect(requestsDuring).toBe(0);
  } finally {
    await core.dispose();
    await sb.dispose();
    t.cleanup();
  }
});
