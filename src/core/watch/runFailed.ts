import { ApiError, QuotaSpentError, UnauthorizedError } from '../api/errors';
import type { PauseGate } from './pause';
import type { Recorder } from './recorder';

/**
 * What every scheduled run does with a request that failed (a saved search's page, a watch check, a call watch's
 * call): a 429 pauses all polling (pause.ts), a spent quota and a rejected key raise their system alerts once, and
 * the error's code and the buyer's words are returned for the run row. Rejects only with the store's errors.
 */
export async function runFailed(
  d: { pause: PauseGate; recorder: Recorder },
  e: unknown,
  now: number,
): Promise<{ code: string; message: string }> {
  d.pause.hold(e, now);
  if (e instanceof QuotaSpentError) await d.recorder.quotaSpent(e.periodEnd, now);
  if (e instanceof UnauthorizedError) await d.recorder.keyRejected(now);
  if (e instanceof ApiError || (e instanceof Error && 'code' in e)) {
    return { code: String((e as { code: unknown }).code), message: (e as Error).message };
  }
  return { code: 'internal', message: (e as Error)?.message ?? String(e) };
}
