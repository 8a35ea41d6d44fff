import { describe, expect, it, vi } from 'vitest';
import { createHttpBridge, takePageToken, TOKEN_STORAGE_KEY } from '../../src/renderer/src/api/httpBridge';
import { pickBridge, tokenMissing } from '../../src/renderer/src/api';

describe('HTTP bridge', () => {
  it('posts the input as JSON to /rpc/<method> and returns the envelope', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ok: true, value: { theme: 'dark' } })));
    const b = createHttpBridge({ fetch: fetch as never, baseUrl: 'http://h' });
    expect(await b.invoke('settings.update', { theme: 'dark' })).toEqual({
      ok: true,
      value: { theme: 'dark' },
    });
    expect(fetch).toHaveBeenCalledWith(
      'http://h/rpc/settings.update',
      expect.objectContaining({ method: 'POST', body: '{"theme":"dark"}' }),
    );
  });

  it('resolves a network failure to a retryable network error', async () => {
    const b = createHttpBridge({
      fetch: (async () => Promise.reject(new TypeError('fetch failed'))) as never,
    });
    expect(await b.invoke('app.info')).toMatchObject({
      ok: false,
      error: { code: 'network', retryable: true },
    });
  });

  it('explains a lost token when the answer is not JSON', async () => {
    const b = createHttpBridge({ fetch: (async () => new Response('<html>', { status: 401 })) as never });
    expect(await b.invoke('app.info')).toMatchObject({
      ok: false,
      error: { code: 'unauthorized', message: expect.stringMatching(/token/) },
    });
  });

  it('sends the token as an Authorization header on every call, never as a cookie', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ok: true, value: {} })));
    const b = createHttpBridge({ fetch: fetch as never, token: 'tok-123' });
    await b.invoke('app.info');
    await b.invoke('settings.get');
    for (const [, init] of fetch.mock.calls as unknown as [string, RequestInit][]) {
      expect(init.headers).toMatchObject({ Authorization: 'Bearer tok-123' });
      expect(init.credentials).toBe('omit');
    }
  });

  it('reads the event stream with the token header, chunk by chunk, and closes it with the last listener', async () => {
    let push!: (text: string) => void;
    let signal: AbortSignal | undefined;
    const fetch = vi.fn(async (_url: string, init: RequestInit) => {
      signal = init.signal ?? undefined;
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          push = (t) => c.enqueue(new TextEncoder().encode(t));
          init.signal?.addEventListener('abort', () => c.error(new DOMException('aborted', 'AbortError')));
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
    });
    const b = createHttpBridge({ fetch: fetch as never, token: 'tok-123', baseUrl: 'http://h' });
    const got: unknown[] = [];
    const off = b.on((e) => got.push(e));
    b.on(() => {});
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(fetch.mock.calls[0]![0]).toBe('http://h/events');
    expect(fetch.mock.calls[0]![1].headers).toMatchObject({ Authorization: 'Bearer tok-123' });
    push(': connected\n\ndata: {"name":"settings.changed",');
    push('"payload":{"theme":"dark"}}\n\ndata: not json\n\n');
    await vi.waitFor(() => expect(got).toEqual([{ name: 'settings.changed', payload: { theme: 'dark' } }]));
    off();
    expect(signal?.aborted).toBe(false);
  });

  it('opens the stream again after it ended (1 s, then doubling), and not after a 401', async () => {
    const timers: { fn: () => void; ms: number }[] = [];
    const answers = [
      new Response('data: {"name":"a","payload":1}\n\n'),
      new Response(null, { status: 502 }),
      new Response('', { status: 401 }),
    ];
    const fetch = vi.fn(async () => answers.shift()!);
    const b = createHttpBridge({
      fetch: fetch as never,
      token: 't',
      setTimeout: (fn, ms) => timers.push({ fn, ms }),
    });
    const got: unknown[] = [];
    b.on((e) => got.push(e));
    await vi.waitFor(() => expect(timers).toHaveLength(1));
    expect(got).toEqual([{ name: 'a', payload: 1 }]);
    expect(timers[0]!.ms).toBe(1_000);
    timers[0]!.fn();
    await vi.waitFor(() => expect(timers).toHaveLength(2));
    expect(timers[1]!.ms).toBe(2_000);
    timers[1]!.fn();
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(3));
    // One turn of the event loop lets the refused answer be read to the end (no time passes): no wait is set.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(timers).toHaveLength(2);
  });
});

describe('takePageToken', () => {
  const page = (href: string) => {
    const store = new Map<string, string>();
    const replaced: string[] = [];
    return {
      replaced,
      store,
      w: {
        location: { href },
        sessionStorage: {
          getItem: (k: string) => store.get(k) ?? null,
          setItem: (k: string, v: string) => void store.set(k, v),
        },
        history: {
          state: null,
          replaceState: (_s: unknown, _t: string, url?: string | URL | null) =>
            void replaced.push(String(url)),
        },
      },
    };
  };

  it('keeps the token of the address in sessionStorage and takes it out of the address', () => {
    const p = page('http://127.0.0.1:5190/?token=abc&x=1#/watchlist');
    expect(takePageToken(p.w)).toBe('abc');
    expect(p.store.get(TOKEN_STORAGE_KEY)).toBe('abc');
    expect(p.replaced).toEqual(['/?x=1#/watchlist']);
  });

  it('finds it again after a reload (no token in the address)', () => {
    const p = page('http://127.0.0.1:5190/#/settings');
    p.store.set(TOKEN_STORAGE_KEY, 'abc');
    expect(takePageToken(p.w)).toBe('abc');
    expect(p.replaced).toEqual([]);
    expect(takePageToken(page('http://127.0.0.1:5190/').w)).toBeNull();
  });
});

describe('pickBridge', () => {
  it('uses window.api when the preload provided it, the HTTP bridge otherwise', () => {
    const api = { invoke: vi.fn(), on: vi.fn() };
    expect(pickBridge({ api })).toBe(api);
    const http = pickBridge({});
    expect(http).not.toBe(api);
    expect(typeof http.invoke).toBe('function');
  });
});

describe('tokenMissing', () => {
  const win = (href: string, stored: string | null) => ({
    location: { href },
    sessionStorage: { getItem: () => stored, setItem: () => {} },
    history: { state: null, replaceState: () => {} },
  });

  it('is true only for a browser tab with no token in its address or its session', () => {
    expect(tokenMissing(win('http://127.0.0.1:5190/', null))).toBe(true);
    expect(tokenMissing(win('http://127.0.0.1:5190/?token=abc', null))).toBe(false);
    expect(tokenMissing(win('http://127.0.0.1:5190/#/plan', 'abc'))).toBe(false);
    expect(tokenMissing({ api: { invoke: vi.fn(), on: vi.fn() } })).toBe(false);
  });
});
