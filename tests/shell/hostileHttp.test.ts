import { mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/log';
import { createHeadlessServer, type HeadlessServer } from '../../src/headless/server';
import { makeCore } from '../helpers/core';
import { tempDir } from '../helpers/tmp';

// Whatever arrives on the browser shell's port, however malformed, the answer is the typed envelope with the
// security headers: the router's and Node's own HTTP parser's errors included.

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes bytes as they are to a fresh connection and reads the answer until the server closes it: Node's own
 * http client refuses to send a NUL, raw unicode or a 100 KB line, which is exactly what is tested here.
 */
function rawHttp(port: number, request: Buffer | string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    s.on('data', (c: Buffer) => chunks.push(c));
    // The server may close while the rest of a huge request is still being written; what it answered counts.
    s.on('error', () => undefined);
    s.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      let body = text.slice(end + 4);
      if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
        let out = '';
        for (let rest = body; ;) {
          const nl = rest.indexOf('\r\n');
          const size = parseInt(rest.slice(0, nl), 16);
          if (!size) break;
          out += rest.slice(nl + 2, nl + 2 + size);
          rest = rest.slice(nl + 2 + size + 2);
        }
        body = out;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    // Written without a half-close: every request asks for `Connection: close`, so the server ends the exchange.
    s.write(request);
  });
}

let server: HeadlessServer;
let port: number;
let token: string;
let done: () => Promise<void>;

beforeAll(async () => {
  const t = makeCore();
  const r = tempDir();
  mkdirSync(join(r.dir, 'assets'));
  writeFileSync(join(r.dir, 'index.html'), '<!doctype html><title>Lotwatch</title><div id="root"></div>');
  server = createHeadlessServer({ core: t.core, rendererDir: r.dir, log: silentLogger });
  await server.start();
  port = server.port;
  token = server.token;
  done = async () => {
    await server.dispose();
    await t.cleanup();
    r.cleanup();
  };
});
afterAll(async () => done());

/** A POST of `{}` to `path` (bytes as given), authorised, on a connection that closes after the answer. */
function post(path: Buffer | string, extraHeaders = '', body = '{}'): Buffer {
  return Buffer.concat([
    Buffer.from('POST '),
    Buffer.isBuffer(path) ? path : Buffer.from(path, 'utf8'),
    Buffer.from(
      ` HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n${extraHeaders}\r\n${body}`,
    ),
  ]);
}

/** The envelope and the security headers every answer must carry, and a body of bounded size. */
function expectTypedAnswer(r: RawAnswer, status: number, code: string, label: string): void {
  expect(r.status, `${label}: ${r.body.slice(0, 200)}`).toBe(status);
  expect(r.headers['content-type'], label).toMatch(/^application\/json/);
  expect(r.headers['x-content-type-options'], label).toBe('nosniff');
  expect(r.headers['referrer-policy'], label).toBe('no-referrer');
  expect(r.headers['cache-control'], label).toBe('no-store');
  const parsed = JSON.parse(r.body) as {
    ok: boolean;
    error: { code: string; message: string; retryable: boolean };
  };
  expect(parsed, label).toEqual({
    ok: false,
    error: { code, message: expect.any(String), retryable: false },
  });
  expect(parsed.error.message.length, label).toBeGreaterThan(10);
  expect(r.body.length, label).toBeLessThan(2_500);
}

describe('method names the router or the HTTP parser refuses', () => {
  it('a 200-character method name is an unknown method (404), not a bad address', async () => {
    expectTypedAnswer(
      await rawHttp(port, post(`/rpc/${'a'.repeat(200)}`)),
      404,
      'unknown_method',
      '200 chars',
    );
  });

  it('a request line of 20 KB or 100 KB answers 431 with the envelope (Node refuses it before Fastify)', async () => {
    for (const n of [20_000, 100_000]) {
      expectTypedAnswer(await rawHttp(port, post(`/rpc/${'a'.repeat(n)}`)), 431, 'bad_input', `${n} chars`);
    }
  });

  it('a 20 KB header answers 431 with the envelope', async () => {
    expectTypedAnswer(
      await rawHttp(port, post('/rpc/app.info', `X-Big: ${'b'.repeat(20_000)}\r\n`)),
      431,
      'bad_input',
      'header',
    );
  });

  it('a raw NUL, raw unicode or a space in the request line answers 400 with the envelope', async () => {
    const lines: [string, Buffer][] = [
      ['NUL', Buffer.from('/rpc/app\u0000info', 'latin1')],
      ['unicode', Buffer.from('/rpc/app.infö🚗', 'utf8')],
      ['control', Buffer.from('/rpc/app\u0007info', 'latin1')],
    ];
    for (const [label, path] of lines)
      expectTypedAnswer(await rawHttp(port, post(path)), 400, 'bad_input', label);
  });

  it('an unknown HTTP verb answers 400 with the envelope', async () => {
    const r = await rawHttp(
      port,
      `BREW /rpc/app.info HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
    );
    expectTypedAnswer(r, 400, 'bad_input', 'verb');
  });

  it('%-escaped names: a bad escape is bad_input (400); NUL, unicode and unknown names are unknown methods (404)', async () => {
    expectTypedAnswer(await rawHttp(port, post('/rpc/%E0%A4%A')), 400, 'bad_input', 'bad escape');
    for (const path of [
      '/rpc/%00',
      '/rpc/app.info%00',
      '/rpc/%F0%9F%9A%97',
      '/rpc/%C3%A9t%C3%A9',
      `/rpc/${'%41'.repeat(90)}`,
    ]) {
      expectTypedAnswer(await rawHttp(port, post(path)), 404, 'unknown_method', path.slice(0, 40));
    }
    const ok = await rawHttp(port, post('/rpc/app%2Einfo'));
    expect(ok.status).toBe(200);
  });

  it('an address the URL parser cannot read (`//[`) is a typed 404, not an internal error', async () => {
    const r = await rawHttp(
      port,
      `GET //[ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
    );
    expectTypedAnswer(r, 404, 'unknown_method', '//[');
  });

  it('a long method name is refused for a request without the token like any other (401)', async () => {
    const r = await rawHttp(
      port,
      `POST /rpc/${'a'.repeat(300)} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    );
    expectTypedAnswer(r, 401, 'unauthorized', 'no token');
  });
});

describe('other refusals keep the envelope and the headers', () => {
  it('an unknown route is 404 and does not echo a long path back', async () => {
    expectTypedAnswer(await rawHttp(port, post('/nothing/here')), 404, 'unknown_method', 'unknown route');
    expectTypedAnswer(
      await rawHttp(port, post(`/x/${'y'.repeat(12_000)}`)),
      404,
      'unknown_method',
      'long unknown route',
    );
    const get = await rawHttp(
      port,
      `GET /assets/missing.js HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
    );
    expectTypedAnswer(get, 404, 'unknown_method', 'missing asset');
  });

  it('a body over the limit is 413', async () => {
    const body = JSON.stringify({ theme: 'x'.repeat(1_100_000) });
    expectTypedAnswer(await rawHttp(port, post('/rpc/settings.update', '', body)), 413, 'bad_input', '413');
  });

  it('bad JSON is 400 and a form post is 415', async () => {
    expectTypedAnswer(
      await rawHttp(port, post('/rpc/settings.update', '', '{"theme":')),
      400,
      'bad_input',
      'json',
    );
    const form = Buffer.from(
      `POST /rpc/settings.update HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 10\r\nConnection: close\r\n\r\ntheme=dark`,
    );
    expectTypedAnswer(await rawHttp(port, form), 415, 'bad_input', 'form');
  });

  it('a Content-Length that does not match the body is 400 with the envelope', async () => {
    const r = await rawHttp(
      port,
      `POST /rpc/app.info HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 5\r\nContent-Length: 6\r\nConnection: close\r\n\r\n{}`,
    );
    expectTypedAnswer(r, 400, 'bad_input', 'double length');
  });
});
