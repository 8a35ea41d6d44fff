import { format } from 'date-fns';
import { BadInputError, LotwatchError } from '../errors';
import { quotaSpentSentence } from '../../shared/quota';
import type { ErrorCode } from '../../shared/ipc/errors';

/**
 * Errors of the service client (spec "Errors", plus the client-side conditions). Every message says what to do; none
 * ever contains the API key (the transport redacts it as a last guard).
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
    super(
      'bad_request',
      `The service refused the request as invalid${tail(detail)}. Check the search filters.`,
      {
        status,
        endpoint,
      },
    );
  }
}

/** 401: X-API-Key missing or invalid; also raised before sending when no key is set (costs no quota). */
export class UnauthorizedError extends ApiError {
  constructor(endpoint: string, detail: string | null, status: number | null = 401) {
    super(
      'unauthorized',
      status === null
        ? 'No API key is set. Add your key in Settings, or use Demo mode.'
        : `The service did not accept the API key${tail(detail)}. Check the API key in Settings.`,
      { status, endpoint },
    );
  }
}

/** 403: the key's plan may not make this request. */
export class ForbiddenError extends ApiError {
  constructor(endpoint: string, detail: string | null) {
    super('forbidden', `Your plan does not allow this request${tail(detail)}. Check your subscription.`, {
      status: 403,
      endpoint,
    });
  }
}

/** 404: no such vehicle, lot, page or image. */
export class NotFoundError extends ApiError {
  constructor(endpoint: string, detail: string | null) {
    super('not_found', `Not found${tail(detail)}. Check the VIN, lot number or URL.`, {
      status: 404,
      endpoint,
    });
  }
}

/** 422: the service's validator refused a parameter; `fields` is its `errors` map (field -> messages). */
export class ValidationError extends ApiError {
  constructor(endpoint: string, detail: string | null, fields: Record<string, string[]>) {
    super('validation', `The service refused a parameter${tail(detail)}. Correct the marked fields.`, {
      status: 422,
      endpoint,
      fields,
    });
  }
}

/** Waits up to this long read as "try again in N s"; a longer one is said as a time (ms). */
const SHORT_WAIT_MS = 60 * 60_000;

/**
 * 429: the rate limit was reached (too many requests a second). `retryAfterMs` from Retry-After (seconds or HTTP
 * date), else null. A short wait reads "Try again in 3 s"; a long one as the time it ends, never as a huge number of
 * seconds. A spent monthly quota is the subclass QuotaSpentError.
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
      `The service's request limit was reached${tail(detail)}. ` +
        (retryAfterMs === null
          ? 'Wait a little, or check your plan quota.'
          : retryAfterMs <= SHORT_WAIT_MS
            ? `Try again in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.`
            : `The service asks to wait until ${format(now + retryAfterMs, "d MMMM, HH:mm")}.`),
      { status: 429, endpoint, retryable: true },
    );
  }
}

/**
 * 429 because the plan's requests for the subscription period are used up
 * (docs/service-contract.md "Quota spent (real)": body `{ok: false, message, limit, used, remaining: 0}`, no
 * `status`). It lasts until the period ends, so the message names that date ("used up until 12 December"), and the
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

/** 500, 503 and any other 5xx: the service failed. */
export class ServerError extends ApiError {
  constructor(endpoint: string, status: number, detail: string | null) {
    super('server', `The service had a problem (HTTP ${status})${tail(detail)}. Try again later.`, {
      status,
      endpoint,
      retryable: true,
    });
  }
}

/** The service could not be reached (DNS, refused or reset connection, TLS). */
export class NetworkError extends ApiError {
  constructor(endpoint: string, cause: unknown) {
    super(
      'network',
      'Could not reach the service. Check your internet connection and the service URL in Settings.',
      {
        endpoint,
        retryable: true,
        cause,
      },
    );
  }
}

/** No complete answer within the time limit (`timeoutMs`). */
export class TimeoutError extends ApiError {
  constructor(endpoint: string, timeoutMs: number) {
    super(
      'timeout',
      `The service did not answer within ${Math.round(timeoutMs / 1000)} s. Try again later.`,
      {
        endpoint,
        retryable: true,
      },
    );
  }
}

/** The answer was not what the specification describes: not JSON, an HTML page, or a drifted envelope. */
export class BadResponseError extends ApiError {
  constructor(endpoint: string, reason: string, status: number | null = null) {
    super(
      'bad_response',
      `The service sent an answer Lotwatch cannot read (${reason}). Check the service URL in Settings; if it is right, try again later.`,
      { status, endpoint },
    );
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
      `The service's answer was cut off before it was complete (${received}${expected === null ? '' : ` of ${expected}`} bytes arrived). ` +
        "The fault is on the service's side, not your connection: try again later.",
      { status, endpoint, retryable: true, cause },
    );
  }
}

/**
 * Input refused before sending, so it costs no quota. `fields` maps each offending parameter to messages, like
 * the service's own 422 `errors`. Code `bad_input`.
 */
export class ApiInputError extends BadInputError {
  constructor(fields: Record<string, string[]>) {
    const names = Object.keys(fields);
    super(
      names.length === 1
        ? `Check ${names[0]}: ${fields[names[0] as string]?.[0] ?? 'invalid value'}`
        : `Check these fields: ${names.join(', ')}.`,
      fields,
    );
  }
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
