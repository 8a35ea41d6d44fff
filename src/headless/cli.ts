import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { DatabaseUnavailableError, LotwatchError } from '../core/errors';
import { copyToPostgresCommand } from './copyCommand';
import { defaultDataDir } from './paths';
import { startHeadless } from './start';
import { teamUserCommand } from './teamUserCommand';
import { teamDemoCommand } from './teamDemo';
import { LoginSchema, PasswordSchema } from '../shared/ipc/contract/team';

// Entry of `npm run serve` (built to out/main/headless.js). Prints the URL with its token, then serves until
// SIGINT/SIGTERM, when it closes the server and the database in order. `copy-to-postgres` as the first argument runs
// that command instead (copyCommand.ts), and `team-user` adds a team member or sets their password (teamUserCommand.ts).
const HELP = `Usage: node out/main/headless.js [--port N] [--host 127.0.0.1] [--data-dir DIR] [--demo-speed 1..3600]
       [--demo-control [--demo-clock stepped]] [--restore-backup latest|NAME|FILE] [--database postgres://…]
       [--team [--public-origin https://HOST] [--secure-cookies] [--admin-login LOGIN] [--secret-key-file FILE]]

Serves the Lotwatch app to a browser on this computer. Open the printed address (it carries a per-run token).
--port N listens on port N (default 0: a free port picked at each start); a fixed port keeps the calendar
subscription's address on Auction day the same across restarts.
--demo-speed runs Demo mode's simulated market (and the watcher with it) that many times faster than real time;
it is refused for a data folder that uses your API key (Demo mode off), and a restart resumes the market where it
stood.
--demo-control (tests only) opens the Demo market's control routes and prints their address; with --demo-clock
stepped the market and the watcher stand still until a test steps them through those routes.
--restore-backup replaces the data file with a backup (the newest, one in DIR/backups, or a file) before starting;
the current file is kept beside it.
--database postgres://USER:PASSWORD@HOST:PORT/DATABASE (or LOTWATCH_DATABASE_URL) keeps the data in a team's
PostgreSQL database instead of the data folder's file (which stays untouched); the folder still holds the key file,
the photos and the Demo market's clock. The database is created up to this version's schema at start.

--team serves a team (docs/team.md): members sign in with a login and a password, and each has a role. It needs
--database postgres://…; --host may then be another address than this computer's (default 127.0.0.1). Put a
reverse proxy with TLS in front and pass its address as --public-origin (cookies are then Secure; --secure-cookies
forces that). A team without members gets an admin: --admin-login (default admin) with the password in
LOTWATCH_ADMIN_PASSWORD, or a generated one printed once. Every server of a team needs the same key file (it seals
the API key and the channels' secrets in the database): --secret-key-file FILE (default DIR/secret.key). Several team
servers may share one database: one runs the watcher, another takes over within 30 s when it stops.

node out/main/headless.js copy-to-postgres --help: copy a data folder into an empty PostgreSQL database.
node out/main/headless.js team-user --help: add a team member or set a member's password.
node out/main/headless.js team-demo (npm run team-demo): a throwaway team of two servers and three members.`;

async function main(): Promise<number> {
  if (process.argv[2] === 'copy-to-postgres') return copyToPostgresCommand(process.argv.slice(3));
  if (process.argv[2] === 'team-user') return teamUserCommand(process.argv.slice(3));
  if (process.argv[2] === 'team-demo') return teamDemoCommand(process.argv[1]!);
  let args;
  try {
    args = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
        'renderer-dir': { type: 'string' },
        'demo-speed': { type: 'string' },
        'demo-control': { type: 'boolean' },
        'demo-clock': { type: 'string' },
        'restore-backup': { type: 'string' },
        database: { type: 'string' },
        team: { type: 'boolean' },
        'public-origin': { type: 'string' },
        'secure-cookies': { type: 'boolean' },
        'admin-login': { type: 'string' },
        'secret-key-file': { type: 'string' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (e) {
    console.error(`lotwatch: ${(e as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (args.help) {
    console.log(HELP);
    return 0;
  }
  const port = args.port === undefined ? 0 : Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`lotwatch: --port must be a whole number from 0 to 65535, not ${args.port}`);
    return 2;
  }
  const demoSpeed = args['demo-speed'] === undefined ? 1 : Number(args['demo-speed']);
  if (!Number.isFinite(demoSpeed) || demoSpeed < 1 || demoSpeed > 3600) {
    console.error(`lotwatch: --demo-speed must be a number from 1 to 3600, not ${args['demo-speed']}`);
    return 2;
  }
  const demoClock = args['demo-clock'] ?? 'wall';
  if (demoClock !== 'wall' && demoClock !== 'stepped') {
    console.error(`lotwatch: --demo-clock must be wall or stepped, not ${demoClock}`);
    return 2;
  }
  if (demoClock === 'stepped' && !args['demo-control']) {
    console.error(
      'lotwatch: --demo-clock stepped needs --demo-control (tests only): only the control routes move a stepped market',
    );
    return 2;
  }
  if (
    !args.team &&
    (args['public-origin'] || args['secure-cookies'] || args['admin-login'] || args['secret-key-file'])
  ) {
    console.error(
      'lotwatch: --public-origin, --secure-cookies, --admin-login and --secret-key-file apply to a team server: add --team',
    );
    return 2;
  }
  const adminLogin = args['admin-login'] === undefined ? null : LoginSchema.safeParse(args['admin-login']);
  const adminPassword = process.env['LOTWATCH_ADMIN_PASSWORD'] || undefined;
  const passwordOk = adminPassword === undefined ? null : PasswordSchema.safeParse(adminPassword);
  if ((adminLogin && !adminLogin.success) || (passwordOk && !passwordOk.success)) {
    const issue = adminLogin?.error?.issues[0] ?? passwordOk?.error?.issues[0];
    console.error(
      `lotwatch: ${adminLogin?.success === false ? '--admin-login' : 'LOTWATCH_ADMIN_PASSWORD'}: ${issue?.message}`,
    );
    return 2;
  }
  const dataDir = args['data-dir'] ?? defaultDataDir();
  const rendererDir = args['renderer-dir'] ?? join(import.meta.dirname, '../renderer');
  let running;
  try {
    running = await startHeadless({
      dataDir,
      rendererDir,
      port,
      demoSpeed,
      demoControl: args['demo-control'] === true,
      demoClock,
      ...(args['restore-backup'] ? { restoreBackup: args['restore-backup'] } : {}),
      ...(args.database !== undefined ? { database: args.database } : {}),
      ...(args.host ? { host: args.host } : {}),
      ...(args['secret-key-file'] ? { secretKeyFile: args['secret-key-file'] } : {}),
      ...(args.team
        ? {
            team: {
              publicOrigin: args['public-origin'] ?? null,
              ...(args['secure-cookies'] ? { secureCookies: true } : {}),
              ...(adminLogin?.success ? { adminLogin: adminLogin.data } : {}),
              ...(adminPassword !== undefined ? { adminPassword } : {}),
            },
          }
        : {}),
      version: process.env['npm_package_version'] ?? '0.1.0',
    });
  } catch (e) {
    // One line, never a stack: what happened and what to do (a damaged or empty file: how to restore a backup).
    const restoreHint =
      e instanceof DatabaseUnavailableError && e.latestBackup && !args['restore-backup']
        ? ' To restore it, start again with --restore-backup latest.'
        : '';
    const msg =
      e instanceof LotwatchError
        ? e.message + restoreHint
        : (e as NodeJS.ErrnoException).code === 'EADDRINUSE'
          ? `Port ${port} is already in use. Choose another with --port, or 0 for any free port.`
          : (e as Error).message;
    console.error(`lotwatch: ${msg}`);
    return 1;
  }
  if (running.restored)
    console.log(`Restored the backup ${running.restored}; the replaced data file is kept in ${dataDir}.`);
  console.log(`Lotwatch is running headless. Data: ${running.dataAt}`);
  // A team's first admin, made at this start: a generated password is said here once, and never again.
  if (running.firstAdmin)
    console.log(
      running.firstAdmin.password
        ? `First admin: ${running.firstAdmin.login}, password (shown once): ${running.firstAdmin.password}`
        : `First admin: ${running.firstAdmin.login}, with the password in LOTWATCH_ADMIN_PASSWORD`,
    );
  console.log(`Open: ${running.url}`);
  // Test-only: the simulated market's control routes (end-to-end tests read and steer the market through them).
  if (args['demo-control']) console.log(`Demo service: ${await running.demoUrl()}`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await running.dispose();
  return 0;
}

void main().then((code) => process.exit(code));
