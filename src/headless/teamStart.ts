import { KyselyExec } from '../core/db/kysely/exec';
import { openPostgres } from '../core/db/pg/open';
import { BadInputError } from '../core/errors';
import type { Logger } from '../core/log';
import { TeamAccounts } from '../core/team/accounts';
import type { TeamMode } from './teamServer';

/*
 * Starting a team server (docs/team.md): the options checked before anything opens, then the team's accounts over a
 * small pool of their own on the team's database, and the first admin of a team that has no member yet.
 */

/** What `--team` and its companions ask for (cli.ts). */
export interface TeamOptions {
  /** The reverse proxy's origin (`--public-origin https://lotwatch.example.com`), or none: this computer only. */
  publicOrigin?: string | null;
  /** Mark the session cookie Secure (`--secure-cookies`); default on when the public origin is https. */
  secureCookies?: boolean;
  /** The first admin's login (`--admin-login`; default `admin`), used only while the team has no member. */
  adminLogin?: string;
  /** The first admin's password (LOTWATCH_ADMIN_PASSWORD); none: one is generated and said once. */
  adminPassword?: string;
}

/** The first admin made at this start: their login and, when generated, the password to show once (else null). */
export type FirstAdmin = { login: string; password: string | null } | null;

/** Whether `host` is a loopback address or name (where the single-user shell may listen). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * The public origin as an origin (`https://host[:port]`), lower case, without a path.
 * @throws BadInputError when it is not an http(s) address of a host alone.
 */
export function publicOriginOf(text: string): string {
  const bad = () =>
    new BadInputError(
      `--public-origin must be the address people open, such as https://lotwatch.example.com, not ${text}.`,
    );
  if (!URL.canParse(text)) throw bad();
  const u = new URL(text);
  if (!/^https?:$/.test(u.protocol) || u.username || u.password || u.search || u.hash || u.pathname !== '/')
    throw bad();
  return u.origin;
}

/**
 * Refuses options that do not make a team server, before anything is opened: `--team` without a PostgreSQL
 * database, a non-loopback `--host` without `--team`, team options without `--team`, a bad public origin.
 * @throws BadInputError with one line saying what to change.
 */
export function checkTeamOptions(o: {
  team: TeamOptions | undefined;
  databaseKind: 'sqlite' | 'postgres';
  host: string | undefined;
}): void {
  if (o.team && o.databaseKind !== 'postgres')
    throw new BadInputError(
      "--team needs the team's PostgreSQL database: add --database postgres://user:password@host:5432/name.",
    );
  if (!o.team && o.host !== undefined && !isLoopbackHost(o.host))
    throw new BadInputError(
      `--host ${o.host} would open your data to other computers. Only a team server (--team) listens beyond this computer.`,
    );
  if (o.team?.publicOrigin) publicOriginOf(o.team.publicOrigin);
}

/** A team server's accounts, open: the team mode for the HTTP server, the first admin made, and `close`. */
export interface OpenTeam {
  mode: TeamMode;
  firstAdmin: FirstAdmin;
  close(): Promise<void>;
}

/**
 * Opens the team's accounts on the PostgreSQL database `url` (already migrated by the core database) over a pool of
 * at most 3 connections, and makes the first admin when the team has no member.
 * @throws DatabaseUnreachableError when the database does not answer; the driver's errors (nothing left open).
 */
export async function openTeam(url: string, o: TeamOptions, log: Logger): Promise<OpenTeam> {
  const h = await openPostgres(url, { max: 3, logger: log });
  try {
    const accounts = new TeamAccounts({ exec: new KyselyExec(h.db), now: () => Date.now(), log });
    const firstAdmin = await accounts.ensureFirstAdmin(o.adminLogin ?? 'admin', o.adminPassword);
    const publicOrigin = o.publicOrigin ? publicOriginOf(o.publicOrigin) : null;
    return {
      mode: {
        accounts,
        publicOrigin,
        secureCookies: o.secureCookies ?? publicOrigin?.startsWith('https:') ?? false,
      },
      firstAdmin,
      close: () => h.close(),
    };
  } catch (e) {
    await h.close();
    throw e;
  }
}
