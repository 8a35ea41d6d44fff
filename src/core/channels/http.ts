import type { Dispatcher } from 'undici';

/*
 * What the ntfy and webhook senders share about reading an HTTP answer (docs/architecture.md "Delivery").
 */

/** Reads at most `max` bytes of a body as text, then lets go of the rest. */
export async function readSome(body: Dispatcher.ResponseData['body'], max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    chunks.push(b);
    size += b.length;
    if (size >= max) break;
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, max);
}

/**
 * Retry-After in ms: seconds (whole or not, as Discord sends) or an HTTP date; null when absent or unreadable.
 * Never negative.
 */
export function retryAfterMsOf(headers: Record<string, string | string[] | undefined>): number | null {
  const raw = headers['retry-after'];
  const s = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!s) return null;
  if (/^\d{1,9}(\.\d+)?$/.test(s)) return Math.ceil(Number(s) * 1000);
  if (!/[a-z]/i.test(s)) return null;
  const t = Date.parse(s);
  return Number.isFinite(t) ? Math.max(0, t - Date.now()) : null;
}
