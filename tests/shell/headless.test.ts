import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/log';
import { createHeadlessServer, statusForError, type HeadlessServer } from '../../src/headless/server';
import { startHeadless, type RunningHeadless } from '../../src/headless/start';
import { makeCore } from '../helpers/core';
import { tempDir } from '../helpers/tmp';
import { raw } from './rawHttp';

let server: HeadlessServer;
let cleanup: () => Promise<void>;
let port: number;
let token: string;
let rendererDir: string;

beforeEach(async () => {
  const t = makeCore();
  const r = tempDir();
  rendererDir = r.dir;
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(
    join(rendererDir, 'index.html'),
    '<!doctype html><title>Lotwatch</title><div id="root"></div>',
  );
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  server = createHeadlessServer({ core: t.core, rendererDir, log: silentLogger });
  await server.start();
  port = server.port;
  token = server.token;
  cleanup = async () => {
    await server.dispose();
    await t.cleanup();
    r.cleanup();
  };
});
afterEach(async () => cleanup());

const host = () => ({ Host: `127.0.0.1:${port}` });
const auth = () => ({ ...host(), Authorization: `Bearer ${token}` });
const json = () => ({ ...auth(), 'Content-Type': 'application/json' });

describe('headless server guards', () => {
  it('prints a loopback URL that carries the token', async () => {
    const t = makeCore();
    const s = createHeadlessServer({ core: t.core, rendererDir, log: silentLogger });
    const url = await s.start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
    await s.dispose();
    await t.cleanup();
  });

  it('refuses a request without the token with a typed 401', async () => {
    const r = await raw(port, {
      method: 'POST',
      path: '/rpc/app.info',
      headers: { ...host(), 'Content-Type': 'application/json' },
    });
    expect(r.status).toBe(401);
    expect(JSON.parse(r.body)).toMatchObject({
      ok: false,
      error: { code: 'unauthorized', message: expect.stringMatching(/token/) },
    });
  });

  it('refuses a wrong token', async () => {
    const r = await raw(port, {
      path: '/rpc/app.info',
      method: 'POST',
      headers: { ...host(), Authorization: 'Bearer nope' },
    });
    expect(r.status).toBe(401);
  });

  it('shows a readable page to a browser whose address holds a wrong token', async () => {
    const r = await raw(port, { path: '/?token=nope', headers: { ...host(), Accept: 'text/html' } });
    expect(r.status).toBe(401);
    expect(r.body).toMatch(/npm run serve/);
    expect(r.headers['content-type']).toMatch(/text\/html/);
  });

  it('refuses a foreign Host header (DNS rebinding) with 403, even with the token', async () => {
    const r = await raw(port, {
      path: '/rpc/app.info',
      method: 'POST',
      headers: { ...auth(), Host: `evil.example:${port}` },
    });
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('refuses a foreign Origin (CSRF) with 403, even with the token', async () => {
    const r = await raw(port, {
      path: '/rpc/settings.update',
      method: 'POST',
      headers: { ...json(), Origin: 'http://evil.example' },
      body: '{"theme":"dark"}',
    });
    expect(r.status).toBe(403);
    const s = await raw(port, { path: '/rpc/settings.get', method: 'POST', headers: json() });
    expect(JSON.parse(s.body).value.theme).toBe('system');
  });

  it("ignores another local app's malformed cookie (cookies are shared across ports) and still answers", async () => {
    const r = await raw(port, {
      path: '/rpc/app.info',
      method: 'POST',
      headers: { ...auth(), Cookie: 'theirs=%E0%A4%A; other=%zz; ok=1' },
    });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ ok: true });
  });

  it('accepts its own Origin and localhost as Host', async () => {
    const r = await raw(port, {
      path: '/rpc/app.info',
      method: 'POST',
      headers: { ...json(), Host: `localhost:${port}`, Origin: `http://localhost:${port}` },
    });
    expect(r.status).toBe(200);
  });

  it('serves the page for ?token= without a cookie: the credential stays in the page, never in a cookie', async () => {
    const r = await raw(port, { path: `/?token=${token}`, headers: host() });
    expect(r.status).toBe(200);
    expect(r.headers['set-cookie']).toBeUndefined();
    expect(r.body).toContain('<div id="root">');
    expect(r.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self'/);
    // The page and its files hold no data and are served without a credential, so a reload (the token is gone from
    // the address by then) loads the app, which sends the token it kept in sessionStorage.
    expect((await raw(port, { path: '/', headers: host() })).status).toBe(200);
    expect((await raw(port, { path: '/assets/app.js', headers: host() })).status).toBe(200);
  });

  it('opens data only with the token in the Authorization header: not as a cookie, not in the address', async () => {
    for (const headers of [host(), { ...host(), Cookie: `lotwatch_token_${port}=${token}` }]) {
      expect((await raw(port, { path: '/rpc/app.info', method: 'POST', headers })).status).toBe(401);
      expect((await raw(port, { path: '/events', headers })).status).toBe(401);
    }
    expect(
      (await raw(port, { path: `/rpc/app.info?token=${token}`, method: 'POST', headers: host() })).status,
    ).toBe(401);
    expect((await raw(port, { path: `/events?token=${token}`, headers: host() })).status).toBe(401);
    expect((await raw(port, { path: '/rpc/app.info', method: 'POST', headers: auth() })).status).toBe(200);
  });
});

describe('headless RPC', () => {
  it('carries a call and its Result', async () => {
    const r = await raw(port, {
      path: '/rpc/settings.update',
      method: 'POST',
      headers: json(),
      body: '{"theme":"dark"}',
    });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ ok: true, value: { theme: 'dark' } });
  });

  it('answers an unknown method with a 404 envelope', async () => {
    const r = await raw(port, { path: '/rpc/settings.drop', method: 'POST', headers: json(), body: '{}' });
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'unknown_method' } });
  });

  it('answers malformed JSON with a 400 envelope and no stack trace', async () => {
    const r = await raw(port, {
      path: '/rpc/settings.update',
      method: 'POST',
      headers: json(),
      body: '{"theme":',
    });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toEqual({
      ok: false,
      error: { code: 'bad_input', message: 'The request body is not valid JSON.', retryable: false },
    });
    expect(r.body).not.toMatch(/\bat \w|node_modules|\.ts:/);
  });

  it('answers invalid input with a 400 envelope that names the field', async () => {
    const r = await raw(port, {
      path: '/rpc/settings.update',
      method: 'POST',
      headers: json(),
      body: '{"theme":"purple"}',
    });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error.fields).toHaveProperty('theme');
  });

  it('refuses a non-JSON content type (no form posts)', async () => {
    const r = await raw(port, {
      path: '/rpc/settings.update',
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'theme=dark',
    });
    expect(r.status).toBe(415);
    expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'bad_input' } });
  });

  it('answers a badly encoded or very long method name with a typed envelope and the security headers', async () => {
    for (const path of ['/rpc/%E0%A4%A', `/rpc/${'a'.repeat(5_000)}`]) {
      const r = await raw(port, { path, method: 'POST', headers: json(), body: '{}' });
      expect(r.status, path.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(JSON.parse(r.body), r.body.slice(0, 200)).toMatchObject({
        ok: false,
        error: { code: expect.stringMatching(/^(bad_input|unknown_method)$/) },
      });
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['cache-control']).toBe('no-store');
    }
  });

  it('answers an unknown path with a 404 envelope', async () => {
    const r = await raw(port, { path: '/nothing/here', headers: auth() });
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body)).toMatchObject({ ok: false });
  });

  it('streams contract events over SSE', async () => {
    const received = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/events', headers: auth() }, (res) => {
        expect(res.headers['content-type']).toMatch(/text\/event-stream/);
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          buf += c;
          if (buf.includes(': connected') && !buf.includes('data:')) {
            void raw(port, {
              path: '/rpc/settings.update',
              method: 'POST',
              headers: json(),
              body: '{"theme":"light"}',
            });
          }
          const m = /data: (.+)\n\n/.exec(buf);
          if (m?.[1]) {
            req.destroy();
            resolve(m[1]);
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(JSON.parse(received)).toMatchObject({ name: 'settings.changed', payload: { theme: 'light' } });
  });
});

describe('statusForError', () => {
  it('maps boundary codes to 4xx/5xx and domain codes to 200', () => {
    expect(statusForError('bad_input')).toBe(400);
    expect(statusForError('unknown_method')).toBe(404);
    expect(statusForError('internal')).toBe(500);
    expect(statusForError('rate_limited')).toBe(200);
  });
});

describe('startHeadless', () => {
  let running: RunningHeadless | undefined;
  afterEach(async () => {
    await running?.dispose();
    running = undefined;
  });

  /** Calls a method on a running shell with its token; resolves with the answer's value. */
  const call = async (
    r: RunningHeadless,
    method: string,
  ): Promise<{ address: string; port_fixed: boolean }> => {
    const u = new URL(r.url);
    const a = await raw(Number(u.port), {
      path: `/rpc/${method}`,
      method: 'POST',
      headers: { Host: u.host, Authorization: `Bearer ${u.searchParams.get('token')}` },
    });
    expect(a.status, a.body).toBe(200);
    return (JSON.parse(a.body) as { value: { address: string; port_fixed: boolean } }).value;
  };
  const get = (address: string, headers: Record<string, string> = {}) => {
    const a = new URL(address);
    return raw(Number(a.port), { path: `${a.pathname}${a.search}`, headers: { Host: a.host, ...headers } });
  };
  /** A port free right now, for a shell started on a fixed port. */
  const freePort = async () => {
    const s = (await import('node:net')).createServer();
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    const p = (s.address() as { port: number }).port;
    await new Promise((resolve) => s.close(resolve));
    return p;
  };

  it('serves the watched sales at a calendar address that holds its own read-only secret, never the token', async () => {
    const d = tempDir();
    running = await startHeadless({ dataDir: d.dir, rendererDir, version: '9.9.9', log: silentLogger });
    const token = new URL(running.url).searchParams.get('token')!;
    const { address, port_fixed } = await call(running, 'plan.calendar');
    expect(new URL(address).pathname).toBe('/calendar.ics');
    expect(address).not.toContain(token);
    // Started on any free port: the address may change at the next start, and the view says how to keep it.
    expect(port_fixed).toBe(false);
    const ics = await get(address);
    expect(ics.status).toBe(200);
    expect(ics.headers['content-type']).toMatch(/^text\/calendar/);
    expect(ics.body).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect((await get(address.replace(/\?.*$/, ''))).status).toBe(401);
    // The calendar's secret opens the calendar and nothing else.
    const secret = [...new URL(address).searchParams.values()][0]!;
    const u = new URL(running.url);
    for (const headers of [{ Authorization: `Bearer ${secret}` }, {}] as Record<string, string>[]) {
      const path = Object.keys(headers).length ? '/rpc/app.info' : `/rpc/app.info${new URL(address).search}`;
      expect(
        (await raw(Number(u.port), { path, method: 'POST', headers: { Host: u.host, ...headers } })).status,
      ).toBe(401);
    }
    expect(
      (
        await raw(Number(u.port), {
          path: '/events',
          headers: { Host: u.host, Authorization: `Bearer ${secret}` },
        })
      ).status,
    ).toBe(401);
    await running.dispose();
    running = undefined;
    d.cleanup();
  });

  it('keeps the calendar address across a restart on the same port, and a new address makes the old one 401', async () => {
    const d = tempDir();
    const port = await freePort();
    running = await startHeadless({ dataDir: d.dir, rendererDir, version: '9.9.9', log: silentLogger, port });
    const first = await call(running, 'plan.calendar');
    await running.dispose();
    running = await startHeadless({ dataDir: d.dir, rendererDir, version: '9.9.9', log: silentLogger, port });
    expect((await get(first.address)).status).toBe(200);
    expect((await call(running, 'plan.calendar')).address).toBe(first.address);
    expect(first.port_fixed).toBe(true);
    const renewed = await call(running, 'plan.renewCalendar');
    expect(renewed.address).not.toBe(first.address);
    expect((await get(first.address)).status).toBe(401);
    expect((await get(renewed.address)).status).toBe(200);
    expect((await call(running, 'plan.calendar')).address).toBe(renewed.address);
    await running.dispose();
    running = undefined;
    d.cleanup();
  });

  it('opens the data folder, serves, and closes the database on dispose', async () => {
    const d = tempDir();
    running = await startHeadless({ dataDir: d.dir, rendererDir, version: '9.9.9', log: silentLogger });
    const u = new URL(running.url);
    const r = await raw(Number(u.port), {
      path: '/rpc/app.info',
      method: 'POST',
      headers: { Host: u.host, Authorization: `Bearer ${u.searchParams.get('token')}` },
    });
    expect(JSON.parse(r.body)).toMatchObject({
      ok: true,
      value: { version: '9.9.9', dataDir: d.dir, shell: 'headless' },
    });
    await running.dispose();
    running = undefined;
    d.cleanup();
  });
});
