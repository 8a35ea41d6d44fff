import BetterSqlite3 from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  ftruncateSync,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statfsSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Clock } from '../../src/core/clock';
import { createLogger } from '../../src/core/log';
import { createSandbox, DEMO_KEY, type Sandbox } from '../../src/sandbox/index';
import { makeCore, type Core } from '../helpers/core';

// Chaos: the disk fills up under a running core (docs/architecture.md "Data safety"). The data folder sits on a
// small tmpfs (32 MB); a filler file takes all but 1 MB of it, and a saved search that stores 400 lots a market
// minute fills the rest. The core runs against the sandbox over real HTTP on an accelerated clock (SPEED x real time), so its
// loop really runs. While the disk is full: nothing crashes, the log stays quiet (a line a failed poll at most, not
// a line a millisecond), what the user is told says the disk is full (not that the internet is down), and the
// service is not called unreachable. Then the filler is deleted: polling resumes by itself and the file passes
// `PRAGMA integrity_check`.
//
// A tmpfs needs `mount`, so root on Linux. Elsewhere this case says why it cannot run and passes with nothing
// checked; LOTWATCH_CHAOS_REQUIRE_TMPFS=1 makes that a failure instead (for a machine known to have it).

const SPEED = 120;
const START = Date.UTC(2026, 5, 1, 14, 0, 0);
/** How long the disk stays full while the core runs (ms of wall time; SPEED x that in market time). */
const FULL_MS = 4_000;
/**
 * The most log lines while the disk is full: one for the failed tick (the loop then backs off), one per call the
 * test itself makes, and a little room; before the backoff it was over 1,000 lines a second.
 */
const MAX_LINES = 10;
/** What a message about the disk says, and what it must not say. */
const DISK_WORDS = /disk|space|storage/i;
const NETWORK_WORDS = /internet|network|offline|connection|reach/i;

const mounted: string[] = [];
afterAll(() => {
  for (const m of mounted) {
    try {
      execFileSync('umount', [m]);
    } catch {
      execFileSync('umount', ['-l', m]);
    }
    rmSync(m, { recursive: true, force: true });
  }
});

/** Mounts a tmpfs of `mb` MB; returns its path, or why it cannot (not Linux, not root, mount refused). */
function tmpfs(mb: number): { path: string } | { unavailable: string } {
  if (process.platform !== 'linux') return { unavailable: `tmpfs needs Linux; this is ${process.platform}` };
  if (process.getuid?.() !== 0)
    return { unavailable: 'mount -t tmpfs needs root; run `sudo npm run test:chaos`' };
  const path = mkdtempSync(join(tmpdir(), 'lotwatch-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mb}m`, 'tmpfs', path], { stdio: 'pipe' });
  } catch (e) {
    rmSync(path, { recursive: true, force: true });
    return {
      unavailable: `mount -t tmpfs was refused: ${String((e as { stderr?: Buffer }).stderr ?? e).trim()}`,
    };
  }
  mounted.push(path);
  return { path };
}

const free = (path: string) => {
  const s = statfsSync(path);
  return s.bavail * s.bsize;
};

/** Writes zeros to `file` until the file system says ENOSPC; returns its size. */
function fill(file: string): number {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) {
      try {
        writeSync(fd, chunk);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOSPC') break;
        throw e;
      }
    }
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}

/** Resolves once `cond` holds, checking every 50 ms, or rejects after `ms` naming `what`. */
async function until(cond: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('disk full (tmpfs)', () => {
  it('stays up and quiet, says the disk is full, and resumes with a sound file once space is freed', async () => {
    const fs = tmpfs(32);
    if ('unavailable' in fs) {
      console.log(`[chaos] disk-full case NOT AVAILABLE on this machine: ${fs.unavailable}`);
      expect(
        process.env.LOTWATCH_CHAOS_REQUIRE_TMPFS,
        `disk-full case required but ${fs.unavailable}`,
      ).not.toBe('1');
      return;
    }
    const dataDir = join(fs.path, 'data');
    mkdirSync(dataDir);
    const wallStart = Date.now();
    const sb: Sandbox = createSandbox({
      seed: 5,
      lots: 4000,
      startTime: START,
      speed: SPEED,
      now: () => Date.now(),
      ratePerSecond: 0,
    });
    await sb.start(0, '127.0.0.1');
    sb.advance(START + (Date.now() - wallStart) * SPEED - sb.marketNow());
    const clock: Clock = {
      now: () => Math.floor(START + (Date.now() - wallStart) * SPEED),
      speed: SPEED,
      setTimeout: (fn, ms) => {
        const t = setTimeout(fn, Math.max(0, ms / SPEED));
        return () => clearTimeout(t);
      },
    };
    // Every line the core writes at the shells' level (info): its logger's, and what libraries print to the console
    // (node-cron does).
    const lines: { at: number; line: string }[] = [];
    const log = createLogger({ level: 'info', write: (line) => lines.push({ at: Date.now(), line }) });
    const consoleSpies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((k) =>
      vi
        .spyOn(console, k)
        .mockImplementation(
          (...a: unknown[]) =>
            void lines.push({ at: Date.now(), line: `console.${k}: ${a.map(String).join(' ')}` }),
        ),
    );
    const say = (text: string) => process.stdout.write(`${text}\n`);
    const { core: started, dbPath } = makeCore({
      dir: dataDir,
      clock,
      // The network is not accelerated: the client's timeouts and backoff wait in real time.
      clientClock: {
        now: clock.now,
        setTimeout: (fn, ms) => {
          const t = setTimeout(fn, ms);
          return () => clearTimeout(t);
        },
      },
      log,
      version: 'chaos',
      demoService: async () => ({ baseUrl: sb.baseUrl!, apiKey: DEMO_KEY, ratePerSecond: 1e6 }),
      tzOffsetMinutes: () => 0,
      demoExamples: false,
    });
    let core: Core | null = started;
    try {
      await core.ready;
      // 20 pages of 20 lots every market minute: hundreds of observations a minute.
      const search = await core.call('searches.create', {
        name: 'fill',
        params: {},
        schedule: '* * * * *',
        max_pages: 20,
      });
      const first = await core.call('searches.runNow', { id: search.id });
      expect(first.status).toBe('ok');
      // And three watched lots, checked on their own schedule.
      const page = await core.call('vehicles.search', { params: { per_page: 3 } });
      for (const l of page.lots) await core.call('watchlist.add', { target: l.lot_number, label: 'full' });

      // Leave 1 MB free, then let the searches fill it.
      const filler = join(fs.path, 'filler');
      const size = fill(filler);
      const fd = openSync(filler, 'r+');
      ftruncateSync(fd, size - 1024 * 1024);
      closeSync(fd);
      const freedAt = Date.now();
      await until(
        () => free(fs.path) < 64 * 1024 && lines.some((l) => l.at > freedAt),
        60_000,
        'the disk to fill up',
      );
      const fullAt = Date.now();
      say(`[chaos] disk full after ${fullAt - freedAt} ms (${free(fs.path)} bytes left)`);
      await new Promise((r) => setTimeout(r, FULL_MS));

      // What the user is told while the disk is full.
      const run = await core.invoke('searches.runNow', { id: search.id });
      const update = await core.invoke('settings.update', { theme: 'dark' });
      const status = await core.invoke('status.get', undefined);
      const during = lines.filter((l) => l.at >= fullAt).length;
      const kinds = new Map<string, number>();
      for (const l of lines.filter((x) => x.at >= fullAt)) {
        const k = l.line
          .replace(/"t":"[^"]*",?/, '')
          .replace(/\d+/g, 'N')
          .slice(0, 160);
        kinds.set(k, (kinds.get(k) ?? 0) + 1);
      }
      say(
        `[chaos] ${during} log lines in ${Date.now() - fullAt} ms of full disk (limit ${MAX_LINES}), by kind:`,
      );
      for (const [k, n] of kinds) say(`    ${n} x ${k}`);
      say(`[chaos] searches.runNow while full: ${JSON.stringify(run).slice(0, 400)}`);
      say(`[chaos] settings.update while full: ${JSON.stringify(update).slice(0, 400)}`);
      say(`[chaos] status.get while full: ${JSON.stringify(status).slice(0, 1200)}`);

      // Freed: polling resumes by itself, and nothing is lost or broken.
      rmSync(filler);
      const resumedFrom = clock.now();
      await until(
        async () => {
          const s = (await core!.call('searches.list', undefined)).find((x) => x.id === search.id);
          return s?.last_ok_at != null && s.last_ok_at > resumedFrom;
        },
        30_000,
        'a poll to succeed after the space was freed',
      );
      // What the user finds afterwards: the inbox and the search's last error.
      const inbox = (await core.call('alerts.list', { limit: 500 })).alerts.map(
        (a) => `${a.title}: ${a.body}`,
      );
      const lastError =
        (await core.call('searches.list', undefined)).find((x) => x.id === search.id)?.last_error ?? '';
      say(
        `[chaos] inbox after: ${JSON.stringify(inbox).slice(0, 600)}; the search's last error: ${JSON.stringify(lastError)}`,
      );
      await core.dispose();
      core = null;
      const db = new BetterSqlite3(dbPath, { readonly: true });
      const integrity = db.pragma('integrity_check', { simple: true });
      db.close();

      // The checks, after every number was printed.
      expect(integrity).toBe('ok');
      expect(during, 'log lines while the disk was full').toBeLessThan(MAX_LINES);
      expect(run.ok, 'a run that cannot be stored is not reported as done').toBe(false);
      const told = [run, update].flatMap((r) => (r.ok ? [] : [r.error.message]));
      expect(told.length, 'a write while the disk is full answers an error').toBeGreaterThan(0);
      for (const m of told) {
        expect(m, 'the message names the disk').toMatch(DISK_WORDS);
        expect(m, 'the message does not blame the internet').not.toMatch(NETWORK_WORDS);
      }
      expect(status.ok).toBe(true);
      if (status.ok) {
        const s = status.value as { service_reachable: boolean | null; pause_reason: string | null };
        expect(s.service_reachable, 'the service answered: it is not offline').not.toBe(false);
        expect(s.pause_reason ?? '').not.toMatch(NETWORK_WORDS);
      }
      for (const a of inbox)
        expect(a, 'an alert blames the internet for a full disk').not.toMatch(NETWORK_WORDS);
      expect(lastError ?? '').not.toMatch(NETWORK_WORDS);
    } finally {
      await core?.dispose();
      await sb.dispose();
      for (const spy of consoleSpies) spy.mockRestore();
    }
  });
});
