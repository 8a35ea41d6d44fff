import type { ErrorPayload } from '../shared/ipc/errors';

/**
 * Size bounds of every error that leaves core (docs/architecture.md "Error answers"). A message may quote what the
 * caller sent (a schedule, a lot key, a parameter's name), and a hostile or careless caller can send 250 KB of it:
 * quoted whole, and once more in the field map, with JSON escapes on top, it made a 1 MB answer. Bounded here, in
 * the one place every error passes (`dispatch`), rather than at each message that quotes a value.
 */

/** Any unbroken run of more characters than this is quoted as its head, "…" and its tail (a value, a path). */
export const QUOTE_MAX = 80;
const QUOTE_HEAD = 60;
const QUOTE_TAIL = 19;
/** Longest message, characters. */
export const MESSAGE_MAX = 2_000;
/** Longest message of one field, characters. */
export const FIELD_MESSAGE_MAX = 300;
/** Most fields named in one error; the message already names the first. */
export const FIELDS_MAX = 20;
/** Most messages kept per field. */
export const MESSAGES_PER_FIELD = 3;
/** Characters of all field names and field messages together. */
export const FIELDS_TOTAL_MAX = 2_000;

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
// eslint-disable-next-line no-control-regex -- control characters are what this replaces
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const LONG_RUN = new RegExp(`\\S{${QUOTE_MAX + 1},}`, 'g');

/** The first `n` UTF-16 units of `s`, one less when the cut would split a surrogate pair. */
function head(s: string, n: number): string {
  const h = s.slice(0, n);
  return h.length > 0 && isHigh(h.charCodeAt(h.length - 1)) ? h.slice(0, -1) : h;
}

function clipRun(run: string): string {
  let tail = run.slice(-QUOTE_TAIL);
  if (isLow(tail.charCodeAt(0))) tail = tail.slice(1);
  return `${head(run, QUOTE_HEAD)}…${tail}`;
}

/**
 * `text` made safe to show and bounded: control characters become one space, a broken surrogate becomes U+FFFD,
 * every unbroken run over QUOTE_MAX characters keeps its head and tail around "…", and the whole is cut to `max`
 * characters (the last being "…"). Text within the bounds comes back unchanged.
 */
export function boundText(text: string, max: number): string {
  const t = text.replace(CONTROL, ' ').replace(LONE_SURROGATE, '\uFFFD').replace(LONG_RUN, clipRun);
  return t.length <= max ? t : `${head(t, max - 1)}…`;
}

/**
 * The same error with its message and field map bounded: message at most MESSAGE_MAX characters, at most
 * FIELDS_MAX fields of at most MESSAGES_PER_FIELD messages of FIELD_MESSAGE_MAX characters, FIELDS_TOTAL_MAX in all.
 * Field names are bounded like values (two that become equal share one entry). Code and retryable are kept.
 */
export function boundErrorPayload(p: ErrorPayload): ErrorPayload {
  const out: ErrorPayload = {
    code: p.code,
    message: boundText(p.message, MESSAGE_MAX),
    retryable: p.retryable,
  };
  if (!p.fields) return out;
  // No prototype: a field named `constructor` stays a field like any other.
  const fields = Object.create(null) as Record<string, string[]>;
  let budget = FIELDS_TOTAL_MAX;
  let count = 0;
  for (const name in p.fields) {
    if (count >= FIELDS_MAX || budget <= 0) break;
    const key = boundText(name, QUOTE_MAX);
    const kept: string[] = fields[key] ?? [];
    for (const m of (p.fields[name] ?? []).slice(0, MESSAGES_PER_FIELD)) {
      if (kept.length >= MESSAGES_PER_FIELD) break;
      const b = boundText(String(m), Math.min(FIELD_MESSAGE_MAX, budget));
      budget -= b.length;
      kept.push(b);
      if (budget <= 0) break;
    }
    if (!(key in fields)) {
      fields[key] = kept;
      budget -= key.length;
      count++;
    }
  }
  out.fields = fields;
  return out;
}
