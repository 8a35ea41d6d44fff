/**
 * Error codes that may cross the process boundary in a `Result` envelope. Zod-free, so the sandboxed
 * preload and the renderer can import it. The UI maps each code to a message and a suggested action.
 *
 * The service-facing codes mirror the statuses of spec "Errors" (400, 401, 403, 404, 422, 429, 500/503) plus the
 * client-side conditions (network, timeout, bad_response).
 */
export const ERROR_CODES = [
  // Boundary and app
  'bad_input',
  'unknown_method',
  'forbidden_sender',
  'internal',
  'db_from_future',
  'db_unavailable',
  /** The team's PostgreSQL database did not answer or refused Lotwatch at start (nothing was read or written). */
  'db_unreachable',
  /** Another Lotwatch already runs on this data folder; this one left the data untouched. */
  'already_running',
  'not_implemented',
  /** The user chose not to send a request that would spend their quota (renderer only: nothing reached core). */
  'cancelled',
  /**
   * A save made on an older copy of what another member (or another window) changed since: nothing was written; the
   * message says who changed it and when.
   */
  'conflict',
  // Service (spec "Errors")
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'validation',
  'rate_limited',
  'server',
  'network',
  'timeout',
  'bad_response',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The error half of a `Result`: what the renderer sees. Never carries a stack trace. */
export interface ErrorPayload {
  code: ErrorCode;
  /** Human-readable text that says what happened and what to do. */
  message: string;
  /** True when trying the same call again later may succeed (network, 429, 5xx). */
  retryable: boolean;
  /** Per-field messages, like the service's own 422 `errors` map. */
  fields?: Record<string, string[]>;
}

/** The envelope of every contract call: a thrown error never crosses the boundary. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorPayload };

/** Builds the success half of a `Result`. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** Builds the error half of a `Result`. */
export function err<T = never>(
  code: ErrorCode,
  message: string,
  extra: { retryable?: boolean; fields?: Record<string, string[]> } = {},
): Result<T> {
  const error: ErrorPayload = { code, message, retryable: extra.retryable ?? false };
  if (extra.fields) error.fields = extra.fields;
  return { ok: false, error };
}
