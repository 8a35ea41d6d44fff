import type { ErrorPayload } from './ipc/errors';

/*
 * A program's side of a team server's sign-in and contract (docs/team.md): what the team demo, the desktop app
 * that joins a team and the team tests use. A browser page does the same through its own cookie jar
 * (src/renderer/src/api/httpBridge.ts); a program keeps the cookie itself. Uses the platform's fetch.
 */

/** A signed-in member's session on one team server: the session cookie (as a Cookie header) and the CSRF token. */
export interface TeamSession {
  /** The server's origin, e.g. `https://lotwatch.example.com`. */
  readonly base: string;
  readonly cookie: string;
  readonly csrf: string;
}

/** A refused sign-in: the server's status (401 wrong login or password, 429 throttled) and its message. */
export class TeamSignInError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Seconds to wait before the next try (429), else null. */
    readonly retryAfterS: number | null,
  ) {
    super(message);
    this.name = 'TeamSignInError';
  }
}

const originOf = (base: string) => new URL(base).origin;

/**
 * Signs in on a team server (`POST /auth/login {login, password}`) and returns the session.
 * @throws TeamSignInError with the server's status and message when it refuses (401, 429 with retry_after_s);
 *   TypeError from fetch when the server cannot be reached.
 */
export async function teamSignIn(
  base: string,
  login: string,
  password: string,
  doFetch: typeof fetch = fetch,
): Promise<TeamSession> {
  const r = await doFetch(new URL('/auth/login', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: originOf(base) },
    body: JSON.stringify({ login, password }),
  });
  const body = (await r.json().catch(() => ({}))) as {
    csrf?: string;
    error?: { message?: string };
    retry_after_s?: number;
  };
  if (!r.ok || typeof body.csrf !== 'string')
    throw new TeamSignInError(
      r.status,
      body.error?.message ?? `The team server refused the sign-in (HTTP ${r.status}).`,
      typeof body.retry_after_s === 'number' ? body.retry_after_s : null,
    );
  const cookie = r.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { base: originOf(base), cookie, csrf: body.csrf };
}

/** One answer of a team server's `/rpc/<method>`: the HTTP status with the Result envelope. */
export type TeamAnswer =
  { status: number; ok: true; value: unknown } | { status: number; ok: false; error: ErrorPayload };

/**
 * Calls one contract method as the session's member (`POST /rpc/<method>`, cookie and `X-CSRF-Token`). Never throws
 * on a refusal: the envelope says why (401 session ended, 403 role, 409 conflict).
 * @throws TypeError from fetch when the server cannot be reached.
 */
export async function teamCall(
  s: TeamSession,
  method: string,
  input?: unknown,
  doFetch: typeof fetch = fetch,
): Promise<TeamAnswer> {
  const r = await doFetch(new URL(`/rpc/${method}`, s.base), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: s.base,
      cookie: s.cookie,
      'x-csrf-token': s.csrf,
    },
    body: JSON.stringify(input ?? null),
  });
  const body = (await r.json().catch(() => null)) as
    { ok: true; value: unknown } | { ok: false; error: ErrorPayload } | null;
  if (!body)
    return {
      status: r.status,
      ok: false,
      error: { code: 'bad_response', message: `The team server answered HTTP ${r.status}.`, retryable: true },
    };
  return { status: r.status, ...body };
}
