/**
 * The 20 video-platform endpoints (video spec "Endpoints"). The spec writes the neutral word "vp"; on the wire it is
 * "youtube": /api/v1/vp/vp/video/details is /api/v1/youtube/youtube/video/details. Names are the spec's paths below
 * /api/v1/vp, with "vp" kept, so the API console can list them as documented.
 */
export const VIDEO_ENDPOINTS = {
  'discovery/resolve': '/api/v1/youtube/discovery/resolve',
  'discovery/search': '/api/v1/youtube/discovery/search',
  'discovery/trending': '/api/v1/youtube/discovery/trending',
  'discovery/hashtag': '/api/v1/youtube/discovery/hashtag',
  'vp/video/details': '/api/v1/youtube/youtube/video/details',
  'vp/video/streaming': '/api/v1/youtube/youtube/video/streaming',
  'vp/video/streaming-links': '/api/v1/youtube/youtube/video/streaming-links',
  'vp/video/captions': '/api/v1/youtube/youtube/video/captions',
  'vp/video/playability': '/api/v1/youtube/youtube/video/playability',
  'vp/video/player': '/api/v1/youtube/youtube/video/player',
  comments: '/api/v1/youtube/comments',
  'comments/replies': '/api/v1/youtube/comments/replies',
  channel: '/api/v1/youtube/channel',
  'channel/videos': '/api/v1/youtube/channel/videos',
  'channel/shorts': '/api/v1/youtube/channel/shorts',
  'channel/livestreams': '/api/v1/youtube/channel/livestreams',
  'channel/posts': '/api/v1/youtube/channel/posts',
  'channel/podcasts': '/api/v1/youtube/channel/podcasts',
  'channel/playlists': '/api/v1/youtube/channel/playlists',
  'channel/search': '/api/v1/youtube/channel/search',
} as const;

/** One of the 20 video endpoints, named by its spec path below /api/v1/vp. */
export type VideoEndpoint = keyof typeof VIDEO_ENDPOINTS;

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };

/**
 * {host_url} from the vehicle-auction base URL: the base minus its /api/v1/vehicle-auction suffix, else the
 * base URL's origin.
 */
export function hostUrlOf(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  const suffix = '/api/v1/vehicle-auction';
  if (trimmed.endsWith(suffix)) return trimmed.slice(0, -suffix.length);
  return new URL(trimmed).origin;
}
