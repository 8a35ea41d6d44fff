import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DEMO_WORLD_LEAD_MS, shareDemoWorld } from '../sandbox/demo';
import { teamCall, teamSignIn } from '../shared/teamClient';
import { freePort, startCluster, type PgCluster } from './pgCluster';
import { startTeamServer, type TeamServerProcess } from './teamProcess';

/** One member the team demo creates, as it prints them. */
export interface DemoMember {
  login: string;
  name: string;
  role: 'admin' | 'buyer' | 'viewer';
  password: string;
}

/** A running team demo: a throwaway PostgreSQL cluster and two team servers on it, on one Demo market. */
export interface TeamDemo {
  /** The two servers' addresses (http://127.0.0.1:PORT/). */
  readonly urls: readonly [string, string];
  readonly members: readonly DemoMember[];
  /** Each server's Demo market control address (with `--demo-control` in serverArgs), else null. */
  readonly demoUrls: readonly (string | null)[];
  /** The team database's address (the cluster trusts local connections; no password). */
  readonly databaseUrl: string;
  /** Stops both servers (SIGTERM, then SIGKILL after 15 s), then the cluster, and removes the folders. */
  stop(): Promise<void>;
}

const DEMO_MEMBERS: readonly Omit<DemoMember, 'password'>[] = [
  { login: 'alex', name: 'Alex', role: 'admin' },
  { login: 'blair', name: 'Blair', role: 'buyer' },
  { login: 'casey', name: 'Casey', role: 'buyer' },
];

/** A password for a demo member: 16 random characters, printed once. */
const newPassword = () => randomBytes(12).toString('base64url');

/**
 * The team demo (`npm run team-demo`): a newcomer sees a team in one command. Starts a throwaway PostgreSQL cluster
 * (pgCluster.ts: Debian's `postgresql` package, as the tests use it), creates the team's database, starts two team
 * servers on it (`--team`, each with its own data folder, both on one Demo market world), creates three members
 * (an admin and two buyers) and returns their sign-ins. Nothing is kept: `stop` removes the cluster and the folders.
 * @param script the built headless shell (out/main/headless.js) the servers run.
 * @param opts.serverArgs more arguments for both servers (the end-to-end journey passes a stepped Demo clock).
 * @throws Error with PG_MISSING when PostgreSQL is not installed, or a server's last output when one does not start
 *   (everything started is stopped first).
 */
export async function startTeamDemo(
  script: string,
  opts: { serverArgs?: readonly string[] } = {},
): Promise<TeamDemo> {
  const root = mkdtempSync(join(tmpdir(), 'lotwatch-team-demo-'));
  let cluster: PgCluster | null = null;
  const servers: TeamServerProcess[] = [];
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    cluster?.stop();
    rmSync(root, { recursive: true, force: true });
  };
  try {
    cluster = await startCluster();
    const c = new pg.Client({ connectionString: cluster.url });
    await c.connect();
    await c.query('CREATE DATABASE lotwatch_team');
    await c.end();
    const databaseUrl = cluster.url.replace(/\/postgres$/, '/lotwatch_team');
    const dirs = ['server-a', 'server-b'].map((n) => join(root, n));
    for (const d of dirs) mkdirSync(d, { recursive: true });
    // One Demo world for both servers: whichever of them watches, the market is the same one the buyers see.
    shareDemoWorld(dirs, Date.now() - DEMO_WORLD_LEAD_MS);
    const members: DemoMember[] = DEMO_MEMBERS.map((m) => ({ ...m, password: newPassword() }));
    const first = members[0]!;
    const env = { LOTWATCH_ADMIN_PASSWORD: first.password };
    const urls: string[] = [];
    const demoUrls: (string | null)[] = [];
    // One after the other: the first creates the team's schema and its admin, the second finds them.
    for (const dir of dirs) {
      const port = await freePort();
      const args = [
        '--secret-key-file',
        join(root, 'secret.key'),
        '--database',
        databaseUrl,
        '--data-dir',
        dir,
        '--port',
        String(port),
        ...(opts.serverArgs ?? []),
      ];
      const server = await startTeamServer(dir, script, [...args, '--admin-login', first.login], env);
      servers.push(server);
      urls.push(server.url);
      demoUrls.push(server.demoUrl || null);
    }
    const session = await teamSignIn(urls[0]!, first.login, first.password);
    // The first admin is made with their login as their name: give them the demo's.
    const me = await teamCall(session, 'team.me');
    const id = me.ok ? (me.value as { user: { id: number } | null }).user?.id : undefined;
    if (id !== undefined) await teamCall(session, 'team.users.update', { id, name: first.name });
    for (const m of members.slice(1)) {
      const r = await teamCall(session, 'team.users.create', m);
      if (!r.ok) throw new Error(`adding ${m.login}: ${r.error.message}`);
    }
    return { urls: [urls[0]!, urls[1]!], demoUrls, members, databaseUrl, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * `node out/main/headless.js team-demo` (`npm run team-demo`): starts the team demo, prints the two servers'
 * addresses and the three sign-ins, and stops everything on Ctrl-C. Returns the exit code (1 with one line when it
 * cannot start: PostgreSQL missing, a server that did not start).
 */
export async function teamDemoCommand(script: string): Promise<number> {
  let demo: TeamDemo;
  try {
    console.log('Starting a PostgreSQL cluster and two team servers (this takes a few seconds)...');
    demo = await startTeamDemo(script);
  } catch (e) {
    console.error(`lotwatch team-demo: ${(e as Error).message}`);
    return 1;
  }
  console.log('');
  console.log('A Lotwatch team on one PostgreSQL database, watching the Demo market:');
  demo.urls.forEach((u, i) => console.log(`  Server ${i + 1}: ${u}`));
  console.log('');
  console.log('Sign in (any server) as:');
  for (const m of demo.members)
    console.log(`  ${m.role.padEnd(6)}  ${m.login.padEnd(6)}  password ${m.password}`);
  console.log('');
  console.log(
    'One server watches at a time; stop it and the other takes over. Ctrl-C stops the demo and removes it.',
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await demo.stop();
  return 0;
}
