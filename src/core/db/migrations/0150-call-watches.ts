import type { Migration } from '../migrate';

/**
 * Call watches (docs/architecture.md "Call watches"): any API console call repeated on a cron schedule.
 * `call_watches` holds the call as typed (endpoint name, path and query JSON), what to diff (config JSON), the rules,
 * and its run state: a watch pauses itself (`paused_reason` 'failing') after repeated 4xx answers, and a 422 leaves the
 * parameters it refused (`refused_params` JSON). `call_answers` keeps every answer's `extract` (the parts the diff
 * reads, AnswerExtract JSON) and its full `body` (the JSON as received) for the last CALL_ANSWERS_KEPT answers only,
 * so storage stays bounded; `good` 1 marks an answer the diff used. `alerts.url` is the link an alert carries (a
 * call watch's new video), shown in the inbox and sent by the alert channels; NULL for lot alerts.
 */
export const migration: Migration = {
  version: 150,
  name: 'call-watches',
  up(db) {
    db.exec(`
      CREATE TABLE call_watches (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        path TEXT NOT NULL DEFAULT '{}',
        query TEXT NOT NULL DEFAULT '{}',
        config TEXT NOT NULL,
        schedule TEXT NOT NULL,
        rules TEXT NOT NULL,
        paused INTEGER NOT NULL DEFAULT 0,
        paused_reason TEXT CHECK (paused_reason IN ('buyer', 'failing')),
        is_example INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        last_run_at INTEGER,
        last_ok_at INTEGER,
        last_status INTEGER,
        consecutive_failures INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        refused_params TEXT NOT NULL DEFAULT '[]'
      ) STRICT;

      CREATE TABLE call_answers (
        id INTEGER PRIMARY KEY,
        watch_id INTEGER NOT NULL REFERENCES call_watches(id) ON DELETE CASCADE,
        at INTEGER NOT NULL,
        status INTEGER NOT NULL,
        body TEXT,
        extract TEXT NOT NULL,
        good INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX call_answers_watch ON call_answers(watch_id, id);

      ALTER TABLE alerts ADD COLUMN url TEXT;
    `);
  },
};
