import { hash32, hashString, Rng } from './rng';
import type { RawQuery } from './validate';

/**
 * The 20 video-platform endpoints (video spec "Endpoints"). Their payloads are "not shown" in the spec, so each
 * answers a small deterministic JSON body derived from the path and query; they exist so the app's API console has
 * something to call in Demo mode. Wire paths say "youtube" where the spec says "vp".
 */

export const VIDEO_PATHS: readonly string[] = [
  '/discovery/resolve',
  '/discovery/search',
  '/discovery/trending',
  '/discovery/hashtag',
  '/youtube/video/details',
  '/youtube/video/streaming',
  '/youtube/video/streaming-links',
  '/youtube/video/captions',
  '/youtube/video/playability',
  '/youtube/video/player',
  '/comments',
  '/comments/replies',
  '/channel',
  '/channel/videos',
  '/channel/shorts',
  '/channel/livestreams',
  '/channel/posts',
  '/channel/podcasts',
  '/channel/playlists',
  '/channel/search',
];

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const TOPICS = [
  'salvage auction walkaround',
  'copart haul',
  'iaai bidding tips',
  'rebuilt title project',
  'auction day vlog',
  'engine start test',
];

function videoId(rng: Rng): string {
  let s = '';
  for (let i = 0; i < 11; i++) s += ID_CHARS.charAt(rng.int(0, ID_CHARS.length - 1));
  return s;
}

function video(rng: Rng): Record<string, unknown> {
  const id = videoId(rng);
  return {
    id,
    title: `${rng.pick(TOPICS)} #${rng.int(1, 400)}`,
    url: `https://www.youtube.com/watch?v=${id}`,
    duration_seconds: rng.int(30, 3600),
    views: rng.int(100, 2_000_000),
    published_at: new Date(Date.UTC(2025, 0, 1) + rng.int(0, 500) * 86_400_000).toISOString(),
    thumbnail: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`,
  };
}

/** The body for one video endpoint path (relative to /api/v1/youtube) and query. */
export function videoBody(seed: number, path: string, q: RawQuery): Record<string, unknown> {
  const keys = Object.keys(q).sort();
  const sig = `${path}?${keys.map((k) => `${k}=${String(q[k])}`).join('&')}`;
  const rng = new Rng(hash32(seed, hashString(sig)));
  const listish = !path.startsWith('/youtube/video/') && path !== '/channel' && path !== '/discovery/resolve';
  if (listish) {
    const items = Array.from({ length: 5 }, () => video(rng));
    return { ok: true, data: { items, continuation: null }, meta: { count: items.length } };
  }
  const base = video(rng);
  const extra: Record<string, Record<string, unknown>> = {
    '/youtube/video/streaming': {
      formats: [
        { itag: 18, quality: '360p', mime_type: 'video/mp4' },
        { itag: 22, quality: '720p', mime_type: 'video/mp4' },
      ],
    },
    '/youtube/video/streaming-links': {
      links: [{ quality: '720p', url: `https://rr1.googlevideo.com/videoplayback?id=${String(base['id'])}` }],
    },
    '/youtube/video/captions': {
      captions: [{ language: 'en', name: 'English (auto-generated)', kind: 'asr' }],
    },
    '/youtube/video/playability': { playable: true, status: 'OK', restrictions: [] },
    '/youtube/video/player': { player: { context: 'embedded', length_seconds: base['duration_seconds'] } },
    '/channel': {
      channel: {
        id: `UC${videoId(rng)}${videoId(rng)}`.slice(0, 24),
        name: 'Auction Garage',
        subscribers: rng.int(1000, 900_000),
      },
    },
    '/discovery/resolve': { type: 'video', resolved: true },
  };
  return {
    ok: true,
    data: { ...base, ...(extra[path] ?? { author: 'Auction Garage', available: true }) },
    meta: null,
  };
}
