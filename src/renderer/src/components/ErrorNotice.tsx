import type { ErrorPayload } from '../../../shared/ipc/errors';
import { errorText, type ErrorTextOptions } from '../lib/messages';

/**
 * An error as the user sees it: what happened and what to do, from the one map of error texts
 * (src/renderer/src/lib/messages.ts; docs/writing-guide.md rules 3 and 4), never a stack trace. `fieldsShown` and
 * `subject` say that the screen shows the field messages itself (see ErrorTextOptions); `lines` are field messages
 * the screen has no input to show next to (messages.ts fieldLines), listed inside the notice; `onRetry` offers "Try
 * again" for an error that may pass on a second try.
 */
export function ErrorNotice({
  error,
  onRetry,
  fieldsShown,
  subject,
  lines,
}: { error: ErrorPayload; onRetry?: () => void; lines?: readonly string[] } & ErrorTextOptions) {
  const { message, advice } = errorText(error, { fieldsShown, subject });
  return (
    <div className="notice error" role="alert">
      <strong>{message}</strong>
      {advice && <span className="advice"> {advice}</span>}
      {lines && lines.length > 0 && (
        <ul className="notice-lines">
          {lines.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      )}
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
  return (
    error.fields[field]?.[0] ?? error.fields[`params.${field}`]?.[0] ?? error.fields[`rules.${field}`]?.[0]
  );
}
