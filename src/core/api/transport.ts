import { Agent, request, type Dispatcher } from 'undici';
import type { Clock } from '../clock';
import { databaseErrorOf } from '../errors';
import type { Logger } from '../log';
import type { QuotaSnapshot } from '../../shared/vehicle';
import {
  ApiError,
  BadRequestError,
  BadResponseError,
  ForbiddenError,
  IncompleteResponseError,
  NetworkError,
  NotFoundError,
  QuotaSpentError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  ValidationError,
} from './errors';
import { parseErrorBody } from './parse';
import { redact, redactBody, redactFields, scrub } from './redact';
import type { RateLimiter } from './quota';
import { capWait, MAX_WAIT_MS, parseQuotaHeaders, parseRetryAfter, sleep } from './quota';

/** One request as reported to the sink (the request log, which the budget counts). */
export interface RequestRecord {
  /** Path template, e.g. `/vehicles/{slugVin}`, or the video path. */
  endpoint: string;
  /** HTTP status, or null when no answer came (network error, timeout, abort). */
  status: number | null;
  /** From sending to the end of the body, ms. */
  durationMs: number;
  /** Body bytes received. */
  bytes: number;
  /** 0 for the first try, then 1, 2... for retries. */
  attempt: number;
  /** When the request was sent, ms since the epoch. */
  at: number;
  /** Error code when the attempt failed. */
  errorCode: string | null;
}

/** Retry policy: only network errors, 5xx and 429 are retried; any other answer would only come again. */
export interface RetryOptions {
  /** Retries after the first try. Default 2. */
  maxRetries: number;
  /** First backoff, ms; doubled each retry. Default 500. */
  baseDelayMs: number;
  /** Largest backoff, ms. Default 8000. */
  maxDelayMs: number;
  /** Total waiting allowed between tries of one call, ms; a longer Retry-After ends the call. Default 30000. */
  budgetMs: number;
}

export interface TransportOptions {
  apiKey: () => string | undefined;
  clock: Clock;
  log: Logger;
  dispatcher: Dispatcher;
  timeoutMs: number;
  retry: RetryOptions;
  limiter: RateLimiter;
  random: () => number;
  sink?: (r: RequestRecord) => void;
  onQuota?: (q: QuotaSnapshot) => void;
  /** Largest body accepted, bytes. */
  maxBytes: number;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Uint8Array;
  contentType: string;
}

const TIMEOUT = Symbol('timeout');

/** The pooled keep-alive dispatcher used when none is injected. */
export function defaultDispatcher(timeoutMs: number): Agent {
  return new Agent({
    keepAliveTimeout: 10_000,
    connections: 8,
    connectTimeout: Math.min(timeoutMs, 10_000),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
}

/**
 * Sends one GET with retries and returns the 2xx response; maps every other outcome to an ApiError.
 * @throws ApiError subclasses; the caller's AbortSignal reason when it aborts.
 */
export async function send(
  o: TransportOptions,
  endpoint: string,
  url: string,
  accept: string,
  signal?: AbortSignal,
): Promise<RawResponse> {
  const key = o.apiKey();
  if (!key) throw new UnauthorizedError(endpoint, null, null);
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    try {
      return await once(o, key, endpoint, url, accept, attempt, signal);
    } catch (e) {
      if (signal?.aborted || !(e instanceof ApiError)) throw e;
      scrub(e, key);
      // A spent quota lasts until the period ends: asking again in seconds only fills the request log. An answer
      // cut off mid-body is the service failing like a 5xx, and retried like one.
      const retryable =
        (e.code === 'network' ||
          e.code === 'server' ||
          e.code === 'rate_limited' ||
          e instanceof IncompleteResponseError) &&
        !(e instanceof QuotaSpentError);
      if (!retryable || attempt >= o.retry.maxRetries) throw e;
      const backoff = Math.min(o.retry.maxDelayMs, o.retry.baseDelayMs * 2 ** attempt);
      const jittered = backoff / 2 + (backoff / 2) * o.random();
      const after = e instanceof RateLimitedError && e.retryAfterMs !== null ? e.retryAfterMs : 0;
      const delay = Math.max(jittered, after);
      if (waited + delay > o.retry.budgetMs) throw e;
      waited += delay;
      o.log.info('api: retrying', {
        endpoint,
        attempt: attempt + 1,
        delayMs: Math.round(delay),
        code: e.code,
      });
      await sleep(o.clock, delay, signal);
    }
  }
}

async function once(
  o: TransportOptions,
  key: string,
  endpoint: string,
  url: string,
  accept: string,
  attempt: number,
  signal?: AbortSignal,
): Promise<RawResponse> {
  await o.limiter.acquire(signal);
  const started = o.clock.now();
  const ctl = new AbortController();
  const onAbort = () => ctl.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const cancelTimer = o.clock.setTimeout(() => ctl.abort(TIMEOUT), o.timeoutMs);
  let status: number | null = null;
  let bytes = 0;
  try {
    const res = await request(url, {
      method: 'GET',
      dispatcher: o.dispatcher,
      signal: ctl.signal,
      headers: { 'x-api-key': key, accept, 'user-agent': 'Lotwatch' },
    });
    status = res.statusCode;
    const headers = res.headers;
    const chunks: Uint8Array[] = [];
    try {
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        if (bytes > o.maxBytes) {
          res.body.destroy();
          throw new BadResponseError(
            endpoint,
            `the answer is larger than ${o.maxBytes.toLocaleString('en-US')} bytes`,
            status,
          );
        }
        chunks.push(chunk);
      }
    } catch (e) {
      // The headers came, so the buyer's connection works: a body that then stops short is the service's fault,
      // not "check your internet connection". A timeout or an abort stays what it is.
      if (e instanceof ApiError || ctl.signal.aborted || isTimeoutCode(e)) throw e;
      const declared = Number(headers['content-length']);
      throw new IncompleteResponseError(
        endpoint,
        status,
        bytes,
        Number.isFinite(declared) ? declared : null,
        e,
      );
    }
    const ct = headers['content-type'];
    const contentType = (Array.isArray(ct) ? ct[0] : ct) ?? '';
    const body = redactBody(Buffer.concat(chunks), key);
    const quota = parseQuotaHeaders(headers, o.clock.now());
    if (quota) {
      o.limiter.setRate(quota.rateLimit);
      o.onQuota?.(quota);
    }
    if (status >= 200 && status < 300) {
      report(o, endpoint, status, started, bytes, attempt, null);
      return { status, headers, body, contentType };
    }
    if (status >= 500) logServiceError(o.log, endpoint, status, body);
    throw statusError(endpoint, status, headers, body, contentType, o.clock.now(), key);
  } catch (e) {
    const err = toApiError(e, endpoint, o.timeoutMs, ctl.signal, signal);
    report(o, endpoint, status, started, bytes, attempt, err instanceof ApiError ? err.code : 'aborted');
    throw err;
  } finally {
    cancelTimer();
    signal?.removeEventListener('abort', onAbort);
  }
}

/** How much of a failed answer's body the log keeps, characters. */
const LOGGED_BODY_CHARS = 1_000;

/**
 * A 5xx's body goes to the log only (docs/service-contract.md "Server errors"): it may be raw database text ("SQLSTATE[HY000]
 * ... SQL: select ..."), which a buyer must never read. The body is already redacted (redactBody); the log keeps its
 * first LOGGED_BODY_CHARS characters.
 */
function logServiceError(log: Logger, endpoint: string, status: number, body: Uint8Array): void {
  const text = Buffer.from(body).toString('utf8');
  log.warn('api: service error', {
    endpoint,
    status,
    bytes: body.length,
    body: text.length > LOGGED_BODY_CHARS ? `${text.slice(0, LOGGED_BODY_CHARS)}…` : text,
  });
}

function report(
  o: TransportOptions,
  endpoint: string,
  status: number | null,
  started: number,
  bytes: number,
  attempt: number,
  errorCode: string | null,
): void {
  const rec: RequestRecord = {
    endpoint,
    status,
    durationMs: o.clock.now() - started,
    bytes,
    attempt,
    at: started,
    errorCode,
  };
  try {
    o.sink?.(rec);
  } catch {
    // A failing sink must not fail the call it only observes.
  }
  o.log.debug('api: request', { ...rec });
}

function toApiError(
  e: unknown,
  endpoint: string,
  timeoutMs: number,
  own: AbortSignal,
  caller?: AbortSignal,
): unknown {
  if (e instanceof ApiError) return e;
  // Storing the answer's quota failed (a full disk, a read-only file): a database problem, not the network's.
  const dbError = databaseErrorOf(e);
  if (dbError) return dbError;
  if (caller?.aborted) return caller.reason;
  if (own.aborted && own.reason === TIMEOUT) return new TimeoutError(endpoint, timeoutMs);
  if (isTimeoutCode(e)) return new TimeoutError(endpoint, timeoutMs);
  return new NetworkError(endpoint, e);
}

/** undici's own header or body timeout. */
function isTimeoutCode(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}

function statusError(
  endpoint: string,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: Uint8Array,
  contentType: string,
  now: number,
  key: string,
): ApiError {
  let json: unknown = undefined;
  if (/json/i.test(contentType) || (body.length > 0 && body[0] === 0x7b)) {
    try {
      json = JSON.parse(Buffer.from(body).toString('utf8'));
    } catch {
      json = undefined;
    }
  }
  // Redact before the text is trimmed into a message: a cut through the key would leave a prefix that no later
  // search for the whole key can find.
  const parsed = parseErrorBody(json);
  const message = parsed.message === null ? null : redact(parsed.message, key);
  const fields = redactFields(parsed.fields, key);
  switch (status) {
    case 400:
      return new BadRequestError(endpoint, message);
    case 401:
      return new UnauthorizedError(endpoint, message);
    case 403:
      return new ForbiddenError(endpoint, message);
    case 404:
      return new NotFoundError(endpoint, message);
    case 422:
      return new ValidationError(endpoint, message, fields);
    case 429:
      return tooMany(endpoint, message, json, headers, now);
  }
  // A 5xx's own text stays in the log (logServiceError): the buyer reads the status in plain words.
  if (status >= 500) return new ServerError(endpoint, status);
  if (status >= 400) return new BadRequestError(endpoint, message, status);
  // 1xx/3xx: undici does not follow redirects, and the service documents none.
  return new BadResponseError(endpoint, 'a status the service does not document', status);
}

/**
 * A 429 read as either a spent quota or a passing rate limit (docs/service-contract.md "Quota spent (real)"). Spent:
 * the body says `remaining: 0` (or `used >= limit`), or the quota headers say no requests remain. The period end
 * comes from X-Subscription-Period-End, else from a Retry-After longer than an hour. A Retry-After past the period's
 * end is read as the period's end, and neither it nor the period end is more than 35 days away (quota.ts capWait).
 */
function tooMany(
  endpoint: string,
  message: string | null,
  json: unknown,
  headers: Record<string, string | string[] | undefined>,
  now: number,
): RateLimitedError {
  const q = parseQuotaHeaders(headers, now);
  const retryAfter = capWait(parseRetryAfter(headers, now), q?.periodEnd ?? null, now);
  const body =
    json !== null && typeof json === 'object' && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : {};
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const remaining = num(body['remaining']);
  const used = num(body['used']);
  const limit = num(body['limit']);
  const spent =
    remaining === 0 || (used !== null && limit !== null && limit > 0 && used >= limit) || q?.remaining === 0;
  if (!spent) return new RateLimitedError(endpoint, message, retryAfter, now);
  const periodEnd =
    q?.periodEnd !== null && q?.periodEnd !== undefined && q.periodEnd > now
      ? Math.min(q.periodEnd, now + MAX_WAIT_MS)
      : retryAfter !== null && retryAfter > 3_600_000
        ? now + retryAfter
        : null;
  return new QuotaSpentError(endpoint, periodEnd, retryAfter, now);
}

/**
 * Decodes a 2xx body as JSON; an HTML page or anything else is a BadResponseError.
 * @throws BadResponseError
 */
export function decodeJson(endpoint: string, res: RawResponse): unknown {
  const text = Buffer.from(res.body).toString('utf8');
  if (/text\/html/i.test(res.contentType) || /^\s*</.test(text)) {
    throw new BadResponseError(endpoint, 'an HTML page instead of JSON', res.status);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadResponseError(endpoint, 'not JSON', res.status);
  }
}
