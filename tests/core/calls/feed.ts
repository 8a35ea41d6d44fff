import { expect } from 'vitest';

/**
 * The urls of a sandbox channel's videos published after `after` (ms), read page by page with `continuation` as the
 * service lists them (newest first): the truth a call watch's new-video alerts are checked against. `hostUrl` is
 * the sandbox's host URL (Sandbox.url).
 */
export async function publishedAfter(hostUrl: string, channelId: string, after: number): Promise<string[]> {
  const out: string[] = [];
  for (let cursor: string | null = null, page = 0; page < 50; page++) {
    const q = new URLSearchParams({ channel_id: channelId });
    if (cursor) q.set('continuation', cursor);
    const r = await fetch(`${hostUrl}/api/v1/youtube/channel/videos?${q}`, {
      headers: { 'x-api-key': 'lotwatch-demo-key' },
    });
    expect(r.status).toBe(200);
    const body = (await r.json()) as {
      data: { items: { url: string; published_at: string }[]; continuation: string | null };
    };
    const newer = body.data.items.filter((v) => Date.parse(v.published_at) > after);
    out.push(...newer.map((v) => v.url));
    cursor = body.data.continuation;
    if (!cursor || newer.length < body.data.items.length) break;
  }
  return out;
}
