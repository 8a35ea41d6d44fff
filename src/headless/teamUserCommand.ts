import { parseArgs } from 'node:util';
import { KyselyExec } from '../core/db/kysely/exec';
import { migratePgAt } from '../core/db/pg/migrate';
import { openPostgres } from '../core/db/pg/open';
import { databaseTarget, redactedUrl } from '../core/db/target';
import { LotwatchError } from '../core/errors';
import { silentLogger } from '../core/log';
import { TeamAccounts } from '../core/team/accounts';
import { generatedPassword } from '../core/team/passwords';
import { LoginSchema, PasswordSchema } from '../shared/ipc/contract/team';
import { RoleSchema } from '../shared/team';
import type { CommandOutput } from './copyCommand';

// `node out/main/headless.js team-user add|reset`: an operator adds a member to a team or sets a member's password
// from the server's shell (docs/team.md), for example when the team's only admin forgot theirs.

export const TEAM_USER_HELP = `Usage: node out/main/headless.js team-user add --database postgres://… --login LOGIN [--name NAME] [--role viewer|buyer|admin]
       node out/main/headless.js team-user reset --database postgres://… --login LOGIN

add adds a member to the team (role buyer unless said); reset sets a member's password and ends their sessions.
The password is LOTWATCH_USER_PASSWORD when set (at least 10 characters), else one is generated and printed once.
--database may also come from LOTWATCH_DATABASE_URL.`;

/**
 * Runs `team-user` with the arguments after the command's name. Prints the member and the password when generated.
 * @returns the exit code: 0 done; 1 refused or failed (one line on `out.error`); 2 bad arguments. Throws nothing.
 */
export async function teamUserCommand(
  argv: string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  out: CommandOutput = console,
): Promise<number> {
  const [action, ...rest] = argv;
  let args;
  try {
    args = parseArgs({
      args: rest,
      options: {
        database: { type: 'string' },
        login: { type: 'string' },
        name: { type: 'string' },
        role: { type: 'string' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (e) {
    out.error(`lotwatch: ${(e as Error).message}\n\n${TEAM_USER_HELP}`);
    return 2;
  }
  if (args.help || action === '--help') {
    out.log(TEAM_USER_HELP);
    return 0;
  }
  const login = LoginSchema.safeParse(args.login ?? '');
  const role = RoleSchema.safeParse(args.role ?? 'buyer');
  const given = env['LOTWATCH_USER_PASSWORD'];
  const password = given === undefined || given === '' ? null : PasswordSchema.safeParse(given);
  const problem =
    action !== 'add' && action !== 'reset'
      ? 'team-user needs add or reset'
      : !login.success
        ? (login.error.issues[0]?.message ?? 'Login: not valid.')
        : !role.success
          ? '--role must be viewer, buyer or admin'
          : password && !password.success
            ? `LOTWATCH_USER_PASSWORD: ${password.error.issues[0]?.message ?? 'not valid.'}`
            : null;
  if (problem || !login.success) {
    out.error(`lotwatch: ${problem}\n\n${TEAM_USER_HELP}`);
    return 2;
  }
  const chosen = password?.success ? password.data : generatedPassword();
  let h: Awaited<ReturnType<typeof openPostgres>> | null = null;
  try {
    const target = databaseTarget(args.database, env, '');
    if (target.kind !== 'postgres') {
      out.error("lotwatch: team-user needs the team's PostgreSQL database: --database postgres://…");
      return 2;
    }
    await migratePgAt(target.url);
    h = await openPostgres(target.url, { max: 1 });
    const accounts = new TeamAccounts({
      exec: new KyselyExec(h.db),
      now: () => Date.now(),
      log: silentLogger,
    });
    if (action === 'add') {
      const m = await accounts.create({
        login: login.data,
        name: args.name?.trim() || login.data,
        role: role.success ? role.data : 'buyer',
        password: chosen,
      });
      out.log(`Added ${m.login} (${m.role}) to the team at ${redactedUrl(target.url)}.`);
    } else {
      const u = await accounts.users.byLogin(login.data);
      if (!u) {
        out.error(`lotwatch: no member of the team has the login ${login.data}.`);
        return 1;
      }
      await accounts.resetPassword(u.id, chosen);
      out.log(`Set a new password for ${u.login}; their sessions ended.`);
    }
    if (!password) out.log(`Password (shown once): ${chosen}`);
    return 0;
  } catch (e) {
    out.error(`lotwatch: ${e instanceof LotwatchError ? e.message : (e as Error).message}`);
    return 1;
  } finally {
    await h?.close();
  }
}
