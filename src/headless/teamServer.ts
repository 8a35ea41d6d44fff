import { inQuietHours } from '../core/alerts/quietHours';
import { machineOffset } from '../core/owners';
import type { Settings } from '../shared/settings';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { runAs, type Actor } from '../core/actor';
import type { Core } from '../core/app';
import type { Logger } from '../core/log';
import {
  actorOf,
  inSession,
  sameText,
  SESSION_MAX_MS,
  type LiveSession,
  type TeamAccounts,
} from '../core/team/accounts';
import { teamRefusal } from '../core/team/gate';
import type { ContractEvent } from '../shared/ipc/contract';
import type { ErrorCode, ErrorPayload, Result } from '../shared/ipc/errors';

/*
 * The team mode of the headless shell (docs/architecture.md "A team on one server"; docs/team.md): members sign in
 * with a login and a password; a session cookie (HttpOnly, SameSite=Strict, Secure behind TLS) and the session's CSRF
 * token (header X-CSRF-Token, or `?csrf=` on the event stream, which cannot send a header) open `/rpc/*` and
 * `/events`; each call passes the role gate and runs as its member (runAs). There is no per-run token.
 */

/** How a team server is reached and how its cookie is set. */
export interface TeamMode {
  accounts: TeamAccounts;
  /** The reverse proxy's origin (`https://lotwatch.example.com`), or null: reached on this computer only. */
  publicOrigin: string | null;
  /** Mark the cookie Secure (sent over https only); on when the public origin is https. */
  secureCookies: boolean;
}

/** The server's side of team mode: the guards' team half, the auth routes, and the calls and streams per member. */
export interface TeamServer {
  /** Whether `hostHeader` names this server: the public origin's host, or a loopback name with the bound port. */
  hostAllowed(hostHeader: string, port: number): boolean;
  /** Whether an Origin header is this server's: the public origin, or http on a loopback name with the bound port. */
  originAllowed(origin: string, port: number): boolean;
  /**
   * The credential of a request for data: a live session and its CSRF token. Answers the refusal (401 without a
   * session, 403 with a missing or wrong token) and returns true when one fails. Auth routes, the page's files and
   * the calendar (its own secret) are not asked here.
   */
  credential(req: FastifyRequest, reply: FastifyReply): Promise<boolean>;
  /** The auth routes: GET /auth/session, POST /auth/login, POST /auth/logout. */
  register(app: FastifyInstance): void;
  /** One contract call as the request's member: the role gate (403 `forbidden`, core not called), then runAs. */
  rpc(
    req: FastifyRequest,
    method: string,
    input: unknown,
  ): Promise<{ status: number; body: Result<unknown> }>;
  /** The event stream of the request's member (already hijacked and headed): registers it until it closes. */
  stream(req: FastifyRequest, res: ServerResponse, first: ContractEvent | null): void;
  /**
   * Sends a shell event to the streams it is for (`notification.posted`: members with notifications on and outside
   * their own quiet hours, in the server's time zone).
   */
  broadcast(e: ContractEvent): number;
  /** Ends every stream. */
  close(): void;
}

/** The read-only reader of the calendar subscription: it may call what a viewer may (the calendar), nothing else. */
export const CALENDAR_READER: Actor = Object.freeze({
  userId: null,
  name: 'Calendar',
  role: 'viewer' as const,
});

/** The one answer to any wrong login or password (docs/writing-guide.md: what happened, then what to do). */
export const SIGN_IN_REFUSED = 'The login or the password is not right. Check both and try again.';

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

function envelope(code: ErrorCode, message: string, retryable = false): { ok: false; error: ErrorPayload } {
  return { ok: false, error: { code, message, retryable } };
}

/**
 * Team mode's side of the headless server over `core`. `statusFor` maps an error code of a call's answer to its
 * HTTP status (server.ts statusForError).
 */
export function teamServer(
  mode: TeamMode,
  core: Core,
  log: Logger,
  statusFor: (code: ErrorCode) => number,
): TeamServer {
  const { accounts } = mode;
  const cookieName = mode.secureCookies ? '__Host-lotwatch_session' : 'lotwatch_session';
  const publicHost = mode.publicOrigin ? new URL(mode.publicOrigin).host.toLowerCase() : null;
  const sessions = new WeakMap<FastifyRequest, { id: string; live: LiveSession }>();
  const streams = new Map<ServerResponse, { actor: Actor; sessionId: string }>();

  // An answer read for a stream may come back after the page left: nothing is written to a closed stream.
  const write = (res: ServerResponse, e: ContractEvent) => {
    if (!res.writableEnded && !res.destroyed) res.write(`data: ${JSON.stringify(e)}\n\n`);
  };
  const pathOf = (req: FastifyRequest) => req.url.split('?')[0] ?? '';
  // Read from the header, not req.cookies: the guards run before the cookie plugin's own hook.
  const cookieOf = (req: FastifyRequest) => fastifyCookie.parse(req.headers.cookie ?? '')[cookieName] ?? '';
  const setSessionCookie = (reply: FastifyReply, value: string, maxAgeS: number) =>
    reply.setCookie(cookieName, value, {
      httpOnly: true,
      sameSite: 'strict',
      secure: mode.secureCookies,
      path: '/',
      maxAge: maxAgeS,
    });

  /** Sends `e` to one stream as its member sees it: unread and settings are per member, so they are read as them. */
  const forward = async (res: ServerResponse, actor: Actor, e: ContractEvent): Promise<void> => {
    if (e.name === 'unread.changed') {
      const r = await runAs(actor, () => core.invoke('alerts.unread', undefined));
      if (r.ok) write(res, { name: 'unread.changed', payload: r.value as { count: number } });
      return;
    }
    if (e.name === 'settings.changed') {
      const r = await runAs(actor, () => core.invoke('settings.get', undefined));
      if (r.ok) write(res, { name: 'settings.changed', payload: r.value as never });
      return;
    }
    if (e.name === 'notification.posted') {
      const r = await runAs(actor, () => core.invoke('settings.get', undefined));
      if (!r.ok) return;
      const own = r.value as Pick<Settings, 'notificationsEnabled' | 'quietHours'>;
      // The member's own switch and quiet hours (their inbox keeps the alert; their channels hold it till morning).
      const now = Date.now();
      if (own.notificationsEnabled && !inQuietHours(now, own.quietHours, machineOffset(now))) write(res, e);
      return;
    }
    write(res, e);
  };
  const forwardLogged = (res: ServerResponse, actor: Actor, e: ContractEvent) => {
    forward(res, actor, e).catch((error: unknown) =>
      log.warn('an event could not be sent to a page', { event: e.name, error: (error as Error).message }),
    );
  };

  return {
    hostAllowed(hostHeader, port) {
      if (publicHost !== null && hostHeader === publicHost) return true;
      return LOOPBACK.some((n) => hostHeader === `${n}:${port}`);
    },

    originAllowed(origin, port) {
      const o = origin.toLowerCase();
      if (mode.publicOrigin !== null && o === new URL(mode.publicOrigin).origin) return true;
      return LOOPBACK.some((n) => o === `http://${n}:${port}`);
    },

    async credential(req, reply) {
      const path = pathOf(req);
      const live = await accounts.session(cookieOf(req));
      if (!live) {
        await reply
          .code(401)
          .send(
            envelope('unauthorized', 'Sign in to the team server: your session ended or was never started.'),
          );
        return true;
      }
      const header = req.headers['x-csrf-token'];
      const sent =
        typeof header === 'string'
          ? header
          : path === '/events' && req.method === 'GET'
            ? (new URL(req.url, 'http://x').searchParams.get('csrf') ?? '')
            : '';
      if (!sameText(sent, live.csrf)) {
        await reply
          .code(403)
          .send(
            envelope(
              'forbidden',
              "Refused: this request does not carry this page's security token. Reload the page and try again.",
            ),
          );
        return true;
      }
      sessions.set(req, { id: cookieOf(req), live });
      return false;
    },

    register(app) {
      void app.register(fastifyCookie);
      app.get('/auth/session', async (req) => {
        const live = await accounts.session(cookieOf(req));
        return { team: true, user: live?.user ?? null, csrf: live?.csrf ?? null };
      });
      app.post('/auth/login', async (req, reply) => {
        const body = (req.body ?? {}) as { login?: unknown; password?: unknown };
        const { login, password } = body;
        // A login or password no member can have is refused at once: its length says nothing about the members.
        if (
          typeof login !== 'string' ||
          typeof password !== 'string' ||
          login.length === 0 ||
          login.length > 64 ||
          password.length === 0 ||
          password.length > 256
        )
          return reply.code(401).send(envelope('unauthorized', SIGN_IN_REFUSED));
        const r = await accounts.signIn(login, password, req.ip);
        if (!r.ok && r.reason === 'throttled')
          return reply
            .code(429)
            .header('Retry-After', String(r.retryAfterS))
            .send({
              ...envelope(
                'rate_limited',
                `Too many failed sign-ins. Wait ${r.retryAfterS} seconds, then try again.`,
                true,
              ),
              retry_after_s: r.retryAfterS,
            });
        if (!r.ok) return reply.code(401).send(envelope('unauthorized', SIGN_IN_REFUSED));
        const old = cookieOf(req);
        if (old) await accounts.signOut(old);
        setSessionCookie(reply, r.sessionId, Math.floor(SESSION_MAX_MS / 1000));
        log.info('team member signed in', { user: r.user.id });
        return { user: r.user, csrf: r.csrf };
      });
      app.post('/auth/logout', async (req, reply) => {
        const id = cookieOf(req);
        if (id) await accounts.signOut(id);
        for (const [res, s] of streams) if (id && s.sessionId === id) res.end();
        reply.clearCookie(cookieName, {
          path: '/',
          httpOnly: true,
          sameSite: 'strict',
          secure: mode.secureCookies,
        });
        return { ok: true };
      });
    },

    async rpc(req, method, input) {
      const s = sessions.get(req);
      if (!s) return { status: 401, body: envelope('unauthorized', 'Sign in to the team server first.') };
      const actor = actorOf(s.live.user);
      const refused = teamRefusal(actor, method, input);
      if (refused) return { status: 403, body: { ok: false, error: refused } };
      const r = await runAs(actor, () => inSession(s.live.idHash, () => core.invoke(method, input)));
      return { status: r.ok ? 200 : statusFor(r.error.code), body: r };
    },

    stream(req, res, first) {
      const s = sessions.get(req);
      if (!s) {
        res.end();
        return;
      }
      const actor = actorOf(s.live.user);
      streams.set(res, { actor, sessionId: s.id });
      if (first) forwardLogged(res, actor, first);
      // The member's own unread count at once: the page never shows another member's.
      forwardLogged(res, actor, { name: 'unread.changed', payload: { count: 0 } });
      const unsubscribe = core.on((e) => forwardLogged(res, actor, e));
      // Every heartbeat also checks the session: a member signed out, turned off or expired loses the stream.
      const heartbeat = setInterval(() => {
        res.write(': ping\n\n');
        accounts
          .session(s.id)
          .then((live) => {
            if (!live) res.end();
          })
          .catch(() => {});
      }, 25_000);
      req.raw.on('close', () => {
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(res);
      });
    },

    broadcast(e) {
      for (const [res, s] of streams) forwardLogged(res, s.actor, e);
      return streams.size;
    },

    close() {
      for (const res of streams.keys()) res.end();
      streams.clear();
    },
  };
}
