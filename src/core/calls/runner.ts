import type { ApiClient } from '../api';
import {
  ApiError,
  ApiInputError,
  BadResponseError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from '../api/errors';
import type { CallWatchRow } from '../db/store';
import { sendConsoleCall, VIDEO_ENDPOINT_PREFIX } from '../explore/apiConsole';
import { callChangeAlerts, callFailingAlert, callShapeAlert } from '../alerts/callAlerts';
import type { AlertDecision } from '../alerts/decide';
import type { PollsDeps, RunOutcome } from '../watch/polls';
import { runFailed } from '../watch/runFailed';
import { CALL_ANSWERS_KEPT, CALL_FAILURES_BEFORE_PAUSE } from '../../shared/callWatch';
import { pollTargetKey, type PollTarget, type QuietHours } from '../../shared/watch';
import { diffAnswers, extractAnswer, goneSincePrev, type AnswerExtract } from '../../shared/callAnswer';

/**
 * What a call watch's runs need: a poll's own parts (PollsDeps: store, client, clock, budget, events, pause,
 * recorder, outbox; everything with side effects injected) and the buyer's quiet hours and time zone for the alerts.
 */
export interface CallRunsDeps extends Omit<
  PollsDeps,
  'watchReserve' | 'leavesSaleLooks' | 'readsListsOften'
> {
  quiet: () => QuietHours;
  /** The buyer's UTC offset in minutes at time t. */
  tzOffsetMinutes: (t: number) => number;
}

const SKIPPED: RunOutcome = { status: 'skipped', requests: 0, changes: 0, alerts: 0, error: null };
const HOUR = 3_600_000;

/** How one call ended: a JSON answer, an answer that is not JSON, the call's own 4xx, or a failure that is not its own. */
type Sent =
  | { kind: 'json'; status: number; json: unknown }
  | { kind: 'not_json'; status: number; message: string }
  | { kind: 'refused'; status: number; code: string; message: string; refused: string[] | null }
  | { kind: 'failed'; code: string; message: string }
  /** Refused by Lotwatch before sending (a parameter name the client will not send): no request spent. */
  | { kind: 'unsent'; code: string; message: string; refused: string[] };

/**
 * One run of a call watch (docs/architecture.md "Call watches"): the call sent once, exactly as the API console sends
 * it (sendConsoleCall), its answer stored and diffed with the last good one, and its alerts raised, the answer row,
 * the watch row and the alerts in one transaction: a stop at any point leaves the run whole or not done, so a new
 * item is never alerted twice (the next run diffs against the stored answer).
 */
export class CallRuns {
  constructor(private readonly d: CallRunsDeps) {}

  /**
   * Runs call watch `id` once: one request. Skipped without a client, a watch, the budget for one request, or while
   * the watch is paused (unless `manual`: "Run now"). A good JSON answer is diffed with the last good one (the first
   * is the baseline: nothing in it alerts); an answer that is not JSON or misses what the watch reads raises one
   * `call_shape_changed` per run of such answers and keeps the last good answer; a 4xx counts a failure (a 422 marks
   * the refused parameters) and CALL_FAILURES_BEFORE_PAUSE in a row pause the watch with one `call_failing`; a 401,
   * 429 or network failure is not the call's fault: handled as a saved search's (watch/runFailed.ts). Never throws for
   * service errors; rejects with the store's errors.
   */
  async run(id: number, manual: boolean): Promise<RunOutcome> {
    const w = await this.d.store.calls.get(id);
    const client = this.d.client();
    if (!w || (w.paused && !manual) || !client) return { ...SKIPPED };
    const started = this.d.clock.now();
    if (!this.d.budget.canSpend(1, started)) return { ...SKIPPED };
    const run: PollTarget = { kind: 'call', id };
    const target = pollTargetKey(run);
    const runId = await this.d.store.searches.startRun(run, started);
    this.d.emit({ name: 'poll.started', payload: { target, at: started } });
    let sent: Sent;
    try {
      sent = await this.send(client, w);
    } catch (e) {
      // A fault of Lotwatch's own: the run row ends failed, never left running.
      sent = { kind: 'failed', code: 'internal', message: (e as Error)?.message ?? String(e) };
    }
    await this.d.recorder.onQuota(client.quota());
    const now = this.d.clock.now();
    const requests = sent.kind === 'unsent' ? 0 : 1;
    let alerts = 0;
    let changes = 0;
    let error: { code: string; message: string } | null = null;
    let gone = false;
    try {
      await this.d.store.transaction(async () => {
        // Deleted while its request was out (Delete, or the Demo examples removed): nothing of it is kept.
        if (!(await this.d.store.calls.get(w.id))) {
          await this.d.store.searches.finishRun(runId, now, {
            status: 'error',
            requests,
            records: 0,
            changes: 0,
            complete: null,
            error_code: 'deleted',
            error_message: 'The call watch was deleted while its request was out.',
          });
          gone = true;
          return;
        }
        const r = await this.record(w, sent, now, target);
        alerts = r.alerts;
        changes = r.changes;
        // A JSON answer without what the watch reads did not serve either.
        error = 'message' in sent ? { code: codeOf(sent), message: sent.message } : r.missing;
        await this.d.store.searches.finishRun(runId, now, {
          status: error ? 'error' : 'ok',
          requests,
          records: sent.kind === 'json' ? 1 : 0,
          changes,
          complete: null,
          error_code: error?.code ?? null,
          error_message: error?.message ?? null,
        });
      });
    } catch (e) {
      // The store failed (a full disk, a damaged file): the end is announced as failed before the error goes on;
      // the run row stays open until the next start marks it interrupted.
      this.d.emit({
        name: 'poll.finished',
        payload: { target, at: now, status: 'error', requests, changes: 0, alerts: 0 },
      });
      throw e;
    }
    const status: RunOutcome['status'] = gone ? 'skipped' : error ? 'error' : 'ok';
    this.d.emit({ name: 'poll.finished', payload: { target, at: now, status, requests, changes, alerts } });
    await this.d.outbox.deliver();
    return { status, requests, changes, alerts, error };
  }

  /** Sends the call and sorts how it ended. Throws only for a fault of Lotwatch's own. */
  private async send(client: ApiClient, w: CallWatchRow): Promise<Sent> {
    try {
      const r = await sendConsoleCall(client, {
        name: w.target.endpoint,
        path: w.target.path,
        query: w.target.query,
      });
      return { kind: 'json', status: r.status, json: r.json };
    } catch (e) {
      // The service answered with something that is not JSON (transport.ts decodeJson): the answer changed shape.
      if (e instanceof BadResponseError && e.status !== null && e.status < 300)
        return { kind: 'not_json', status: e.status, message: e.message };
      // A 4xx that is the call's own (a bad parameter, a path that does not exist); 401 and 429 are the key's.
      if (
        e instanceof ApiError &&
        e.status !== null &&
        e.status >= 400 &&
        e.status < 500 &&
        !(e instanceof UnauthorizedError) &&
        !(e instanceof RateLimitedError)
      ) {
        const named = e instanceof ValidationError ? Object.keys(e.fields ?? {}) : [];
        return {
          kind: 'refused',
          status: e.status,
          code: e.code,
          // The client's 404 speaks of VINs and lot numbers; a video-platform call has none of them.
          message:
            e.status === 404 && isVideoCall(w.target.endpoint)
              ? 'The service knows no such video, channel or comment id.'
              : e.message,
          refused: e.status === 422 ? (named.length ? named : Object.keys(w.target.query)) : null,
        };
      }
      // Refused before sending (a parameter name the client will not send): no request, the call's own fault.
      if (e instanceof ApiInputError)
        return { kind: 'unsent', code: e.code, message: e.message, refused: Object.keys(e.fields ?? {}) };
      // Not the call's fault (a 401, a 429, the network, a 5xx): paused and alerted as a saved search's run.
      if (e instanceof Error && 'code' in e)
        return { kind: 'failed', ...(await runFailed(this.d, e, this.d.clock.now())) };
      throw e;
    }
  }

  /** Stores the run's answer, the watch row and its alerts (inside the caller's transaction). */
  private async record(
    w: CallWatchRow,
    sent: Sent,
    now: number,
    source: string,
  ): Promise<{ alerts: number; changes: number; missing: { code: string; message: string } | null }> {
    const calls = this.d.store.calls;
    const store = (decisions: AlertDecision[]) => this.d.recorder.storeAlerts(decisions, now, null, source);
    const ref = { id: w.id, name: w.name, endpoint: w.target.endpoint };
    const kept = { refused_params: w.refused_params, paused_reason: null };
    if (sent.kind === 'failed' || sent.kind === 'unsent') {
      // Not counted towards the pause: a 401, a 429 or the network is not the call's fault, and a call Lotwatch did
      // not send spends nothing; the parameters the client refused are marked.
      await calls.runEnded(w.id, {
        at: now,
        status: null,
        ok: false,
        consecutive_failures: w.consecutive_failures,
        last_error: sent.message,
        ...kept,
        ...(sent.kind === 'unsent' ? { refused_params: sent.refused } : {}),
      });
      return { alerts: 0, changes: 0, missing: null };
    }
    if (sent.kind === 'refused') {
      const failures = w.consecutive_failures + 1;
      const pause = failures >= CALL_FAILURES_BEFORE_PAUSE;
      await calls.runEnded(w.id, {
        at: now,
        status: sent.status,
        ok: false,
        consecutive_failures: failures,
        last_error: sent.message,
        refused_params: sent.refused ?? w.refused_params,
        paused_reason: pause ? 'failing' : null,
      });
      const alerts = pause
        ? await store([callFailingAlert(ref, failures, sent.status, sent.message, now)])
        : 0;
      return { alerts, changes: 0, missing: null };
    }
    const extract = sent.kind === 'json' ? extractAnswer(sent.json, w.config) : null;
    const prevRow = await calls.lastGoodAnswer(w.id);
    const prev = prevRow ? parseExtract(prevRow.extract) : null;
    if (extract) extract.missing.push(...goneSincePrev(prev, extract, w.config));
    if (!extract || extract.missing.length > 0) {
      // One alert for a run of bad answers: not again until a good answer came between.
      const alerts = (await calls.lastAnswerBad(w.id))
        ? 0
        : await store([callShapeAlert(ref, extract ? extract.missing : 'not_json', now)]);
      await calls.addAnswer(
        w.id,
        { at: now, status: sent.status, body: null, extract: JSON.stringify(extract ?? {}), good: false },
        CALL_ANSWERS_KEPT,
      );
      await calls.runEnded(w.id, {
        at: now,
        status: sent.status,
        ok: false,
        consecutive_failures: 0,
        last_error: sent.kind === 'not_json' ? sent.message : (extract?.missing.join(' ') ?? null),
        ...kept,
      });
      const message = extract ? extract.missing.join(' ') : '';
      return { alerts, changes: 0, missing: extract ? { code: 'bad_response', message } : null };
    }
    // The first good answer is the baseline: nothing in it alerts.
    const diff = prev ? diffAnswers(prev, extract, w.config) : [];
    const alerts = await store(
      callChangeAlerts({
        watch: ref,
        changes: diff,
        config: w.config,
        rules: w.rules,
        quiet: this.d.quiet(),
        now,
        tzOffsetMinutes: this.d.tzOffsetMinutes(now),
        alertsLastHour: await calls.alertsOf(source, now - HOUR),
      }),
    );
    await calls.addAnswer(
      w.id,
      {
        at: now,
        status: sent.status,
        body: JSON.stringify(sent.kind === 'json' ? sent.json : null),
        extract: JSON.stringify(extract),
        good: true,
      },
      CALL_ANSWERS_KEPT,
    );
    await calls.runEnded(w.id, {
      at: now,
      status: sent.status,
      ok: true,
      consecutive_failures: 0,
      last_error: null,
      refused_params: [],
      paused_reason: null,
    });
    return { alerts, changes: diff.length, missing: null };
  }
}

/** Whether a console endpoint name is one of the video-platform specification's (`GET /api/v1/vp/...`). */
function isVideoCall(endpoint: string): boolean {
  return endpoint.startsWith(VIDEO_ENDPOINT_PREFIX);
}

/** The run row's error code of an answer that did not serve. */
function codeOf(sent: Exclude<Sent, { kind: 'json' }>): string {
  return sent.kind === 'not_json' ? 'bad_response' : sent.code;
}

/** A stored extract, or null when the text is damaged (the next answer is then a baseline again). */
export function parseExtract(text: string): AnswerExtract | null {
  try {
    const x = JSON.parse(text) as AnswerExtract;
    return x && typeof x === 'object' && Array.isArray(x.missing) ? x : null;
  } catch {
    return null;
  }
}
