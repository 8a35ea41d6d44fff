import { BadInputError, LotwatchError } from '../errors';
import { fieldsMessage } from '../../shared/fieldLabels';
import { quotaSpentSentence, untilWords } from '../../shared/quota';
import type { ErrorCode } from '../../shared/ipc/errors';

/** Who the buyer's errors name as the other side: the service Lotwatch reads the auctions from. */
const SERVICE = 'The auction data service';

/**
 * Errors of the service client (spec "Errors", plus the client-side conditions). None ever contains the API key (the
 * transport redacts it as a last guard). The texts follow docs/writing-guide.md rule 3, split by who knows the next
 * step: the message says what happened in the buyer's words, with the HTTP status when the service answered ("The
 * auction data service had a problem (HTTP 502)."); what to do comes from the renderer's map by error code
 * (src/renderer/src/lib/messages.ts), so the two never say the same thing twice. Where only core knows the step
 * (which key problem, how long the service asks to wait), the message names it and the map adds nothing.
 */
export class ApiError extends LotwatchError {
  /** HTTP status when the service answered, else null. */
  readonly status: number | null;
  /** The endpoint's path template, e.g. `/vehicles/{slugVin}`. */
  readonly endpoint: string;

  constructor(
    code: ErrorCode,
    message: string,
    opts: {
      status?: number | null;
      endpoint?: string;
      retryable?: boolean;
      fields?: Record<string, string[]>;
      cause?: unknown;
    } = {},
  ) {
    super(code, message, opts);
    this.status = opts.status ?? null;
    this.endpoint = opts.endpoint ?? '';
  }
}

/** 400: one or more parameters invalid (on the image proxy: an invalid image URL). */
export class BadRequestError extends ApiError {
  constructor(endpoint: string, detail: string | null, status = 400) {
    super('bad_request', `${SERVICE} refused the request as invalid (HTTP ${status})${tail(detail)}.`, {
      status,
      endpoint,
    });
  }
}

/** 401: X-API-Key missing or invalid; also raised before sending when no key is set (costs no quota). */
export class UnauthorizedError extends ApiError {
  constructor(endpoint: string, detail: string | null, status: number | null = 401) {
    super(
      'unauthorized',
      status === null
        ? 'No API key is set. Add your key in Settings, or turn on Demo mode.'
        : `${SERVICE} did not accept the API key (HTTP ${status})${tail(detail)}. Check the API key in Settings.`,
      { status, endpoint },
    );
  }
}

/** 403: the key's plan may not make this request. */
export class ForbiddenError extends ApiError {
  constructor(endpoint: string, detail: string | null) {
    super('forbidden', `Your plan does not allow this request (HTTP 403)${tail(detail)}.`, {
      status: 403,
      endpoint,
    });
  }
}

/** 404: no such vehicle, lot, page or image. */
export class NotFoundError extends ApiError {
  constructor(endpoint: string, detail: string | null) {
    super(
      'not_found',
      `${SERVICE} has nothing at this VIN, lot number or address (HTTP 404)${tail(detail)}.`,
      {
        status: 404,
        endpoint,
      },
    );
  }
}

/**
 * 422: the service's validator refused a parameter; `fields` is its `errors` map (field -> messages). The message
 * names the first refused field by its label and says what the service accepts, in its words ("VIN: the vin field
 * must be 17 characters."); without a field map, the service's own text.
 */
export class ValidationError extends ApiError {
  constructor(endpoint: string, detail: string | null, fields: Record<string, string[]>) {
    const which = fieldsMessage(fields);
    super(
      'validation',
      `${SERVICE} refused part of the request (HTTP 422)${which ? `. ${which}` : `${tail(detail)}.`}`,
      {
        status: 422,
        endpoint,
        fields,
      },
    );
  }
}

/** Waits up to this long read as "try again in 3 seconds"; a longer one is said as a time (ms). */
const SHORT_WAIT_MS = 60 * 60_000;

/** A short wait in words: "3 seconds", "1 minute", "12 minutes" (docs/writing-guide.md rule 6). */
function waitWords(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  if (s < 60) return `${s} second${s === 1 ? '' : 's'}`;
  const m = Math.ceil(s / 60);
  return `${m} minute${m === 1 ? '' : 's'}`;
}

/**
 * 429: the rate limit was reached (too many requests a second). `retryAfterMs` from Retry-After (seconds or HTTP
 * date), else null. A short wait reads "Try again in 3 seconds"; a long one as the time it ends with its year
 * ("17 October 2026, 10:00"), never as a huge number of seconds. A spent monthly quota is the subclass QuotaSpentError.
 */
export class RateLimitedError extends ApiError {
  constructor(
    endpoint: string,
    detail: string | null,
    readonly retryAfterMs: number | null,
    now: number = Date.now(),
  ) {
    super(
      'rate_limited',
      `${SERVICE} is getting too many requests from your key (HTTP 429)${tail(detail)}. ` +
        (retryAfterMs === null
          ? 'Wait a minute, then try again; Usage shows what your plan allows.'
          : retryAfterMs <= SHORT_WAIT_MS
            ? `Try again in ${waitWords(retryAfterMs)}.`
            : `It asks Lotwatch to wait until ${untilWords(now + retryAfterMs)}: try again then.`),
      { status: 429, endpoint, retryable: true },
    );
  }
}

/**
 * 429 because the plan's requests for the subscription period are used up
 * (docs/service-contract.md "Quota spent (real)": body `{ok: false, message, limit, used, remaining: 0}`, no
 * `status`). It lasts until the period ends, so the message names that date ("used up until 12 December 2026"), and the
 * call is not worth retrying before then. `periodEnd` (ms) is X-Subscription-Period-End, else now + Retry-After when
 * that is long, else null.
 */
export class QuotaSpentError extends RateLimitedError {
  override readonly retryable = false;

  constructor(
    endpoint: string,
    readonly periodEnd: number | null,
    retryAfterMs: number | null,
    now: number = Date.now(),
  ) {
    super(endpoint, null, retryAfterMs, now);
    this.message = quotaSpentSentence(periodEnd);
  }
}

/**
 * 500, 503 and any other 5xx: the service failed. The message is the status in plain words, never the body: a real
 * 500 can carry raw database text (docs/service-contract.md "Server errors"), which the transport logs instead.
 */
export class ServerError extends ApiError {
  constructor(endpoint: string, status: number) {
    super(
      'server',
      `${SERVICE} had ${status === 500 ? 'an internal error' : 'a problem'} (HTTP ${status}).`,
      {
        status,
        endpoint,
        retryable: true,
      },
    );
  }
}

/**
 * How the two "no answer" failures begin (NetworkError, TimeoutError): a watch's stored error that starts so is
 * stale once the service answers again.
 */
export const UNREACHABLE_MESSAGES = [
  'Lotwatch could not reach the auction data service.',
  `${SERVICE} did not answer within `,
] as const;

/** The service could not be reached (DNS, refused or reset connection, TLS). */
export class NetworkError extends ApiError {
  constructor(endpoint: string, cause: unknown) {
    super('network', UNREACHABLE_MESSAGES[0], {
      endpoint,
      retryable: true,
      cause,
    });
  }
}

/** No complete answer within the time limit (`timeoutMs`). */
export class TimeoutError extends ApiError {
  constructor(endpoint: string, timeoutMs: number) {
    super('timeout', `${UNREACHABLE_MESSAGES[1]}${waitWords(timeoutMs)}.`, {
      endpoint,
      retryable: true,
    });
  }
}

/**
 * The answer was not what the specification describes: not JSON, an HTML page, or a drifted envelope. `reason` is
 * said in the message as the parser wrote it, with JSON's words for nothing ("got null") said as words; the HTTP
 * status only when it was not a success, since "HTTP 200" beside "cannot read" would only confuse.
 */
export class BadResponseError extends ApiError {
  constructor(endpoint: string, reason: string, status: number | null = null) {
    const plain = reason.replace(/\bnull\b/g, 'nothing').replace(/\bundefined\b/g, 'nothing');
    const http = status === null || (status >= 200 && status < 300) ? '' : `, HTTP ${status}`;
    super('bad_response', `${SERVICE} sent an answer Lotwatch cannot read (${plain}${http}).`, {
      status,
      endpoint,
    });
  }
}

/**
 * The service sent its headers, then the connection closed before the body was complete (fewer bytes than its
 * Content-Length, or a chunked body that never ended). The buyer's connection worked, since the headers came, so
 * this is the service's fault, said as such (docs/service-contract.md "Incomplete answers"): code `bad_response`,
 * retryable, and retried like a 5xx. `received` and `expected` are body bytes (`expected` null when not declared).
 */
export class IncompleteResponseError extends ApiError {
  constructor(endpoint: string, status: number, received: number, expected: number | null, cause: unknown) {
    super(
      'bad_response',
      `${SERVICE}'s answer was cut off before it was complete (${bytes(received)}${expected === null ? '' : ` of ${bytes(expected)}`} bytes arrived); ` +
        "the fault is on the service's side, not your connection.",
      { status, endpoint, retryable: true, cause },
    );
  }
}

/**
 * Input refused before sending, so it costs no quota. `fields` maps each offending parameter to messages, like
 * the service's own 422 `errors`. Code `bad_input`. The message names the first field by its label ("Year from:
 * must not be greater than Year to (and 1 more marked field)."), never by its key (docs/writing-guide.md rule 2).
 */
export class ApiInputError extends BadInputError {
  constructor(fields: Record<string, string[]>) {
    super(fieldsMessage(fields) ?? 'Lotwatch did not send this request: a value is not valid.', fields);
  }
}

/** A count of bytes with its thousands grouped ("12,400"). */
function bytes(n: number): string {
  return n.toLocaleString('en-US');
}

function tail(detail: string | null): string {
  if (!detail) return '';
  const d = detail
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200)
    .replace(/[.\s]+$/, '');
  return d ? `: ${d}` : '';
}
