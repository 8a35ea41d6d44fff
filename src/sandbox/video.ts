import type { CallTarget } from '../shared/callWatch';
import { hash32, hashString, Rng } from './rng';
import { HttpError, type RawQuery } from './validate';

/**
 * The 20 video-platform endpoints (video spec "Endpoints"). Their payloads are "not shown" in the spec, so each
 * answers a small JSON body in the service's envelope `{ ok: true, data, meta }`, a pure function of (seed, market
 * start, market time, path, query): the same call at the same market time always answers the same, and the answers
 * move as market time passes, so a call watch on them has something to see in Demo mode and against the standalone
 * sandbox. Wire paths say "youtube" where the spec says "vp".
 *
 * What moves (times are market times, ms since the epoch):
 * - Lists (the channel's videos, shorts, livestreams, posts, podcasts and playlists, channel search, discovery search,
 *   trending and hashtag, comments and replies) are feeds: a feed has one item per window of its cadence, published
 *   at a seed-jittered moment inside the window, with a backlog of items from before the market's start. An answer
 *   shows the newest 20 published by now, newest first, with `continuation` (pass it back as the `continuation`
 *   query) when older ones remain. An item keeps its id, title and URL once published.
 * - A video's views and likes grow with the time since it was published; its comment count is its comments feed's.
 * - Playability: some videos go private at a fixed time (`unplayableAt`), ids starting `gone-` one market hour after
 *   the market's start.
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

/** The market clock a video answer is computed at: the sandbox's seed, its market's start, and market time now (ms). */
export interface VideoClock {
  seed: number;
  /** The market's start time, ms since the epoch. */
  startTime: number;
  /** Market time now, ms since the epoch. */
  now: number;
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Items on one page of a list answer. */
export const VIDEO_PAGE_SIZE = 20;
/** The channel name every simulated channel carries. */
export const CHANNEL_NAME = 'Auction Garage';
/** The prefix of video ids that turn unplayable ("This video is private") one market hour after the market's start. */
export const GONE_PREFIX = 'gone-';

/**
 * The Demo's example channel: one video in each 40 minutes of market time, at a seeded moment within it, so a call
 * watch on it sees a new video within its first simulated hour without filling the inbox. Other channels upload every 2 to 5 hours on
 * average.
 */
export const DEMO_CHANNEL_ID = 'UCauctionGarageDemo00001';
const DEMO_CHANNEL_WINDOW = 40 * MIN;

/**
 * The Demo's example call watch (the app may offer it later): the example channel's new videos, a console call as
 * the buyer would type it (CallTarget of src/shared/callWatch.ts).
 */
export const DEMO_CALL_EXAMPLE: { name: string; target: CallTarget } = {
  name: 'Auction Garage: new videos',
  target: { endpoint: 'GET /api/v1/vp/channel/videos', path: {}, query: { channel_id: DEMO_CHANNEL_ID } },
};

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const TOPICS = [
  'salvage auction walkaround',
  'copart haul',
  'iaai bidding tips',
  'rebuilt title project',
  'auction day vlog',
  'engine start test',
];
const COMMENTERS = ['@flipwrench', '@salvagesam', '@rustbeltrick', '@bidwatcher', '@titlejane', '@lotlizard'];
const COMMENTS = [
  'What did it sell for in the end?',
  'Run and drive my foot, that engine knocks.',
  'Great find, the frame looks straight.',
  'How much were the buyer fees on that one?',
  'Flood cars scare me, check the seat rails.',
  'Clean title or rebuilt after this?',
];

const CHANNEL_KEYS = ['channel_id', 'channelId', 'handle', 'channel', 'id', 'url', 'username', 'user'];
const VIDEO_KEYS = ['id', 'video_id', 'videoId', 'v', 'url'];
const COMMENT_KEYS = ['comment_id', 'commentId', 'id', 'parent_id'];
const TERM_KEYS = ['q', 'query', 'keyword', 'term', 'search'];

/** The first non-empty value among `keys` in the query (a repeated parameter's first value), else ''. */
function firstOf(q: RawQuery, keys: readonly string[]): string {
  for (const k of keys) {
    const v = q[k];
    const s = Array.isArray(v) ? v[0] : v;
    if (s) return s;
  }
  return '';
}

/**
 * The video id a query names (`id`, `video_id`, `videoId`, `v` or `url`, the first given): a watch, short or
 * youtu.be URL gives its id, any other value is taken as the id itself. '' when none is given.
 */
export function videoIdOf(q: RawQuery): string {
  const raw = firstOf(q, VIDEO_KEYS);
  const m = /(?:[?&]v=|youtu\.be\/|\/shorts\/|\/live\/)([A-Za-z0-9_-]+)/.exec(raw);
  return m?.[1] ?? raw;
}

function makeId(rng: Rng, n = 11): string {
  let s = '';
  for (let i = 0; i < n; i++) s += ID_CHARS.charAt(rng.int(0, ID_CHARS.length - 1));
  return s;
}

const iso = (t: number): string => new Date(t).toISOString();

/**
 * A video's views at market time `now`: a seed-drawn start plus a seed-drawn rate per hour since it was published
 * (0 before). Never decreases as `now` grows.
 */
export function viewsAt(seed: number, id: string, publishedMs: number, now: number): number {
  const rng = new Rng(hash32(seed, hashString(id), 0x71e5));
  const base = rng.int(0, 50);
  const perHour = rng.int(5, 900);
  return base + Math.floor((perHour * Math.max(0, now - publishedMs)) / HOUR);
}

/**
 * When video `id` turns unplayable ("This video is private"), market ms since the epoch, or null when it never
 * does: ids starting with GONE_PREFIX one market hour after the market's start; about a third of other ids (drawn
 * from the seed and the id) 2 to 48 whole hours after it. Tests pick a `gone-` id to see the flip soon.
 */
export function unplayableAt(seed: number, startTime: number, id: string): number | null {
  if (id.startsWith(GONE_PREFIX)) return startTime + HOUR;
  const h = hash32(seed, hashString(id), 0x9a7);
  if (h % 3 !== 0) return null;
  return startTime + (2 + (Math.floor(h / 3) % 47)) * HOUR;
}

/** The kinds of list a feed holds. */
type FeedKind = 'video' | 'short' | 'live' | 'post' | 'podcast' | 'playlist' | 'comment' | 'reply' | 'found';

/** One feed: its items come one per `windowMs` window from the market's start, `backlog` of them before it. */
interface Feed {
  kind: FeedKind;
  /** What names the feed (a channel, a video, a search), with its kind. */
  key: string;
  windowMs: number;
  backlog: number;
  /** Episode number of the oldest item. */
  firstEpisode: number;
}

/** A channel's feed of `kind`: the cadence of a channel's videos, scaled by kind (shorts twice as often, ...). */
function channelFeed(seed: number, channel: string, kind: FeedKind): Feed {
  const h = hash32(seed, hashString(channel), 0xc4a7);
  const videoWindow = channel === DEMO_CHANNEL_ID ? DEMO_CHANNEL_WINDOW : (2 + (h % 4)) * HOUR;
  const scale: Partial<Record<FeedKind, number>> = {
    short: 0.5,
    live: 4,
    post: 2,
    podcast: 6,
    playlist: 12,
  };
  return {
    kind,
    key: `${kind}|${channel}`,
    windowMs: Math.round(videoWindow * (scale[kind] ?? 1)),
    backlog: kind === 'playlist' ? 4 + (h % 9) : 25 + (h % 21),
    firstEpisode: 1 + ((h >>> 8) % 150),
  };
}

/** A feed of any other list (comments of a video, replies to a comment, a discovery search). */
function otherFeed(seed: number, kind: FeedKind, key: string, windowMs: number, maxBacklog: number): Feed {
  const h = hash32(seed, hashString(`${kind}|${key}`), 0xfeed);
  return {
    kind,
    key: `${kind}|${key}`,
    windowMs,
    backlog: h % (maxBacklog + 1),
    firstEpisode: 1 + ((h >>> 8) % 150),
  };
}

/** Item `k` of a feed (k from -backlog): its seeded draws and its publication time (whole seconds). */
function slot(c: VideoClock, f: Feed, k: number): { rng: Rng; at: number } {
  const rng = new Rng(hash32(c.seed, hashString(f.key), k | 0));
  const off = f.windowMs * (1 / 6 + (2 / 3) * rng.next());
  return { rng, at: Math.floor((c.startTime + k * f.windowMs + off) / 1000) * 1000 };
}

/** The index of the newest item published by `c.now` (-backlog - 1 when none is). */
function lastIndex(c: VideoClock, f: Feed): number {
  const k = Math.floor((c.now - c.startTime) / f.windowMs);
  const top = slot(c, f, k).at <= c.now ? k : k - 1;
  return Math.max(top, -f.backlog - 1);
}

/** A feed's item `k` as the service lists it. */
function feedItem(c: VideoClock, f: Feed, k: number): Record<string, unknown> {
  const { rng, at } = slot(c, f, k);
  const episode = f.firstEpisode + k + f.backlog;
  const title = `${rng.pick(TOPICS)} #${episode}`;
  switch (f.kind) {
    case 'post': {
      const id = `Ugkx${makeId(rng, 22)}`;
      return {
        id,
        text: `New on the channel: ${title}`,
        url: `https://www.youtube.com/post/${id}`,
        likes: rng.int(0, 900),
        published_at: iso(at),
      };
    }
    case 'playlist': {
      const id = `PL${makeId(rng, 32)}`;
      return {
        id,
        title: `${rng.pick(TOPICS)} (season ${episode})`,
        url: `https://www.youtube.com/playlist?list=${id}`,
        video_count: rng.int(3, 60),
        published_at: iso(at),
      };
    }
    case 'comment':
    case 'reply': {
      const id = `Ug${makeId(rng, 24)}`;
      return {
        id,
        author: rng.pick(COMMENTERS),
        text: rng.pick(COMMENTS),
        likes: rng.int(0, 300),
        reply_count: f.kind === 'comment' ? rng.int(0, 12) : 0,
        published_at: iso(at),
      };
    }
    default: {
      const id = makeId(rng);
      const short = f.kind === 'short';
      const duration =
        f.kind === 'short' ? rng.int(15, 60) : f.kind === 'live' ? rng.int(1800, 10800) : rng.int(60, 3600);
      return {
        id,
        title,
        url: short ? `https://www.youtube.com/shorts/${id}` : `https://www.youtube.com/watch?v=${id}`,
        duration_seconds: duration,
        views: viewsAt(c.seed, id, at, c.now),
        published_at: iso(at),
        thumbnail: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`,
        author: CHANNEL_NAME,
        ...(f.kind === 'live' ? { live_status: 'was_live' } : {}),
      };
    }
  }
}

const tokenOf = (f: Feed, k: number): string => Buffer.from(`vp1|${f.key}|${k}`).toString('base64url');

/**
 * The newest item index a `continuation` query starts from, or the newest published one when none is given.
 * @throws HttpError 422 when the token is not one this feed gave.
 */
function startIndex(c: VideoClock, f: Feed, q: RawQuery): number {
  const last = lastIndex(c, f);
  const token = firstOf(q, ['continuation']);
  if (!token) return last;
  const m = /^vp1\|(.*)\|(-?\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  const k = m && m[1] === f.key ? Number(m[2]) : NaN;
  if (!Number.isInteger(k) || k > last || k < -f.backlog) {
    throw new HttpError(422, 'The continuation is invalid.', {
      continuation: ['The continuation is invalid.'],
    });
  }
  return k;
}

/** One page of a feed: up to VIDEO_PAGE_SIZE items from `from` down that pass `keep`, and the token for the rest. */
function page(
  c: VideoClock,
  f: Feed,
  from: number,
  keep: (item: Record<string, unknown>) => boolean = () => true,
): { items: Record<string, unknown>[]; continuation: string | null } {
  const items: Record<string, unknown>[] = [];
  let k = from;
  for (; k >= -f.backlog && items.length < VIDEO_PAGE_SIZE; k--) {
    const item = feedItem(c, f, k);
    if (keep(item)) items.push(item);
  }
  // More remain when an older item exists (for a filtered list: one that passes).
  let more = false;
  for (let j = k; j >= -f.backlog && !more; j--) more = keep(feedItem(c, f, j));
  return { items, continuation: more ? tokenOf(f, k) : null };
}

/** How many items a feed has published by now. */
const total = (c: VideoClock, f: Feed): number => lastIndex(c, f) + f.backlog + 1;

/** The comments feed of video `id`: a comment every 30 minutes of market time on average. */
const commentsFeed = (seed: number, id: string): Feed => otherFeed(seed, 'comment', id, 30 * MIN, 60);

const CHANNEL_LISTS: Record<string, FeedKind> = {
  '/channel/videos': 'video',
  '/channel/shorts': 'short',
  '/channel/livestreams': 'live',
  '/channel/posts': 'post',
  '/channel/podcasts': 'podcast',
  '/channel/playlists': 'playlist',
};

/** A list answer in the service's envelope. */
function listBody(
  p: { items: Record<string, unknown>[]; continuation: string | null },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ok: true,
    data: { items: p.items, continuation: p.continuation, ...extra },
    meta: { count: p.items.length },
  };
}

/** The query without paging, in a stable order: what names a discovery search. */
function signature(q: RawQuery): string {
  return Object.keys(q)
    .filter((k) => k !== 'continuation')
    .sort()
    .map((k) => `${k}=${String(q[k])}`)
    .join('&');
}

/**
 * The body for one video endpoint path (relative to /api/v1/youtube) and query at market time `c.now`: the same
 * (seed, start, now, path, query) always give the same body.
 * @throws HttpError 422 when a `continuation` query is not one the same list gave.
 */
export function videoBody(c: VideoClock, path: string, q: RawQuery): Record<string, unknown> {
  const channelKind = CHANNEL_LISTS[path];
  if (channelKind) {
    const f = channelFeed(c.seed, firstOf(q, CHANNEL_KEYS), channelKind);
    return listBody(page(c, f, startIndex(c, f, q)));
  }
  if (path === '/channel/search') {
    const f = channelFeed(c.seed, firstOf(q, CHANNEL_KEYS), 'video');
    const words = firstOf(q, TERM_KEYS).toLowerCase().split(/\s+/).filter(Boolean);
    const keep = (it: Record<string, unknown>): boolean => {
      const title = String(it['title']).toLowerCase();
      return words.every((w) => title.includes(w));
    };
    return listBody(page(c, f, startIndex(c, f, q), keep));
  }
  if (path === '/comments') {
    const f = commentsFeed(c.seed, videoIdOf(q));
    return listBody(page(c, f, startIndex(c, f, q)), { comment_count: total(c, f) });
  }
  if (path === '/comments/replies') {
    const f = otherFeed(c.seed, 'reply', firstOf(q, COMMENT_KEYS), 3 * HOUR, 6);
    return listBody(page(c, f, startIndex(c, f, q)), { reply_count: total(c, f) });
  }
  if (path.startsWith('/discovery/') && path !== '/discovery/resolve') {
    const window = path === '/discovery/trending' ? 3 * HOUR : HOUR;
    const f = otherFeed(c.seed, 'found', `${path}?${signature(q)}`, window, 40);
    return listBody(page(c, f, startIndex(c, f, q)));
  }
  return singleBody(c, path, q);
}

/** The answer of a single-video path (details, streaming, captions, playability, player), /channel and resolve. */
function singleBody(c: VideoClock, path: string, q: RawQuery): Record<string, unknown> {
  const given = path === '/channel' ? '' : videoIdOf(q);
  const rng = new Rng(hash32(c.seed, hashString(given || `${path}?${signature(q)}`)));
  const id = given || makeId(rng);
  const published = c.startTime - rng.int(1, 500) * DAY;
  const duration = rng.int(30, 3600);
  const gone = unplayableAt(c.seed, c.startTime, id);
  const playable = gone === null || c.now < gone;
  const views = viewsAt(c.seed, id, published, c.now);
  const base = {
    id,
    title: `${rng.pick(TOPICS)} #${rng.int(1, 400)}`,
    url: `https://www.youtube.com/watch?v=${id}`,
    duration_seconds: duration,
    views,
    published_at: iso(published),
    thumbnail: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`,
  };
  const channelKey = firstOf(q, CHANNEL_KEYS);
  const extra: Record<string, Record<string, unknown>> = {
    '/youtube/video/streaming': {
      formats: [
        { itag: 18, quality: '360p', mime_type: 'video/mp4' },
        { itag: 22, quality: '720p', mime_type: 'video/mp4' },
      ],
    },
    '/youtube/video/streaming-links': {
      links: [{ quality: '720p', url: `https://rr1.googlevideo.com/videoplayback?id=${id}` }],
    },
    '/youtube/video/captions': {
      captions: [{ language: 'en', name: 'English (auto-generated)', kind: 'asr' }],
    },
    '/youtube/video/playability': playable
      ? { playable: true, status: 'OK', reason: null, restrictions: [] }
      : { playable: false, status: 'UNPLAYABLE', reason: 'This video is private', restrictions: [] },
    '/youtube/video/player': { player: { context: 'embedded', length_seconds: duration } },
    '/channel': {
      channel: {
        id: channelKey.startsWith('UC') ? channelKey : `UC${makeId(rng, 22)}`,
        name: CHANNEL_NAME,
        subscribers: rng.int(1000, 900_000) + Math.floor(Math.max(0, c.now - c.startTime) / (2 * HOUR)),
        video_count: total(c, channelFeed(c.seed, channelKey, 'video')),
      },
    },
    '/discovery/resolve': { type: 'video', resolved: true },
    '/youtube/video/details': {
      author: CHANNEL_NAME,
      available: playable,
      likes: Math.floor(views / 40),
      comment_count: total(c, commentsFeed(c.seed, id)),
    },
  };
  return {
    ok: true,
    data: { ...base, ...(extra[path] ?? { author: CHANNEL_NAME, available: playable }) },
    meta: null,
  };
}
