import type { ErrorPayload } from '../../../shared/ipc/errors';

/** What to do about each error code, in the user's words. */
const ADVICE: Partial<Record<ErrorPayload['code'], string>> = {
  unauthorized: 'Check the API key in Settings, or turn on Demo mode.',
  forbidden: 'Your plan does not include this. Check your plan on the service.',
  rate_limited: 'The quota or the rate limit is reached. Lotwatch waits and tries again; see Usage.',
  network: 'The service is out of reach. Check the connection; what Lotwatch has stored is still here.',
  timeout: 'The service is slow to answer. Try again in a moment.',
  server: 'The service had a problem. Lotwatch retries by itself; try again later.',
  bad_response: 'The service answered with something unexpected. Try again later.',
  not_found: 'It may have been removed or never existed.',
  bad_input: 'Correct the highlighted fields.',
  validation: 'Correct the highlighted fields.',
};

/** What to do when the plan's requests are used up for the period. */
const SPENT_ADVICE = 'Saved searches and watches wait until then; the Library still has everything stored. To go on sooner, change the plan on the service.';

/** An error as the user sees it: what happened and what to do. Never a stack trace. */
export function ErrorNotice({ error, onRetry }: { error: ErrorPayload; onRetry?: () => void }) {
  // A 429 that is not worth retrying is a spent quota; its message already says until when.
  const advice = error.code === 'rate_limited' && !error.retryable ? SPENT_ADVICE : ADVICE[error.code];
  return (
    <div className="notice error" role="alert">
      <strong>{error.message}</strong>
      {advice && <span className="advice"> {advice}</span>}
      {onRetry && error.retryable && (
        <button type="button" className="link-button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** The first message for a form field from an error's field map (`params.year_from` or `year_from`). */
export function fieldMessage(error: ErrorPayload | null, field: string): string | undefined {
  if (!error?.fields) return undefined;
  return error.fields[field]?.[0] ?? error.fields[`params.${field}`]?.[0] ?? error.fields[`rules.${field}`]?.[0];
}
