import { ERROR_CODES, type ErrorCode, type ErrorPayload } from '../../../shared/ipc/errors';

const RETRYABLE: readonly ErrorCode[] = ['network', 'timeout', 'server', 'rate_limited', 'bad_response'];

/**
 * The error a failed check or search run reported (RunOutcome.error), as the payload ErrorNotice shows, its message
 * led by what failed ("Could not check 2019 TESLA MODEL 3: The service refused the API key."): a check that failed
 * must read as a failure, never as "Checked: 0 changes" beside the error (docs/writing-guide.md rule 5). A code the
 * contract does not know (the budget's own) reads as `server`. Throws nothing.
 */
export function runErrorPayload(error: { code: string; message: string }, lead: string): ErrorPayload {
  const code = (ERROR_CODES as readonly string[]).includes(error.code) ? (error.code as ErrorCode) : 'server';
  return { code, message: `${lead}: ${error.message}`, retryable: RETRYABLE.includes(code) };
}
