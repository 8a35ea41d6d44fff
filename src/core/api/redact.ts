import type { ApiError } from './errors';

/*
 * Redaction of the API key from everything a service sends back (docs/architecture.md "The key never leaves core"):
 * the transport runs every body and every error through here before anything parses, stores, logs or shows it.
 */

/**
 * The key as it can appear in a service's text: as is, %-encoded (a URL the service echoes, hex digits in either
 * case, a space as `+` or `%20`), and JSON-escaped (with `/` as `\/`, as PHP writes it). Null for a key shorter than
 * 4 characters, which would match ordinary text.
 */
function keyPattern(key: string): RegExp | null {
  if (key.length < 4) return null;
  const json = JSON.stringify(key).slice(1, -1);
  const forms = new Set([
    key,
    json,
    json.replace(/\//g, '\\/'),
    encodeURIComponent(key),
    new URLSearchParams({ k: key }).toString().slice(2),
  ]);
  const escape = (f: string) =>
    f
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(
        /%([0-9A-F])([0-9A-F])/g,
        (_m, a: string, b: string) => `%[${a}${a.toLowerCase()}][${b}${b.toLowerCase()}]`,
      );
  const alternatives = [...forms].sort((a, b) => b.length - a.length).map(escape);
  return new RegExp(alternatives.join('|'), 'g');
}

/** Replaces every occurrence of the key, in any of its forms (keyPattern), in `text`. */
export function redact(text: string, key: string): string {
  const re = keyPattern(key);
  return re ? text.replace(re, '[redacted]') : text;
}

/**
 * Whether `b` starts with the signature of an image format (PNG, JPEG, GIF, WebP, AVIF/HEIC): the bytes decide,
 * never the Content-Type, which a service may set to `image/png` on a JSON body.
 */
export function isImageBytes(b: Uint8Array): boolean {
  const at = (i: number, s: string) => Buffer.from(b.subarray(i, i + s.length)).toString('latin1') === s;
  return (
    at(0, '\x89PNG\r\n\x1a\n') ||
    at(0, '\xff\xd8\xff') ||
    at(0, 'GIF87a') ||
    at(0, 'GIF89a') ||
    (at(0, 'RIFF') && at(8, 'WEBP')) ||
    at(4, 'ftypavif') ||
    at(4, 'ftypheic')
  );
}

/**
 * The one place a service's body is read (docs/architecture.md "The key never leaves core"): a service that echoes
 * the key (in usage JSON, a record, an error text) has it replaced by `[redacted]` here, before the body is parsed,
 * stored, logged, shown in the console or quoted in an error, whatever its Content-Type says. Only a body whose
 * bytes are an image (isImageBytes) passes untouched, so a photo reaches the photo cache as sent.
 */
export function redactBody(body: Buffer, key: string): Buffer {
  if (isImageBytes(body)) return body;
  const re = keyPattern(key);
  if (!re) return body;
  const text = body.toString('utf8');
  const clean = text.replace(re, '[redacted]');
  return clean === text ? body : Buffer.from(clean, 'utf8');
}

/** A field map with the key redacted from field names and messages alike. */
export function redactFields(fields: Record<string, string[]>, key: string): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [redact(k, key), v.map((m) => redact(m, key))]),
  );
}

/**
 * Last guard: a service message could echo the key back; it must never reach a log line or the UI. The service's
 * text is already redacted before it is shortened into a message (statusError), so no partial key survives a cut.
 */
export function scrub(e: ApiError, key: string): void {
  e.message = redact(e.message, key);
  if (e.fields) {
    const clean = redactFields(e.fields, key);
    for (const k of Object.keys(e.fields)) delete e.fields[k];
    Object.assign(e.fields, clean);
  }
}
