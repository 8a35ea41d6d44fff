import { existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LotwatchError } from '../core/errors';
import type { Logger } from '../core/log';
import type { SecretBox } from '../core/secrets';
import type { TeamLinkPort } from '../core/teamLink';
import type { ContractEvent } from '../shared/ipc/contract';
import type { TeamUser } from '../shared/ipc/contract/team';
import type { TeamLinkState } from '../shared/ipc/contract/teamLink';
import type { Result } from '../shared/ipc/errors';
import { sseReader } from '../shared/sse';
import { teamCall, teamSignIn, TeamSignInError, type TeamSession } from '../shared/teamClient';

/*
 * The desktop app's link to a team server (docs/team.md): the member's session (cookie and CSRF token, as a program
 * keeps them: src/shared/teamClient.ts), kept in the data folder with the cookie sealed by the system keychain, the
 * calls sent to the team server while joined, and the team server's event stream. No Electron here: the shell
 * (shell.ts, teamRouting.ts) wires it to the window, and the tests run it in plain Node.
 */

/** The link's file in the data folder. */
export const TEAM_LINK_FILE = 'team-link.json';

/** Said when the team server ended the member's session (a 401): the Settings section offers the sign-in again. */
export const SESSION_ENDED = 'Your team session ended. Open Settings → Team server and sign in again.';

/** Added to the team server's refusal of a role the member lacks ("Only an admin or above …"), as the page does. */
export const ASK_ADMIN = 'Ask an admin of your team if you need to do this.';

/** Said when the team server does not answer a call. */
export const SERVER_UNREACHABLE = 'The team server is not reachable. Check the connection, then try again.';

/** How long join and leave wait for the team server's sign-in routes before saying it is not reachable, in ms. */
const AUTH_TIMEOUT_MS = 15_000;
/** Waits before the event stream is opened again after it ended or failed: 1 s, doubling, at most 30 s. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;
/** The event stream is opened again after this long without a byte (the server pings every 25 s), in ms. */
const STREAM_IDLE_MS = 90_000;

/** The file's shape: the cookie is the SecretBox's sealed bytes in base64, never the plain text. */
interface StoredLink {
  version: 1;
  server: string;
  login: string;
  user: TeamUser | null;
  csrf: string;
  cookie: string;
  signed_in: boolean;
}

/** What the link needs from its shell. */
export interface TeamLinkOptions {
  /** The data folder: the link is kept in `<dataDir>/team-link.json` (mode 0600). */
  dataDir: string;
  /** Seals the session cookie at rest (the desktop: Electron safeStorage, the system keychain). */
  secrets: SecretBox;
  log: Logger;
  /** The platform's fetch (tests may wrap it). */
  fetch?: typeof fetch;
  /** Timer for the event stream's reconnect waits, in ms (tests may pass their own). */
  setTimeout?: (fn: () => void, ms: number) => unknown;
}

const networkError = (server: string) =>
  new LotwatchError(
    'network',
    `The team server at ${server} is not reachable. Check the address and your connection, then try again.`,
    { retryable: true },
  );

/**
 * The desktop app's link to one team server (the TeamLinkPort core answers `teamLink.*` with). Loads the link kept
 * in the data folder at construction (a damaged file or a cookie the keychain cannot open: joined, but signed out).
 * While joined, `invoke` sends contract calls to the team server as the member, and listeners given to `on` receive
 * the team server's events (the stream opens with the first listener and again after it breaks: 1 s, doubling to
 * 30 s). Nothing here reads or writes the local database.
 */
export class TeamLink implements TeamLinkPort {
  private link: StoredLink | null = null;
  private session: TeamSession | null = null;
  private readonly file: string;
  private readonly doFetch: typeof fetch;
  private readonly wait: (fn: () => void, ms: number) => unknown;
  private readonly listeners = new Set<(e: ContractEvent) => void>();
  private stream: AbortController | undefined;

  constructor(private readonly opts: TeamLinkOptions) {
    this.file = join(opts.dataDir, TEAM_LINK_FILE);
    this.doFetch = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
    this.wait = opts.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
    this.load();
  }

  /** Whether calls and events are the team server's now (joined, whether or not the session still holds). */
  joined(): boolean {
    return this.link !== null;
  }

  /** The link as Settings shows it. Throws nothing. */
  state(): TeamLinkState {
    const l = this.link;
    return {
      available: true,
      joined: l !== null,
      server: l?.server ?? null,
      login: l?.login ?? null,
      user: l?.user ?? null,
      signed_in: l !== null && l.signed_in && this.session !== null,
    };
  }

  /**
   * Signs in on `server` (an http(s) origin) as `login`: checks that the address is a team server
   * (`GET /auth/session` says `team: true`), signs in (`POST /auth/login`), checks the new session, keeps it (the
   * cookie sealed), and opens the event stream. Joining another server signs out of the one before (best effort).
   * @throws LotwatchError `unauthorized` with the server's one message for a wrong login or password;
   *   `rate_limited` (retryable) with the server's message that says how many seconds to wait; `network` when the
   *   address does not answer within 15 s; `bad_response` when it answers but not as a Lotwatch team server;
   *   `internal` when the keychain cannot seal the cookie or the file cannot be written (nothing changes then).
   */
  async join(server: string, login: string, password: string): Promise<TeamLinkState> {
    const base = new URL(server).origin;
    const timed: typeof fetch = (input, init) =>
      this.doFetch(input, { ...init, signal: AbortSignal.timeout(AUTH_TIMEOUT_MS) });
    await this.checkTeamServer(base, timed);
    let session: TeamSession;
    try {
      session = await teamSignIn(base, login, password, timed);
    } catch (e) {
      if (!(e instanceof TeamSignInError)) throw networkError(base);
      if (e.status === 401) throw new LotwatchError('unauthorized', e.message);
      if (e.status === 429) throw new LotwatchError('rate_limited', e.message, { retryable: true });
      throw new LotwatchError('bad_response', e.message, { retryable: e.status >= 500 });
    }
    const who = await this.readSession(session, timed);
    if (!who) {
      throw new LotwatchError(
        'bad_response',
        `The team server at ${base} signed you in but did not keep the session. Ask your team's admin to check its address setting, then try again.`,
      );
    }
    const before = this.session;
    let link: StoredLink;
    try {
      const sealed = this.opts.secrets.encrypt(session.cookie).toString('base64');
      link = {
        version: 1,
        server: base,
        login,
        user: who,
        csrf: session.csrf,
        cookie: sealed,
        signed_in: true,
      };
      this.save(link);
    } catch (e) {
      void this.logout(session);
      if (e instanceof LotwatchError) throw e;
      throw new LotwatchError(
        'internal',
        `Lotwatch could not keep the team sign-in in its data folder (${(e as Error).message}). Free some disk space, then join again.`,
      );
    }
    this.closeStream();
    this.link = link;
    this.session = session;
    if (before && (before.base !== session.base || before.cookie !== session.cookie))
      void this.logout(before);
    this.openStream();
    this.opts.log.info('joined a team server', { server: base, user: who.id });
    return this.state();
  }

  /** Signs out of the team server (best effort, 15 s at most), forgets the link and closes the stream. Throws nothing. */
  async leave(): Promise<TeamLinkState> {
    const session = this.session;
    this.closeStream();
    this.link = null;
    this.session = null;
    try {
      if (existsSync(this.file)) unlinkSync(this.file);
    } catch (e) {
      this.opts.log.warn('the team link file could not be removed', { error: (e as Error).message });
    }
    if (session) await this.logout(session);
    this.opts.log.info('left the team server');
    return this.state();
  }

  /**
   * One contract call as the member on the team server (`POST /rpc/<method>`). Never throws: a refusal is the
   * server's envelope; a 401 (the session ended) marks the link signed out and answers `unauthorized` with the way
   * back (SESSION_ENDED); a server that does not answer: `network` (retryable). Not joined: `unauthorized` too.
   */
  async invoke(method: string, input: unknown): Promise<Result<unknown>> {
    const session = this.session;
    if (!session || !this.link?.signed_in)
      return { ok: false, error: { code: 'unauthorized', message: SESSION_ENDED, retryable: false } };
    let answer: Awaited<ReturnType<typeof teamCall>>;
    try {
      answer = await teamCall(session, method, input, this.doFetch);
    } catch {
      return { ok: false, error: { code: 'network', message: SERVER_UNREACHABLE, retryable: true } };
    }
    if (answer.status === 401) {
      this.signedOut(session);
      return { ok: false, error: { code: 'unauthorized', message: SESSION_ENDED, retryable: false } };
    }
    if (answer.ok) return { ok: true, value: answer.value };
    const { error } = answer;
    if (answer.status === 403 && error.code === 'forbidden' && error.message.startsWith('Only '))
      return { ok: false, error: { ...error, message: `${error.message} ${ASK_ADMIN}` } };
    return { ok: false, error };
  }

  /**
   * Subscribes to the team server's events (ContractEvents as the server sent them for this member). The stream
   * is open while there is a listener and the link is joined and signed in. Returns the unsubscribe function.
   */
  on(listener: (e: ContractEvent) => void): () => void {
    this.listeners.add(listener);
    this.openStream();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.closeStream();
    };
  }

  /** Closes the event stream for good (the app quits); the link stays kept for the next start. Throws nothing. */
  close(): void {
    this.listeners.clear();
    this.closeStream();
  }

  /** Reads the link file; a damaged one is left as it is and read as not joined. */
  private load(): void {
    let stored: StoredLink;
    try {
      if (!existsSync(this.file)) return;
      stored = JSON.parse(readFileSync(this.file, 'utf8')) as StoredLink;
      if (stored.version !== 1 || typeof stored.server !== 'string' || typeof stored.cookie !== 'string')
        throw new Error('not a team link');
    } catch (e) {
      this.opts.log.warn('the team link file could not be read; using the data on this computer', {
        error: (e as Error).message,
      });
      return;
    }
    this.link = stored;
    try {
      const cookie = this.opts.secrets.decrypt(Buffer.from(stored.cookie, 'base64'));
      this.session = { base: stored.server, cookie, csrf: stored.csrf };
    } catch (e) {
      // The keychain cannot open it (another computer's copy of the folder): joined, and asked to sign in again.
      this.opts.log.warn('the team session could not be unsealed', { error: (e as Error).message });
    }
  }

  /** Writes the link file atomically (a copy beside it, then renamed over it), readable by this user only. */
  private save(link: StoredLink): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(link), { mode: 0o600 });
    renameSync(tmp, this.file);
  }

  /** The session answered 401: kept as signed out (if it is still the link's), the stream closed. */
  private signedOut(session: TeamSession): void {
    if (this.session !== session || !this.link?.signed_in) return;
    this.link = { ...this.link, signed_in: false };
    this.closeStream();
    try {
      this.save(this.link);
    } catch (e) {
      this.opts.log.warn('the team link file could not be written', { error: (e as Error).message });
    }
  }

  /** @throws LotwatchError `network` or `bad_response` unless `base` answers `GET /auth/session` as a team server. */
  private async checkTeamServer(base: string, timed: typeof fetch): Promise<void> {
    let body: { team?: unknown } | null;
    try {
      const r = await timed(new URL('/auth/session', base), { headers: { origin: base } });
      body = (await r.json().catch(() => null)) as { team?: unknown } | null;
    } catch {
      throw networkError(base);
    }
    if (body?.team !== true)
      throw new LotwatchError(
        'bad_response',
        `The address ${base} answers, but not as a Lotwatch team server. Check the address with your team's admin.`,
      );
  }

  /** The member of `s` as `GET /auth/session` says, or null when the server does not know the session. */
  private async readSession(s: TeamSession, timed: typeof fetch): Promise<TeamUser | null> {
    try {
      const r = await timed(new URL('/auth/session', s.base), {
        headers: { origin: s.base, cookie: s.cookie },
      });
      const body = (await r.json()) as { team?: boolean; user?: TeamUser | null };
      return body.team === true && body.user ? body.user : null;
    } catch {
      throw networkError(s.base);
    }
  }

  /** `POST /auth/logout` for `s`, at most 15 s; a failure is logged only (the session expires on the server). */
  private async logout(s: TeamSession): Promise<void> {
    try {
      await this.doFetch(new URL('/auth/logout', s.base), {
        method: 'POST',
        headers: { origin: s.base, cookie: s.cookie, 'x-csrf-token': s.csrf },
        signal: AbortSignal.timeout(AUTH_TIMEOUT_MS),
      });
    } catch (e) {
      this.opts.log.warn('the team server did not answer the sign-out', { error: (e as Error).message });
    }
  }

  private closeStream(): void {
    this.stream?.abort();
    this.stream = undefined;
  }

  /** Opens the event stream when there is someone to hear it and a session to open it with. */
  private openStream(): void {
    const session = this.session;
    if (this.stream || this.listeners.size === 0 || !session || !this.link?.signed_in) return;
    const controller = new AbortController();
    this.stream = controller;
    void (async () => {
      let delay = RETRY_FIRST_MS;
      for (;;) {
        const { again, opened } = await this.readOnce(session, controller.signal);
        if (!again || controller.signal.aborted) break;
        if (opened) delay = RETRY_FIRST_MS;
        await new Promise<void>((resolve) => this.wait(resolve, delay));
        if (controller.signal.aborted) break;
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      }
      if (this.stream === controller) this.stream = undefined;
    })();
  }

  /**
   * Reads the stream until it ends, breaks, goes silent for STREAM_IDLE_MS or `signal` aborts. `again`: false only
   * when the server refused the session (a 401: the link is marked signed out); `opened`: it was open, so the next
   * wait starts from the first again.
   */
  private async readOnce(s: TeamSession, signal: AbortSignal): Promise<{ again: boolean; opened: boolean }> {
    // A connection that went silent (the computer slept, a proxy dropped it without a word) is given up after
    // STREAM_IDLE_MS without even the server's ping, and opened again.
    const attempt = new AbortController();
    const stop = () => attempt.abort();
    signal.addEventListener('abort', stop, { once: true });
    let heard = Date.now();
    const watchdog = setInterval(() => {
      if (Date.now() - heard > STREAM_IDLE_MS) attempt.abort();
    }, STREAM_IDLE_MS / 4);
    watchdog.unref?.();
    try {
      return await this.readAttempt(s, attempt.signal, () => (heard = Date.now()));
    } finally {
      clearInterval(watchdog);
      signal.removeEventListener('abort', stop);
    }
  }

  /** One attempt of readOnce on `signal` (its own, aborted by the page or the watchdog); `heard` on every piece. */
  private async readAttempt(
    s: TeamSession,
    signal: AbortSignal,
    heard: () => void,
  ): Promise<{ again: boolean; opened: boolean }> {
    let res: Response;
    try {
      res = await this.doFetch(new URL(`/events?csrf=${encodeURIComponent(s.csrf)}`, s.base), {
        headers: { origin: s.base, cookie: s.cookie, 'x-csrf-token': s.csrf, accept: 'text/event-stream' },
        signal,
      });
    } catch {
      return { again: true, opened: false };
    }
    if (res.status === 401) {
      this.signedOut(s);
      return { again: false, opened: false };
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => {});
      return { again: true, opened: false };
    }
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    const read = sseReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        heard();
        for (const e of read(decoder.decode(value, { stream: true })))
          for (const l of this.listeners) {
            try {
              l(e);
            } catch (error) {
              this.opts.log.warn('a team event listener failed', { error: (error as Error).message });
            }
          }
      }
    } catch {
      // The connection broke (the server stopped, the computer slept) or was closed here: opened again if it may.
    }
    return { again: true, opened: true };
  }
}
