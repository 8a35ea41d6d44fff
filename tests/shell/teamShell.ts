import { join } from 'node:path';
import { silentLogger } from '../../src/core/log';
import { startHeadless, type HeadlessOptions, type RunningHeadless } from '../../src/headless/start';
import type { TeamOptions } from '../../src/headless/teamStart';
import { raw, type Answer } from './rawHttp';
import { shellFolders } from './shellFolders';

/*
 * Team servers for the shell tests (docs/team.md): the headless shell in team mode on a test's PostgreSQL database,
 * without a watcher (the hook given does nothing, so core starts no schedule and no Demo market moves), and a member's
 * browser over real HTTP: its cookie jar, its CSRF token, and free Host and Origin headers.
 */

/** A member's browser on one team server: Host and Origin as the page's, the session cookie and the CSRF token. */
export class Browser {
  cookie = '';
  csrf = '';

  /** `host`: the Host header the page's address gives (default `127.0.0.1:<port>`); `origin` likewise. */
  constructor(
    readonly port: number,
    readonly host = `127.0.0.1:${port}`,
    readonly origin = `http://127.0.0.1:${port}`,
  ) {}

  /** The headers the page sends: Host, Origin, the cookie, and JSON. */
  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      Host: this.host,
      Origin: this.origin,
      'content-type': 'application/json',
      ...(this.cookie ? { Cookie: this.cookie } : {}),
      ...extra,
    };
  }

  /** POST /auth/login; keeps the cookie and the CSRF token when it succeeds. */
  async login(login: string, password: string): Promise<Answer> {
    const a = await raw(this.port, {
      method: 'POST',
      path: '/auth/login',
      headers: this.headers(),
      body: JSON.stringify({ login, password }),
    });
    if (a.status === 200) {
      const set = ([] as string[]).concat(a.headers['set-cookie'] ?? []);
      this.cookie = set[0]!.split(';')[0]!;
      this.csrf = (a.json as { csrf: string }).csrf;
    }
    return a;
  }

  /** POST /rpc/`method` with the cookie and X-CSRF-Token (`csrf` replaces the token; null sends none). */
  rpc(method: string, input: unknown = undefined, csrf: string | null = this.csrf): Promise<Answer> {
    return raw(this.port, {
      method: 'POST',
      path: `/rpc/${method}`,
      headers: this.headers(csrf === null ? {} : { 'X-CSRF-Token': csrf }),
      ...(input === undefined ? {} : { body: JSON.stringify(input) }),
    });
  }
}

/** The team server tests' starter: registers the cleanups of a test file (call once at its top level). */
export function teamShells(): {
  /** A team server on `database` (a fresh data folder), started with `team` and any other options. */
  start(database: string, team?: TeamOptions, extra?: Partial<HeadlessOptions>): Promise<RunningHeadless>;
  cleanups: (() => Promise<void> | void)[];
} {
  const { cleanups, folder, renderer } = shellFolders();
  // One key file for the servers of one database, as a team's servers share theirs (teamWatch.ts checkTeamKey).
  const keyFiles = new Map<string, string>();
  return {
    cleanups,
    async start(database, team = {}, extra = {}) {
      const h = await startHeadless({
        dataDir: folder(),
        rendererDir: renderer(),
        version: '0.0.0-test',
        log: silentLogger,
        database,
        env: {},
        team: { adminPassword: 'first admin password', ...team },
        teamWatch: () => ({ stop: async () => {} }),
        secretKeyFile:
          keyFiles.get(database) ?? keyFiles.set(database, join(folder(), 'secret.key')).get(database)!,
        ...extra,
      });
      cleanups.push(() => h.dispose());
      return h;
    },
  };
}
