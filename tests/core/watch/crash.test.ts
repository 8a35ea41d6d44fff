import BetterSqlite3 from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, DEMO_KEY, type Sandbox } from '../../../src/sandbox/index';
import { tempDir } from '../../helpers/tmp';

// Crash safety (docs/architecture.md "An alert, from poll to notification"): kill -9 of a child process running the
// engine at random points, 20 cycles; nothing is lost and nothing repeats. The child runs on a market clock shared
// through the wall clock with the sandbox here, at SPEED x real time, so each cycle covers market minutes in which
// lots go live and end. A seeded generator picks the kill points, so a failure can be replayed.

const SPEED = 600;
const CYCLES = 20;
const START = Date.UTC(2026, 5, 1, 9, 0, 0);
const MIN = 60_000;

let sb: Sandbox;
let dir: { dir: string; cleanup(): void };
let childJs: string;
let wallStart: number;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function startChild(): Promise<ChildProcess> {
  return new Promise((res, rej) => {
    const p = spawn(process.execPath, [childJs, dir.dir, sb.baseUrl!, DEMO_KEY, String(START), String(wallStart), String(SPEED)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    p.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    p.stdout?.on('data', (c: Buffer) => {
      if (c.toString().includes('ready')) res(p);
    });
    p.on('exit', (code, sig) => {
      if (sig !== 'SIGKILL' && code !== 0) rej(new Error(`child exited ${code}: ${err}`));
    });
  });
}

const killed = (p: ChildProcess) =>
  new Promise<void>((r) => {
    if (p.exitCode !== null || p.signalCode !== null) return r();
    p.once('exit', () => r());
    p.kill('SIGKILL');
  });

beforeAll(async () => {
  dir = tempDir('lotwatch-crash-');
  // Inside the project, so the bundle's bare imports (zod, undici, better-sqlite3) resolve from node_modules.
  const out = resolve('node_modules/.cache/lotwatch-test', `crash-${process.pid}`);
  await build({
    logLevel: 'silent',
    configFile: false,
    build: {
      ssr: resolve('tests/core/watch/crash/child.ts'),
      outDir: out,
      emptyOutDir: true,
      rollupOptions: { output: { format: 'es', entryFileNames: 'child.mjs' } },
    },
    ssr: { noExternal: [] },
  });
  childJs = join(out, 'child.mjs');
  wallStart = Date.now();
  sb = createSandbox({ seed: 99, lots: 6000, startTime: START, speed: SPEED, now: () => Date.now() - 0, ratePerSecond: 0 });
  // The sandbox's market clock must equal the child's: START + (wall - wallStart) * SPEED.
  await sb.start(0, '127.0.0.1');
  sb.advance(START + (Date.now() - wallStart) * SPEED - sb.marketNow());
}, 60_000);

afterAll(async () => {
  await sb?.dispose();
  dir?.cleanup();
});

describe('crash and restart (kill -9, 20 cycles)', () => {
  it('loses no observation or alert and shows no alert twice', async () => {
    // Watch the lots that sell in the first two market hours (they go live and end during the cycles).
    const m = sb.market;
    const lots = m.sorted.filter((l) => l.subStatus === 'Open' && l.auctionAt > START + 30 * MIN && l.auctionAt < START + 150 * MIN).slice(0, 8);
    expect(lots.length).toBeGreaterThanOrEqual(4);
    let child = await startChild();
    const add = async (lotNumber: string) => {
      const db = new BetterSqlite3(join(dir.dir, 'lotwatch.sqlite'));
      try {
        db.prepare(
          `INSERT INTO watches (kind, vin, lot_key, label, rules, is_example, created_at, updated_at)
           VALUES ('lot', NULL, ?, '', '{}', 0, 0, 0)`,
        ).run(`${lots.find((l) => l.lotNumber === lotNumber)!.platform}:${lotNumber}`);
      } finally {
        db.close();
      }
    };
    for (const l of lots) await add(l.lotNumber);
    // A saved search that runs every market minute over several pages, so kills also land inside search runs.
    const pick = lots[0]!;
    const db0 = new BetterSqlite3(join(dir.dir, 'lotwatch.sqlite'));
    db0.prepare(
      `INSERT INTO saved_searches (name, params, schedule, rules, max_pages, created_at, updated_at)
       VALUES ('crash', ?, '* * * * *', '{"kinds":["new_match"]}', 3, 0, 0)`,
    ).run(JSON.stringify({ make: pick.v.spec.make }));
    db0.close();
    await killed(child);
    // Slow answers, so that a kill often lands while a poll waits on the service.
    sb.faults.set({ latencyMs: 60, latencyJitterMs: 120 });

    const next = rng(20261122);
    for (let i = 0; i < CYCLES; i++) {
      child = await startChild();
      await new Promise((r) => setTimeout(r, 150 + next() * 900));
      await killed(child);
    }
    // One last run without a kill, long enough for every due poll and delivery, then an orderly stop.
    child = await startChild();
    await new Promise((r) => setTimeout(r, 2500));
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));

    const marketEnd = sb.marketNow();
    const db = new BetterSqlite3(join(dir.dir, 'lotwatch.sqlite'), { readonly: true });
    const alerts = db.prepare('SELECT id, dedup_key, kind, lot_key, status FROM alerts').all() as { id: number; dedup_key: string; kind: string; lot_key: string; status: string }[];
    const runs = db.prepare("SELECT count(*) AS n FROM poll_runs WHERE status = 'interrupted'").get() as { n: number };
    db.close();
    const shown = existsSync(join(dir.dir, 'notified.log'))
      ? readFileSync(join(dir.dir, 'notified.log'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { title: string; body: string; lotKey?: string })
      : [];

    // Nothing repeats: no notification twice (same lot, title and body), no alert stored twice for one change.
    const keys = shown.map((n) => `${n.lotKey}|${n.title}|${n.body}`);
    expect(new Set(keys).size, 'a notification was shown twice').toBe(keys.length);
    const perChange = alerts.map((a) => a.dedup_key);
    expect(new Set(perChange).size).toBe(perChange.length);
    const matches = alerts.filter((a) => a.kind === 'new_match').map((a) => a.lot_key);
    expect(new Set(matches).size, 'a new match was alerted twice').toBe(matches.length);
    // The kills did land inside polls (otherwise this test would prove nothing).
    expect(runs.n).toBeGreaterThan(0);

    // Nothing is lost: every end of a watched lot that Lotwatch had seen open, and that happened before the last
    // run's polls, is in the inbox exactly once. (A lot first fetched after its sale has no change to report.)
    const db2 = new BetterSqlite3(join(dir.dir, 'lotwatch.sqlite'), { readonly: true });
    const firstSeen = (k: string) =>
      (db2.prepare('SELECT min(observed_at) AS t FROM observations WHERE lot_key = ?').get(k) as { t: number | null }).t;
    const ended = lots.filter((l) => {
      const t = firstSeen(`${l.platform}:${l.lotNumber}`);
      return l.subStatus === 'Ended' && l.auctionAt + 10 * MIN < marketEnd && t !== null && t < l.auctionAt;
    });
    db2.close();
    expect(ended.length).toBeGreaterThanOrEqual(3);
    for (const l of ended) {
      const k = `${l.platform}:${l.lotNumber}`;
      expect(alerts.filter((a) => a.kind === 'sale_result' && a.lot_key === k), `sale result of ${k}`).toHaveLength(1);
    }
    // Every alert that was due to be shown was shown or claimed (none left pending after the orderly run).
    expect(alerts.filter((a) => a.status === 'pending')).toEqual([]);
    console.log(`[crash] ${CYCLES} kills, ${runs.n} polls interrupted, ${alerts.length} alerts, ${shown.length} shown`);
  }, 120_000);
});
