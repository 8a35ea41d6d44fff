import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { WATCHER_LINES } from './watcherLines';

/*
 * A team server as its own process (docs/team.md "Several servers"): what the team demo starts twice, and what the
 * tests kill with SIGKILL (a real server's death, as the database and the other servers see it). The helpers read
 * the lines the server prints: its address, its Demo market's control address, its watcher's standing.
 */

/** One running team server. */
export interface TeamServerProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** `http://127.0.0.1:PORT/` */
  readonly url: string;
  /** The Demo market's base (its control routes under /__sandbox). */
  readonly demoUrl: string;
  /** Every line the server printed (stdout and stderr), in order. */
  readonly lines: string[];
  /**
   * Resolves with the first line (already printed or to come) matching `re` after the line index `from`; rejects
   * after `ms` of real time with the server's last lines. A deadline on a condition, not a sleep.
   */
  waitFor(re: RegExp, ms: number, from?: number): Promise<string>;
  /** SIGKILL: no shutdown code runs, the database sees its connections drop. Resolves when the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL after 15 s. Resolves when the process is gone. */
  stop(): Promise<void>;
}

/** The line a team server prints when it takes over the watcher (watcherLines.ts). */
export const LEADS_LINE = new RegExp(`^${WATCHER_LINES.leading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

const exited = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;

/**
 * Starts `node <script> --team ... <args>` (`script`: the built headless shell, out/main/headless.js, or the tests'
 * bundle of it) and resolves once it printed its address (and, with --demo-control, the Demo market's). `env` is
 * added to this process's environment.
 * @throws Error with the server's output when it exits first or does not listen within 60 s.
 */
export async function startTeamServer(
  name: string,
  script: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<TeamServerProcess> {
  const child = spawn(process.execPath, [script, '--team', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters = new Set<{ re: RegExp; from: number; resolve(l: string): void }>();
  const onLine = (line: string) => {
    lines.push(line);
    for (const w of waiters)
      if (w.re.test(line) && lines.length - 1 >= w.from) {
        waiters.delete(w);
        w.resolve(line);
      }
  };
  createInterface({ input: child.stdout! }).on('line', onLine);
  createInterface({ input: child.stderr! }).on('line', onLine);
  const waitFor = (re: RegExp, ms: number, from = 0): Promise<string> => {
    const seen = lines.slice(from).find((l) => re.test(l));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise<string>((resolve, reject) => {
      const w = {
        re,
        from,
        resolve: (l: string) => {
          clearTimeout(timer);
          child.off('exit', onExit);
          resolve(l);
        },
      };
      const fail = (why: string) => {
        waiters.delete(w);
        child.off('exit', onExit);
        reject(new Error(`${name}: ${why} waiting for ${re}:\n${lines.slice(-30).join('\n')}`));
      };
      const timer = setTimeout(() => fail(`no line in ${ms} ms`), ms);
      const onExit = () => {
        clearTimeout(timer);
        // The exit event may come before the last lines are read: give readline's queued lines a turn first.
        setImmediate(() => (waiters.has(w) ? fail('the process exited') : undefined));
      };
      child.once('exit', onExit);
      waiters.add(w);
    });
  };
  const gone = () =>
    new Promise<void>((resolve) => (exited(child) ? resolve() : child.once('exit', () => resolve())));
  try {
    const open = await waitFor(/^Open: /, 60_000);
    const demo = args.includes('--demo-control') ? await waitFor(/^Demo service: /, 60_000) : '';
    return {
      name,
      child,
      url: open.slice('Open: '.length).trim(),
      demoUrl: demo.slice('Demo service: '.length).trim(),
      lines,
      waitFor,
      async kill() {
        if (!exited(child)) child.kill('SIGKILL');
        await gone();
      },
      async stop() {
        if (exited(child)) return;
        const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.kill('SIGTERM');
        await gone();
        clearTimeout(force);
      },
    };
  } catch (e) {
    if (!exited(child)) child.kill('SIGKILL');
    throw e;
  }
}
