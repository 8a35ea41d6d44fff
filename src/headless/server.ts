import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import type { Core } from '../core/app';
import { boundText, QUOTE_MAX } from '../core/errorBounds';
import type { Logger } from '../core/log';
import type { ErrorCode, ErrorPayload } from '../shared/ipc/errors';
import type { ContractEvent } from '../shared/ipc/contract';
import { CONTENT_SECURITY_POLICY } from '../shared/csp';
import { runAs } from '../core/actor';
import { CALENDAR_READER, teamServer, type TeamMode } from './teamServer';

export interface HeadlessServerOptions {
  core: Core;
  /** Folder of the built renderer (out/renderer): index.html and assets/. */
  rendererDir: string;
  log: Logger;
  /** Bind address. Default 127.0.0.1: the shell is reachable from this machine only. */
  host?: string;
  /** Port; 0 picks a free one. */
  port?: number;
  /** Called when a page opens its event stream; an event it returns goes to that page alone (the missed summary). */
  onPageOpened?: () => ContractEvent | null;
  /** The per-run token; a random 192-bit one when not given. */
  token?: string;
  /** The calendar subscription's own secret (CalendarFeed): what opens `/calendar.ics`; without it nothing does. */
  calendar?: { opens(secret: string): boolean };
  /**
   * Team mode (teamServer.ts): members sign in and each call runs as its member; no per-run token. Absent: the
   * single-user shell on this computer.
   */
  team?: TeamMode;
}

export interface HeadlessServer {
  /**
   * Starts listening; resolves to the URL to open, which carries the token (`http://127.0.0.1:PORT/?token=...`); in
   * team mode the public origin, or the bound address without a token.
   */
  start(): Promise<string>;
  /** Closes the event streams and the server; waits for requests in flight. */
  dispose(): Promise<void>;
  readonly token: string;
  /** The bound port (after start). */
  readonly port: number;
  /** Sends one event to every open page (SSE stream) that is not a core event; returns how many pages got it. */
  broadcast(e: ContractEvent): number;
}

/** HTTP status for an error code in an RPC answer. Codes about the call itself are 4xx; domain errors are 200. */
export function statusForError(code: ErrorCode): number {
  switch (code) {
    case 'bad_input':
      return 400;
    case 'unknown_method':
      return 404;
    case 'forbidden_sender':
      return 403;
    case 'internal':
      return 500;
    case 'db_unavailable':
    case 'db_unreachable':
    case 'db_from_future':
      return 503;
    default:
      return 200;
  }
}

/** The headers every answer carries: no sniffing, no referrer, nothing cached (answers hold the buyer's data). */
const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

function envelope(code: ErrorCode, message: string): { ok: false; error: ErrorPayload } {
  return { ok: false, error: { code, message, retryable: false } };
}

/**
 * Answers a request Node's HTTP parser refused before Fastify saw it ('clientError': a request line or headers over
 * 16 KB, a NUL or raw non-ASCII byte in the address, an unknown verb, a doubled Content-Length): the same envelope
 * and security headers as every other answer, written straight to the socket, which then closes.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The address or the headers of this request are too large (the limit is 16 KB).']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request did not arrive in time. Please try again.']
        : [
            400,
            'This request is not valid HTTP (for example, its address holds characters that must be %-escaped).',
          ];
  const body = JSON.stringify(envelope('bad_input', message));
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...Object.entries(SECURITY_HEADERS).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

/**
 * The page and its own files: the built renderer, the same for every visitor and without data, served without a
 * credential (a browser cannot add a header to a page load or a script tag).
 */
function isPageFile(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  return (
    path === '/' ||
    path === '/index.html' ||
    path === '/favicon.svg' ||
    (/^\/assets\/[\w.-]+$/.test(path) && !path.includes('..'))
  );
}

/**
 * Whether a team server asks `req` for a session (teamServer.ts credential): everything but the page's own files, the
 * auth routes (which answer for themselves) and the calendar (its own secret).
 */
function needsSession(req: FastifyRequest): boolean {
  const path = req.url.split('?')[0] ?? '';
  return !isPageFile(req.method, path) && !path.startsWith('/auth/') && path !== '/calendar.ics';
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The headless shell's server (docs/architecture.md "Why a headless shell"): serves the built renderer and carries
 * the contract over `POST /rpc/<method>` (JSON body = the method's input; answer = the Result envelope) and
 * `GET /events` (Server-Sent Events, one `data:` line of `{name, payload}` per contract event).
 *
 * Guards, in order, on every request: the Host header must name this server on a loopback name (DNS
 * rebinding), an Origin header must be this server's own (CSRF), then the credential (docs/architecture.md "One
 * contract, two shells"). The page and its own files (`/`, `/index.html`, `/favicon.svg`, `/assets/<file>`) hold no
 * data and need none, so a reload works once the page has taken the token out of its address; a wrong `?token=` on
 * the page answers a readable 401. Everything else (`/rpc/*`, `/events`, any other path) needs the per-run token as
 * `Authorization: Bearer <token>`: never a cookie, since browsers send a host's cookies to every port on it, so any
 * other local web server would receive it. `/calendar.ics` opens with the calendar's own secret only
 * (`?feed=<secret>`, opts.calendar), which opens nothing else. Failures answer 403 or 401 with a typed envelope. Every
 * answer the server makes itself (404, 413, 415, 400, 431, and the HTTP parser's refusals) carries the same envelope
 * and security headers (docs/architecture.md "Error answers").
 *
 * In team mode (`opts.team`, teamServer.ts; docs/architecture.md "A team on one server") the per-run token is not
 * used: the Host and Origin checks accept the public origin too, a member's session cookie and CSRF token open
 * `/rpc/*` and `/events`, each call passes the role gate and runs as its member, and `/auth/*` signs in and out.
 */
export function createHeadlessServer(opts: HeadlessServerOptions): HeadlessServer {
  const host = opts.host ?? '127.0.0.1';
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const { core, log } = opts;
  const team = opts.team ? teamServer(opts.team, core, log, statusForError) : null;
  let port = 0;
  const streams = new Set<FastifyReply>();
  let indexHtml: string | undefined;

  const app: FastifyInstance = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: true,
    // Behind the team's reverse proxy on this computer, the client's address is the proxy's X-Forwarded-For.
    ...(team ? { trustProxy: ['127.0.0.1', '::1'] } : {}),
    // Errors the router raises before any route or hook (a badly encoded path, a method name longer than the
    // router's 100 characters) pass the same guards and answer the typed envelope with the same security headers
    // as every other answer. No method name is that long, so a long one is an unknown method.
    frameworkErrors: (error, req, res) => {
      const reply = (res as unknown as FastifyReply).headers(SECURITY_HEADERS);
      if (guard(req, reply)) return;
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        void reply.code(404).send(envelope('unknown_method', 'There is no method with a name that long.'));
        return;
      }
      void reply.code(400).send(envelope('bad_input', 'The address of this request is not valid.'));
    },
    // Errors Node's HTTP parser raises before Fastify sees a request (431 for a 20 KB address, 400 for a NUL).
    clientErrorHandler: answerClientError,
  });

  const allowedHosts = () => {
    const names = new Set(['127.0.0.1', 'localhost', '[::1]', host.includes(':') ? `[${host}]` : host]);
    return new Set([...names].map((n) => `${n}:${port}`));
  };

  const wantsHtml = (req: FastifyRequest) =>
    req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');

  const refuse = (
    reply: FastifyReply,
    req: FastifyRequest,
    status: 401 | 403,
    code: ErrorCode,
    message: string,
  ) => {
    if (wantsHtml(req)) {
      return reply
        .code(status)
        .type('text/html; charset=utf-8')
        .header('Content-Security-Policy', "default-src 'none'")
        .send(
          `<!doctype html><meta charset="utf-8"><title>Lotwatch</title>` +
            `<body style="font:16px system-ui;margin:3em"><h1>Lotwatch</h1><p>${message}</p></body>`,
        );
    }
    return reply.code(status).send(envelope(code, message));
  };

  /** The guards of every request; answers the refusal and returns true when one fails. */
  const guard = (req: FastifyRequest, reply: FastifyReply): boolean => {
    const hostHeader = (req.headers.host ?? '').toLowerCase();
    if (team ? !team.hostAllowed(hostHeader, port) : !allowedHosts().has(hostHeader)) {
      refuse(
        reply,
        req,
        403,
        'forbidden',
        'Refused: this Lotwatch server only answers requests addressed to itself on this computer.',
      );
      return true;
    }
    const origin = req.headers.origin;
    const originRefused = team
      ? origin !== undefined && !team.originAllowed(origin, port)
      : origin !== undefined && !allowedHosts().has(origin.replace(/^http:\/\//, '').toLowerCase());
    if (originRefused) {
      refuse(reply, req, 403, 'forbidden', 'Refused: requests from other web sites are not allowed.');
      return true;
    }
    if (req.headers['sec-fetch-site'] === 'cross-site') {
      refuse(reply, req, 403, 'forbidden', 'Refused: requests from other web sites are not allowed.');
      return true;
    }
    // The router has already refused an address that is not valid; a query it cannot decode has no token.
    const url = URL.canParse(req.url, 'http://x') ? new URL(req.url, 'http://x') : new URL('http://x/');
    // The path as sent, not as URL normalises it: `/assets/../rpc/x` is not a file of the page.
    const path = req.url.split('?')[0] ?? '';
    if (path === '/calendar.ics') {
      const feed = url.searchParams.get('feed');
      if (feed && opts.calendar?.opens(feed)) return false;
      refuse(
        reply,
        req,
        401,
        'unauthorized',
        'This calendar address is no longer valid. Copy the current one from Auction day in Lotwatch into your calendar app.',
      );
      return true;
    }
    // A team server's members sign in: its page needs no token, and the rest is checked per session (credential).
    if (team) return false;
    const queryToken = url.searchParams.get('token');
    if (isPageFile(req.method, path)) {
      if (queryToken === null || safeEqual(queryToken, token)) return false;
      refuse(
        reply,
        req,
        401,
        'unauthorized',
        'The token in this address is not valid for this run. Open the address printed by `npm run serve`.',
      );
      return true;
    }
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !safeEqual(bearer, token)) {
      refuse(
        reply,
        req,
        401,
        'unauthorized',
        bearer
          ? 'The token of this page is not valid for this run (Lotwatch was restarted). Open the address printed by `npm run serve`.'
          : 'A token is required. Open the full address printed by `npm run serve` (it ends with ?token=...).',
      );
      return true;
    }
    return false;
  };

  app.addHook('onRequest', async (req, reply) => {
    if (guard(req, reply)) return reply;
    if (team && needsSession(req) && (await team.credential(req, reply))) return reply;
  });

  app.addHook('onSend', async (_req, reply, payload) => {
    reply.headers(SECURITY_HEADERS);
    return payload;
  });

  app.setErrorHandler((error: { statusCode?: number; code?: string; message: string }, _req, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      log.error('headless request failed', { error: error.message });
      return reply
        .code(500)
        .send(envelope('internal', 'Something went wrong inside Lotwatch. Please try again.'));
    }
    const message =
      error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? 'Send the input as JSON (Content-Type: application/json).'
        : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? 'The request body is too large (the limit is 1 MB).'
          : 'The request body is not valid JSON.';
    return reply.code(status === 415 || status === 413 ? status : 400).send(envelope('bad_input', message));
  });

  app.setNotFoundHandler((req, reply) => {
    // The address is the caller's: quoted by its head and tail only, like any value in an error.
    const path = boundText(req.url.split('?')[0] ?? '', QUOTE_MAX);
    reply.code(404).send(envelope('unknown_method', `Nothing is served at ${req.method} ${path}.`));
  });

  // Empty bodies are allowed: a method without input.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      const e = Object.assign(new Error('bad json'), { statusCode: 400 });
      done(e, undefined);
    }
  });

  app.post<{ Params: { method: string } }>('/rpc/:method', async (req, reply) => {
    if (team) {
      const r = await team.rpc(req, req.params.method, req.body);
      return reply.code(r.status).send(r.body);
    }
    const result = await core.invoke(req.params.method, req.body);
    return reply.code(result.ok ? 200 : statusForError(result.error.code)).send(result);
  });

  app.get('/events', (req, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write(': connected\n\n');
    const first = opts.onPageOpened?.() ?? null;
    if (team) {
      team.stream(req, res, first);
      return;
    }
    if (first) res.write(`data: ${JSON.stringify(first)}\n\n`);
    const unsubscribe = core.on((e) => res.write(`data: ${JSON.stringify(e)}\n\n`));
    const heartbeat = setInterval(() => res.write(': ping\n\n'), 25_000);
    streams.add(reply);
    req.raw.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(reply);
    });
  });

  // The watched sales as a calendar a calendar app can subscribe to (the address holds the calendar's own secret).
  app.get('/calendar.ics', async (_req, reply) => {
    // On a team server the calendar's secret reads as a viewer would: it opens the calendar and nothing else.
    const r = await (team
      ? runAs(CALENDAR_READER, () => core.invoke('plan.calendar', undefined))
      : core.invoke('plan.calendar', undefined));
    if (!r.ok) return reply.code(statusForError(r.error.code)).send(r);
    return reply
      .type('text/calendar; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', 'inline; filename="lotwatch-sales.ics"')
      .send((r.value as { ics: string }).ics);
  });

  const serveIndex = async (_req: FastifyRequest, reply: FastifyReply) => {
    indexHtml ??= await readFile(join(opts.rendererDir, 'index.html'), 'utf8');
    return reply
      .type('text/html; charset=utf-8')
      .header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
      .send(indexHtml);
  };
  app.get('/', serveIndex);
  app.get('/index.html', serveIndex);

  team?.register(app);
  void app.register(fastifyStatic, { root: opts.rendererDir, index: false, wildcard: true, serve: true });

  return {
    token,
    get port() {
      return port;
    },
    broadcast(e) {
      if (team) return team.broadcast(e);
      for (const s of streams) s.raw.write(`data: ${JSON.stringify(e)}\n\n`);
      return streams.size;
    },
    async start() {
      await app.listen({ host, port: opts.port ?? 0 });
      const addr = app.server.address();
      port = typeof addr === 'object' && addr ? addr.port : 0;
      const shown = host.includes(':') ? `[${host}]` : host;
      if (team) return opts.team?.publicOrigin ?? `http://${shown}:${port}/`;
      return `http://${shown}:${port}/?token=${token}`;
    },
    async dispose() {
      team?.close();
      for (const s of streams) s.raw.end();
      streams.clear();
      await app.close();
    },
  };
}
