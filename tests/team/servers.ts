import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { teamCall, type TeamSession } from '../../src/shared/teamClient';

/*
 * Team servers as their own processes (the browser shell's command line, bundled as `npm run serve` builds it), for
 * the tests that kill one with SIGKILL: what a real server's death looks like to the database and to the other
 * servers. Each server prints its address, its Demo market's control address, and a line when it takes over the
 * watcher; the helpers read those lines.
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

/** The line a team server prints when it takes over the watcher (src/headless/teamWatch.ts). */
export const LEADS_LINE = /^Watcher: this server now runs the watcher/;

const exited = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;

/**
 * Starts `node <cliJs> --team ... <args>` and resolves once it printed its address (and, with --demo-control, the
 * Demo market's). `env` is added to this process's environment.
 * @throws Error with the server's output when it exits first or does not listen within 60 s.
 */
export async function startTeamServer(
  name: string,
  cliJs: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<TeamServerProcess> {
  const child = spawn(process.execPath, [cliJs, '--team', ...args], {
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

/** As `teamCall`, returning the value. @throws Error with the method and the envelope's message when it fails. */
export async function value<T = unknown>(s: TeamSession, method: string, input?: unknown): Promise<T> {
  const r = await teamCall(s, method, input);
  if (!r.ok) throw new Error(`${method}: ${r.error.code} ${r.error.message} (HTTP ${r.status})`);
  return r.value as T;
}
