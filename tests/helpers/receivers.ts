import { randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * Real receivers for the alert channel tests (docs/architecture.md "Delivery"): an SMTP server, an HTTP
 * endpoint for webhooks and a stand-in of an ntfy server, each on 127.0.0.1 with a port the system picks, and
 * receivers that never finish an answer (a body dripped a byte at a time, endless SMTP `250-` lines).
 * They record what arrived, and a `hold` hook keeps one from answering until the test lets it, so a test can
 * stop Lotwatch between "the receiver has it" and "Lotwatch heard back".
 */

/** One email as the SMTP server received it. */
export interface ReceivedMail {
  /** The Message-ID header, with its angle brackets: `<key@lotwatch.app>`. */
  messageId: string;
  subject: string;
  /** The From and To headers as text (`"Name" <a@b>` or `a@b`). */
  from: string;
  to: string;
  text: string;
  html: string;
  /** Every header, names in lower case, the value as written (unfolded). */
  headers: Record<string, string>;
  /** The login the client used (AUTH), or null without one. */
  user: string | null;
  /** The whole message as sent (RFC 5322). */
  raw: string;
}

/** A running SMTP server. */
export interface SmtpReceiver {
  host: string;
  port: number;
  /** Every message received, in order, recorded before `hold` is awaited. */
  received: ReceivedMail[];
  /** Every AUTH the server was given (PLAIN or LOGIN), accepted or not, in order. */
  logins: { user: string; password: string }[];
  /**
   * Every connection error the server saw, in order: a client that dies mid-message (a sender killed with SIGKILL)
   * resets its socket, and smtp-server reports that as an `error` event, which would crash the test process unheard.
   */
  connectionErrors: Error[];
  /** Calls `listener` on each new SMTP connection (before the greeting). */
  onConnect(listener: () => void): void;
  /** Stops the server; connections still open are dropped after 200 ms. */
  close(): Promise<void>;
}

/**
 * Starts an SMTP server (npm smtp-server) without STARTTLS, for a channel with security `none`. With `user`,
 * AUTH PLAIN/LOGIN must give that user and `password` (anything else gets smtp-server's 535); without, no
 * login is needed. `hold`, awaited after a message is recorded and before the server answers 250 to it, keeps
 * the client waiting (a test's crash point).
 */
export async function startSmtpServer(
  opts: { user?: string; password?: string; hold?: (mail: ReceivedMail) => Promise<void> } = {},
): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  const logins: { user: string; password: string }[] = [];
  const connectListeners: (() => void)[] = [];
  const connectionErrors: Error[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: opts.user === undefined,
    allowInsecureAuth: true,
    logger: false,
    closeTimeout: 200,
    onConnect(_session, callback) {
      for (const l of connectListeners) l();
      callback();
    },
    onAuth(auth, _session, callback) {
      logins.push({ user: auth.username ?? '', password: auth.password ?? '' });
      if (opts.user !== undefined && auth.username === opts.user && auth.password === (opts.password ?? '')) {
        callback(null, { user: auth.username });
        return;
      }
      callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', (err: Error) => callback(err));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        void (async () => {
          const parsed = await simpleParser(raw);
          const headers: Record<string, string> = {};
          for (const h of parsed.headerLines) {
            headers[h.key] = h.line
              .slice(h.line.indexOf(':') + 1)
              .replace(/\r?\n[ \t]+/g, ' ')
              .trim();
          }
          const addressText = (a: typeof parsed.to): string =>
            a === undefined ? '' : Array.isArray(a) ? a.map((x) => x.text).join(', ') : a.text;
          const mail: ReceivedMail = {
            messageId: parsed.messageId ?? '',
            subject: parsed.subject ?? '',
            from: addressText(parsed.from),
            to: addressText(parsed.to),
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            headers,
            user: typeof session.user === 'string' ? session.user : null,
            raw: raw.toString('utf8'),
          };
          received.push(mail);
          if (opts.hold) await opts.hold(mail);
        })().then(
          () => callback(),
          (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
        );
      });
    },
  });
  server.on('error', (err: Error) => connectionErrors.push(err));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    received,
    logins,
    connectionErrors,
    onConnect(listener) {
      connectListeners.push(listener);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One HTTP request as a receiver saw it. */
export interface ReceivedRequest {
  method: string;
  /** The path with its query, e.g. `/hooks/abc?x=1`. */
  path: string;
  /** Header names in lower case, as node:http gives them. */
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON when it is JSON, else the text ('' for none). */
  body: unknown;
}

/** A running HTTP receiver. */
export interface HttpReceiver {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  port: number;
  /** Every request, in order, recorded before `hold` is awaited. */
  received: ReceivedRequest[];
  /** Calls `listener` on each new TCP connection. */
  onConnection(listener: (socket: Socket) => void): void;
  /** Stops the server, dropping open (keep-alive or held) connections. */
  close(): Promise<void>;
}

async function readRequest(req: IncomingMessage): Promise<ReceivedRequest> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  let body: unknown = text;
  if (text !== '' && /json/i.test(req.headers['content-type'] ?? '')) {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = text;
    }
  }
  return { method: req.method ?? '', path: req.url ?? '/', headers: req.headers, body };
}

/**
 * A node:http server on 127.0.0.1 at a free port that answers every request with `handler` (a handler that throws
 * answers 500, or drops the connection when the head is already sent): a fake service or receiver over real HTTP.
 * `close` drops open connections too, so a test never waits for a keep-alive.
 * @throws Error when the port cannot be bound.
 */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
): Promise<{
  server: Server;
  port: number;
  onConnection(l: (s: Socket) => void): void;
  close(): Promise<void>;
}> {
  const server = createServer((req, res) => {
    (async () => handler(req, res))().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    onConnection(l) {
      server.on('connection', l);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What an HTTP receiver answers: a status, extra headers, and a body (JSON unless a string). */
type Answer<T> = T | ((req: ReceivedRequest) => T);
const pick = <T>(a: Answer<T>, req: ReceivedRequest): T =>
  typeof a === 'function' ? (a as (r: ReceivedRequest) => T)(req) : a;

/**
 * Starts an HTTP endpoint (node:http) that records every request and answers `status` (default 200) with
 * `headers` and `body` (default `{"ok":true}`, or `{"ok":false}` for a status of 300 or more), after awaiting
 * `hold`. Each option may be a function of the request.
 */
export async function startHttpReceiver(
  opts: {
    status?: Answer<number>;
    headers?: Answer<Record<string, string>>;
    body?: Answer<unknown>;
    hold?: (req: ReceivedRequest) => Promise<void>;
  } = {},
): Promise<HttpReceiver> {
  const received: ReceivedRequest[] = [];
  const s = await listen(async (req, res) => {
    const r = await readRequest(req);
    received.push(r);
    if (opts.hold) await opts.hold(r);
    const status = opts.status === undefined ? 200 : pick(opts.status, r);
    const body = opts.body === undefined ? { ok: status < 300 } : pick(opts.body, r);
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, {
      'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
      ...(opts.headers === undefined ? {} : pick(opts.headers, r)),
    });
    res.end(text);
  });
  return {
    url: `http://127.0.0.1:${s.port}`,
    port: s.port,
    received,
    onConnection: s.onConnection,
    close: s.close,
  };
}

/** A message as the ntfy stand-in keeps it in its cache (ntfy's message JSON). Time in unix seconds. */
export interface NtfyMessage {
  id: string;
  time: number;
  event: 'message';
  topic: string;
  title?: string;
  message: string;
  priority?: number;
  tags?: string[];
  click?: string;
  sequence_id?: string;
}

/** A running ntfy stand-in. */
export interface NtfyReceiver extends HttpReceiver {
  /** The message cache, oldest first (a repeat with the same sequence id is a second entry, as in ntfy). */
  messages: NtfyMessage[];
}

/**
 * Starts a small stand-in of an ntfy server (node:http): `POST /` with ntfy's JSON publish body caches the
 * message (before `hold` is awaited, as ntfy caches on publish) and answers 200 with it; `GET
 * /<topic>/json?poll=1&since= <unix s>` answers the topic's cached messages with time >= since, one JSON
 * object per line. With `requireToken`, both need `Authorization: Bearer <token>` (else 401). With
 * `noSequenceIds`, it behaves as an ntfy older than sequence ids: it drops them. `received` lists every
 * publish request (repeats included).
 */
export async function startNtfyServer(
  opts: {
    requireToken?: string;
    noSequenceIds?: boolean;
    hold?: (req: ReceivedRequest) => Promise<void>;
  } = {},
): Promise<NtfyReceiver> {
  const received: ReceivedRequest[] = [];
  const messages: NtfyMessage[] = [];
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(`${JSON.stringify(body)}\n`);
  };
  const s = await listen(async (req, res) => {
    const r = await readRequest(req);
    if (opts.requireToken !== undefined && r.headers.authorization !== `Bearer ${opts.requireToken}`) {
      if (r.method === 'POST') received.push(r);
      json(res, 401, { code: 40101, http: 401, error: 'unauthorized' });
      return;
    }
    const url = new URL(r.path, 'http://localhost');
    if (r.method === 'POST' && url.pathname === '/') {
      received.push(r);
      const b = r.body as Record<string, unknown> | null;
      if (b === null || typeof b !== 'object' || typeof b.topic !== 'string') {
        json(res, 400, { code: 40001, http: 400, error: 'invalid request: topic missing' });
        return;
      }
      const m: NtfyMessage = {
        id: randomBytes(6).toString('hex'),
        time: Math.floor(Date.now() / 1000),
        event: 'message',
        topic: b.topic,
        message: typeof b.message === 'string' ? b.message : 'triggered',
      };
      if (typeof b.title === 'string') m.title = b.title;
      if (typeof b.priority === 'number') m.priority = b.priority;
      if (Array.isArray(b.tags)) m.tags = b.tags.map(String);
      if (typeof b.click === 'string') m.click = b.click;
      if (typeof b.sequence_id === 'string' && !opts.noSequenceIds) m.sequence_id = b.sequence_id;
      messages.push(m);
      if (opts.hold) await opts.hold(r);
      json(res, 200, m);
      return;
    }
    const poll = /^\/([-_A-Za-z0-9]{1,64})\/json$/.exec(url.pathname);
    if (r.method === 'GET' && poll && url.searchParams.get('poll') === '1') {
      const since = url.searchParams.get('since') ?? 'all';
      const from = since === 'all' ? 0 : Number(since);
      const lines = messages
        .filter((m) => m.topic === poll[1] && m.time >= from)
        .map((m) => JSON.stringify(m));
      res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(lines.map((l) => `${l}\n`).join(''));
      return;
    }
    json(res, 404, { code: 40401, http: 404, error: 'page not found' });
  });
  return {
    url: `http://127.0.0.1:${s.port}`,
    port: s.port,
    received,
    messages,
    onConnection: s.onConnection,
    close: s.close,
  };
}

/** A port on 127.0.0.1 that nothing listens on (taken, then let go), for "connection refused" tests. */
export async function closedPort(): Promise<number> {
  const s = await listen(async (_req, res) => {
    res.end();
  });
  await s.close();
  return s.port;
}

/** A count that a test can wait on: `reached(n)` resolves once it is at least n. */
export interface Tally {
  readonly n: number;
  reached(n: number): Promise<void>;
}

function tally(): Tally & { bump(): void } {
  let n = 0;
  const waiting: { at: number; resolve: () => void }[] = [];
  return {
    get n() {
      return n;
    },
    bump() {
      n++;
      for (const w of waiting.filter((x) => x.at <= n)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    },
    reached(at) {
      return at <= n ? Promise.resolve() : new Promise((resolve) => waiting.push({ at, resolve }));
    },
  };
}

/** A receiver that answers slowly on purpose, and lets the test wait on what it has done so far. */
export interface SlowReceiver {
  /** `http://127.0.0.1:<port>` for HTTP, or the host for SMTP. */
  url: string;
  host: string;
  port: number;
  /** Requests (HTTP) or SMTP connections that reached the slow part. */
  requests: Tally;
  /** Each HTTP request as `<method> <path>`, in order (empty for SMTP). */
  seen: string[];
  /** Single bytes (HTTP) or `250-` lines (SMTP) written so far, over every connection. */
  drips: Tally;
  /** Connections the client let go of (closed or ended its side) while the receiver was still dripping. */
  dropped: Tally;
  close(): Promise<void>;
}

/**
 * Starts an HTTP endpoint (node:http) that reads each request, answers `status` (default 200) with its headers at
 * once, then writes one byte of body every `everyMs` ms (real time, default 4,000) and never ends it: a receiver that
 * is alive but never finishes. Every request counts in `requests`; every byte in `drips`; a client that goes away in
 * `dropped`.
 */
export async function startDripReceiver(
  opts: { status?: number; everyMs?: number } = {},
): Promise<SlowReceiver> {
  const requests = tally();
  const drips = tally();
  const dropped = tally();
  const timers = new Set<NodeJS.Timeout>();
  const seen: string[] = [];
  const s = await listen(async (req, res) => {
    for await (const _ of req) void _;
    seen.push(`${req.method} ${req.url}`);
    requests.bump();
    res.writeHead(opts.status ?? 200, { 'content-type': 'text/plain' });
    res.flushHeaders();
    const t = setInterval(() => {
      res.write('.');
      drips.bump();
    }, opts.everyMs ?? 4_000);
    timers.add(t);
    res.on('close', () => {
      clearInterval(t);
      timers.delete(t);
      dropped.bump();
    });
  });
  return {
    url: `http://127.0.0.1:${s.port}`,
    host: '127.0.0.1',
    port: s.port,
    requests,
    seen,
    drips,
    dropped,
    close: async () => {
      for (const t of timers) clearInterval(t);
      await s.close();
    },
  };
}

/**
 * Starts an SMTP server (node:net) that greets, then answers EHLO with `250-` continuation lines, one every
 * `everyMs` ms (real time, default 50), and never the last line: the client never gets to send its message. Each
 * EHLO counts in `requests`, each line in `drips`, each client that ends or closes its side in `dropped`.
 */
export async function startEndlessSmtp(opts: { everyMs?: number } = {}): Promise<SlowReceiver> {
  const requests = tally();
  const drips = tally();
  const dropped = tally();
  const sockets = new Set<Socket>();
  const server = createNetServer((sock) => {
    sockets.add(sock);
    let timer: NodeJS.Timeout | null = null;
    let gone = false;
    const leave = () => {
      if (timer) clearInterval(timer);
      timer = null;
      if (!gone) {
        gone = true;
        dropped.bump();
      }
      sock.destroy();
      sockets.delete(sock);
    };
    sock.on('error', () => undefined);
    sock.on('end', leave);
    sock.on('close', leave);
    sock.write('220 slow.example ESMTP\r\n');
    let buf = '';
    sock.on('data', (d: Buffer) => {
      buf += d.toString('latin1');
      if (timer || !/^(EHLO|HELO) /im.test(buf)) return;
      requests.bump();
      timer = setInterval(() => {
        sock.write('250-slow.example still thinking\r\n');
        drips.bump();
      }, opts.everyMs ?? 50);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: '127.0.0.1',
    host: '127.0.0.1',
    port,
    requests,
    seen: [],
    drips,
    dropped,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
