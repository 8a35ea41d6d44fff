import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/core/api';
import { ApiError } from '../../src/core/api/errors';
import { clientClockOf, FakeClock } from '../helpers/fakeClock';
import { makeCore } from '../helpers/core';
import { listen } from '../helpers/receivers';

// A service that misbehaves over real HTTP (node:http on loopback, the real undici client): what the buyer is told,
// and what never leaves core.

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = await listen(handler);
  open.push(server.close);
  return `http://127.0.0.1:${server.port}/api/v1/vehicle-auction`;
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
}

describe('an answer cut off after its headers', () => {
  const client = (baseUrl: string, maxRetries = 0) => {
    const c = createApiClient({
      baseUrl,
      apiKey: () => 'sk_test_cutoff_key_123',
      clock: clientClockOf(new FakeClock()),
      retry: { maxRetries },
    });
    open.push(() => c.close());
    return c;
  };

  it('Content-Length 1000, then the connection closes after 10 bytes: the service is at fault, not the network', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      res.write('{"data": [');
      setImmediate(() => res.socket?.destroy());
    });
    const e = await failure(client(base).getUsage());
    expect(e.code).toBe('bad_response');
    expect(e.retryable).toBe(true);
    expect(e.status).toBe(200);
    expect(e.message).toMatch(/cut off/);
    expect(e.message).not.toMatch(/check your internet/i);
  });

  it('a chunked answer whose connection closes mid-body is the same', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.write('{"message": "half');
      setImmediate(() => res.socket?.destroy());
    });
    const e = await failure(client(base).getUsage());
    expect(e.code).toBe('bad_response');
    expect(e.retryable).toBe(true);
    expect(e.message).toMatch(/cut off/);
    expect(e.message).not.toMatch(/check your internet/i);
  });

  it('is retried like a 5xx, and a complete second answer is used', async () => {
    let n = 0;
    const base = await serve((_req, res) => {
      if (n++ === 0) {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
        res.write('{"a"');
        setImmediate(() => res.socket?.destroy());
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"data": {"plan": "free"}}');
    });
    expect((await client(base, 1).getUsage()).data).toEqual({ plan: 'free' });
    expect(n).toBe(2);
  });

  it('a connection closed before any header is still a network problem', async () => {
    const base = await serve((req) => req.socket.destroy());
    const e = await failure(client(base).getUsage());
    expect(e.code).toBe('network');
  });
});

describe('a service that echoes the API key', () => {
  // With characters a URL encodes (`/`, `+`, `=`, a space) and PHP's JSON escapes (`/` as `\/`).
  const KEY = 'sk_live/ECHOED+secret=4711 abc';

  /** Echoes the X-API-Key header in every answer: a 200 body (usage, search, console), and an error body. */
  async function echoingService(): Promise<string> {
    return serve((req, res) => {
      const key = String(req.headers['x-api-key'] ?? '');
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      res.setHeader('Content-Type', 'application/json');
      if (path.endsWith('/usage')) {
        const php = JSON.stringify(key).slice(1, -1).replace(/\//g, '\\/');
        const usage = {
          plan: 'basic',
          your_key: key,
          encoded: encodeURIComponent(key),
          form: new URLSearchParams({ key }).toString(),
          lower: encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
        };
        res.end(JSON.stringify({ data: usage }).replace('"basic"', `"basic", "php": "${php}"`));
      } else if (path.endsWith('/vehicles')) {
        const lot = {
          id: 1,
          lot_number: '12345678',
          vin: '1FTFW1E50NFA00001',
          title: `2020 FORD F-150 ${key}`,
          platform: 'copart',
          make: 'FORD',
          model: key,
        };
        res.end(
          JSON.stringify({
            data: [lot],
            meta: { next_cursor: null, prev_cursor: null, per_page: 1 },
            debug: key,
          }),
        );
      } else {
        res.statusCode = path.endsWith('/filters') ? 500 : 404;
        res.end(
          JSON.stringify({ message: `No such thing for key ${key}`, errors: { [key]: [`bad ${key}`] } }),
        );
      }
    });
  }

  it('never returns it from key.test, usage.fetch, console.call, a search or an error, nor stores it in plain text', async () => {
    const base = await echoingService();
    const t = makeCore({
      autoStart: false,
      demoExamples: false,
      clientClock: clientClockOf(new FakeClock()),
    });
    open.push(() => t.cleanup());
    await t.core.ready;
    expect((await t.core.invoke('settings.update', { demoMode: false, serviceUrl: base })).ok).toBe(true);
    expect((await t.core.invoke('key.set', { key: KEY })).ok).toBe(true);

    const answers = [
      await t.core.invoke('key.test', undefined),
      await t.core.invoke('usage.fetch', undefined),
      await t.core.invoke('console.call', { name: 'GET /usage' }),
      await t.core.invoke('console.call', { name: 'GET /vehicles', query: { make: 'FORD' } }),
      await t.core.invoke('console.call', { name: 'GET /vehicles/{slugVin}', path: { slugVin: '12345678' } }),
      await t.core.invoke('console.call', { name: 'GET /vehicles/filters' }),
      await t.core.invoke('vehicles.search', { params: { make: 'FORD' } }),
      await t.core.invoke('requests.list', { limit: 50 }),
    ];
    const text = JSON.stringify(answers);
    // The calls did reach the service and came back (the usage answer, the search result).
    expect(answers[0]).toMatchObject({ ok: true, value: { ok: true, usage: { plan: 'basic' } } });
    expect(answers[3]).toMatchObject({ ok: true });
    expect(answers[4]).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(KEY);
    for (const form of [
      KEY,
      encodeURIComponent(KEY),
      encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
      'sk_live\\/ECHOED',
      'sk_live%2FECHOED%2Bsecret',
    ]) {
      expect(text, form).not.toContain(form);
    }
    expect(text).not.toContain('ECHOED');

    // Nor anywhere in the data folder: the database, its WAL, the request log.
    await t.core.invoke('app.info', undefined);
    for (const f of readdirSync(t.dir)) {
      if (!/sqlite/.test(f)) continue;
      expect(readFileSync(join(t.dir, f)).includes(KEY), f).toBe(false);
    }
  });
});
