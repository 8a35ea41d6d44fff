import {
  CallTargetSchema,
  CallWatchConfigSchema,
  type CallPauseReason,
  type CallTarget,
  type CallWatchConfig,
} from '../../shared/callWatch';
import type { AlertRules } from '../../shared/watch';
import { bool, parseStoredRules } from './rows';

/*
 * The call watches' rows as both engines' repositories read and write them (CallWatchesRepo on the desktop's SQLite
 * file, KyselyCallWatchesRepo on either engine): said once here, so the two never disagree. No SQL here.
 */

/** A call watch row with its JSON columns parsed (migration 0150). Times ms. */
export interface CallWatchRow {
  id: number;
  name: string;
  /** The console call as typed: endpoint name, path parameters, query. */
  target: CallTarget;
  config: CallWatchConfig;
  /** Cron expression (node-cron syntax). */
  schedule: string;
  rules: AlertRules;
  paused: boolean;
  paused_reason: CallPauseReason | null;
  is_example: boolean;
  created_at: number;
  updated_at: number;
  last_run_at: number | null;
  last_ok_at: number | null;
  last_status: number | null;
  consecutive_failures: number;
  last_error: string | null;
  refused_params: string[];
  /** The member who made it (`users` id); null: the local owner, or made before the team. */
  created_by: number | null;
}

/** One stored answer: `extract` is the AnswerExtract JSON the diff reads; `body` the JSON text, null once aged out. */
export interface CallAnswerRow {
  id: number;
  watch_id: number;
  at: number;
  status: number;
  body: string | null;
  extract: string;
  good: boolean;
}

/** A `call_watches` row as the database returns it (booleans 0/1, JSON columns as text). */
export interface RawCallWatch {
  id: number;
  name: string;
  endpoint: string;
  path: string;
  query: string;
  config: string;
  schedule: string;
  rules: string;
  paused: number;
  paused_reason: string | null;
  is_example: number;
  created_at: number;
  updated_at: number;
  last_run_at: number | null;
  last_ok_at: number | null;
  last_status: number | null;
  consecutive_failures: number;
  last_error: string | null;
  refused_params: string;
  created_by: number | null;
}

/** What create and update write. */
export type CallWatchWrite = Pick<
  CallWatchRow,
  'name' | 'target' | 'config' | 'schedule' | 'rules' | 'paused'
> & {
  paused_reason: CallPauseReason | null;
};

/** The end of a run as stored on the watch row (see CallWatchesRepo.runEnded). */
export interface CallRunEnd {
  at: number;
  status: number | null;
  ok: boolean;
  consecutive_failures: number;
  last_error: string | null;
  refused_params: string[];
  paused_reason: CallPauseReason | null;
}

/** A JSON column's value, or null when its text is not JSON (a damaged column). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Parses a stored row; a damaged JSON column reads as its default, so one bad row never stops the watcher. */
export function rowOf(r: RawCallWatch): CallWatchRow {
  const target = CallTargetSchema.safeParse({
    endpoint: r.endpoint,
    path: parseJson(r.path) ?? {},
    query: parseJson(r.query) ?? {},
  });
  const config = CallWatchConfigSchema.safeParse(parseJson(r.config) ?? {});
  const refused = parseJson(r.refused_params);
  return {
    id: r.id,
    name: r.name,
    target: target.success ? target.data : { endpoint: r.endpoint, path: {}, query: {} },
    config: config.success ? config.data : CallWatchConfigSchema.parse({}),
    schedule: r.schedule,
    rules: parseStoredRules(parseJson(r.rules) === null ? '{}' : r.rules),
    paused: bool(r.paused),
    paused_reason: r.paused_reason === 'buyer' || r.paused_reason === 'failing' ? r.paused_reason : null,
    is_example: bool(r.is_example),
    created_at: r.created_at,
    updated_at: r.updated_at,
    last_run_at: r.last_run_at,
    last_ok_at: r.last_ok_at,
    last_status: r.last_status,
    consecutive_failures: r.consecutive_failures,
    last_error: r.last_error,
    refused_params: Array.isArray(refused) ? refused.filter((x): x is string => typeof x === 'string') : [],
    created_by: r.created_by ?? null,
  };
}

/** What create and update write: the columns' values (JSON as text, 0/1), and the time (ms) of the write. */
export type WriteParams = Pick<
  RawCallWatch,
  'name' | 'endpoint' | 'path' | 'query' | 'config' | 'schedule' | 'rules' | 'paused' | 'paused_reason'
> & { now: number };

/**
 * The column values create and update write at `now` (ms): JSON columns as text, 0/1; a paused watch without a
 * reason is paused by the buyer, a running one has no reason.
 */
export function writeParams(w: CallWatchWrite, now: number): WriteParams {
  return {
    name: w.name,
    endpoint: w.target.endpoint,
    path: JSON.stringify(w.target.path),
    query: JSON.stringify(w.target.query),
    config: JSON.stringify(w.config),
    schedule: w.schedule,
    rules: JSON.stringify(w.rules),
    paused: w.paused ? 1 : 0,
    paused_reason: w.paused ? (w.paused_reason ?? 'buyer') : null,
    now,
  };
}

/** A stored answer row (`good` 0/1) as a CallAnswerRow. */
export function answerOf(r: Omit<CallAnswerRow, 'good'> & { good: number }): CallAnswerRow {
  return { ...r, good: bool(r.good) };
}

/** Whether a watch's last stored answer (`good` 0/1; undefined before the first) was a bad one. */
export function lastWasBad(r: { good: number } | undefined): boolean {
  return r ? !bool(r.good) : false;
}

/** The column values runEnded writes (booleans 0/1, refused parameters as JSON text). */
export interface RunEndColumns {
  at: number;
  ok: number;
  status: number | null;
  consecutive_failures: number;
  last_error: string | null;
  refused_params: string;
  paused_reason: CallPauseReason | null;
}

/** A run's end as the column values runEnded writes. */
export function runEndColumns(e: CallRunEnd): RunEndColumns {
  return {
    at: e.at,
    ok: e.ok ? 1 : 0,
    status: e.status,
    consecutive_failures: e.consecutive_failures,
    last_error: e.last_error,
    refused_params: JSON.stringify(e.refused_params),
    paused_reason: e.paused_reason,
  };
}
