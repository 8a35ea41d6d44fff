import { createServer, type Server } from 'node:http';

/**
 * A video channel whose list of videos grows when the test says so, served over real HTTP at the video-platform
 * path the client calls (`/api/v1/youtube/channel/videos`, src/core/api/video.ts): newest first, the last 30, each
 * with an `id`, a `title` and a `url`, in the sandbox's body shape (`{ ok, data: { items }, meta }`). It stands in for
 * a channel that moves on its own, so a test decides exactly which videos are new between two runs. A query with
 * `sort` is refused with a 422 naming it, one with `bogus` with a 422 that names nothing. Its one video's
 * playability (the `…/video/playability` path) turns when the test says so.
 */
export interface MovingChannel {
  /** The vehicle-auction base URL a core's Demo service points at (the video paths are on the same host). */
  baseUrl: string;
  /** Publishes `n` new videos; returns their ids. */
  publish(n: number): string[];
  /** Every video id published so far, oldest first. */
  readonly published: readonly string[];
  /** Sets what the playability endpoint answers for `data.playable`. */
  setPlayable(playable: boolean): void;
  /** Requests the channel answered. */
  readonly requests: number;
  close(): Promise<void>;
}

/** Starts a moving channel on 127.0.0.1 at a free port with `initial` videos. */
export async function startMovingChannel(initial: number): Promise<MovingChannel> {
  const ids: string[] = [];
  let requests = 0;
  let playable = true;
  const publish = (n: number) => {
    const made: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = `vid${String(ids.length + 1).padStart(8, '0')}`;
      ids.push(id);
      made.push(id);
    }
    return made;
  };
  publish(initial);
  const server: Server = createServer((req, res) => {
    requests++;
    if (req.url?.includes('/video/playability')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          ok: true,
          data: { id: 'vid00000001', playable, status: playable ? 'OK' : 'UNPLAYABLE' },
        }),
      );
      return;
    }
    if (!req.url?.startsWith('/api/v1/youtube/channel/videos')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: false, status: 404, message: 'Not Found.' }));
      return;
    }
    // A validator that refuses `sort` by name, and `bogus` without naming what it refused.
    if (/[?&]sort=/.test(req.url)) {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          message: 'The selected sort is invalid.',
          errors: { sort: ['The selected sort is invalid.'] },
        }),
      );
      return;
    }
    if (/[?&]bogus=/.test(req.url)) {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'The given data was invalid.' }));
      return;
    }
    const items = ids
      .slice(-30)
      .reverse()
      .map((id) => ({
        id,
        title: `copart haul #${Number(id.slice(3))}`,
        url: `https://www.youtube.com/watch?v=${id}`,
      }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, data: { items, continuation: null }, meta: { count: items.length } }));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1/vehicle-auction`,
    publish,
    setPlayable: (p) => void (playable = p),
    get published() {
      return ids;
    },
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
