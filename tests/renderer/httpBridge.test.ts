import { describe, expect, it, vi } from 'vitest';
import { createHttpBridge } from '../../src/renderer/src/api/httpBridge';
import { pickBridge } from '../../src/renderer/src/api';

describe('HTTP bridge', () => {
  it('posts the input as JSON to /rpc/<method> and returns the envelope', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ok: true, value: { theme: 'dark' } })));
    const b = createHttpBridge({ fetch: fetch as never, baseUrl: 'http://h' });
    expect(await b.invoke('settings.update', { theme: 'dark' })).toEqual({ ok: true, value: { theme: 'dark' } });
    expect(fetch).toHaveBeenCalledWith('http://h/rpc/settings.update', expect.objectContaining({ method: 'POST', body: '{"theme":"dark"}' }));
  });

  it('resolves a network failure to a retryable network error', async () => {
    const b = createHttpBridge({ fetch: (async () => Promise.reject(new TypeError('fetch failed'))) as never });
    expect(await b.invoke('app.info')).toMatchObject({ ok: false, error: { code: 'network', retryable: true } });
  });

  it('explains a lost token when the answer is not JSON', async () => {
    const b = createHttpBridge({ fetch: (async () => new Response('<html>', { status: 401 })) as never });
    expect(await b.invoke('app.info')).toMatchObject({ ok: false, error: { code: 'unauthorized', message: expect.stringMatching(/token/) } });
  });

  it('delivers SSE messages to listeners and closes the stream with the last one', () => {
    const instances: { onmessage?: (m: { data: string }) => void; close: () => void; closed: boolean }[] = [];
    class ES {
      onmessage?: (m: { data: string }) => void;
      closed = false;
      constructor(readonly url: string) {
        instances.push(this);
      }
      close() {
        this.closed = true;
      }
    }
    const b = createHttpBridge({ EventSource: ES as never, fetch: vi.fn() as never });
    const got: unknown[] = [];
    const off = b.on((e) => got.push(e));
    b.on(() => {});
    expect(instances).toHaveLength(1);
    instances[0]!.onmessage?.({ data: '{"name":"settings.changed","payload":{"theme":"dark"}}' });
    instances[0]!.onmessage?.({ data: 'not json' });
    expect(got).toEqual([{ name: 'settings.changed', payload: { theme: 'dark' } }]);
    off();
    expect(instances[0]!.closed).toBe(false);
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
