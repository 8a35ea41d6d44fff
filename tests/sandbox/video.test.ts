import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallTargetSchema } from '../../src/shared/callWatch';
import {
  DEMO_CALL_EXAMPLE,
  DEMO_CHANNEL_ID,
  VIDEO_PATHS,
  unplayableAt,
  viewsAt,
} from '../../src/sandbox/video';
import { SteppedClock } from '../../src/sandbox/steppedClock';
import { START, startHarness, type Harness, type Rec } from './harness';

// The video-platform endpoints move with market time: channels upload, videos go private, views and comments grow.
// Each sandbox runs at speed 1 on a fake real-time clock the test moves, so market time = the clock.

const MIN = 60_000;
const HOUR = 60 * MIN;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ lots: 200 });
});
afterAll(() => h.close());

const vp = async (hh: Harness, path: string): Promise<{ status: number; body: Rec }> => {
  const r = await hh.json(path, { base: `${hh.url}/api/v1/youtube` });
  return { status: r.status, body: r.body };
};
const items = (body: Rec): Rec[] => body['data']['items'] as Rec[];
/** Sets market time to START + ms (time only moves forward in a test). */
const at = (hh: Harness, ms: number): void => {
  expect(START + ms).toBeGreaterThanOrEqual(hh.clock.t);
  hh.clock.t = START + ms;
};
const stable = (v: Rec): Rec => ({ id: v.id, title: v.title, url: v.url, published_at: v.published_at });

describe('a channel uploads over market time', () => {
  it('gains videos, newest first, and keeps the earlier ones as they were (views only grow)', async () => {
    const path = '/channel/videos?channel_id=UCtestChannel0000000001';
    const before = (await vp(h, path)).body;
    expect(before['ok']).toBe(true);
    const first = items(before);
    expect(first).toHaveLength(20);
    expect(typeof before['data']['continuation']).toBe('string');
    expect(before['meta']).toEqual({ count: 20 });
    for (const v of first) {
      expect(v.author).toBe('Auction Garage');
      expect(v.title).toMatch(/ #\d+$/);
      expect(Date.parse(v.published_at)).toBeLessThanOrEqual(h.clock.t);
    }
    const times = first.map((v) => Date.parse(v.published_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    // No channel waits more than 10 hours between videos (windows of at most 5 hours, one video in each).
    at(h, 12 * HOUR);
    const after = items((await vp(h, path)).body);
    const oldIds = new Set(first.map((v) => v.id));
    const fresh = after.filter((v) => !oldIds.has(v.id));
    expect(fresh.length).toBeGreaterThan(0);
    expect(after.slice(0, fresh.length)).toEqual(fresh);
    for (const v of fresh) expect(Date.parse(v.published_at)).toBeGreaterThan(START);
    const kept = after.slice(fresh.length);
    expect(kept.map(stable)).toEqual(first.slice(0, kept.length).map(stable));
    for (const v of kept) {
      const was = first.find((w) => w.id === v.id)!;
      expect(v.views).toBeGreaterThanOrEqual(was.views);
    }
    // Episode numbers run on: the newest is one more than the one before it.
    const ep = (v: Rec): number => Number(/#(\d+)$/.exec(v.title)![1]);
    expect(ep(after[0]!)).toBe(ep(after[1]!) + 1);
  });

  it('pages with continuation, without overlap, and refuses a token it did not give', async () => {
    const path = '/channel/shorts?handle=@auctiongarage';
    const p1 = (await vp(h, path)).body;
    const token = p1['data']['continuation'] as string;
    const p2 = (await vp(h, `${path}&continuation=${encodeURIComponent(token)}`)).body;
    expect(items(p2).length).toBeGreaterThan(0);
    const last1 = Date.parse(items(p1).at(-1)!.published_at);
    expect(Date.parse(items(p2)[0]!.published_at)).toBeLessThan(last1);
    const ids1 = new Set(items(p1).map((v) => v.id));
    expect(items(p2).some((v) => ids1.has(v.id))).toBe(false);
    const bad = await vp(h, `${path}&continuation=nonsense`);
    expect(bad.status).toBe(422);
    expect(bad.body['ok']).toBe(false);
  });

  it('the Demo example channel uploads within its first simulated hour; the example is a valid call target', async () => {
    const s = await startHarness({ lots: 200 });
    try {
      const path = `/channel/videos?channel_id=${DEMO_CHANNEL_ID}`;
      const first = items((await vp(s, path)).body);
      at(s, HOUR);
      const later = items((await vp(s, path)).body);
      expect(later[0]!.id).not.toBe(first[0]!.id);
      expect(CallTargetSchema.parse(DEMO_CALL_EXAMPLE.target)).toEqual({
        endpoint: 'GET /api/v1/vp/channel/videos',
        path: {},
        query: { channel_id: DEMO_CHANNEL_ID },
      });
    } finally {
      await s.close();
    }
  });
});

describe('on a stepped Demo market (the clock the app and the tests step)', () => {
  it('a call made by a timer mid-step sees the channel as of that market time; the playability flips with the step', async () => {
    const clock = new SteppedClock(START);
    let inFlight: Promise<void> = Promise.resolve();
    const s = await startHarness({
      lots: 200,
      speed: 0,
      marketNow: () => clock.now(),
      step: async (ms) => void (await clock.step(ms, () => inFlight)),
    });
    try {
      const path = `/channel/videos?channel_id=${DEMO_CHANNEL_ID}`;
      const first = items((await vp(s, path)).body);
      // A call watch's run at +40 min, as the watcher's timer would make it while the step passes.
      let seen: Rec[] = [];
      clock.setTimeout(() => {
        inFlight = vp(s, path).then((r) => void (seen = items(r.body)));
      }, 40 * MIN);
      const res = await fetch(`${s.url}/__sandbox/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advance_ms: 2 * HOUR }),
      });
      expect(res.status).toBe(200);
      expect(seen).toHaveLength(20);
      for (const v of seen) expect(Date.parse(v.published_at)).toBeLessThanOrEqual(START + 40 * MIN);
      expect(seen[0]!.id).not.toBe(first[0]!.id);
      const now = items((await vp(s, path)).body);
      expect(Date.parse(now[0]!.published_at)).toBeGreaterThan(START + 40 * MIN);
      expect((await vp(s, '/youtube/video/playability?id=gone-demo')).body['data']['playable']).toBe(false);
    } finally {
      await s.close();
    }
  });
});

describe('playability and counts over market time', () => {
  it('a gone- id turns private once, one market hour after the start, and stays so', async () => {
    const s = await startHarness({ lots: 200 });
    try {
      const play = async (): Promise<Rec> =>
        (await vp(s, '/youtube/video/playability?id=gone-abc123')).body['data'];
      expect(unplayableAt(7, START, 'gone-abc123')).toBe(START + HOUR);
      at(s, HOUR - 1000);
      expect(await play()).toMatchObject({ id: 'gone-abc123', playable: true, status: 'OK' });
      at(s, HOUR);
      expect(await play()).toMatchObject({
        playable: false,
        status: 'UNPLAYABLE',
        reason: 'This video is private',
      });
      at(s, 30 * HOUR);
      expect((await play())['playable']).toBe(false);
      const details = (await vp(s, '/youtube/video/details?video_id=gone-abc123')).body['data'];
      expect(details['available']).toBe(false);
    } finally {
      await s.close();
    }
  });

  it('an ordinary id flips at unplayableAt, given by url or videoId alike; about a third of ids ever do', async () => {
    const s = await startHarness({ lots: 200 });
    try {
      const ids = Array.from({ length: 300 }, (_, i) => `vid${i}xyzAB`);
      const times = ids.map((id) => unplayableAt(7, START, id));
      const going = times.filter((t) => t !== null) as number[];
      expect(going.length).toBeGreaterThan(70);
      expect(going.length).toBeLessThan(130);
      for (const t of going) {
        expect(t).toBeGreaterThanOrEqual(START + 2 * HOUR);
        expect(t).toBeLessThanOrEqual(START + 48 * HOUR);
        expect((t - START) % HOUR).toBe(0);
      }
      const i = times.findIndex((t) => t !== null);
      const id = ids[i]!;
      const t = times[i]!;
      const viaUrl = `/youtube/video/playability?url=${encodeURIComponent(`https://www.youtube.com/watch?v=${id}`)}`;
      at(s, t - START - 1000);
      expect((await vp(s, viaUrl)).body['data']['playable']).toBe(true);
      at(s, t - START);
      expect((await vp(s, viaUrl)).body['data']['playable']).toBe(false);
      expect((await vp(s, `/youtube/video/playability?videoId=${id}`)).body['data']['playable']).toBe(false);
      const never = ids[times.findIndex((x) => x === null)]!;
      at(s, 72 * HOUR);
      expect((await vp(s, `/youtube/video/playability?id=${never}`)).body['data']['playable']).toBe(true);
    } finally {
      await s.close();
    }
  });

  it('views and the comment count grow; comments gain items', async () => {
    const s = await startHarness({ lots: 200 });
    try {
      const d0 = (await vp(s, '/youtube/video/details?id=dQw4w9WgXcQ')).body['data'];
      const c0 = (await vp(s, '/comments?video_id=dQw4w9WgXcQ')).body['data'];
      expect(d0['comment_count']).toBe(c0['comment_count']);
      at(s, 3 * HOUR);
      const d1 = (await vp(s, '/youtube/video/details?id=dQw4w9WgXcQ')).body['data'];
      const c1 = (await vp(s, '/comments?video_id=dQw4w9WgXcQ')).body['data'];
      expect(d1['views']).toBeGreaterThan(d0['views']);
      expect(c1['comment_count']).toBeGreaterThan(c0['comment_count']);
      expect(d1['comment_count']).toBe(c1['comment_count']);
      const oldIds = new Set((c0['items'] as Rec[]).map((c) => c.id));
      expect((c1['items'] as Rec[]).filter((c) => !oldIds.has(c.id)).length).toBeGreaterThan(0);
      expect(d1['published_at']).toBe(d0['published_at']);
      expect(viewsAt(7, 'x', START, START + HOUR)).toBeLessThanOrEqual(
        viewsAt(7, 'x', START, START + 2 * HOUR),
      );
    } finally {
      await s.close();
    }
  });
});

describe('determinism', () => {
  it('two sandboxes with one seed answer every path alike at the same market times; another seed differs', async () => {
    const [a, b, other] = await Promise.all([
      startHarness({ lots: 200 }),
      startHarness({ lots: 200 }),
      startHarness({ lots: 200, seed: 8 }),
    ]);
    try {
      expect(VIDEO_PATHS).toHaveLength(20);
      for (const t of [0, 7 * HOUR, 31 * HOUR]) {
        for (const s of [a, b]) at(s, t);
        for (const p of VIDEO_PATHS) {
          for (const query of ['', '?channel_id=UCabc&q=copart', '?id=gone-x1']) {
            const x = await vp(a, p + query);
            expect(x.status, p).toBe(200);
            expect(x.body['ok']).toBe(true);
            expect((await vp(b, p + query)).body, `${p}${query} at +${t}`).toEqual(x.body);
          }
        }
      }
      const mine = items((await vp(a, '/channel/videos?channel_id=UCabc')).body);
      const theirs = items((await vp(other, '/channel/videos?channel_id=UCabc')).body);
      expect(theirs.map((v) => v.id)).not.toEqual(mine.map((v) => v.id));
    } finally {
      await Promise.all([a, b, other].map((s) => s.close()));
    }
  });
});

describe('faults for call watches: an answer that is not JSON, an answer whose shape changed', () => {
  const setFaults = (body: unknown): Promise<Response> =>
    fetch(`${h.url}/__sandbox/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('answers the queued html_200 and reshaped faults on the chosen path only, then normally', async () => {
    const put = await setFaults({
      queue: ['html_200', 'html_200', 'reshaped'],
      pathContains: '/channel/videos',
    });
    expect(put.status).toBe(200);
    const base = `${h.url}/api/v1/youtube`;
    expect((await vp(h, '/comments?id=abc')).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const r = await h.get('/channel/videos?channel_id=UCx', { base });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/text\/html/);
      const text = await r.text();
      expect(() => JSON.parse(text) as unknown).toThrow();
    }
    const reshaped = await vp(h, '/channel/videos?channel_id=UCx');
    expect(reshaped.status).toBe(200);
    expect(reshaped.body['ok']).toBe(true);
    expect(reshaped.body['data']['items']).toBeUndefined();
    expect(items((await vp(h, '/channel/videos?channel_id=UCx')).body)).toHaveLength(20);
    await fetch(`${h.url}/__sandbox/faults`, { method: 'DELETE' });
  });

  it('refuses an unknown fault kind with a 422', async () => {
    expect((await setFaults({ queue: ['not_a_fault'] })).status).toBe(422);
  });
});
