import BetterSqlite3 from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/connection';
import { SettingsRepo } from '../../src/core/db/settingsRepo';
import { silentLogger } from '../../src/core/log';
import { startHeadless } from '../../src/headless/start';
import type { ChannelSave } from '../../src/shared/alertChannels';
import { alertRaiser } from '../core/channels/raise';
import { makeCore } from '../helpers/core';
import { FakeClock } from '../helpers/fakeClock';
import { startDripReceiver, type SlowReceiver } from '../helpers/receivers';
import { childScript } from '../helpers/children';
import { tempDir } from '../helpers/tmp';
import { rendererFolder } from './shellFolders';

// SIGTERM while an alert channel's send is in flight (docs/architecture.md "Alert channels"): the browser shell's
// command line, built as `npm run serve` builds it and run as its own process, sends an alert to a webhook that
// answers 200 and then drips one byte every 4 s forever. SIGTERM aborts that send and the process exits at once;
// the delivery is left `sending`, for the next start to send again under the same key.

/**
 * How long the process may take to exit after SIGTERM (real time). It measures a few hundred ms on a quiet machine;
 * the bound is loose so a loaded machine cannot fail it, and still half the 30 s send deadline, which a stop that
 * waited for the send instead of aborting it would reach.
 */
const EXIT_BOUND_MS = 15_000;
/** When the test gives up on an exit and kills the process (the old code never exited). */
const GIVE_UP_MS = 40_000;

let cliJs: string;
let renderer: { dir: string; cleanup(): void };
let drip: SlowReceiver;
const dirs: { cleanup(): void }[] = [];

beforeAll(async () => {
  renderer = rendererFolder();
  cliJs = childScript('cli');
  drip = await startDripReceiver({ status: 200, everyMs: 4_000 });
}, 120_000);
afterAll(async () => {
  await drip?.close();
  renderer?.cleanup();
  for (const d of dirs) d.cleanup();
});

/**
 * A data folder (Demo mode off, no key: nothing polls) with one webhook channel (id 1) and one alert it has not been
 * sent.
 */
async function prepare(): Promise<string> {
  const t = tempDir();
  dirs.push(t);
  const dbPath = join(t.dir, 'lotwatch.sqlite');
  const clock = new FakeClock(Date.now());
  const db = openDatabase(dbPath);
  new SettingsRepo(db, clock).update({ demoMode: false });
  const { core } = makeCore({ dir: t.dir, db, clock, autoStart: false, demoExamples: false });
  await core.ready;
  await core.call('channels.save', {
    name: 'Slow hook',
    config: { type: 'webhook', format: 'json', telegram_chat_id: '' },
    secret: `${drip.url}/hook`,
  } as ChannelSave);
  await core.dispose();
  const raiser = alertRaiser(dbPath);
  raiser.raise('sale_result', 'Sold', Date.now());
  raiser.close();
  return t.dir;
}

describe('the browser shell stops while an alert channel is sending', () => {
  it('SIGTERM aborts a send that never finishes and the process exits at once, not at the send deadline', async () => {
    const dataDir = await prepare();
    const p = spawn(
      process.execPath,
      [cliJs, '--data-dir', dataDir, '--port', '0', '--renderer-dir', renderer.dir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((res) =>
      p.on('exit', (code, signal) => res({ code, signal, at: performance.now() })),
    );
    try {
      await drip.requests.reached(1);
      const sent = performance.now();
      p.kill('SIGTERM');
      const giveUp = setTimeout(() => p.kill('SIGKILL'), GIVE_UP_MS);
      const r = await exited;
      clearTimeout(giveUp);
      const took = Math.round(r.at - sent);
      expect({ code: r.code, signal: r.signal }, stderr).toEqual({ code: 0, signal: null });
      expect(took, `the exit took ${took} ms after SIGTERM`).toBeLessThan(EXIT_BOUND_MS);
    } finally {
      if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    }
    // Left for the next start, which sends it again under the same key.
    const db = new BetterSqlite3(join(dataDir, 'lotwatch.sqlite'), { readonly: true });
    expect(db.prepare('SELECT status, attempts FROM deliveries').all()).toEqual([
      { status: 'sending', attempts: 1 },
    ]);
    db.close();
  }, 60_000);

  it('stopping the browser shell in process while the Test button and the outbox wait on such a webhook does not wait for them', async () => {
    const dataDir = await prepare();
    const running = await startHeadless({
      dataDir,
      rendererDir: renderer.dir,
      version: 't',
      log: silentLogger,
    });
    let stopped = false;
    try {
      await drip.requests.reached(drip.requests.n + 1);
      const u = new URL(running.url);
      // The page's Test button: its request is in flight when the stop comes (the server closes it, core aborts it).
      const answer = request(`${u.origin}/rpc/channels.test`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${u.searchParams.get('token')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ id: 1 }),
      }).catch(() => null);
      await drip.requests.reached(drip.requests.n + 1);
      const began = performance.now();
      await running.dispose();
      stopped = true;
      const took = Math.round(performance.now() - began);
      // A real-time bound, generous: the sends are aborted, not waited for (the deadline is 30 s).
      expect(took, `the stop took ${took} ms`).toBeLessThan(EXIT_BOUND_MS);
      await answer;
    } finally {
      if (!stopped) await running.dispose();
    }
  }, 60_000);
});
