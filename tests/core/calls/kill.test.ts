import BetterSqlite3 from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childScript } from '../../helpers/children';
import { tempDir } from '../../helpers/tmp';
import { publishedAfter } from './feed';
import { startSandbox, type Sandbox } from '../../helpers/sandbox';
import { DEMO_CHANNEL_ID } from '../../../src/sandbox/index';

// kill -9 of a child process running a call watch (kill/child.ts) on the sandbox's moving channel over real HTTP, at
// the start of a run (its request in flight) and right after a run's transaction committed (its alerts not delivered
// yet), then a restart on the same data file: every video the channel published after the baseline is alerted
// exactly once, none of the baseline's. The sandbox's market time is the child's fake clock, mirrored here: the
// parent moves both with each step.

const HOUR = 60 * 60_000;

interface Child {
  p: ChildProcess;
  /** Sends a command; resolves with the first line that `until` accepts. */
  send(cmd: string, until: (line: string) => boolean): Promise<string>;
}

let dir: { dir: string; cleanup(): void };
let sb: Sandbox;
let childJs: string;
/** The child's clock (kill/child.ts starts it here and keeps it in its data folder), which the market follows. */
const START = Date.UTC(2026, 10, 22, 12, 0, 0);
let marketNow = START;

beforeAll(async () => {
  dir = tempDir('lotwatch-call-kill-');
  sb = await startSandbox({ lots: 40, now: () => marketNow, startTime: START, speed: 1 });
  childJs = childScript('call-kill-child');
});
afterAll(async () => {
  await sb?.dispose();
  dir?.cleanup();
});

function startChild(): Promise<Child> {
  return new Promise((res, rej) => {
    const p = spawn(process.execPath, [childJs, dir.dir, sb.baseUrl!, DEMO_CHANNEL_ID], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let err = '';
    let out = '';
    let waiting: ((line: string) => boolean) | null = null;
    p.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    p.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const lines = out.split('\n');
      out = lines.pop()!;
      for (const l of lines) {
        if (l === 'ready') res(child);
        if (waiting?.(l)) waiting = null;
      }
    });
    p.stdin?.on('error', () => undefined);
    p.on('exit', (code, sig) => {
      if (sig !== 'SIGKILL' && code !== 0) rej(new Error(`child exited ${code}: ${err}`));
    });
    const child: Child = {
      p,
      send: (cmd, until) =>
        new Promise((done) => {
          waiting = (l) => (until(l) ? (done(l), true) : false);
          p.stdin!.write(`${cmd}\n`);
        }),
    };
  });
}

const killed = (p: ChildProcess) =>
  new Promise<void>((r) => {
    if (p.exitCode !== null || p.signalCode !== null) return r();
    p.once('exit', () => r());
    p.kill('SIGKILL');
  });

describe('call watches and kill -9', () => {
  it('alerts every new video exactly once across kills at the start and at the end of a run', async () => {
    /** Moves the child's clock (and the market with it) by `ms`, resolving on the first line `until` accepts. */
    const step = (c: Child, ms: number, until: (l: string) => boolean) => {
      marketNow += ms;
      return c.send(`step ${ms}`, until);
    };
    let child = await startChild();
    await child.send('create', (l) => l.startsWith('created '));
    // The baseline run: the videos there already never alert.
    await step(child, 60_000, (l) => l.startsWith('stepped '));
    const baselineAt = marketNow;
    const kills: ('started' | 'finished')[] = ['started', 'finished', 'started', 'finished'];
    for (let hour = 1; hour <= 12; hour++) {
      const kill = hour % 3 === 0 ? kills.shift() : undefined;
      if (!kill) {
        await step(child, HOUR, (l) => l.startsWith('stepped '));
        continue;
      }
      // Killed at that point of the run, then a new child on the same file goes on (the missed run catches up).
      await step(child, HOUR, (l) => l === kill);
      await killed(child.p);
      child = await startChild();
      await step(child, 1000, (l) => l.startsWith('stepped '));
    }
    await step(child, HOUR, (l) => l.startsWith('stepped '));
    child.p.stdin!.end();
    await new Promise<void>((r) => (child.p.exitCode !== null ? r() : child.p.once('exit', () => r())));
    const fresh = await publishedAfter(sb.url!, DEMO_CHANNEL_ID, baselineAt);
    // The channel uploads about once in 40 minutes: some 18 videos over the 13 hours.
    expect(fresh.length).toBeGreaterThan(10);
    const db = new BetterSqlite3(join(dir.dir, 'lotwatch.sqlite'), { readonly: true });
    try {
      const rows = db
        .prepare("SELECT url, count(*) AS n FROM alerts WHERE kind = 'call_new_item' GROUP BY url")
        .all() as { url: string; n: number }[];
      expect(rows.filter((r) => r.n !== 1)).toEqual([]);
      expect(new Set(rows.map((r) => r.url))).toEqual(new Set(fresh));
    } finally {
      db.close();
    }
  });
});
