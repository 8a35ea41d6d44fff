import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * A throwaway PostgreSQL cluster for the tests and the team demo (`npm run team-demo`) (docs/architecture.md "Two engines"): initdb and pg_ctl in a temporary
 * folder, on a free local port, stopped and removed at the end. Debian's `postgresql` package provides the programs
 * (/usr/lib/postgresql/<version>/bin); `.ci/run` installs it. initdb and pg_ctl refuse to run as root, so as root they
 * run as the `postgres` system user, in a folder that user owns. The cluster trusts local connections (a test
 * cluster on 127.0.0.1 that lives for one run) and skips fsync: a killed server loses nothing a test checks, only an
 * operating system crash would. Commits stay synchronous (each writes its WAL before it returns): with them
 * asynchronous, an immediate shutdown (`halt`) lost the last commits before it, such as a watch just added.
 */

/** What the tests say when PostgreSQL is not installed: the PostgreSQL half is skipped, never failed. */
export const PG_MISSING =
  "PostgreSQL is not installed, so the PostgreSQL half of the tests is skipped: install Debian's package " +
  '(`apt-get install postgresql`, as .ci/run does) or set LOTWATCH_PG_BIN to the folder holding initdb and pg_ctl.';

/** A running test cluster. */
export interface PgCluster {
  /** postgres://lotwatch@127.0.0.1:<port>/postgres: the maintenance database. */
  readonly url: string;
  readonly port: number;
  /** Stops the server (fast shutdown) and removes its folder. Safe to call twice. */
  stop(): void;
  /**
   * Stops the server at once (immediate shutdown: connections cut as a crash or a lost network cuts them), keeping its
   * folder, so `resume` can start it again on the same port with the same data.
   */
  halt(): void;
  /** Starts a halted server again. */
  resume(): void;
}

/**
 * The folder holding initdb and pg_ctl: LOTWATCH_PG_BIN, else the newest /usr/lib/postgresql/<version>/bin that has
 * them. Null when neither exists.
 */
export function pgBinDir(): string | null {
  const env = process.env['LOTWATCH_PG_BIN'];
  if (env) return existsSync(join(env, 'initdb')) ? env : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

/** A free TCP port on 127.0.0.1, asked of the system. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const asRoot = () => process.getuid?.() === 0;

/** Runs one of the cluster's programs, as the `postgres` user when this process is root. Throws with its output. */
function runPg(bin: string, program: string, args: string[]): void {
  const file = join(bin, program);
  const [cmd, argv] = asRoot() ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0)
    throw new Error(`${program} failed (${r.status ?? r.signal}): ${(r.stderr || r.stdout || '').trim()}`);
}

/**
 * Starts a cluster: a temporary folder (owned by `postgres` when root), initdb with the superuser `lotwatch`, and the
 * server on a free port listening on 127.0.0.1 only, its socket in the same folder.
 * @throws Error with PG_MISSING when PostgreSQL is not installed; the failing program's output otherwise (the
 * server's log is included when it does not start).
 */
export async function startCluster(): Promise<PgCluster> {
  const bin = pgBinDir();
  if (!bin) throw new Error(PG_MISSING);
  const dir = mkdtempSync(join(tmpdir(), 'lotwatch-pg-'));
  if (asRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const port = await freePort();
  let stopped = false;
  let started = () => {};
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      runPg(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    } catch {
      // Not running (it never started, or a test killed it): the folder still goes.
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    runPg(bin, 'initdb', [
      '-D',
      data,
      '-U',
      'lotwatch',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    const opts = [
      `-p ${port}`,
      `-k ${dir}`,
      "-c listen_addresses='127.0.0.1'",
      '-c fsync=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    runPg(bin, 'pg_ctl', ['-D', data, '-l', log, '-o', opts, '-w', '-t', '60', 'start']);
    started = () => runPg(bin, 'pg_ctl', ['-D', data, '-l', log, '-o', opts, '-w', '-t', '60', 'start']);
  } catch (e) {
    const serverLog = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
    stop();
    throw new Error(`${(e as Error).message}${serverLog ? `\n${serverLog}` : ''}`);
  }
  return {
    url: `postgres://lotwatch@127.0.0.1:${port}/postgres`,
    port,
    stop,
    halt: () => runPg(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    resume: () => started(),
  };
}
